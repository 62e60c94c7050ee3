import { CreateTableCommand, DeleteTableCommand, DescribeTableCommand, ResourceNotFoundException, type GlobalSecondaryIndex } from '@aws-sdk/client-dynamodb';
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { CreateBucketCommand, HeadBucketCommand } from '@aws-sdk/client-s3';
import { CreateQueueCommand, GetQueueAttributesCommand } from '@aws-sdk/client-sqs';
import { dynamo, s3, sqs } from '../shared/adapters/aws-clients';
import { BatchWriter } from '../shared/adapters/batch-writer';
import { QUEUES, TABLE_SCHEMA } from '../shared/adapters/table-schema';
import { JOB_KINDS, type JobKindName } from '../shared/application/jobs/job-start';

export interface LocalResources {
  tableName: string;
  bucketName: string;
  queueUrl: string;
  deadLetterQueueUrl: string;
  /** Each job kind's queue (its dead-letter queue beside it), as the stack has. */
  jobQueueUrls: Record<JobKindName, string>;
  /** The per-account deadline reminder runs the daily timer fans out. */
  reminderQueueUrl: string;
}

/** Local queue names: the stack lets CloudFormation name its queues. */
const JOB_QUEUE_NAMES: Record<JobKindName, string> = {
  hazard_job: 'hazard-jobs',
  asset_import: 'asset-imports',
  elevation_model: 'elevation-models',
  deliverable: 'deliverables',
};
const REMINDER_QUEUE_NAME = 'deadline-reminders';
/** Longer than any job runs locally, so a running job's message is not delivered to a second poller. */
const JOB_VISIBILITY_SECONDS = 900;

/** Emulated queues redrive to the dead-letter queue after this many receives (as in the stack). */
export const LOCAL_MAX_RECEIVE_COUNT = 8;

/**
 * Creates, if missing, what the CDK stack creates in AWS: the table with its indexes, the bucket
 * the event, job and reminder queues with their dead-letter queues. Idempotent, so every start can call it.
 */
export async function ensureLocalResources(tableName: string, bucketName: string): Promise<LocalResources> {
  await ensureTable(tableName);
  await ensureBucket(bucketName);
  const events = await ensureQueue(QUEUES.events, 60, QUEUES.eventsDeadLetter);
  const jobQueueUrls = Object.fromEntries(await Promise.all(JOB_KINDS.map(async (kind) => [
    kind, (await ensureQueue(JOB_QUEUE_NAMES[kind], JOB_VISIBILITY_SECONDS, `${JOB_QUEUE_NAMES[kind]}-dlq`)).queueUrl,
  ]))) as Record<JobKindName, string>;
  const reminders = await ensureQueue(REMINDER_QUEUE_NAME, 300, `${REMINDER_QUEUE_NAME}-dlq`);
  return { tableName, bucketName, queueUrl: events.queueUrl, deadLetterQueueUrl: events.deadLetterQueueUrl, jobQueueUrls, reminderQueueUrl: reminders.queueUrl };
}

/** A queue that redrives to its own dead-letter queue, as every queue of the stack does. */
async function ensureQueue(name: string, visibilitySeconds: number, deadLetterName: string): Promise<{ queueUrl: string; deadLetterQueueUrl: string }> {
  const deadLetterQueueUrl = (await sqs().send(new CreateQueueCommand({ QueueName: deadLetterName }))).QueueUrl!;
  const { Attributes } = await sqs().send(new GetQueueAttributesCommand({ QueueUrl: deadLetterQueueUrl, AttributeNames: ['QueueArn'] }));
  const queueUrl = (await sqs().send(new CreateQueueCommand({
    QueueName: name,
    Attributes: {
      VisibilityTimeout: String(visibilitySeconds),
      RedrivePolicy: JSON.stringify({ deadLetterTargetArn: Attributes!.QueueArn, maxReceiveCount: LOCAL_MAX_RECEIVE_COUNT }),
    },
  }))).QueueUrl!;
  return { queueUrl, deadLetterQueueUrl };
}

/**
 * Creates the table with its indexes, as the stack does, unless it exists; resolves once it is
 * active. A table from a data directory made before an index was added is rebuilt with it.
 */
export async function ensureTable(tableName: string): Promise<void> {
  let existing: string[] | undefined;
  try {
    const { Table } = await dynamo().send(new DescribeTableCommand({ TableName: tableName }));
    existing = (Table?.GlobalSecondaryIndexes ?? []).map((index) => index.IndexName!);
  } catch (error) {
    if (!(error instanceof ResourceNotFoundException) && (error as Error).name !== 'ResourceNotFoundException') throw error;
  }
  if (!existing) return createTable(tableName);
  if (TABLE_SCHEMA.globalIndexes.some((index) => !existing.includes(index.name))) await rebuildWithIndexes(tableName);
}

/**
 * The emulator cannot add an index to a table (UpdateTable creates none), so the items move to a
 * new table with every index and back (a Scan: a one-time migration at start, never on a request).
 */
async function rebuildWithIndexes(tableName: string): Promise<void> {
  const holding = `${tableName}-migrating`;
  await dynamo().send(new DeleteTableCommand({ TableName: holding })).catch(() => undefined);
  await createTable(holding);
  await copyItems(tableName, holding);
  await dynamo().send(new DeleteTableCommand({ TableName: tableName }));
  await createTable(tableName);
  await copyItems(holding, tableName);
  await dynamo().send(new DeleteTableCommand({ TableName: holding }));
}

async function copyItems(from: string, to: string): Promise<void> {
  const writer = new BatchWriter(to);
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await dynamo().send(new ScanCommand({ TableName: from, ExclusiveStartKey: startKey }));
    for (const item of page.Items ?? []) await writer.add({ PutRequest: { Item: item } });
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  await writer.drain();
}

async function createTable(tableName: string): Promise<void> {
  const attributes = new Set<string>([TABLE_SCHEMA.partitionKey, TABLE_SCHEMA.sortKey]);
  const indexes: GlobalSecondaryIndex[] = TABLE_SCHEMA.globalIndexes.map((index) => {
    attributes.add(index.partitionKey);
    attributes.add(index.sortKey);
    return {
      IndexName: index.name,
      KeySchema: [{ AttributeName: index.partitionKey, KeyType: 'HASH' }, { AttributeName: index.sortKey, KeyType: 'RANGE' }],
      Projection: { ProjectionType: 'ALL' },
    };
  });
  await dynamo().send(new CreateTableCommand({
    TableName: tableName,
    BillingMode: 'PAY_PER_REQUEST',
    AttributeDefinitions: [...attributes].map((name) => ({ AttributeName: name, AttributeType: 'S' })),
    KeySchema: [{ AttributeName: TABLE_SCHEMA.partitionKey, KeyType: 'HASH' }, { AttributeName: TABLE_SCHEMA.sortKey, KeyType: 'RANGE' }],
    GlobalSecondaryIndexes: indexes,
  }));
  for (let attempt = 0; attempt < 100; attempt++) {
    const { Table } = await dynamo().send(new DescribeTableCommand({ TableName: tableName }));
    if (Table?.TableStatus === 'ACTIVE') return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`Table ${tableName} did not become active`);
}

async function ensureBucket(bucketName: string): Promise<void> {
  try {
    await s3().send(new HeadBucketCommand({ Bucket: bucketName }));
  } catch {
    await s3().send(new CreateBucketCommand({ Bucket: bucketName }));
  }
}
