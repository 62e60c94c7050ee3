import { logger } from '../shared/observability/logger';

/** Quiet time after the last import or model ends before the heap is compacted. */
const QUIET_MS = 3_000;
/**
 * Full collections per compaction. One evacuates only the pages V8 picks as candidates and leaves
 * the old space at its peak size (159 MB committed, 63 MB used after a 30,000-row import); three in
 * a row bring it back to 75 MB, within a few MB of the idle heap.
 */
const COLLECTIONS = 3;

type CollectGarbage = () => void;

/**
 * After a burst of work (a large import) the V8 heap keeps the pages the work used until V8 shrinks
 * it on its own schedule, minutes later; locally that shows as a server that stays hundreds of MB
 * above its idle level. Once the work is over and the server has been quiet for a moment, full,
 * compacting collections hand those pages back. It needs `--expose-gc`, which `npm start` sets;
 * without it V8's own schedule applies and nothing else changes. Never used in AWS, where each
 * import ends with its Lambda invocation.
 */
export class HeapCompaction {
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly collect: CollectGarbage | undefined = (globalThis as { gc?: CollectGarbage }).gc, private readonly quietMs = QUIET_MS) {}

  /** Compacts `quietMs` after the latest call (each call restarts the wait). */
  compactSoon(): void {
    if (!this.collect) return;
    this.cancel();
    this.timer = setTimeout(() => {
      this.timer = undefined;
      const before = process.memoryUsage().rss;
      for (let pass = 0; pass < COLLECTIONS; pass++) this.collect!();
      logger.info('Heap compacted after background work', { rssBeforeMb: Math.round(before / 2 ** 20), rssAfterMb: Math.round(process.memoryUsage().rss / 2 ** 20) });
    }, this.quietMs);
    this.timer.unref();
  }

  cancel(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }
}
