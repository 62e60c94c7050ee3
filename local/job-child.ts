/**
 * A job's worker as a short-lived process of its own (see `job-process.ts`): it takes one start
 * from its parent, runs it against the emulators over loopback as the worker Lambda runs it against
 * AWS, and exits, handing the memory the job used back to the system. A stop message, SIGTERM,
 * SIGINT or the loss of its parent aborts the run's signal (an import stops at its next row,
 * leaving it to resume).
 */
import { logger } from '../shared/observability/logger';
import type { JobRunner } from '../shared/application/jobs/harness';
import type { JobKindName, JobStart } from '../shared/application/jobs/job-start';
import type { ParentMessage } from './job-process';

/** The kinds run in a process of their own, each loaded only when its start arrives. */
const RUNNERS: Partial<Record<JobKindName, () => Promise<JobRunner>>> = {
  asset_import: async () => {
    const [{ importRunner }, { assetAdapters }] = await Promise.all([import('../shared/application/assets/import-jobs'), import('../shared/adapters/asset-wiring')]);
    return importRunner(assetAdapters);
  },
  deliverable: async () => {
    const [{ deliverableRunner }, { deliverableDeps }, { packageRenderers }] = await Promise.all([
      import('../shared/application/deliverables/deliverable-jobs'),
      import('../shared/adapters/deliverables-wiring'),
      import('../shared/adapters/renderers/package-renderers'),
    ]);
    return deliverableRunner(deliverableDeps, async () => packageRenderers());
  },
};

const stopping = new AbortController();
const stop = () => stopping.abort();

async function run(start: JobStart): Promise<void> {
  const load = RUNNERS[start.kind];
  if (!load) throw new Error(`No worker process runs ${start.kind} jobs`);
  await (await load()).run(start, { signal: stopping.signal });
}

process.on('message', (message: ParentMessage) => {
  if (message.type === 'stop') {
    stop();
    return;
  }
  run(message.start)
    .catch((error: unknown) => {
      logger.error('Job task failed', { kind: message.start.kind, error: error as Error });
      process.exitCode = 1;
    })
    // Exits rather than waiting for the SDK's idle keep-alive sockets to close.
    .finally(() => process.exit());
});
process.on('disconnect', stop);
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
