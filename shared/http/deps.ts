import { DynamoUsageCounter } from '../adapters/usage-counter';
import type { UsageCounter } from '../ports';
import type { PipelineDeps } from './pipeline';

let usageCounter: UsageCounter | undefined;

/** Production wiring of the pipeline: the DynamoDB counter, created on first use. */
export const defaultPipelineDeps: PipelineDeps = {
  usage: () => (usageCounter ??= new DynamoUsageCounter()),
  clock: () => new Date(),
};
