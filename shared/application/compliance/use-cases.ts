import type { Checklist } from '../../schemas/compliance';
import type { z } from '../../schemas/zod';
import type { ChecklistQuerySchema, ValidateBodySchema } from '../../schemas/compliance';
import { evaluateCompliance, type ComplianceEvaluation } from '../../domain/compliance/evaluate';
import type { ComplianceEvidence } from '../../domain/compliance/evidence';
import { invalidField, NotFoundError } from '../../domain/errors';
import { complianceOf } from '../../domain/assessments/model';
import type { AssessmentStore } from '../../domain/assessments/ports';
import { requireRuleSetDate, resolveApplicant } from '../../domain/compliance/inputs';
import { checklistFor, defaultDateOfYear } from '../../domain/compliance/rule-sets';
import { settingOf } from '../../domain/compliance/setting';
import { floridaDate } from '../../domain/florida-time';

type ValidateInput = z.infer<ReturnType<typeof ValidateBodySchema>>;
type ChecklistQuery = z.infer<ReturnType<typeof ChecklistQuerySchema>>;

const isoDay = floridaDate;

export interface ValidateDeps {
  assessments: Pick<AssessmentStore, 'get'>;
  evidence: (accountId: string, jurisdiction: { id: string; display_name: string }, assessmentId?: string) => Promise<ComplianceEvidence>;
}

/**
 * `POST /compliance/validate`: a stored assessment by id (cross-checked against what the API
 * holds and its linked analyses), or a body, saved or not, against the rule set of its start
 * date (cross-checked against the assets held for its jurisdiction).
 */
export async function validateAssessment(deps: ValidateDeps, accountId: string, input: ValidateInput, today: Date) {
  if (input.assessment_id !== undefined) {
    const assessment = await deps.assessments.get(accountId, input.assessment_id);
    if (!assessment) throw new NotFoundError(`No assessment ${input.assessment_id} in this account.`);
    const evaluation = complianceOf(assessment, await deps.evidence(accountId, assessment.jurisdiction, assessment.assessment_id));
    return resultOf(assessment.assessment_id, assessment.jurisdiction, evaluation);
  }
  const jurisdiction = resolveApplicant({ ...input, jurisdiction: input.jurisdiction! });
  const date = input.timeline
    ? requireRuleSetDate(input.timeline.start_date, today, 'timeline.start_date')
    : isoDay(today);
  return resultOf(null, jurisdiction, evaluateCompliance(input, date, settingOf(jurisdiction), await deps.evidence(accountId, jurisdiction)));
}

function resultOf(assessmentId: string | null, jurisdiction: { id: string; display_name: string }, evaluation: ComplianceEvaluation) {
  return {
    assessment_id: assessmentId,
    compliant: evaluation.compliant,
    jurisdiction: jurisdiction.display_name,
    jurisdiction_id: jurisdiction.id,
    missing_items: evaluation.missing_items,
    dep_checklist_status: evaluation.dep_checklist_status,
  };
}

/**
 * `GET /compliance/checklist`: a date decides; a year alone is taken at July 1; nothing means
 * today. A jurisdiction decides the coastal setting; without one, the full checklist.
 */
export function checklistForQuery(query: ChecklistQuery, today: Date): Checklist {
  const { assessment_year: year, assessment_date: date } = query;
  const jurisdiction = query.jurisdiction === undefined ? undefined : resolveApplicant({ ...query, jurisdiction: query.jurisdiction }, 'query');
  if (year !== undefined && date !== undefined && Number(date.slice(0, 4)) !== year) {
    throw invalidField('assessment_date', 'query', `assessment_date ${date} is not in assessment_year ${year}.`);
  }
  const chosen = date ?? (year !== undefined ? defaultDateOfYear(year) : isoDay(today));
  return checklistFor(requireRuleSetDate(chosen, today, date !== undefined ? 'assessment_date' : 'assessment_year', 'query'), settingOf(jurisdiction));
}
