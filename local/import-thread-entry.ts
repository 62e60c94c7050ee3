import { parentPort, workerData } from 'node:worker_threads';
import { processS3Event, resumeImport } from '../functions/assets/import-runs';
import { logger } from '../shared/observability/logger';
import { STOP_IMPORT, type ImportThreadTask } from './import-thread';

/** The thread of `runImportInThread`: one import run to its end (or its checkpoint), then the thread ends. */
async function run(task: ImportThreadTask): Promise<void> {
  const stopping = new AbortController();
  parentPort!.on('message', (message) => {
    if (message === STOP_IMPORT) stopping.abort();
  });
  const options = { signal: stopping.signal };
  try {
    await ('upload' in task ? processS3Event(task.upload, options) : resumeImport(task.resume, options));
  } catch (error) {
    logger.error('Import thread failed', { error: error as Error });
    process.exitCode = 1;
  }
  // Ends the thread now: the SDK's kept-alive sockets would otherwise hold its event loop open.
  process.exit();
}

void run(workerData as ImportThreadTask);
