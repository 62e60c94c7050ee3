import { accountExamples } from './account';
import { assessmentExamples, prefillExamples } from './assessments';
import { assetExamples } from './assets';
import { complianceExamples } from './compliance';
import { elevationModelExamples } from './elevation-models';
import { grantExamples } from './grants';
import { hazardExamples } from './hazards';
import { libraryExamples } from './library';
import { metaExamples } from './meta';
import type { RecordedAnswer } from '../example-recording';
import recorded from './recorded.json';
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

/** The answers recorded from the API (`npm run examples:record`), one per example in `OPERATION_EXAMPLES` order. */
export const RECORDED_ANSWERS: readonly RecordedAnswer[] = recorded as RecordedAnswer[];

/**
 * The recorded answer of one of `OPERATION_EXAMPLES`, or undefined when the recording is out of
 * step with the examples (another operation or status at its place: `npm run examples:record`).
 */
export function recordedAnswerOf(example: OperationExample, answers: readonly RecordedAnswer[] = RECORDED_ANSWERS): RecordedAnswer | undefined {
  const answer = answers[OPERATION_EXAMPLES.indexOf(example)];
  return answer?.operationId === example.operationId && answer.status === example.response.status ? answer : undefined;
}

/** The documented examples whose recorded answer is missing or out of step. */
export function unrecordedExamples(answers: readonly RecordedAnswer[] = RECORDED_ANSWERS): string[] {
  return [...documentedExamples().values()].filter((example) => !recordedAnswerOf(example, answers)).map((example) => example.operationId);
}
