/**
 * The import worker as a short-lived process of its own (see `import-process.ts`): it takes one
 * task from its parent, runs it against the emulators over loopback as the worker Lambda runs it
 * against AWS, and exits, handing the memory the import used back to the system. A stop message,
 * SIGTERM, SIGINT or the loss of its parent stops the import at its next row, leaving it to resume.
 */
import { logger } from '../shared/observability/logger';
import type { JobStart } from '../shared/application/jobs/job-start';
import type { ParentMessage } from './import-process';

const stopping = new AbortController();
const stop = () => stopping.abort();

async function run(start: JobStart): Promise<void> {
  const [{ importRunner }, { assetAdapters }] = await Promise.all([import('../shared/application/assets/import-jobs'), import('../shared/adapters/asset-wiring')]);
  await importRunner(assetAdapters).run(start, { signal: stopping.signal });
}

process.on('message', (message: ParentMessage) => {
  if (message.type === 'stop') {
    stop();
    return;
  }
  run(message.start)
    .catch((error: unknown) => {
      logger.error('Import task failed', { error: error as Error });
      process.exitCode = 1;
    })
    // Exits rather than waiting for the SDK's idle keep-alive sockets to close.
    .finally(() => process.exit());
});
process.on('disconnect', stop);
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
