import { availableParallelism } from 'node:os';
import { parentPort, type ResourceLimits, type Transferable, type Worker } from 'node:worker_threads';
import { startWorkerThread } from './worker-thread';

/** What a pooled thread answers for one task. */
type PoolReply<Result> = { ok: Result } | { failed: string };

interface Pending<Task, Result> {
  task: Task;
  transfer: readonly Transferable[];
  resolve: (result: Result) => void;
  reject: (error: Error) => void;
}

/**
 * A fixed set of worker threads (one per core unless told) running `entry`, each taking the next
 * task when it finishes one: the per-tile passes of a tiled model run side by side, each thread's
 * heap capped. A thread that dies (out of memory, a crash) fails only its task and is replaced.
 */
export class WorkerPool<Task, Result> {
  private readonly idle: Worker[] = [];
  private readonly queue: Pending<Task, Result>[] = [];
  private readonly running = new Map<Worker, Pending<Task, Result>>();
  private closed = false;
  private readonly resourceLimits: ResourceLimits | undefined;
  private readonly env: NodeJS.ProcessEnv | undefined;
  readonly size: number;

  /** `env`: the environment the threads see (the caller's, for threads that reach the bucket themselves). */
  constructor(private readonly entry: string, options: { size?: number; resourceLimits?: ResourceLimits; env?: NodeJS.ProcessEnv } = {}) {
    this.size = Math.max(1, options.size ?? availableParallelism());
    this.resourceLimits = options.resourceLimits;
    this.env = options.env;
    for (let i = 0; i < this.size; i++) this.idle.push(this.start());
  }

  run(task: Task, transfer: readonly Transferable[] = []): Promise<Result> {
    if (this.closed) return Promise.reject(new Error('The worker pool is closed.'));
    return new Promise((resolve, reject) => {
      this.queue.push({ task, transfer, resolve, reject });
      this.dispatch();
    });
  }

  /** Ends every thread; tasks still queued or running are rejected. */
  async close(): Promise<void> {
    this.closed = true;
    for (const pending of this.queue.splice(0)) pending.reject(new Error('The worker pool closed before the task ran.'));
    const threads = [...this.idle.splice(0), ...this.running.keys()];
    await Promise.all(threads.map((thread) => thread.terminate()));
  }

  private start(): Worker {
    const thread = startWorkerThread(this.entry, { stdout: false, ...(this.resourceLimits ? { resourceLimits: this.resourceLimits } : {}), ...(this.env ? { env: this.env } : {}) });
    thread.on('message', (reply: PoolReply<Result>) => {
      const pending = this.running.get(thread);
      this.running.delete(thread);
      this.idle.push(thread);
      if (pending) {
        if ('ok' in reply) pending.resolve(reply.ok);
        else pending.reject(new Error(reply.failed));
      }
      this.dispatch();
    });
    thread.on('error', (error) => this.lose(thread, error));
    thread.on('exit', (code) => this.lose(thread, new Error(`A pool thread ended (exit code ${code}) without an answer.`)));
    return thread;
  }

  /** A thread that died: its task fails, and a fresh thread takes its place while the pool is open. */
  private lose(thread: Worker, error: Error): void {
    const pending = this.running.get(thread);
    const wasIdle = this.idle.indexOf(thread);
    if (!pending && wasIdle < 0) return;
    this.running.delete(thread);
    if (wasIdle >= 0) this.idle.splice(wasIdle, 1);
    pending?.reject(error);
    if (this.closed) return;
    this.idle.push(this.start());
    this.dispatch();
  }

  private dispatch(): void {
    while (this.idle.length > 0 && this.queue.length > 0) {
      const thread = this.idle.pop()!;
      const pending = this.queue.shift()!;
      this.running.set(thread, pending);
      thread.postMessage(pending.task, pending.transfer);
    }
  }
}

/**
 * A pool started with its first task (threads cost a start-up and memory each, and most processes
 * never need them) and closed for good: a task asked for after `close` fails.
 */
export class LazyWorkerPool<Task, Result> {
  private pool: WorkerPool<Task, Result> | undefined;
  private closed = false;

  /** `what` names the threads in the error a closed pool answers. */
  constructor(private readonly what: string, private readonly make: () => WorkerPool<Task, Result>) {}

  private threads(): WorkerPool<Task, Result> {
    if (this.closed) throw new Error(`The ${this.what} threads are closed.`);
    return (this.pool ??= this.make());
  }

  /** Tasks run at once: one per thread (starts the pool). */
  get size(): number {
    return this.threads().size;
  }

  async run(task: Task, transfer?: readonly Transferable[]): Promise<Result> {
    return this.threads().run(task, transfer);
  }

  /** Ends the threads, if started; tasks running or asked for later fail. */
  async close(): Promise<void> {
    this.closed = true;
    await this.pool?.close();
  }
}

/** The thread side of a pool: answers each task with `handle`, handing back the buffers it lists without a copy. */
export function serveTasks<Task, Result>(handle: (task: Task) => Promise<{ result: Result; transfer?: Transferable[] }>): void {
  parentPort!.on('message', (task: Task) => {
    handle(task).then(
      ({ result, transfer }) => parentPort!.postMessage({ ok: result } satisfies PoolReply<Result>, transfer ?? []),
      (error: Error) => parentPort!.postMessage({ failed: error.stack ?? String(error) } satisfies PoolReply<Result>),
    );
  });
}
