/** DOMAIN §7 work plan phases, in order; an assessment only moves forward through them. */
export const ASSESSMENT_PHASES = ['initiation', 'data_collection', 'exposure_analysis', 'sensitivity_analysis', 'focus_areas', 'final_report'] as const;
export const ASSESSMENT_STATUSES = ['draft', 'in_progress', 'complete', 'submitted'] as const;
export const ASSESSMENT_TYPES = ['initial', 'update'] as const;
