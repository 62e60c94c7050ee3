import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { FileSpillSorter } from '../../shared/adapters/file-spill-sorter';

/** The external sort the package reads its inventory through: runs spilled to disk, merged back in order. */
describe('a sorted spill', () => {
  let folder: string;
  beforeEach(() => {
    folder = mkdtempSync(path.join(tmpdir(), 'spill-test-'));
  });
  afterEach(() => rmSync(folder, { recursive: true, force: true }));

  const collect = async <T>(items: AsyncIterable<T>) => {
    const all: T[] = [];
    for await (const item of items) all.push(item);
    return all;
  };

  it('gives back every item of many runs in order, ties in the order of their runs, and leaves nothing on disk', async () => {
    // A linear congruential sequence: repeatable, with repeated keys across runs.
    let seed = 12345;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % 1000;
    const runs = Array.from({ length: 7 }, (_, run) =>
      Array.from({ length: 50 + run * 13 }, (_, i) => ({ key: next(), run, i })),
    );
    const spill = await new FileSpillSorter(folder).open<{ key: number; run: number; i: number }>(
      (a, b) => a.key - b.key,
    );
    for (const run of runs) await spill.add(run);
    await spill.add([]);
    const sorted = await collect(spill.sorted());
    // Stable by key, then run, then position in the run: what a stable sort of the runs laid end to end gives.
    expect(sorted).toEqual(
      runs
        .flat()
        .map((item, at) => ({ item, at }))
        .sort((a, b) => a.item.key - b.item.key || a.at - b.at)
        .map(({ item }) => item),
    );
    await spill.dispose();
    expect(readdirSync(folder)).toEqual([]);
  });

  it('gives back nothing when nothing was added', async () => {
    const spill = await new FileSpillSorter(folder).open<number>((a, b) => a - b);
    expect(await collect(spill.sorted())).toEqual([]);
    await spill.dispose();
  });
});
