import type { Checklist } from '../../schemas/compliance';
import type { z } from '../../schemas/zod';
import type { ChecklistQuerySchema, ValidateBodySchema } from '../../schemas/compliance';
import { evaluateCompliance } from './evaluate';
import { invalidField, requireRuleSetDate, resolveApplicant } from './inputs';
import { checklistFor, defaultDateOfYear } from './rule-sets';

type ValidateInput = z.infer<typeof ValidateBodySchema>;
type ChecklistQuery = z.infer<typeof ChecklistQuerySchema>;

const isoDay = (date: Date) => date.toISOString().slice(0, 10);

/** `POST /compliance/validate`: checks an assessment body, saved or not, against the rule set of its start date. */
export function validateAssessment(input: ValidateInput, today: Date) {
  const jurisdiction = resolveApplicant(input);
  const date = input.timeline
    ? requireRuleSetDate(input.timeline.start_date, today, 'timeline.start_date')
    : isoDay(today);
  const evaluation = evaluateCompliance(input, date);
  return {
    compliant: evaluation.compliant,
    jurisdiction: jurisdiction.display_name,
    jurisdiction_id: jurisdiction.id,
    missing_items: evaluation.missing_items,
    dep_checklist_status: evaluation.dep_checklist_status,
  };
}

/** `GET /compliance/checklist`: a date decides; a year alone is taken at July 1; nothing means today. */
export function checklistForQuery(query: ChecklistQuery, today: Date): Checklist {
  const { assessment_year: year, assessment_date: date } = query;
  if (year !== undefined && date !== undefined && Number(date.slice(0, 4)) !== year) {
    throw invalidField('assessment_date', 'query', `assessment_date ${date} is not in assessment_year ${year}.`);
  }
  const chosen = date ?? (year !== undefined ? defaultDateOfYear(year) : isoDay(today));
  return checklistFor(requireRuleSetDate(chosen, today, date !== undefined ? 'assessment_date' : 'assessment_year', 'query'));
}
