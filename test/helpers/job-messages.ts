import type { Context, SQSBatchResponse, SQSEvent } from 'aws-lambda';
import type { JobStart, JobStarter } from '../../shared/application/jobs/job-start';

/** An SQS event as the event source delivers it, one record per body (a JobStart, or an S3 notification). */
export function sqsEvent(...bodies: unknown[]): SQSEvent {
  return {
    Records: bodies.map((body, i) => ({
      messageId: `msg-${i}`, receiptHandle: `rh-${i}`, body: typeof body === 'string' ? body : JSON.stringify(body),
      attributes: { ApproximateReceiveCount: '1', SentTimestamp: '0', SenderId: 'test', ApproximateFirstReceiveTimestamp: '0' },
      messageAttributes: {}, md5OfBody: '', eventSource: 'aws:sqs', eventSourceARN: 'arn:aws:sqs:us-east-1:000000000000:jobs', awsRegion: 'us-east-1',
    })),
  };
}

/** The S3 notification of one created object, as the bucket sends it to a queue. */
export const s3Notification = (bucket: string, key: string, size: number) => ({
  Records: [{ eventSource: 'aws:s3', eventName: 'ObjectCreated:Put', s3: { bucket: { name: bucket }, object: { key: encodeURIComponent(key).replace(/%2F/g, '/'), size } } }],
});

/** A starter that keeps the starts it is given (the sweep's messages), in order. */
export function recordingStarter(): JobStarter & { starts: JobStart[] } {
  const starts: JobStart[] = [];
  return { starts, start: async (start) => void starts.push(start) };
}

/** Calls a worker's queue handler as the event source would. */
export const deliver = (handler: (event: SQSEvent, context: Context) => Promise<SQSBatchResponse>, ...bodies: unknown[]) =>
  handler(sqsEvent(...bodies), { functionName: 'test-worker', awsRequestId: 'test', getRemainingTimeInMillis: () => 900_000 } as unknown as Context);
