import { ChecklistQuerySchema, ChecklistSchema, ValidateBodySchema, ValidationResultSchema } from '../schemas/compliance';
import { KEYED_ERRORS, NOT_FOUND, ok } from './responses';
import { defineRoute } from './types';

export const validateComplianceRoute = defineRoute({
  id: 'validateCompliance', method: 'POST', path: '/compliance/validate', group: 'compliance', auth: 'api_key', minTier: 'pro',
  contractRow: '18', tags: ['Compliance'], summary: 'Validate an assessment against s. 380.093',
  description: 'Send `{"assessment_id": "va_…"}` to validate a stored assessment, or an assessment body — saved or still a draft — checked against the checklist rule set of `timeline.start_date` (today without a timeline). Statements are cross-checked against what the API holds and ran: the assets held for the jurisdiction and, for a stored assessment, the flood analyses linked to it (`assessment_id` on `POST /hazards/flood-analysis`); a contradicted statement fails its item and is listed in `dep_checklist_status.contradictions`. Each failing item comes with its statute reference and what would satisfy it. The checklist is derived from s. 380.093; not DEP\'s form.',
  request: { body: ValidateBodySchema, maxBodyBytes: 256 * 1024 },
  responses: { 200: ok('The validation.', ValidationResultSchema), ...NOT_FOUND, ...KEYED_ERRORS },
});

export const getComplianceChecklistRoute = defineRoute({
  id: 'getComplianceChecklist', method: 'GET', path: '/compliance/checklist', group: 'compliance', auth: 'api_key', minTier: 'free',
  contractRow: '19', tags: ['Compliance'], summary: 'Checklist items A–N for an assessment year',
  description: 'Rule set `2021` (NOAA 2017 Intermediate-Low and Intermediate-High, 2040 and 2070) applies to assessments before 2024-07-01; rule set `2024` (NOAA 2022 Intermediate-Low and Intermediate, 20 and 50 years ahead) from that date. A year alone is taken at July 1, so `assessment_year=2024` gives rule set 2024; send `assessment_date` for the first half of 2024. Years before 2021 or after the current year + 5 are 400. With `jurisdiction`, a noncoastal one (none of Florida\'s 35 coastal counties) gets the 2022 amendment\'s variant from 2022-07-01, without the tidal (E, F) and surge (G) items; `coastal_setting` says which applies and why (validation and assessments use the same setting). Items are derived from s. 380.093, not DEP\'s form, and each says whether its text is verified, reconstructed or unverified. Each item\'s letter is under `item`, the key `dep_checklist_status.items` and `missing_items` use too (this route named it `id` before; `item` was kept because three answers already used it).',
  request: { query: ChecklistQuerySchema },
  responses: { 200: ok('The checklist.', ChecklistSchema), ...KEYED_ERRORS },
});

export const complianceRoutes = [validateComplianceRoute, getComplianceChecklistRoute];
