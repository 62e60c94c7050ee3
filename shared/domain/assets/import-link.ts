import { InvalidInputError } from '../errors';
import type { AssessmentStore } from '../assessments/ports';

/**
 * An import linked to an assessment (`assessment_id`) is the checklist's evidence of the inventory:
 * the assessment must be this account's and cover the import's jurisdiction.
 */
export async function requireImportAssessment(
  assessments: Pick<AssessmentStore, 'get'>,
  accountId: string,
  assessmentId: string,
  jurisdictionId: string,
): Promise<void> {
  const assessment = await assessments.get(accountId, assessmentId);
  if (!assessment) {
    throw new InvalidInputError(`No assessment ${assessmentId} in this account.`, [{ field: 'assessment_id', in: 'body', message: 'Unknown assessment' }]);
  }
  if (assessment.jurisdiction.id !== jurisdictionId) {
    throw new InvalidInputError(`Assessment ${assessmentId} is for ${assessment.jurisdiction.display_name}, not the jurisdiction of this import.`, [{ field: 'assessment_id', in: 'body', message: 'The assessment is for another jurisdiction' }]);
  }
}
