import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { adaptDynaliteLevelDb } from '../../local/emulators';

interface LevelIterator {
  next(): Promise<unknown>;
  return?: () => Promise<{ done: boolean }>;
}
interface Level {
  open(): Promise<void>;
  close(): Promise<void>;
  put(key: string, value: string): Promise<void>;
  keys(): LevelIterator;
  values(): LevelIterator;
  iterator(): LevelIterator;
}

// The LevelDB the local DynamoDB stands on, resolved as dynalite resolves it.
const { Level } = createRequire(require.resolve('dynalite'))('level') as { Level: new (location: string) => Level };

describe('the local DynamoDB closes the LevelDB iterators its streams end', () => {
  let dir: string;
  let db: Level;

  beforeAll(async () => {
    adaptDynaliteLevelDb();
    dir = mkdtempSync(path.join(tmpdir(), 'level-iterators-'));
    db = new Level(dir);
    await db.open();
    await db.put('a', '1');
    await db.put('b', '2');
  });
  afterAll(async () => {
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it.each(['keys', 'values', 'iterator'] as const)('a %s iterator ends on return() and reads no more', async (kind) => {
    const iterator = db[kind]();
    await iterator.next();
    await expect(iterator.return!()).resolves.toEqual({ done: true, value: undefined });
    await expect(iterator.next()).rejects.toMatchObject({ code: 'LEVEL_ITERATOR_NOT_OPEN' });
  });
});

describe('the local DynamoDB opens its LevelDB with bounded memory', () => {
  type Open = (options: object) => Promise<void>;
  const prototype = (Level as unknown as { prototype: { _open: Open } }).prototype;
  let original: Open;
  const received: object[] = [];

  beforeAll(() => {
    original = prototype._open;
    // Stands in for the native open, so the options the adaptation passes down can be read.
    prototype._open = async (options: object) => {
      received.push(options);
    };
    adaptDynaliteLevelDb();
  });
  afterAll(() => {
    prototype._open = original;
  });

  it('keeps at most 64 table files open, a 1 MiB block cache and a 1 MiB write buffer', async () => {
    const db = new Level(path.join(tmpdir(), 'level-options-never-created'));
    await db.open();
    expect(received).toEqual([expect.objectContaining({ maxOpenFiles: 64, cacheSize: 1_048_576, writeBufferSize: 1_048_576 })]);
  });
});
