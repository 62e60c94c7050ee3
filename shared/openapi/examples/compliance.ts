import type { OperationExample } from './types';

/** The checklist and a validation. */
export const complianceExamples: OperationExample[] = [
  {
    operationId: 'getComplianceChecklist',
    request: { query: { assessment_year: '2025', jurisdiction: 'Polk County' } },
    response: { status: 200 },
  },
  {
    operationId: 'validateCompliance',
    request: { body: { jurisdiction: 'City of Key West', methodology: { vertical_datum: 'NAVD88' } } },
    response: { status: 200 },
  },
];
