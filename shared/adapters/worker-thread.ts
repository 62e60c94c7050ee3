import { Worker, type WorkerOptions } from 'node:worker_threads';

/** Run from TypeScript sources (local mode, tests), the thread compiles them as the process does. */
const fromSources = (entry: string) => `require(${JSON.stringify(require.resolve('tsx/cjs'))}); require(${JSON.stringify(entry)});`;

/** A worker thread running `entry`, a compiled module or (locally) its TypeScript source. */
export function startWorkerThread(entry: string, options: Omit<WorkerOptions, 'eval'>): Worker {
  const sources = entry.endsWith('.ts');
  // geotiff's web-worker reads `workerData` in whatever thread loads it, and fails on none.
  return new Worker(sources ? fromSources(entry) : entry, { workerData: {}, ...options, eval: sources });
}
