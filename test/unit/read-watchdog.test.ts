import { AssetFileError } from '../../shared/domain/assets/file-error';
import { ReadWatchdog } from '../../shared/domain/assets/formats/watchdog';

/** The watchdog's verdict so far: undefined while the read may go on. */
function verdictOf(watchdog: ReadWatchdog): () => string | undefined {
  let verdict: string | undefined;
  watchdog.stalled.catch((error: AssetFileError) => {
    verdict = error.message;
  });
  return () => verdict;
}

const stallError = (reason: 'idle' | 'ended') => new AssetFileError('malformed_xlsx', reason);

describe('read watchdog', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('fails an idle read at the first check after the idle limit: checks every quarter of the shorter limit', async () => {
    // Limits 1,000 and 400 ms: a check every 100 ms; quiet must exceed 1,000 ms, first true at 1,100.
    const watchdog = new ReadWatchdog({ idleMs: 1_000, endGraceMs: 400 }, stallError);
    const verdict = verdictOf(watchdog);
    await jest.advanceTimersByTimeAsync(1_099);
    expect(verdict()).toBeUndefined();
    await jest.advanceTimersByTimeAsync(1);
    expect(verdict()).toBe('idle');
  });

  it('fails a read whose input ended at the first check after the end grace', async () => {
    const watchdog = new ReadWatchdog({ idleMs: 1_000, endGraceMs: 400 }, stallError);
    const verdict = verdictOf(watchdog);
    await jest.advanceTimersByTimeAsync(50);
    watchdog.markEnded();
    // Ended at 50 ms: the check at 450 ms finds 400 ms of quiet (not more), the one at 500 ms finds 450.
    await jest.advanceTimersByTimeAsync(449);
    expect(verdict()).toBeUndefined();
    await jest.advanceTimersByTimeAsync(1);
    expect(verdict()).toBe('ended');
  });

  it('an end grace met exactly at a check is not yet passed', async () => {
    const watchdog = new ReadWatchdog({ idleMs: 1_000, endGraceMs: 400 }, stallError);
    const verdict = verdictOf(watchdog);
    await jest.advanceTimersByTimeAsync(100);
    watchdog.markEnded();
    // Ended at a check (100 ms): the check at 500 ms finds exactly 400 ms of quiet, the one at 600 ms more.
    await jest.advanceTimersByTimeAsync(400);
    expect(verdict()).toBeUndefined();
    await jest.advanceTimersByTimeAsync(100);
    expect(verdict()).toBe('ended');
  });

  it('progress keeps the read alive for as long as it comes', async () => {
    const watchdog = new ReadWatchdog({ idleMs: 300, endGraceMs: 300 }, stallError);
    const verdict = verdictOf(watchdog);
    for (let i = 0; i < 20; i++) {
      await jest.advanceTimersByTimeAsync(250);
      watchdog.touch();
    }
    expect(verdict()).toBeUndefined();
    await jest.advanceTimersByTimeAsync(400);
    expect(verdict()).toBe('idle');
  });

  it('checks at least every 10 ms however short the limits', async () => {
    // Limits of 12 ms: checks every 10 ms (not every 3), so the first failing check is at 20 ms, not 15.
    const watchdog = new ReadWatchdog({ idleMs: 12, endGraceMs: 12 }, stallError);
    const verdict = verdictOf(watchdog);
    await jest.advanceTimersByTimeAsync(19);
    expect(verdict()).toBeUndefined();
    await jest.advanceTimersByTimeAsync(1);
    expect(verdict()).toBe('idle');
  });

  it('a stopped watchdog never fails the read', async () => {
    const watchdog = new ReadWatchdog({ idleMs: 100, endGraceMs: 100 }, stallError);
    const verdict = verdictOf(watchdog);
    watchdog.stop();
    await jest.advanceTimersByTimeAsync(10_000);
    expect(verdict()).toBeUndefined();
  });

  it('guard passes items through, counts each as progress, and rejects a wait that stalls', async () => {
    const watchdog = new ReadWatchdog({ idleMs: 200, endGraceMs: 200 }, stallError);
    async function* slow(): AsyncGenerator<number> {
      for (let i = 1; i <= 5; i++) {
        await new Promise((resolve) => setTimeout(resolve, 150));
        yield i;
      }
      await new Promise((resolve) => setTimeout(resolve, 10_000));
      yield 6;
    }
    const seen: number[] = [];
    const reading = (async () => {
      for await (const item of watchdog.guard(slow())) seen.push(item);
    })();
    const outcome = reading.then(() => 'finished', (error: Error) => error.message);
    await jest.advanceTimersByTimeAsync(5 * 150);
    expect(seen).toEqual([1, 2, 3, 4, 5]);
    await jest.advanceTimersByTimeAsync(300);
    expect(await outcome).toBe('idle');
    expect(seen).toEqual([1, 2, 3, 4, 5]);
  });

  it('guard ends with its source', async () => {
    const watchdog = new ReadWatchdog({ idleMs: 200, endGraceMs: 200 }, stallError);
    async function* three(): AsyncGenerator<string> {
      yield 'a';
      yield 'b';
      yield 'c';
    }
    const seen: string[] = [];
    for await (const item of watchdog.guard(three())) seen.push(item);
    watchdog.stop();
    expect(seen).toEqual(['a', 'b', 'c']);
  });
});
