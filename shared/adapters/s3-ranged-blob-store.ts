import { GetObjectCommand, HeadObjectCommand } from './s3-commands';
import { s3 } from './aws-clients';
import { isNotFound, S3BlobStore } from './s3-blob-store';
import type { RangedBlobStore } from '../ports';

/** The bucket with range reads, for the workers that process large uploads (the API functions never read by range). */
export class S3RangedBlobStore extends S3BlobStore implements RangedBlobStore {
  async size(key: string): Promise<number | undefined> {
    try {
      return (await s3().send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }))).ContentLength ?? 0;
    } catch (error) {
      if (isNotFound(error)) return undefined;
      throw error;
    }
  }

  async readRange(key: string, start: number, end: number): Promise<Uint8Array | undefined> {
    try {
      const result = await s3().send(new GetObjectCommand({ Bucket: this.bucket, Key: key, Range: `bytes=${start}-${end}` }));
      return await result.Body!.transformToByteArray();
    } catch (error) {
      if (isNotFound(error)) return undefined;
      throw error;
    }
  }
}
