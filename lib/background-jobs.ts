import { Duration, Validations } from 'aws-cdk-lib';
import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import { FilterCriteria, FilterRule, StartingPosition } from 'aws-cdk-lib/aws-lambda';
import { DynamoEventSource, SqsDlq, SqsEventSource, type DynamoEventSourceProps } from 'aws-cdk-lib/aws-lambda-event-sources';
import { EventType } from 'aws-cdk-lib/aws-s3';
import { LambdaDestination } from 'aws-cdk-lib/aws-s3-notifications';
import { Construct } from 'constructs';
import type { QueuedEvent } from '../shared/ports';
import { AppFunction, type AppFunctionProps, type EntryResolver } from './app-function';
import { bindBucket, bindDeadLetterQueue, bindEventQueue, bindTable } from './bindings';
import { UPLOADS_PREFIX, type DataStore } from './data-store';
import { ACCOUNT_MODELS_PREFIX, ELEVATION_UPLOADS_PREFIX } from '../shared/adapters/elevation/processed-keys';
import type { StageConfig } from './stage-config';

/** The dispatcher's timeout; the events queue's visibility timeout is derived from it. */
export const WEBHOOK_DISPATCHER_TIMEOUT = Duration.seconds(30);

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
 * The functions no client calls directly: webhook delivery, the daily reminder, the outbox relay
 * and the work too long for API Gateway's 29 s: flood-analysis jobs and large asset imports.
 */
export class BackgroundJobs extends Construct {
  readonly webhookDispatcher: AppFunction;
  readonly deadlineReminder: AppFunction;
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

    this.deadlineReminder = jobFunction('DeadlineReminder', {
      name: 'deadline-reminder',
      description: 'Daily: queues deadline_reminder events 30, 7 and 1 days before each deadline',
      memorySize: 512,
      timeout: Duration.minutes(5),
    });
    bindTable(this.deadlineReminder, table, 'readWrite');
    bindEventQueue(this.deadlineReminder, eventQueue);
    new Rule(this, 'DeadlineReminderSchedule', {
      description: 'Daily deadline reminder run',
      schedule: Schedule.cron(REMINDER_SCHEDULE),
      targets: [new LambdaFunction(this.deadlineReminder, { retryAttempts: 2 })],
    });

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
    // The hazards API function inserts a job item and answers 202; the insert starts the job here.
    this.hazardJobWorker = jobFunction('HazardJobWorker', {
      name: 'hazard-job-worker',
      description: 'Runs flood analyses queued as jobs by POST /hazards/flood-analysis',
      memorySize: 3008,
      timeout: Duration.minutes(10),
    });
    bindTable(this.hazardJobWorker, table, 'readWrite');
    bindBucket(this.hazardJobWorker, bucket, 'read', ['dem/', 'hazard-layers/', ACCOUNT_MODELS_PREFIX]);
    bindBucket(this.hazardJobWorker, bucket, 'readWrite', ['hazard-jobs/', 'evidence/']);
    this.hazardJobWorker.addEventSource(streamSource({
      startingPosition: StartingPosition.LATEST,
      batchSize: 1,
      retryAttempts: 2,
      maxRecordAge: Duration.hours(1),
      filters: [FilterCriteria.filter({ eventName: FilterRule.isEqual('INSERT'), dynamodb: { NewImage: { type: { S: FilterRule.isEqual('hazard_job') } } } })],
    }));

    // Files above the synchronous payload limit are uploaded straight to S3 and imported from there.
    this.assetImportWorker = jobFunction('AssetImportWorker', {
      name: 'asset-import-worker',
      description: 'Imports asset files uploaded through POST /assets/imports presigned URLs',
      memorySize: 2048,
      timeout: Duration.minutes(15),
    });
    bindTable(this.assetImportWorker, table, 'readWrite');
    bindBucket(this.assetImportWorker, bucket, 'read', [UPLOADS_PREFIX]);
    bucket.addEventNotification(EventType.OBJECT_CREATED, new LambdaDestination(this.assetImportWorker), { prefix: UPLOADS_PREFIX });
    // A GeoTIFF uploaded through POST /hazards/elevation-models is tiled here into the account's model.
    this.elevationModelWorker = jobFunction('ElevationModelWorker', {
      name: 'elevation-model-worker',
      description: 'Processes GeoTIFF DEMs uploaded through POST /hazards/elevation-models into tiled account models',
      memorySize: 3008,
      timeout: Duration.minutes(15),
    });
    bindTable(this.elevationModelWorker, table, 'readWrite');
    // Reads the upload and deletes it once processed; writes the tiles (and removes them after a failed write).
    bindBucket(this.elevationModelWorker, bucket, 'readWrite', [ELEVATION_UPLOADS_PREFIX, ACCOUNT_MODELS_PREFIX]);
    bucket.addEventNotification(EventType.OBJECT_CREATED, new LambdaDestination(this.elevationModelWorker), { prefix: ELEVATION_UPLOADS_PREFIX });

    // POST /assessments/{id}/deliverables inserts a job item; the insert starts the job here. The
    // PDF, rendering and GeoPackage libraries read their own files (fonts, WebAssembly) at run time.
    this.deliverablesWorker = jobFunction('DeliverablesWorker', {
      name: 'deliverables-worker',
      description: 'Generates the deliverable package of an assessment: report PDF, GeoPackage and Shapefiles, asset list XLSX',
      memorySize: 2048,
      timeout: Duration.minutes(10),
      nodeModules: ['pdfkit', '@resvg/resvg-wasm', 'sql.js'],
    });
    bindTable(this.deliverablesWorker, table, 'readWrite');
    bindBucket(this.deliverablesWorker, bucket, 'read', ['evidence/']);
    bindBucket(this.deliverablesWorker, bucket, 'readWrite', ['deliverables/']);
    this.deliverablesWorker.addEventSource(streamSource({
      startingPosition: StartingPosition.LATEST,
      batchSize: 1,
      retryAttempts: 2,
      maxRecordAge: Duration.hours(1),
      filters: [FilterCriteria.filter({ eventName: FilterRule.isEqual('INSERT'), dynamodb: { NewImage: { type: { S: FilterRule.isEqual('deliverable_job') } } } })],
    }));

    // Jobs carry a lease: every kind whose worker was lost is resumed, run again or failed here.
    new Rule(this, 'LostJobSweep', {
      description: 'Every 5 minutes: resume or fail asset imports, elevation models and deliverable packages, and fail hazard jobs, whose worker lease expired',
      schedule: Schedule.rate(Duration.minutes(5)),
      targets: [this.assetImportWorker, this.elevationModelWorker, this.hazardJobWorker, this.deliverablesWorker]
        .map((worker) => new LambdaFunction(worker, { retryAttempts: 0 })),
    });

    this.streamConsumers = [this.outboxRelay, this.hazardJobWorker, this.deliverablesWorker];
    for (const streamReader of this.streamConsumers) {
      Validations.of(streamReader.role!).acknowledge({
        id: 'AwsSolutions-IAM5[Resource::*]',
        reason: 'dynamodb:ListStreams (stream discovery by the event source) and the X-Ray tracing actions do not support resource-level permissions; reading records is granted on this table\'s stream only.',
      });
    }
  }
}
