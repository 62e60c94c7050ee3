import { HeadObjectCommand } from '@aws-sdk/client-s3';
import { s3 } from '../shared/adapters/aws-clients';
import { DynamoImportStore } from '../shared/adapters/import-store';
import { elevationModelRunner } from '../shared/application/elevation-models/processing-jobs';
import { runJob, type JobRunner } from '../shared/application/jobs/harness';
import { arrivedElevationUploads } from './arrived-uploads';
import { logger } from '../shared/observability/logger';
import { localElevationWorker } from './processing-fan-out';
import { HeapCompaction } from './heap-compaction';
import { importRunnerInChild } from './job-process';

/** Pending imports older than this are no longer watched (their upload URL expired long ago). */
const WATCH_WINDOW_MS = 24 * 3600 * 1000;
/** Imports run at once: in all, and per account (one tenant's slow import cannot hold up another's). */
const MAX_RUNNING = 4;
const MAX_RUNNING_PER_ACCOUNT = 1;

export interface UploadWatcher {
  stop(): Promise<void>;
}

interface Task {
  id: string;
  accountId: string;
  run: () => Promise<void>;
}

/**
 * Runs tasks with at most `MAX_RUNNING` at once and `MAX_RUNNING_PER_ACCOUNT` per account, in
 * arrival order among the accounts that have room; a task already queued or running is not added twice.
 */
export class TenantScheduler {
  private readonly queue: Task[] = [];
  private readonly running = new Map<string, Promise<void>>();
  private readonly perAccount = new Map<string, number>();
  private readonly known = new Set<string>();

  /** `onIdle` runs each time the last running task ends with nothing left queued. */
  constructor(private readonly onIdle: () => void = () => {}) {}

  add(task: Task): void {
    if (this.known.has(task.id)) return;
    this.known.add(task.id);
    this.queue.push(task);
    this.pump();
  }

  async drain(): Promise<void> {
    this.queue.length = 0;
    await Promise.all(this.running.values());
  }

  private pump(): void {
    for (let i = 0; i < this.queue.length && this.running.size < MAX_RUNNING;) {
      const task = this.queue[i]!;
      if ((this.perAccount.get(task.accountId) ?? 0) >= MAX_RUNNING_PER_ACCOUNT) {
        i++;
        continue;
      }
      this.queue.splice(i, 1);
      this.perAccount.set(task.accountId, (this.perAccount.get(task.accountId) ?? 0) + 1);
      const done = task.run()
        .catch((error: unknown) => logger.error('Import task failed', { taskId: task.id, error: error as Error }))
        .finally(() => {
          this.running.delete(task.id);
          this.known.delete(task.id);
          this.perAccount.set(task.accountId, this.perAccount.get(task.accountId)! - 1);
          this.pump();
          if (this.running.size === 0 && this.queue.length === 0) this.onIdle();
        });
      this.running.set(task.id, done);
    }
  }
}

/**
 * The local stand-in for the bucket's ObjectCreated notifications on `uploads/` and
 * `elevation-uploads/` (elevation models): polls the pending imports and models (Queries on their
 * sparse index, no listing of the bucket), checks whether each one's file has arrived, and runs the
 * start its notification would carry through the job harness — through a scheduler, so imports of
 * different accounts run side by side and none waits behind another account's. Lost jobs are the
 * sweep's (local/job-workers.ts). Each import runs in a process of its own
 * (`job-process.ts`), as each runs in its own Lambda invocation in AWS.
 */
export function startUploadWatcher(options: { bucket: string; intervalMs?: number }): UploadWatcher {
  const imports = new DynamoImportStore();
  const interval = options.intervalMs ?? 500;
  const scheduler = new TenantScheduler(() => heap.compactSoon());
  const heap = new HeapCompaction();
  // The elevation model worker as in AWS, but decoding in a worker thread: never on the API's event loop.
  const models: JobRunner = elevationModelRunner(localElevationWorker());
  let ticking: Promise<void> | undefined;
  let stopped = false;
  // Running imports stop at their next row when the watcher stops, leaving their lease lapsed
  // (their processes record the row reached, then exit).
  const stopping = new AbortController();
  const { signal } = stopping;

  const tick = async () => {
    const pending = await imports.listPending(new Date(Date.now() - WATCH_WINDOW_MS));
    for (const record of pending) {
      if (stopped || !record.object_key) continue;
      let size: number;
      try {
        const head = await s3().send(new HeadObjectCommand({ Bucket: options.bucket, Key: record.object_key }));
        size = head.ContentLength ?? 0;
      } catch {
        continue; // not uploaded yet
      }
      const start = importRunnerInChild.startOfUpload!(record.object_key, size);
      if (start) scheduler.add({ id: record.import_id, accountId: record.account_id, run: () => runJob(importRunnerInChild, start, { signal }) });
    }
    for (const upload of stopped ? [] : await arrivedElevationUploads(options.bucket, new Date(Date.now() - WATCH_WINDOW_MS))) {
      const start = models.startOfUpload!(upload.key, upload.size);
      if (start) scheduler.add({ id: upload.modelId, accountId: upload.accountId, run: () => runJob(models, start) });
    }
  };

  const timer = setInterval(() => {
    if (ticking || stopped) return;
    ticking = tick()
      .catch((error: unknown) => logger.error('Upload watcher tick failed', { error: error as Error }))
      .finally(() => {
        ticking = undefined;
      });
  }, interval);
  timer.unref();

  return {
    async stop() {
      stopped = true;
      clearInterval(timer);
      stopping.abort();
      heap.cancel();
      await ticking;
      await scheduler.drain();
    },
  };
}
