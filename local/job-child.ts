/**
 * A job's worker as a short-lived process of its own (see `job-process.ts`): it takes one start
 * from its parent, runs it against the emulators over loopback as the worker Lambda runs it against
 * AWS, and exits, handing the memory the job used back to the system. A stop message, SIGTERM,
 * SIGINT or the loss of its parent aborts the run's signal (an import stops at its next row,
 * leaving it to resume).
 */
import { logger } from '../shared/observability/logger';
import type { JobStart } from '../shared/application/jobs/job-start';
import type { ParentMessage } from './job-process';

const stopping = new AbortController();
const stop = () => stopping.abort();

async function run(start: JobStart): Promise<void> {
  // Loaded once the start has arrived: the message listener is registered before anything heavy loads.
  const { childRunnerOf } = await import('./job-process');
  const runner = childRunnerOf(start.kind);
  if (!runner) throw new Error(`No worker process runs ${start.kind} jobs`);
  await runner.run(start, { signal: stopping.signal });
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
