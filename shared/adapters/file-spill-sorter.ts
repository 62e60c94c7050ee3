import { createReadStream } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface, type Interface } from 'node:readline';
import type { SortedSpill, SpillSorter } from '../application/deliverables/ports';

/**
 * An external merge sort on the local disk (a Lambda's /tmp): each run is sorted in memory and
 * written as one JSON line per item; reading merges the runs through a heap, a line of each at a
 * time, so memory holds one item per run whatever the total.
 */
export class FileSpillSorter implements SpillSorter {
  constructor(private readonly directory = tmpdir()) {}

  async open<T>(compare: (a: T, b: T) => number): Promise<SortedSpill<T>> {
    const folder = await mkdtemp(path.join(this.directory, 'sorted-spill-'));
    const runs: string[] = [];
    return {
      async add(items) {
        if (items.length === 0) return;
        const file = path.join(folder, `${runs.length}.jsonl`);
        await writeFile(
          file,
          `${[...items]
            .sort(compare)
            .map((item) => JSON.stringify(item))
            .join('\n')}\n`,
        );
        runs.push(file);
      },
      sorted: () => merged(runs, compare),
      dispose: () => rm(folder, { recursive: true, force: true }),
    };
  }
}

interface Head<T> {
  item: T;
  run: number;
}

/** A binary min-heap of the runs' current items; ties keep the earlier run first. */
class RunHeap<T> {
  private readonly heads: Head<T>[] = [];

  constructor(private readonly compare: (a: T, b: T) => number) {}

  get size(): number {
    return this.heads.length;
  }

  private before(i: number, j: number): boolean {
    const a = this.heads[i]!,
      b = this.heads[j]!;
    return (this.compare(a.item, b.item) || a.run - b.run) < 0;
  }

  private swap(i: number, j: number): void {
    [this.heads[i], this.heads[j]] = [this.heads[j]!, this.heads[i]!];
  }

  push(head: Head<T>): void {
    this.heads.push(head);
    for (let i = this.heads.length - 1; i > 0 && this.before(i, (i - 1) >> 1); i = (i - 1) >> 1)
      this.swap(i, (i - 1) >> 1);
  }

  pop(): Head<T> {
    const top = this.heads[0]!;
    const last = this.heads.pop()!;
    if (this.heads.length > 0) {
      this.heads[0] = last;
      for (let i = 0; ;) {
        const [left, right] = [2 * i + 1, 2 * i + 2];
        let least = i;
        if (left < this.heads.length && this.before(left, least)) least = left;
        if (right < this.heads.length && this.before(right, least)) least = right;
        if (least === i) break;
        this.swap(i, least);
        i = least;
      }
    }
    return top;
  }
}

async function* merged<T>(runs: readonly string[], compare: (a: T, b: T) => number): AsyncGenerator<T> {
  const readers: Interface[] = runs.map((file) =>
    createInterface({ input: createReadStream(file), crlfDelay: Infinity }),
  );
  const lines = readers.map((reader) => reader[Symbol.asyncIterator]());
  const heap = new RunHeap(compare);
  const advance = async (run: number) => {
    const next = await lines[run]!.next();
    if (!next.done) heap.push({ item: JSON.parse(next.value as string) as T, run });
  };
  try {
    for (let run = 0; run < lines.length; run++) await advance(run);
    while (heap.size > 0) {
      const { item, run } = heap.pop();
      yield item;
      await advance(run);
    }
  } finally {
    for (const reader of readers) reader.close();
  }
}
