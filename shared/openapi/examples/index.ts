import { accountExamples } from './account';
import { assessmentExamples, prefillExamples } from './assessments';
import { assetExamples } from './assets';
import { complianceExamples } from './compliance';
import { elevationModelExamples } from './elevation-models';
import { grantExamples } from './grants';
import { hazardExamples } from './hazards';
import { libraryExamples } from './library';
import { metaExamples } from './meta';
import type { OperationExample } from './types';
import { v1IdentityExamples } from './v1-identity';
import { v1RiskExamples } from './v1-risk';
import { v1TrainingExamples } from './v1-training';

export type { ExampleFile, OperationExample } from './types';

/** Every example in the order the end-to-end test sends them (later ones use records earlier ones create). */
export const OPERATION_EXAMPLES: readonly OperationExample[] = [
  ...metaExamples,
  ...libraryExamples,
  ...assessmentExamples,
  ...assetExamples,
  ...hazardExamples,
  ...prefillExamples,
  ...elevationModelExamples,
  ...grantExamples,
  ...complianceExamples,
  ...accountExamples,
  ...v1IdentityExamples,
  ...v1RiskExamples,
  ...v1TrainingExamples,
];

/** The documented example of each operation: the first one that is not a setup step. */
export function documentedExamples(examples: readonly OperationExample[] = OPERATION_EXAMPLES): Map<string, OperationExample> {
  const documented = new Map<string, OperationExample>();
  for (const example of examples) {
    if (!example.setup && !documented.has(example.operationId)) documented.set(example.operationId, example);
  }
  return documented;
}
