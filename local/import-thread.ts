import path from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { S3Event } from 'aws-lambda';
import type { ImportRecord } from '../shared/domain/assets/ports';
import { startWorkerThread } from '../shared/adapters/worker-thread';

/** One import run for a thread: an uploaded file to process, or a lost import to resume. */
export type ImportThreadTask = { upload: S3Event } | { resume: ImportRecord };

/** What the parent tells a running import thread: the server is stopping. */
export const STOP_IMPORT = 'stop';

const ENTRY = path.join(__dirname, `import-thread-entry${path.extname(__filename)}`);

/**
 * A full collection of this thread's heap. The embedded emulators take every write of an import on
 * this thread, and V8 gives the pages that grew back only after a full collection, which an idle
 * server never runs: after 100k rows the heap stayed 120 MB larger for good.
 */
const collectGarbage = (() => {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
})();
let running = 0;

/**
 * Runs one import (the same use case the AWS import worker runs) in a worker thread that ends with
 * it. The rows, parsers and SDK clients of a large import live in the thread's own heap, which is
 * handed back to the system when the thread ends; the server's own heap does not keep the high
 * water mark of every import it ran. When `signal` aborts (the server stops), the import
 * checkpoints and the thread ends as the in-process run would.
 */
export function runImportInThread(task: ImportThreadTask, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const worker = startWorkerThread(ENTRY, { workerData: task, stdout: false });
    running++;
    const stop = () => worker.postMessage(STOP_IMPORT);
    if (signal.aborted) stop();
    else signal.addEventListener('abort', stop, { once: true });
    worker.once('error', reject);
    worker.once('exit', (code) => {
      signal.removeEventListener('abort', stop);
      if (--running === 0) collectGarbage();
      if (code === 0) resolve();
      else reject(new Error(`The import thread ended with exit code ${code}.`));
    });
  });
}
