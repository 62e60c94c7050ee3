import { Duration, Validations } from 'aws-cdk-lib';
import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import { FilterCriteria, FilterRule, StartingPosition } from 'aws-cdk-lib/aws-lambda';
import { DynamoEventSource, SqsDlq, SqsEventSource, type DynamoEventSourceProps } from 'aws-cdk-lib/aws-lambda-event-sources';
import { EventType } from 'aws-cdk-lib/aws-s3';
import { SqsDestination } from 'aws-cdk-lib/aws-s3-notifications';
import { Construct } from 'constructs';
import type { QueuedEvent } from '../shared/ports';
import { AppFunction, type AppFunctionProps, type EntryResolver } from './app-function';
import { bindBucket, bindDeadLetterQueue, bindEventQueue, bindJobQueue, bindReminderQueue, bindTable } from './bindings';
import { JOB_WORKERS, REMINDER_WORKER_TIMEOUT } from './job-queues';
import { JOB_KINDS, type JobKindName } from '../shared/application/jobs/job-start';
import { UPLOADS_PREFIX, type DataStore } from './data-store';
import { ACCOUNT_MODELS_PREFIX, ELEVATION_UPLOADS_PREFIX } from '../shared/adapters/elevation/processed-keys';
import type { StageConfig } from './stage-config';

/** The dispatcher's timeout; the events queue's visibility timeout is derived from it. */
export const WEBHOOK_DISPATCHER_TIMEOUT = Duration.seconds(30);

/** The lost-job sweep's schedule. */
export const JOB_SWEEP_RATE = Duration.minutes(5);
/** Reminder pages sent at once (100 accounts each). */
export const REMINDER_MAX_CONCURRENCY = 10;

/** Deadline reminders go out once a day, at 13:00 UTC (morning in both Florida time zones). */
export const REMINDER_SCHEDULE = { minute: '0', hour: '13' } as const;

/** The item attribute that carries a pending QueuedEvent (see shared/adapters/outbox.ts). */
export const OUTBOX_ATTRIBUTE = 'outbox';
const OUTBOX_EVENT_ID: keyof QueuedEvent = 'event_id';

export interface BackgroundJobsProps {
  config: StageConfig;
  data: DataStore;
  entry?: EntryResolver;
}

/**
 * The functions no client calls directly: webhook delivery, the daily reminder fan-out and its
 * worker, the outbox relay, the work too long for API Gateway's 29 s (flood-analysis jobs, large
 * asset imports, elevation models, deliverable packages), each fed by its own queue, and the one
 * sweep of lost jobs.
 */
export class BackgroundJobs extends Construct {
  readonly webhookDispatcher: AppFunction;
  readonly deadlineReminder: AppFunction;
  readonly reminderWorker: AppFunction;
  readonly jobSweep: AppFunction;
  readonly outboxRelay: AppFunction;
  readonly hazardJobWorker: AppFunction;
  readonly assetImportWorker: AppFunction;
  readonly deliverablesWorker: AppFunction;
  readonly elevationModelWorker: AppFunction;
  /** The functions the table's stream feeds: each has an iterator-age alarm. */
  readonly streamConsumers: AppFunction[];

