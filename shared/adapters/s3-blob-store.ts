import { DeleteObjectCommand, DeleteObjectsCommand, GetObjectCommand, HeadObjectCommand, PutObjectCommand } from './s3-commands';
import { s3 } from './aws-clients';
import { requiredSetting } from '../config';
import type { BlobStore } from '../ports';

/** The presigner, loaded with the first signed URL (it brings the S3 signing code). */
const presigner = () => require('@aws-sdk/s3-request-presigner') as typeof import('@aws-sdk/s3-request-presigner');

/** Keys one DeleteObjects request takes. */
const DELETE_BATCH = 1000;

export class S3BlobStore implements BlobStore {
  constructor(protected readonly bucket = requiredSetting('BUCKET_NAME')) {}

  async put(key: string, body: Buffer | string, contentType: string): Promise<void> {
    await s3().send(new PutObjectCommand({ Bucket: this.bucket, Key: key, Body: body, ContentType: contentType }));
  }

  async get(key: string): Promise<Buffer | undefined> {
    try {
      const result = await s3().send(new GetObjectCommand({ Bucket: this.bucket, Key: key }));
      return Buffer.from(await result.Body!.transformToByteArray());
    } catch (error) {
      if (isNotFound(error)) return undefined;
      throw error;
    }
  }

  async exists(key: string): Promise<boolean> {
    try {
      await s3().send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }));
      return true;
    } catch (error) {
      if (isNotFound(error)) return false;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    await s3().send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
  }

  /** DeleteObjects of up to 1,000 keys a request (S3's limit), one request after another. */
  async deleteMany(keys: readonly string[]): Promise<void> {
    for (let at = 0; at < keys.length; at += DELETE_BATCH) {
      const { Errors } = await s3().send(new DeleteObjectsCommand({
        Bucket: this.bucket, Delete: { Objects: keys.slice(at, at + DELETE_BATCH).map((Key) => ({ Key })), Quiet: true },
      }));
      const [first] = Errors ?? [];
      if (first) throw new Error(`Deleting ${first.Key} failed: ${first.Code} ${first.Message} (${Errors!.length} of the request's keys not deleted).`);
    }
  }

  signedGetUrl(key: string, expiresInSeconds: number, downloadName?: string): Promise<string> {
    return presigner().getSignedUrl(s3(), new GetObjectCommand({
      Bucket: this.bucket,
      Key: key,
      ResponseContentDisposition: downloadName ? `attachment; filename="${downloadName.replace(/["\\\r\n]/g, '_')}"` : undefined,
    }), { expiresIn: expiresInSeconds });
  }

  signedPutUrl(key: string, expiresInSeconds: number, contentType?: string): Promise<string> {
    return presigner().getSignedUrl(s3(), new PutObjectCommand({ Bucket: this.bucket, Key: key, ContentType: contentType }), { expiresIn: expiresInSeconds });
  }
}

export function isNotFound(error: unknown): boolean {
  const name = (error as { name?: string }).name;
  const status = (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
  return name === 'NoSuchKey' || name === 'NotFound' || status === 404;
}

