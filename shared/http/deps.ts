import { DynamoIdempotencyStore } from '../adapters/idempotency-store';
import { LeasedUsageCounter } from '../adapters/usage-counter';
import { appConfig, type AppConfig } from '../config';
import type { PipelineDeps } from './pipeline';

let wired: { config: AppConfig; counter: LeasedUsageCounter; idempotency: DynamoIdempotencyStore } | undefined;

/** The instance's quota counter and key store, built on first use and again when the local runner swaps the configuration. */
function instanceStores() {
  const config = appConfig();
  if (wired?.config !== config) wired = { config, counter: new LeasedUsageCounter(), idempotency: new DynamoIdempotencyStore() };
  return wired;
}

/** Production wiring of the pipeline: the leasing DynamoDB counter (one per instance). */
export const defaultPipelineDeps: PipelineDeps = {
  usage: () => instanceStores().counter,
  idempotency: () => instanceStores().idempotency,
  clock: () => new Date(),
};

/** Gives back unused quota leases and flushes unlimited counts (local shutdown). */
export async function settleUsage(): Promise<void> {
  await wired?.counter.settleAll();
}