  constructor(scope: Construct, id: string, props: BackgroundJobsProps) {
    super(scope, id);
    const { table, bucket, eventQueue, eventDeadLetterQueue, streamFailureQueue } = props.data;
    // Every stream consumer reports failed records one by one and, once their retries are spent,
    // parks them in one queue (alarmed) instead of dropping them or blocking the shard.
    const streamSource = (settings: Omit<DynamoEventSourceProps, 'reportBatchItemFailures' | 'onFailure'>) =>
      new DynamoEventSource(table, { ...settings, reportBatchItemFailures: true, onFailure: new SqsDlq(streamFailureQueue) });
    const jobFunction = (id: string, settings: Omit<AppFunctionProps, 'config' | 'entry'>) =>
      new AppFunction(this, id, { ...settings, config: props.config, entry: props.entry });

    this.webhookDispatcher = jobFunction('WebhookDispatcher', {
      name: 'webhook-dispatcher',
      description: 'Delivers queued events to webhook endpoints (Standard Webhooks), retrying through SQS',
      memorySize: 256,
      timeout: WEBHOOK_DISPATCHER_TIMEOUT,
    });
    bindTable(this.webhookDispatcher, table, 'readWrite');
    // Sends too: a failed delivery is re-queued with a backoff delay.
    bindEventQueue(this.webhookDispatcher, eventQueue);
    bindDeadLetterQueue(this.webhookDispatcher, eventDeadLetterQueue);
    this.webhookDispatcher.addEventSource(new SqsEventSource(eventQueue, {
      batchSize: 10,
      maxBatchingWindow: Duration.seconds(1),
      reportBatchItemFailures: true,
    }));

    // The daily step only pages the accounts and fans out; the reminder worker sends, page by page.
    const { jobs: jobQueues, reminders } = props.data.workQueues;
    this.deadlineReminder = jobFunction('DeadlineReminder', {
      name: 'deadline-reminder',
      description: 'Daily: fans deadline reminders out to the reminder queue, one message per page of accounts',
      memorySize: 256,
      timeout: Duration.minutes(5),
    });
    bindTable(this.deadlineReminder, table, 'read');
    bindReminderQueue(this.deadlineReminder, reminders.queue);
    new Rule(this, 'DeadlineReminderSchedule', {
      description: 'Daily deadline reminder fan-out',
      schedule: Schedule.cron(REMINDER_SCHEDULE),
      targets: [new LambdaFunction(this.deadlineReminder, { retryAttempts: 2 })],
    });
    this.reminderWorker = jobFunction('ReminderWorker', {
      name: 'reminder-worker',
      description: 'Queues the deadline_reminder events of one page of accounts, once per account, deadline and offset',
      memorySize: 256,
      timeout: REMINDER_WORKER_TIMEOUT,
    });
    bindTable(this.reminderWorker, table, 'readWrite');
    bindEventQueue(this.reminderWorker, eventQueue);
    this.reminderWorker.addEventSource(new SqsEventSource(reminders.queue, { batchSize: 1, maxConcurrency: REMINDER_MAX_CONCURRENCY, reportBatchItemFailures: true }));

    this.outboxRelay = jobFunction('OutboxRelay', {
      name: 'outbox-relay',
      description: 'Safety net: relays events still pending in an item outbox to the queue and clears them',
      memorySize: 256,
      timeout: Duration.seconds(30),
    });
    bindTable(this.outboxRelay, table, 'readWrite');
    bindEventQueue(this.outboxRelay, eventQueue);
    // Only writes that leave an event pending reach the function; clearing the outbox does not.
    // Filters match leaf values only, hence the event id inside the outbox map.
    this.outboxRelay.addEventSource(streamSource({
      startingPosition: StartingPosition.LATEST,
      batchSize: 25,
      bisectBatchOnError: true,
      retryAttempts: 10,
      maxRecordAge: Duration.days(1),
      filters: [
        FilterCriteria.filter({ dynamodb: { NewImage: { [OUTBOX_ATTRIBUTE]: { M: { [OUTBOX_EVENT_ID]: { S: FilterRule.exists() } } } } } }),
      ],
    }));
    // Each job kind's worker is fed by its queue, at most `maxConcurrency` at once; a start that
    // fails JOB_MAX_RECEIVE_COUNT times waits in the kind's dead-letter queue (alarmed).
    const consumeJobs = (worker: AppFunction, kind: JobKindName) => worker.addEventSource(new SqsEventSource(jobQueues[kind].queue, {
      batchSize: 1,
      maxConcurrency: JOB_WORKERS[kind].maxConcurrency,
      reportBatchItemFailures: true,
    }));

    // The hazards API function records a job, sends its start and answers 202; the job runs here.
    this.hazardJobWorker = jobFunction('HazardJobWorker', {
      name: 'hazard-job-worker',
      description: 'Runs flood analyses queued as jobs by POST /hazards/flood-analysis',
      memorySize: 3008,
      timeout: JOB_WORKERS.hazard_job.timeout,
    });
    bindTable(this.hazardJobWorker, table, 'readWrite');
    bindBucket(this.hazardJobWorker, bucket, 'read', ['dem/', 'hazard-layers/', ACCOUNT_MODELS_PREFIX]);
    bindBucket(this.hazardJobWorker, bucket, 'readWrite', ['hazard-jobs/', 'evidence/']);
    consumeJobs(this.hazardJobWorker, 'hazard_job');

    // Files above the synchronous payload limit are uploaded straight to S3 and imported from there.
    this.assetImportWorker = jobFunction('AssetImportWorker', {
      name: 'asset-import-worker',
      description: 'Imports asset files uploaded through POST /assets/imports presigned URLs',
      memorySize: 2048,
      timeout: JOB_WORKERS.asset_import.timeout,
    });
    bindTable(this.assetImportWorker, table, 'readWrite');
    bindBucket(this.assetImportWorker, bucket, 'read', [UPLOADS_PREFIX]);
    // The upload's notification is the import's start, on the import queue.
    bucket.addEventNotification(EventType.OBJECT_CREATED, new SqsDestination(jobQueues.asset_import.queue), { prefix: UPLOADS_PREFIX });
    consumeJobs(this.assetImportWorker, 'asset_import');
    // A GeoTIFF uploaded through POST /hazards/elevation-models is tiled here into the account's model.
    this.elevationModelWorker = jobFunction('ElevationModelWorker', {
      name: 'elevation-model-worker',
      description: 'Processes GeoTIFF DEMs uploaded through POST /hazards/elevation-models into tiled account models',
      memorySize: 3008,
      timeout: JOB_WORKERS.elevation_model.timeout,
    });
    bindTable(this.elevationModelWorker, table, 'readWrite');
    // Reads the upload and deletes it once processed; writes the tiles (and removes them after a failed write).
    bindBucket(this.elevationModelWorker, bucket, 'readWrite', [ELEVATION_UPLOADS_PREFIX, ACCOUNT_MODELS_PREFIX]);
    bucket.addEventNotification(EventType.OBJECT_CREATED, new SqsDestination(jobQueues.elevation_model.queue), { prefix: ELEVATION_UPLOADS_PREFIX });
    consumeJobs(this.elevationModelWorker, 'elevation_model');

    // POST /assessments/{id}/deliverables records a job and sends its start; the job runs here. The
    // PDF, rendering and GeoPackage libraries read their own files (fonts, WebAssembly) at run time.
    this.deliverablesWorker = jobFunction('DeliverablesWorker', {
      name: 'deliverables-worker',
      description: 'Generates the deliverable package of an assessment: report PDF, GeoPackage and Shapefiles, asset list XLSX',
      memorySize: 2048,
      timeout: JOB_WORKERS.deliverable.timeout,
      nodeModules: ['pdfkit', '@resvg/resvg-wasm', 'sql.js'],
    });
    bindTable(this.deliverablesWorker, table, 'readWrite');
    bindBucket(this.deliverablesWorker, bucket, 'read', ['evidence/']);
    bindBucket(this.deliverablesWorker, bucket, 'readWrite', ['deliverables/']);
    consumeJobs(this.deliverablesWorker, 'deliverable');

    // The one lost-job sweep: every kind whose worker lease lapsed is sent again or failed, and
    // every job left waiting past its grace period (its start was lost) is started again.
    this.jobSweep = jobFunction('JobSweep', {
      name: 'job-sweep',
      description: 'Every 5 minutes: retries or fails jobs of every kind whose worker lease lapsed, and restarts jobs whose start was lost',
      memorySize: 256,
      timeout: Duration.minutes(2),
    });
    bindTable(this.jobSweep, table, 'readWrite');
    // Whether an upload arrived (HeadObject) before a waiting import or model is started again.
    bindBucket(this.jobSweep, bucket, 'read', [UPLOADS_PREFIX, ELEVATION_UPLOADS_PREFIX]);
    for (const kind of JOB_KINDS) bindJobQueue(this.jobSweep, kind, jobQueues[kind].queue);
    new Rule(this, 'JobSweepSchedule', {
      description: 'Every 5 minutes: the lost-job sweep over every job kind',
      schedule: Schedule.rate(JOB_SWEEP_RATE),
      targets: [new LambdaFunction(this.jobSweep, { retryAttempts: 0 })],
    });

    // Jobs no longer start from the stream: only the outbox relay (it must) reads it.
    this.streamConsumers = [this.outboxRelay];
    for (const streamReader of this.streamConsumers) {
      Validations.of(streamReader.role!).acknowledge({
        id: 'AwsSolutions-IAM5[Resource::*]',
        reason: 'dynamodb:ListStreams (stream discovery by the event source) and the X-Ray tracing actions do not support resource-level permissions; reading records is granted on this table\'s stream only.',
      });
    }
  }
}
