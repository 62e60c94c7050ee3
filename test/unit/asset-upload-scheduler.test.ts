import { HeapCompaction } from '../../local/heap-compaction';
import { TenantScheduler } from '../../local/upload-watcher';

/** A task that runs until released, recording that it started. */
function gate() {
  let release!: () => void;
  const done = new Promise<void>((resolve) => (release = resolve));
  return { done, release };
}

describe('local import scheduler', () => {
  it('runs another account\'s import while one account\'s import hangs', async () => {
    const scheduler = new TenantScheduler();
    const started: string[] = [];
    const hung = gate();
    scheduler.add({ id: 'imp_a1', accountId: 'a', run: async () => { started.push('imp_a1'); await hung.done; } });
    const second = gate();
    scheduler.add({ id: 'imp_a2', accountId: 'a', run: async () => { started.push('imp_a2'); second.release(); } });
    const other = gate();
    scheduler.add({ id: 'imp_b1', accountId: 'b', run: async () => { started.push('imp_b1'); other.release(); } });
    await other.done;
    // Account b's import ran although account a's first import never ended; a's second waits its turn.
    expect(started).toEqual(['imp_a1', 'imp_b1']);
    hung.release();
    await second.done;
    expect(started).toEqual(['imp_a1', 'imp_b1', 'imp_a2']);
  });

  it('does not queue the same import twice while it is queued or running', async () => {
    const scheduler = new TenantScheduler();
    let runs = 0;
    const hold = gate();
    scheduler.add({ id: 'imp_1', accountId: 'a', run: async () => { runs++; await hold.done; } });
    scheduler.add({ id: 'imp_1', accountId: 'a', run: async () => { runs++; } });
    hold.release();
    await scheduler.drain();
    expect(runs).toBe(1);
  });

  it('keeps at most four imports running in all', async () => {
    const scheduler = new TenantScheduler();
    let running = 0;
    let peak = 0;
    const hold = gate();
    for (let i = 0; i < 8; i++) {
      scheduler.add({ id: `imp_${i}`, accountId: `acct_${i}`, run: async () => { running++; peak = Math.max(peak, running); await hold.done; running--; } });
    }
    await new Promise((resolve) => setImmediate(resolve));
    expect(running).toBe(4);
    hold.release();
    await scheduler.drain();
    expect(peak).toBe(4);
  });

  it('says it is idle once, when the last of its running imports ends with none queued', async () => {
    let idle = 0;
    const scheduler = new TenantScheduler(() => idle++);
    const first = gate();
    const second = gate();
    scheduler.add({ id: 'imp_1', accountId: 'a', run: () => first.done });
    scheduler.add({ id: 'imp_2', accountId: 'b', run: () => second.done });
    first.release();
    await first.done;
    await new Promise((resolve) => setImmediate(resolve));
    expect(idle).toBe(0);
    second.release();
    await scheduler.drain();
    await new Promise((resolve) => setImmediate(resolve));
    expect(idle).toBe(1);
  });
});

describe('heap compaction after background work', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('collects once per burst (three full passes), after the quiet time that follows the latest burst', () => {
    const collect = jest.fn();
    const heap = new HeapCompaction(collect, 3_000);
    heap.compactSoon();
    jest.advanceTimersByTime(2_000);
    heap.compactSoon();
    jest.advanceTimersByTime(2_999);
    expect(collect).not.toHaveBeenCalled();
    jest.advanceTimersByTime(1);
    expect(collect).toHaveBeenCalledTimes(3);
    jest.advanceTimersByTime(10_000);
    expect(collect).toHaveBeenCalledTimes(3);
  });

  it('collects nothing once cancelled, and does nothing without an exposed collector', () => {
    const collect = jest.fn();
    const heap = new HeapCompaction(collect, 1_000);
    heap.compactSoon();
    heap.cancel();
    jest.advanceTimersByTime(5_000);
    expect(collect).not.toHaveBeenCalled();
    const without = new HeapCompaction(undefined, 1_000);
    without.compactSoon();
    expect(jest.getTimerCount()).toBe(0);
  });
});
