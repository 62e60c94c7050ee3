import { fork } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import { assetAdapters } from '../shared/adapters/asset-wiring';
import { importRunner } from '../shared/application/assets/import-jobs';
import type { JobRunner } from '../shared/application/jobs/harness';
import type { JobStart } from '../shared/application/jobs/job-start';
import { logger } from '../shared/observability/logger';

export type ParentMessage = { type: 'run'; start: JobStart } | { type: 'stop' };

const ROOT = path.resolve(__dirname, '..');
/** After a stop, the time an import has to record its checkpoint before its process is killed (its lease then lapses). */
const STOP_LIMIT_MS = 6_000;

/**
 * Runs one start of an import (an arrived upload, or the retry of a lost import) in a child process,
 * as AWS runs each in an invocation of the import worker Lambda: the child reaches the emulators
 * over loopback with this process's environment, and its exit returns to the system the memory the
 * import used (a parser's and the SDK's native allocations that a long-lived server's allocator
 * keeps). Resolves when the child has exited. When `signal` aborts, the child stops the import at
 * its next row and records where it was, so the next start resumes it.
 */
export async function runImportInChild(start: JobStart, signal: AbortSignal | undefined): Promise<void> {
  if (signal?.aborted) return;
  // The server runs under tsx; so does the worker, whoever started the server (a test runner too).
  // The environment passed explicitly: a test runner's sandboxed `process.env` is not the one a fork inherits.
  const child = fork(path.join(__dirname, 'import-child.ts'), [], { cwd: ROOT, env: { ...process.env }, execArgv: ['--import', 'tsx'] });
  const exited = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
  let killer: NodeJS.Timeout | undefined;
  const stop = () => {
    if (child.connected) child.send({ type: 'stop' } satisfies ParentMessage);
    killer = setTimeout(() => child.kill('SIGKILL'), STOP_LIMIT_MS);
  };
  signal?.addEventListener('abort', stop, { once: true });
  try {
    child.send({ type: 'run', start } satisfies ParentMessage);
    const [code, killedBy] = await exited;
    if (code !== 0) logger.warn('Import worker process ended abnormally', { importId: start.ref.job_id, code, signal: killedBy });
  } finally {
    signal?.removeEventListener('abort', stop);
    clearTimeout(killer);
  }
}

/** The import kind of the job harness with each run in a process of its own (claims, status and metrics as in AWS). */
export const importRunnerInChild: JobRunner = { ...importRunner(assetAdapters), run: (start, budget) => runImportInChild(start, budget.signal) };
