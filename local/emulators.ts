import { mkdirSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import dynalite from 'dynalite';
import S3rver from 's3rver';
import { outlastClientKeepAlive } from './keep-alive';

export interface Emulators {
  endpoints: { dynamodb: string; s3: string; sqs: string };
  stop(): Promise<void>;
}

export interface EmulatorOptions {
  /** DynamoDB (LevelDB) and S3 (files) persist here, so a restart keeps all data. */
  dataDir: string;
  /** Fixed ports for a long-running local server; tests use 0 (a free port each). */
  ports?: { dynamodb?: number; s3?: number; sqs?: number };
  /** Called with the operation (`X-Amz-Target`) of every request the DynamoDB emulator receives. */
  onDynamoRequest?: (target: string) => void;
}

const LOOPBACK = '127.0.0.1';
/**
 * Table files the local DynamoDB's LevelDB keeps open. LevelDB memory-maps every open table file
 * and keeps up to 1,000 open by default: after a 100k-row import that is 1.5 GB of the server's
 * resident memory, never given back. 64 files (2 MiB each) bound the mapped part to about 128 MiB.
 */
const LEVELDB_MAX_OPEN_FILES = 64;
const LEVELDB_CACHE_BYTES = 1 << 20;
const LEVELDB_WRITE_BUFFER_BYTES = 1 << 20;

/** The `level` package dynalite loads, whatever copy of it npm placed for dynalite. */
const requireFromDynalite = () => createRequire(require.resolve('dynalite'));

type IteratorClass = { prototype: { close(): Promise<void>; return?: () => Promise<IteratorReturnResult<undefined>> } };

/**
 * Three fixes to how dynalite drives its LevelDB, without which the local server's memory grows by
 * gigabytes with every large import and never comes back:
 * - dynalite ends each Query and Scan stream by calling `return()` on its LevelDB iterator, which
 *   abstract-level's iterators do not have (they have `close()`): every query left a native
 *   iterator open for the life of the process, each pinning the memtables (4 MiB each) and table
 *   files of its moment. The iterators are given `return()`, so each query closes its own.
 * - LevelDB keeps up to 1,000 table files open and memory-maps each one; dynalite takes no LevelDB
 *   options, so the bound is set on the class it opens (classic-level), for every open of this process.
 * - Its block cache (8 MiB) and write buffer (4 MiB, two held while one is flushed) stay full once a
 *   large import has passed through, for the life of the process; a local emulator's reads are
 *   served well enough with 1 MiB of each.
 */
export function adaptDynaliteLevelDb(): void {
  const requireFromLevel = createRequire(requireFromDynalite().resolve('level'));
  const { Level } = requireFromLevel('level') as { Level: { prototype: { _open(options: object): Promise<void> } } };
  const abstractLevel = createRequire(requireFromLevel.resolve('classic-level'))('abstract-level') as Record<'AbstractIterator' | 'AbstractKeyIterator' | 'AbstractValueIterator', IteratorClass>;
  for (const iterator of [abstractLevel.AbstractIterator, abstractLevel.AbstractKeyIterator, abstractLevel.AbstractValueIterator]) {
    iterator.prototype.return ??= async function (this: { close(): Promise<void> }) {
      await this.close();
      return { done: true, value: undefined };
    };
  }
  const open = Level.prototype._open;
  if ((open as { bounded?: boolean }).bounded) return;
  const bounded = function (this: unknown, options: object) {
    return open.call(this, { ...options, maxOpenFiles: LEVELDB_MAX_OPEN_FILES, cacheSize: LEVELDB_CACHE_BYTES, writeBufferSize: LEVELDB_WRITE_BUFFER_BYTES });
  };
  Level.prototype._open = Object.assign(bounded, { bounded: true });
}

export class DataDirectoryInUseError extends Error {}

/** The local DynamoDB's LevelDB is held by one process at a time: say so instead of failing later. */
async function assertDatabaseFree(dataDir: string): Promise<void> {
  const { Level } = requireFromDynalite()('level') as { Level: new (location: string) => { open(): Promise<void>; close(): Promise<void> } };
  const db = new Level(dataDir);
  try {
    await db.open();
  } catch (error) {
    if ((error as { cause?: { code?: string } }).cause?.code === 'LEVEL_LOCKED') {
      throw new DataDirectoryInUseError(`The local database in ${path.dirname(dataDir)} is in use by another process (is \`npm start\` running on it?).`);
    }
    throw error;
  } finally {
    await db.close();
  }
}

/**
 * Starts the three AWS emulators in this process, bound to loopback only: dynalite for DynamoDB,
 * s3rver for S3 (fauxqs' S3 keeps objects in memory only), fauxqs for SQS. SQS state is
 * in-memory: whatever must survive a restart is written to DynamoDB first (the outbox).
 */
export async function startEmulators(options: EmulatorOptions): Promise<Emulators> {
  const dynamoDir = path.join(options.dataDir, 'dynamodb');
  const s3Dir = path.join(options.dataDir, 's3');
  mkdirSync(dynamoDir, { recursive: true });
  mkdirSync(s3Dir, { recursive: true });
  await assertDatabaseFree(dynamoDir);
  adaptDynaliteLevelDb();

  const dynamoServer = outlastClientKeepAlive(dynalite({ path: dynamoDir, createTableMs: 0, deleteTableMs: 0, updateTableMs: 0 }));
  const { onDynamoRequest } = options;
  if (onDynamoRequest) dynamoServer.on('request', (request: IncomingMessage) => onDynamoRequest(String(request.headers['x-amz-target'] ?? '')));
  await new Promise<void>((resolve, reject) => {
    dynamoServer.once('error', reject);
    dynamoServer.listen(options.ports?.dynamodb ?? 0, LOOPBACK, () => resolve());
  });

  const s3Server = new S3rver({ address: LOOPBACK, port: options.ports?.s3 ?? 0, directory: s3Dir, silent: true, vhostBuckets: false });
  const s3Address = (await s3Server.run()) as AddressInfo;
  outlastClientKeepAlive(s3Server.httpServer);

  // fauxqs is ESM-only (its package exports only `import`).
  const { buildApp } = await import('fauxqs');
  const sqsApp = buildApp({ logger: false, host: 'localhost' });
  await sqsApp.listen({ port: options.ports?.sqs ?? 0, host: LOOPBACK });
  outlastClientKeepAlive(sqsApp.server);
  const sqsAddress = sqsApp.server.address() as AddressInfo;

  return {
    endpoints: {
      dynamodb: `http://${LOOPBACK}:${(dynamoServer.address() as AddressInfo).port}`,
      s3: `http://${LOOPBACK}:${s3Address.port}`,
      sqs: `http://${LOOPBACK}:${sqsAddress.port}`,
    },
    async stop() {
      await sqsApp.close();
      await s3Server.close();
      await new Promise<void>((resolve) => dynamoServer.close(() => resolve()));
    },
  };
}
