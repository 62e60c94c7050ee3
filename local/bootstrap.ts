import { CreateTableCommand, DeleteTableCommand, DescribeTableCommand, ResourceNotFoundException, type GlobalSecondaryIndex } from '@aws-sdk/client-dynamodb';
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { CreateBucketCommand, HeadBucketCommand } from '@aws-sdk/client-s3';
import { CreateQueueCommand, GetQueueAttributesCommand } from '@aws-sdk/client-sqs';
import { dynamo, s3, sqs } from '../shared/adapters/aws-clients';
import { BatchWriter } from '../shared/adapters/batch-writer';
import { QUEUES, TABLE_SCHEMA } from '../shared/adapters/table-schema';

export interface LocalResources {
  tableName: string;
  bucketName: string;
  queueUrl: string;
  deadLetterQueueUrl: string;
}

/** Emulated queues redrive to the dead-letter queue after this many receives (as in the stack). */
export const LOCAL_MAX_RECEIVE_COUNT = 8;

/**
 * Creates, if missing, what the CDK stack creates in AWS: the table with its indexes, the bucket
 * and the event queue with its dead-letter queue. Idempotent, so every start can call it.
 */
export async function ensureLocalResources(tableName: string, bucketName: string): Promise<LocalResources> {
  await ensureTable(tableName);
  await ensureBucket(bucketName);
  const deadLetterQueueUrl = (await sqs().send(new CreateQueueCommand({ QueueName: QUEUES.eventsDeadLetter }))).QueueUrl!;
  const { Attributes } = await sqs().send(new GetQueueAttributesCommand({ QueueUrl: deadLetterQueueUrl, AttributeNames: ['QueueArn'] }));
  const queueUrl = (await sqs().send(new CreateQueueCommand({
    QueueName: QUEUES.events,
    Attributes: {
      VisibilityTimeout: '60',
      RedrivePolicy: JSON.stringify({ deadLetterTargetArn: Attributes!.QueueArn, maxReceiveCount: LOCAL_MAX_RECEIVE_COUNT }),
    },
  }))).QueueUrl!;
  return { tableName, bucketName, queueUrl, deadLetterQueueUrl };
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
