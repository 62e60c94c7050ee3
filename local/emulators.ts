import { mkdirSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import dynalite from 'dynalite';
import S3rver from 's3rver';

export interface Emulators {
  endpoints: { dynamodb: string; s3: string; sqs: string };
  stop(): Promise<void>;
}

export interface EmulatorOptions {
  /** DynamoDB (LevelDB) and S3 (files) persist here, so a restart keeps all data. */
  dataDir: string;
  /** Fixed ports for a long-running local server; tests use 0 (a free port each). */
  ports?: { dynamodb?: number; s3?: number; sqs?: number };
}

const LOOPBACK = '127.0.0.1';

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

  const dynamoServer = dynalite({ path: dynamoDir, createTableMs: 0, deleteTableMs: 0, updateTableMs: 0 });
  await new Promise<void>((resolve, reject) => {
    dynamoServer.once('error', reject);
    dynamoServer.listen(options.ports?.dynamodb ?? 0, LOOPBACK, () => resolve());
  });

  const s3Server = new S3rver({ address: LOOPBACK, port: options.ports?.s3 ?? 0, directory: s3Dir, silent: true, vhostBuckets: false });
  const s3Address = (await s3Server.run()) as AddressInfo;

  // fauxqs is ESM-only (its package exports only `import`).
  const { buildApp } = await import('fauxqs');
  const sqsApp = buildApp({ logger: false, host: 'localhost' });
  await sqsApp.listen({ port: options.ports?.sqs ?? 0, host: LOOPBACK });
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
