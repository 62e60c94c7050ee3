import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { S3Client } from '@aws-sdk/client-s3';
import type { SFNClient } from '@aws-sdk/client-sfn';
import type { SQSClient } from '@aws-sdk/client-sqs';
import type { Tracer } from '@aws-lambda-powertools/tracer';

/**
 * One client per service per process, each SDK package loaded on first use: a function pays the
 * load time of the services it calls only (the authorizer reads DynamoDB alone). Endpoints come
 * from the standard `AWS_ENDPOINT_URL_*` variables, which the local runner points at the loopback
 * emulators; the only local-specific setting is path-style S3 addressing (no wildcard DNS on loopback).
 */
let tracer: Tracer | null | undefined;
let documentClient: DynamoDBDocumentClient | undefined;
let s3Client: S3Client | undefined;
let sqsClient: SQSClient | undefined;
let sfnClient: SFNClient | undefined;

/**
 * The X-Ray tracer, in Lambda only (`AWS_EXECUTION_ENV`; every function has active tracing): the
 * X-Ray SDK is loaded there and nowhere else. Creating it also captures outbound HTTP(S) calls
 * (it patches `http`/`https` and `fetch`), so every call the function makes appears in its trace.
 */
export function activeTracer(): Tracer | undefined {
  if (tracer === undefined) {
    tracer = process.env.AWS_EXECUTION_ENV
      ? new (require('@aws-lambda-powertools/tracer') as typeof import('@aws-lambda-powertools/tracer')).Tracer()
      : null;
  }
  return tracer ?? undefined;
}

/** Each call of the client becomes an X-Ray subsegment (service, operation, latency, error). */
export function traced<T>(client: T): T {
  return activeTracer()?.captureAWSv3Client(client) ?? client;
}

/**
 * Every client here keeps the SDK's default logger, which writes nothing; the SDK's call logging
 * still walks each call's whole input and output to redact them for it (a quarter of an import's
 * SDK time in a profile), so that step is taken off the stack.
 */
function withoutCallLogging<T extends { middlewareStack: { remove(name: string): boolean } }>(client: T): T {
  client.middlewareStack.remove('loggerMiddleware');
  return client;
}

export function dynamo(): DynamoDBDocumentClient {
  if (!documentClient) {
    const { DynamoDBClient } = require('@aws-sdk/client-dynamodb') as typeof import('@aws-sdk/client-dynamodb');
    const { DynamoDBDocumentClient: DocumentClient } = require('@aws-sdk/lib-dynamodb') as typeof import('@aws-sdk/lib-dynamodb');
    documentClient = DocumentClient.from(traced(withoutCallLogging(new DynamoDBClient({}))), {
      marshallOptions: { removeUndefinedValues: true, convertClassInstanceToMap: false },
    });
  }
  return documentClient;
}

export function s3(): S3Client {
  if (!s3Client) {
    const { S3Client: Client } = require('@aws-sdk/client-s3') as typeof import('@aws-sdk/client-s3');
    s3Client = traced(withoutCallLogging(new Client({
      forcePathStyle: Boolean(process.env.AWS_ENDPOINT_URL_S3),
      // The local S3 emulator stores aws-chunked framing verbatim unless checksums are on demand only.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    })));
  }
  return s3Client;
}

export function sqs(): SQSClient {
  if (!sqsClient) {
    const { SQSClient: Client } = require('@aws-sdk/client-sqs') as typeof import('@aws-sdk/client-sqs');
    // With an endpoint override (the local emulator), send to it rather than to the queue URL's host.
    sqsClient = traced(withoutCallLogging(new Client({ useQueueUrlAsEndpoint: !process.env.AWS_ENDPOINT_URL_SQS })));
  }
  return sqsClient;
}

/** Step Functions, for the elevation model worker alone (it starts the connection fan-out). */
export function sfn(): SFNClient {
  if (!sfnClient) {
    const { SFNClient: Client } = require('@aws-sdk/client-sfn') as typeof import('@aws-sdk/client-sfn');
    sfnClient = traced(withoutCallLogging(new Client({})));
  }
  return sfnClient;
}

/** The local runner and tests start fresh emulators; clients must follow the new endpoints. */
export function resetAwsClients(): void {
  documentClient?.destroy();
  s3Client?.destroy();
  sqsClient?.destroy();
  sfnClient?.destroy();
  documentClient = undefined;
  s3Client = undefined;
  sqsClient = undefined;
  sfnClient = undefined;
}
