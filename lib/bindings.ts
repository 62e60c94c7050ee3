import { Stack, Validations, type CfnElement } from 'aws-cdk-lib';
import { Effect, PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import type { IBucket } from 'aws-cdk-lib/aws-s3';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import type { Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import { TABLE_SCHEMA } from '../shared/adapters/table-schema';
import { JOB_QUEUE_SETTINGS } from '../shared/adapters/sqs-job-starter';
import type { JobKindName } from '../shared/application/jobs/job-start';

/**
 * Each helper sets the environment variable a function reads (see shared/config.ts) and grants
 * exactly the access that goes with it, so a function can never get one without the other.
 * Actions are listed one by one (no `*`): the CDK grant helpers would add Scan, which the
 * application never uses, and wildcard S3 actions.
 */

const TABLE_READ_ACTIONS = ['dynamodb:GetItem', 'dynamodb:BatchGetItem', 'dynamodb:Query'];
const TABLE_WRITE_ACTIONS = ['dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem', 'dynamodb:BatchWriteItem'];
const OBJECT_READ_ACTIONS = ['s3:GetObject'];
const OBJECT_WRITE_ACTIONS = ['s3:PutObject', 's3:DeleteObject', 's3:AbortMultipartUpload'];

export function bindTable(fn: LambdaFunction, table: ITable, access: 'read' | 'readWrite'): void {
  fn.addEnvironment('TABLE_NAME', table.tableName);
  fn.addToRolePolicy(new PolicyStatement({
    actions: access === 'read' ? TABLE_READ_ACTIONS : [...TABLE_READ_ACTIONS, ...TABLE_WRITE_ACTIONS],
    resources: [table.tableArn],
  }));
  // Lists are served by the two GSIs, named one by one rather than `index/*`.
  fn.addToRolePolicy(new PolicyStatement({
    actions: ['dynamodb:Query'],
    resources: TABLE_SCHEMA.globalIndexes.map((index) => `${table.tableArn}/index/${index.name}`),
  }));
}

/**
 * The hourly quota on `USAGE#<keyHash>` items — lease and settle (UpdateItem), read the count
 * (GetItem, Query over the shards) — for functions that otherwise write nothing to the table.
 */
export function bindUsageCounter(fn: LambdaFunction, table: ITable): void {
  fn.addEnvironment('TABLE_NAME', table.tableName);
  fn.addToRolePolicy(leadingKeyStatement(table, ['dynamodb:UpdateItem', 'dynamodb:GetItem', 'dynamodb:Query'], 'USAGE#*'));
}

/** The authorizer's only table access: `APIKEY#<hash>` items, read, and their `last_used_at` stamped. */
export function bindApiKeyLookup(fn: LambdaFunction, table: ITable): void {
  fn.addEnvironment('TABLE_NAME', table.tableName);
  fn.addToRolePolicy(leadingKeyStatement(table, ['dynamodb:GetItem', 'dynamodb:UpdateItem'], 'APIKEY#*'));
}

/**
 * Object access limited to key prefixes such as `library/`. ListBucket (names only, no content)
 * is what makes S3 answer 404 rather than 403 for a missing object, which the blob store relies on.
 */
export function bindBucket(fn: LambdaFunction, bucket: IBucket, access: 'read' | 'readWrite', prefixes: string[]): void {
  fn.addEnvironment('BUCKET_NAME', bucket.bucketName);
  fn.addToRolePolicy(new PolicyStatement({ actions: ['s3:ListBucket'], resources: [bucket.bucketArn] }));
  fn.addToRolePolicy(new PolicyStatement({
    actions: access === 'read' ? OBJECT_READ_ACTIONS : [...OBJECT_READ_ACTIONS, ...OBJECT_WRITE_ACTIONS],
    resources: prefixes.map((prefix) => bucket.arnForObjects(`${prefix}*`)),
  }));
  const bucketId = Stack.of(bucket).getLogicalId(bucket.node.defaultChild as CfnElement);
  for (const prefix of prefixes) {
    Validations.of(fn).acknowledge({
      id: `AwsSolutions-IAM5[Resource::<${bucketId}.Arn>/${prefix}*]`,
      reason: `Objects are created at run time under ${prefix}; access is limited to that prefix of the application's own bucket.`,
    });
  }
}

/**
 * The connection run's outcome on its model (`ACCOUNT#<id>` items): UpdateItem alone, conditional
 * on the run still being the model's; nothing is read, created or deleted.
 */
export function bindModelConnectionOutcome(fn: LambdaFunction, table: ITable): void {
  fn.addEnvironment('TABLE_NAME', table.tableName);
  fn.addToRolePolicy(leadingKeyStatement(table, ['dynamodb:UpdateItem'], 'ACCOUNT#*'));
}

/** Sending events; consuming is granted by the SQS event source of the consumer. */
export function bindEventQueue(fn: LambdaFunction, queue: IQueue): void {
  fn.addEnvironment('EVENT_QUEUE_URL', queue.queueUrl);
  queue.grantSendMessages(fn);
}

/** Starting jobs of `kind`: their start messages go to its queue. */
export function bindJobQueue(fn: LambdaFunction, kind: JobKindName, queue: IQueue): void {
  fn.addEnvironment(JOB_QUEUE_SETTINGS[kind], queue.queueUrl);
  queue.grantSendMessages(fn);
}

/** Fanning the daily reminders out, one message per page of accounts. */
export function bindReminderQueue(fn: LambdaFunction, queue: IQueue): void {
  fn.addEnvironment('REMINDER_QUEUE_URL', queue.queueUrl);
  queue.grantSendMessages(fn);
}

/** Parking deliveries that exhausted their retries. */
export function bindDeadLetterQueue(fn: LambdaFunction, queue: IQueue): void {
  fn.addEnvironment('EVENT_DLQ_URL', queue.queueUrl);
  queue.grantSendMessages(fn);
}

function leadingKeyStatement(table: ITable, actions: string[], keyPattern: string): PolicyStatement {
  return new PolicyStatement({
    effect: Effect.ALLOW,
    actions,
    resources: [table.tableArn],
    conditions: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [keyPattern] } },
  });
}
