/**
 * `step` over every item, at most `concurrency` at once, each lane taking the next item when it is
 * done with one; once `stopped` aborts, no lane takes another (the first error ends the whole).
 */
export async function inLanes<T>(items: readonly T[], concurrency: number, step: (item: T) => Promise<void>, stopped?: AbortSignal): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      stopped?.throwIfAborted();
      await step(items[next++]!);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, items.length)) }, lane));
}
