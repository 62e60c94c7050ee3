import { Duration, type RemovalPolicy } from 'aws-cdk-lib';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { JOB_KINDS, type JobKindName } from '../shared/application/jobs/job-start';
import { MODEL_PROCESSING_LIMIT_MS } from '../shared/domain/elevation-models/processing-job';

/**
 * Each job kind's worker: its timeout, and how many of its invocations may run at once (the SQS
 * event source's `maxConcurrency`). A burst waits in the queue, not in a stream shard, and never
 * takes the account's Lambda concurrency from the API.
 */
export const JOB_WORKERS: Readonly<Record<JobKindName, { timeout: Duration; maxConcurrency: number }>> = {
  hazard_job: { timeout: Duration.minutes(10), maxConcurrency: 20 },
  asset_import: { timeout: Duration.minutes(15), maxConcurrency: 10 },
  elevation_model: { timeout: Duration.millis(MODEL_PROCESSING_LIMIT_MS), maxConcurrency: 5 },
  deliverable: { timeout: Duration.minutes(10), maxConcurrency: 10 },
};

/** Receives of a job start (its worker threw, timed out or was throttled) before it is parked in the kind's dead-letter queue. */
export const JOB_MAX_RECEIVE_COUNT = 3;
/** The reminder worker's timeout (one page of accounts). */
export const REMINDER_WORKER_TIMEOUT = Duration.minutes(5);

/** AWS advises a visibility timeout of six times the consumer's timeout (at most 12 hours). */
const visibilityFor = (timeout: Duration) => Duration.seconds(Math.min(12 * 3600, timeout.toSeconds() * 6));

/** A queue that parks what its consumer could not process in its own dead-letter queue. */
export interface RedrivenQueue {
  queue: Queue;
  deadLetterQueue: Queue;
}

/**
 * The job kinds' queues (a job's start is a message on its kind's queue, sent by the API, by the
 * bucket notification of an upload, or by the sweep) and the reminder queue of the daily fan-out,
 * each with a dead-letter queue the operator is alarmed on.
 */
export class WorkQueues extends Construct {
  readonly jobs: Record<JobKindName, RedrivenQueue>;
  readonly reminders: RedrivenQueue;

  constructor(scope: Construct, id: string, props: { removalPolicy: RemovalPolicy }) {
    super(scope, id);
    const redriven = (name: string, consumerTimeout: Duration): RedrivenQueue => {
      const deadLetterQueue = new Queue(this, `${name}DeadLetterQueue`, {
        encryption: QueueEncryption.SQS_MANAGED, enforceSSL: true, retentionPeriod: Duration.days(14), removalPolicy: props.removalPolicy,
      });
      const queue = new Queue(this, `${name}Queue`, {
        encryption: QueueEncryption.SQS_MANAGED,
        enforceSSL: true,
        visibilityTimeout: visibilityFor(consumerTimeout),
        retentionPeriod: Duration.days(4),
        deadLetterQueue: { queue: deadLetterQueue, maxReceiveCount: JOB_MAX_RECEIVE_COUNT },
        removalPolicy: props.removalPolicy,
      });
      return { queue, deadLetterQueue };
    };
    const pascal = (kind: string) => kind.split('_').map((word) => word[0]!.toUpperCase() + word.slice(1)).join('');
    this.jobs = Object.fromEntries(JOB_KINDS.map((kind) => [kind, redriven(pascal(kind), JOB_WORKERS[kind].timeout)])) as Record<JobKindName, RedrivenQueue>;
    this.reminders = redriven('Reminder', REMINDER_WORKER_TIMEOUT);
  }
}
