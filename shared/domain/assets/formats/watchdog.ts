import { AssetFileError } from '../file-error';

/**
 * Guards a reader that can wait forever: exceljs, for one, keeps waiting when its input stalls or
 * ends before the archive does. The watchdog fails the read when no progress (input bytes or
 * output records) is seen for `idleMs`, or `endGraceMs` after the input ended without the reader
 * finishing — a damaged file is a clear error within a bounded time, never a hang.
 */
export interface WatchdogLimits {
  idleMs: number;
  endGraceMs: number;
}

export const DEFAULT_WATCHDOG: WatchdogLimits = { idleMs: 30_000, endGraceMs: 2_000 };

export class ReadWatchdog {
  private last = Date.now();
  private ended = false;
  private readonly timer: NodeJS.Timeout;
  private rejectStall!: (error: Error) => void;
  /** Rejects once the read is stalled; never resolves. */
  readonly stalled: Promise<never>;

  constructor(private readonly limits: WatchdogLimits, private readonly error: (reason: 'idle' | 'ended') => AssetFileError) {
    this.stalled = new Promise<never>((_, reject) => {
      this.rejectStall = reject;
    });
    this.stalled.catch(() => undefined);
    this.timer = setInterval(() => this.check(), Math.max(10, Math.min(limits.idleMs, limits.endGraceMs) / 4));
    this.timer.unref();
  }

  touch(): void {
    this.last = Date.now();
  }

  markEnded(): void {
    this.ended = true;
    this.touch();
  }

  stop(): void {
    clearInterval(this.timer);
  }

  /** The same items, each wait raced against the stall. */
  async *guard<T>(iterable: AsyncIterable<T>): AsyncGenerator<T> {
    const iterator = iterable[Symbol.asyncIterator]();
    for (;;) {
      const next = await Promise.race([iterator.next(), this.stalled]);
      this.touch();
      if (next.done) return;
      yield next.value;
    }
  }

  private check(): void {
    const quiet = Date.now() - this.last;
    if (this.ended && quiet > this.limits.endGraceMs) this.fail('ended');
    else if (quiet > this.limits.idleMs) this.fail('idle');
  }

  private fail(reason: 'idle' | 'ended'): void {
    this.stop();
    this.rejectStall(this.error(reason));
  }
}
