import { LazyWorkerPool, WorkerPool } from '../../shared/adapters/worker-pool';

/** A stand-in for the threads: what was asked of it, and whether it was closed. */
function fakePool() {
  const pool = { size: 3, tasks: [] as string[], closed: 0, run: async (task: string) => { pool.tasks.push(task); return `done ${task}`; }, close: async () => { pool.closed++; } };
  return pool;
}

describe('a worker pool started with its first task', () => {
  it('starts no thread until asked, then one pool for every task', async () => {
    const made: ReturnType<typeof fakePool>[] = [];
    const lazy = new LazyWorkerPool('test', () => { const pool = fakePool(); made.push(pool); return pool as unknown as WorkerPool<string, string>; });
    expect(made).toHaveLength(0);
    expect(await lazy.run('a')).toBe('done a');
    expect(lazy.size).toBe(3);
    expect(await lazy.run('b')).toBe('done b');
    expect(made).toHaveLength(1);
    expect(made[0]!.tasks).toEqual(['a', 'b']);
    await lazy.close();
    expect(made[0]!.closed).toBe(1);
  });

  it('once closed, refuses tasks (as a rejection) and its size, and never starts threads', async () => {
    let made = 0;
    const lazy = new LazyWorkerPool('connection', () => { made++; return fakePool() as unknown as WorkerPool<string, string>; });
    await lazy.close();
    await expect(lazy.run('late')).rejects.toThrow('The connection threads are closed.');
    expect(() => lazy.size).toThrow('The connection threads are closed.');
    expect(made).toBe(0);
  });
});
