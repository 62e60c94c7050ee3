import { LeasedUsageCounter } from '../adapters/usage-counter';
import { appConfig, type AppConfig } from '../config';
import type { PipelineDeps } from './pipeline';

let wired: { config: AppConfig; counter: LeasedUsageCounter } | undefined;

/** The instance's quota counter, built on first use and again when the local runner swaps the configuration. */
function usageCounter(): LeasedUsageCounter {
  const config = appConfig();
  if (wired?.config !== config) wired = { config, counter: new LeasedUsageCounter() };
  return wired.counter;
}

/** Production wiring of the pipeline: the leasing DynamoDB counter (one per instance). */
export const defaultPipelineDeps: PipelineDeps = {
  usage: usageCounter,
  clock: () => new Date(),
};

/** Gives back unused quota leases and flushes unlimited counts (local shutdown). */
export async function settleUsage(): Promise<void> {
  await wired?.counter.settleAll();
}
