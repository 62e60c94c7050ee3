import type { S3Event } from 'aws-lambda';
import { processS3Event } from '../assets/imports';

/**
 * Large imports: the bucket's ObjectCreated notification for `uploads/` starts the import here,
 * with a longer timeout than API Gateway allows the assets API function.
 */
export async function handler(event: S3Event): Promise<void> {
  await processS3Event(event);
}
