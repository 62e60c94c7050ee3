import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import type { Context, S3EventRecord, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { countJobEnd, type MetricName } from '../../observability/metrics';
import { logger } from '../../observability/logger';
import { parseJobStart, type JobKindName, type JobRef, type JobStart } from './job-start';

/** What one run may spend: until when (Lambda's remaining time), and a stop signal (the local server stopping). */
export interface RunBudget {
  runDeadline?: Date;
  signal?: AbortSignal;
}

/**
 * What a job kind gives the harness: how to run one start of a job to its end — claim under a
 * lease (or take over the lapsed lease of a retry), run, record completed or failed with the typed
 * failure — and how to read its status, from whose change the outcome metric is counted. A start
 * whose claim is lost to another worker (a repeated message) does nothing.
 */
export interface JobRunner {
  kind: JobKindName;
  status(ref: JobRef): Promise<string | undefined>;
  run(start: JobStart, budget: RunBudget): Promise<void>;
  /** Kinds started by an upload: the start an S3 notification of `key` means, if the key is theirs. */
  startOfUpload?(key: string, size: number | undefined): JobStart | undefined;
  metrics: { succeeded?: MetricName; failed: MetricName };
}

/** Runs one start of a job under the harness: the kind runs it, the outcome counts its metric. */
export async function runJob(runner: JobRunner, start: JobStart, budget: RunBudget = {}): Promise<void> {
  const before = await runner.status(start.ref);
  await runner.run(start, budget);
  countJobEnd(before, await runner.status(start.ref), runner.metrics);
}

/** S3 notification keys are URL-encoded, with `+` for spaces. */
export const notifiedKey = (record: Pick<S3EventRecord, 's3'>): string => decodeURIComponent(record.s3.object.key.replace(/\+/g, ' '));

/**
 * The starts one queue message carries: a JobStart, or an S3 notification (an upload's bucket
 * notification goes to its kind's queue). Anything else, such as S3's test event, carries none.
 */
export function startsOf(body: string, runners: readonly JobRunner[]): { runner: JobRunner; start: JobStart }[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return [];
  }
  const records = (parsed as { Records?: unknown } | null)?.Records;
  if (Array.isArray(records)) {
    return (records as S3EventRecord[]).filter((record) => record?.eventSource === 'aws:s3' && record.s3?.object?.key).flatMap((record) => {
      for (const runner of runners) {
        const start = runner.startOfUpload?.(notifiedKey(record), record.s3.object.size);
        if (start) return [{ runner, start }];
      }
      return [];
    });
  }
  const start = parseJobStart(parsed);
  const runner = start && runners.find((candidate) => candidate.kind === start.kind);
  return runner ? [{ runner, start: start! }] : [];
}

/**
 * The worker entry of every job kind, fed by an SQS queue (the event source in AWS, the queue
 * poller locally). Each message is processed on its own; one whose run throws (the job store was
 * unreachable, say; a job that fails is not an error, it is recorded `failed`) is reported back
 * (partial batch response), received again after the visibility timeout and, past the queue's
 * receive count, parked in its dead-letter queue, which is alarmed.
 */
export function jobQueueConsumer(runners: readonly JobRunner[], budget: (context?: Pick<Context, 'getRemainingTimeInMillis'>) => RunBudget = () => ({}))
  : (event: SQSEvent, context?: Context) => Promise<SQSBatchResponse> {
  const processor = new BatchProcessor(EventType.SQS);
  return (event, context) => processPartialResponse(event, async (record: SQSRecord) => {
    const starts = startsOf(record.body, runners);
    if (starts.length === 0) logger.warn('Ignoring a job queue message that starts no job', { messageId: record.messageId });
    for (const { runner, start } of starts) await runJob(runner, start, budget(context));
  }, processor, context ? { context } : undefined);
}

/** Lambda's remaining time less `safetyMs`, kept back to record the outcome. */
export const lambdaBudget = (safetyMs: number) => (context?: Pick<Context, 'getRemainingTimeInMillis'>): RunBudget =>
  (context ? { runDeadline: new Date(Date.now() + context.getRemainingTimeInMillis() - safetyMs) } : {});
