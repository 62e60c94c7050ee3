import { DynamoAssessmentStore } from '../../shared/adapters/assessment-store';
import { DynamoEvidenceStore, inventoryAssetCounter } from '../../shared/adapters/evidence-store';
import type { ValidateDeps } from '../../shared/application/compliance/use-cases';
import { gatherEvidence } from '../../shared/domain/compliance/evidence';
import { wiring } from '../../shared/config';

/** The validation use case's adapters. */
export const validateDeps = wiring((): ValidateDeps => {
  const evidence = new DynamoEvidenceStore();
  return {
    assessments: new DynamoAssessmentStore(),
    evidence: (accountId, jurisdiction, assessmentId) => gatherEvidence({ assets: inventoryAssetCounter, evidence }, accountId, jurisdiction, assessmentId),
  };
});
