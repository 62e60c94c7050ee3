import { Duration, RemovalPolicy, Validations } from 'aws-cdk-lib';
import { AttributeType, BillingMode, StreamViewType, Table, TableEncryption } from 'aws-cdk-lib/aws-dynamodb';
import { BlockPublicAccess, Bucket, BucketEncryption, ObjectOwnership } from 'aws-cdk-lib/aws-s3';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { ELEVATION_UPLOADS_PREFIX } from '../shared/adapters/elevation/processed-keys';
import { Construct } from 'constructs';
import { TABLE_SCHEMA } from '../shared/adapters/table-schema';
import { WorkQueues } from './job-queues';
import type { StageConfig } from './stage-config';

/** Deliveries a message gets before it is parked in the dead-letter queue. */
export const EVENT_MAX_RECEIVE_COUNT = 8;

/** Prefix of direct (presigned) uploads; unfinished imports are cleaned up after a week. */
export const UPLOADS_PREFIX = 'uploads/';
const UPLOADS_EXPIRE_AFTER = Duration.days(7);

export interface DataStoreProps {
  config: StageConfig;
  /** The events queue must stay invisible for several consumer timeouts (AWS advises 6×). */
  eventConsumerTimeout: Duration;
}

/**
 * The stateful resources — table, buckets, queues — kept apart from functions and the API so
 * their lifecycle (retention, removal policy) is decided in one place. Physical names are left
 * to CloudFormation; functions learn them from their environment.
 */
export class DataStore extends Construct {
  readonly table: Table;
  readonly bucket: Bucket;
  readonly eventQueue: Queue;
  readonly eventDeadLetterQueue: Queue;
  /** Where the table-stream consumers park the records they could not process after their retries. */
  readonly streamFailureQueue: Queue;
  /** The job kinds' queues and the reminder queue, each with its dead-letter queue. */
  readonly workQueues: WorkQueues;

  constructor(scope: Construct, id: string, props: DataStoreProps) {
    super(scope, id);
    const { removalPolicy } = props.config;

    this.table = new Table(this, 'Table', {
      partitionKey: { name: TABLE_SCHEMA.partitionKey, type: AttributeType.STRING },
      sortKey: { name: TABLE_SCHEMA.sortKey, type: AttributeType.STRING },
      billingMode: BillingMode.PAY_PER_REQUEST,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      encryption: TableEncryption.AWS_MANAGED,
      timeToLiveAttribute: TABLE_SCHEMA.ttlAttribute,
      // The outbox relay reads pending events from the stream.
      stream: StreamViewType.NEW_AND_OLD_IMAGES,
      deletionProtection: removalPolicy !== RemovalPolicy.DESTROY,
      removalPolicy,
    });
    for (const index of TABLE_SCHEMA.globalIndexes) {
      this.table.addGlobalSecondaryIndex({
        indexName: index.name,
        partitionKey: { name: index.partitionKey, type: AttributeType.STRING },
        sortKey: { name: index.sortKey, type: AttributeType.STRING },
      });
    }

    const accessLogs = new Bucket(this, 'AccessLogBucket', {
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      enforceSSL: true,
      encryption: BucketEncryption.S3_MANAGED,
      lifecycleRules: [{ expiration: props.config.accessLogExpiration }],
      removalPolicy,
    });

    this.bucket = new Bucket(this, 'DataBucket', {
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      enforceSSL: true,
      encryption: BucketEncryption.S3_MANAGED,
      objectOwnership: ObjectOwnership.BUCKET_OWNER_ENFORCED,
      serverAccessLogsBucket: accessLogs,
      serverAccessLogsPrefix: 'data-bucket/',
      lifecycleRules: [
        { id: 'expire-uploads', prefix: UPLOADS_PREFIX, expiration: UPLOADS_EXPIRE_AFTER },
        // The worker deletes each elevation model's GeoTIFF once processed; this catches the rest.
        { id: 'expire-elevation-uploads', prefix: ELEVATION_UPLOADS_PREFIX, expiration: UPLOADS_EXPIRE_AFTER },
        // Flood-analysis job results live as long as their job items (7-day TTL).
        { id: 'expire-hazard-jobs', prefix: 'hazard-jobs/', expiration: Duration.days(7) },
        { id: 'abort-multipart', abortIncompleteMultipartUploadAfter: Duration.days(1) },
      ],
      removalPolicy,
    });

    this.eventDeadLetterQueue = new Queue(this, 'EventDeadLetterQueue', {
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      retentionPeriod: Duration.days(14),
      removalPolicy,
    });

    this.streamFailureQueue = new Queue(this, 'StreamFailureQueue', {
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      retentionPeriod: Duration.days(14),
      removalPolicy,
    });
    Validations.of(this.streamFailureQueue).acknowledge({
      id: 'AwsSolutions-SQS3',
      reason: 'It is the dead-letter destination of the table-stream event sources (onFailure), which cdk-nag does not recognise as a redrive; nothing consumes it but the operator.',
    });

    this.workQueues = new WorkQueues(this, 'Work', { removalPolicy });

    this.eventQueue = new Queue(this, 'EventQueue', {
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      visibilityTimeout: Duration.seconds(props.eventConsumerTimeout.toSeconds() * 6),
      retentionPeriod: Duration.days(4),
      deadLetterQueue: { queue: this.eventDeadLetterQueue, maxReceiveCount: EVENT_MAX_RECEIVE_COUNT },
      removalPolicy,
    });
  }
}
