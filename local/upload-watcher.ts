import { HeadObjectCommand } from '@aws-sdk/client-s3';
import type { S3Event } from 'aws-lambda';
import { s3 } from '../shared/adapters/aws-clients';
import { DynamoImportStore } from '../shared/adapters/import-store';
import { logger } from '../shared/http/logger';

/** Pending imports older than this are no longer watched (their upload URL expired long ago). */
const WATCH_WINDOW_MS = 24 * 3600 * 1000;

export interface UploadWatcher {
  stop(): Promise<void>;
}

/**
 * The local stand-in for the bucket's ObjectCreated notification on `uploads/`: polls the pending
 * imports (a Query on their sparse index, no listing of the bucket), checks whether each one's file
 * has arrived, and hands the assets function the same S3 event AWS would send.
 */
export function startUploadWatcher(options: { bucket: string; intervalMs?: number }): UploadWatcher {
  const imports = new DynamoImportStore();
  const interval = options.intervalMs ?? 500;
  let running: Promise<void> | undefined;
  let stopped = false;

  const tick = async () => {
    const pending = await imports.listPending(new Date(Date.now() - WATCH_WINDOW_MS));
    for (const record of pending) {
      if (stopped || !record.object_key) continue;
      let size: number;
      try {
        const head = await s3().send(new HeadObjectCommand({ Bucket: options.bucket, Key: record.object_key }));
        size = head.ContentLength ?? 0;
      } catch {
        continue; // not uploaded yet
      }
      const event = {
        Records: [{
          eventSource: 'aws:s3',
          eventName: 'ObjectCreated:Put',
          s3: { bucket: { name: options.bucket }, object: { key: encodeURIComponent(record.object_key).replace(/%2F/g, '/'), size } },
        }],
      } as unknown as S3Event;
      const { handler } = await import('../functions/asset-import-worker/handler');
      await handler(event);
    }
  };

  const timer = setInterval(() => {
    if (running || stopped) return;
    running = tick()
      .catch((error: unknown) => logger.error('Upload watcher tick failed', { error: error as Error }))
      .finally(() => {
        running = undefined;
      });
  }, interval);
  timer.unref();

  return {
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
