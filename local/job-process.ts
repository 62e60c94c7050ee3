import { fork } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import { assetAdapters } from '../shared/adapters/asset-wiring';
import { deliverableDeps } from '../shared/adapters/deliverables-wiring';
import { importRunner } from '../shared/application/assets/import-jobs';
import { deliverableRunner } from '../shared/application/deliverables/deliverable-jobs';
import type { JobRunner } from '../shared/application/jobs/harness';
import type { JobKindName, JobStart } from '../shared/application/jobs/job-start';
import { logger } from '../shared/observability/logger';

export type ParentMessage = { type: 'run'; start: JobStart } | { type: 'stop' };

const ROOT = path.resolve(__dirname, '..');
/** After a stop, the time a job has to record its checkpoint before its process is killed (its lease then lapses). */
const STOP_LIMIT_MS = 6_000;

/**
 * Runs one start of a job in a child process, as AWS runs each in an invocation of its worker
 * Lambda: the child reaches the emulators over loopback with this process's environment, its work
 * never holds the server's event loop (a package's rendering would otherwise delay every request
 * the server is answering), and its exit returns to the system the memory the job used (a parser's,
 * a renderer's and the SDK's native allocations that a long-lived server's allocator keeps).
 * Resolves when the child has exited. When `signal` aborts, the child is told to stop: an import
 * stops at its next row and records where it was; a job with no checkpoint is ended after
 * STOP_LIMIT_MS, and its lapsed lease is retried by the sweep.
 */
export async function runInChild(start: JobStart, signal: AbortSignal | undefined): Promise<void> {
  if (signal?.aborted) return;
  // The server runs under tsx; so does the worker, whoever started the server (a test runner too).
  // The environment passed explicitly: a test runner's sandboxed `process.env` is not the one a fork inherits.
  const child = fork(path.join(__dirname, 'job-child.ts'), [], { cwd: ROOT, env: { ...process.env }, execArgv: ['--import', 'tsx'] });
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
    if (code !== 0) logger.warn('Job worker process ended abnormally', { kind: start.kind, jobId: start.ref.job_id, code, signal: killedBy });
  } finally {
    signal?.removeEventListener('abort', stop);
    clearTimeout(killer);
  }
}

/**
 * The kinds whose runs go to a process of their own, with their runners: the parent reads claims,
 * status and metrics through them, the child runs them. A package's renderers load only where it
 * is built.
 */
const CHILD_KINDS = {
  asset_import: () => importRunner(assetAdapters),
  deliverable: () => deliverableRunner(deliverableDeps, async () => (await import('../shared/adapters/renderers/package-renderers')).packageRenderers()),
} satisfies Partial<Record<JobKindName, () => JobRunner>>;
export type ChildJobKind = keyof typeof CHILD_KINDS;

/** The runner of a kind run in a child process, as the child runs it; undefined for any other kind. */
export const childRunnerOf = (kind: JobKindName): JobRunner | undefined => (kind in CHILD_KINDS ? CHILD_KINDS[kind as ChildJobKind]() : undefined);

/** A kind of the job harness with each run in a process of its own (claims, status and metrics read here, as in AWS). */
export const runnerInChild = (kind: ChildJobKind): JobRunner => ({ ...CHILD_KINDS[kind](), run: (start, budget) => runInChild(start, budget.signal) });

export const importRunnerInChild = runnerInChild('asset_import');
