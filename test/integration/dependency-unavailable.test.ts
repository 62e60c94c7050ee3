import { DynamoDBClient, GetItemCommand } from '@aws-sdk/client-dynamodb';
import { errorResponse } from '../../shared/http/pipeline';
import { logger } from '../../shared/observability/logger';
import { startAwsStandIn } from '../helpers/aws-stand-in';

/**
 * Errors of AWS calls as the SDK really raises them (a DynamoDB client against a loopback stand-in
 * answering as DynamoDB does), and the answers they get: throttling and the service's brief
 * failures are 503 `service_unavailable` with Retry-After, to retry; anything else the code did not
 * expect stays a 500.
 */
type Answer = { status: number; type?: string };
let standIn: Awaited<ReturnType<typeof startAwsStandIn>>;
let answer: Answer = { status: 200 };

beforeAll(async () => {
  standIn = await startAwsStandIn('application/x-amz-json-1.0', () => ({
    status: answer.status,
    body: answer.type ? { __type: `com.amazonaws.dynamodb.v20120810#${answer.type}`, message: 'stand-in refusal' } : {},
  }));
});

afterAll(async () => {
  await standIn.close();
});

async function sdkError(given: Answer): Promise<Error> {
  answer = given;
  const client = new DynamoDBClient({
    endpoint: standIn.endpoint, region: 'us-east-1', maxAttempts: 1,
    credentials: { accessKeyId: 'test', secretAccessKey: 'test' },
  });
  try {
    await client.send(new GetItemCommand({ TableName: 't', Key: { pk: { S: 'a' } } }));
    throw new Error('the stand-in answered without an error');
  } catch (error) {
    return error as Error;
  } finally {
    client.destroy();
  }
}

describe('AWS dependency failures at the edge', () => {
  it.each([
    ['throttled table', { status: 400, type: 'ProvisionedThroughputExceededException' }],
    ['throttled account', { status: 400, type: 'ThrottlingException' }],
    ['request limit of the account', { status: 400, type: 'RequestLimitExceeded' }],
    ['the service failing inside', { status: 500, type: 'InternalServerError' }],
    ['the service unavailable', { status: 503 }],
  ])('%s: 503 service_unavailable with Retry-After, no internals', async (_name, given) => {
    const warn = jest.spyOn(logger, 'warn').mockImplementation(() => undefined);
    const error = await sdkError(given);
    const response = errorResponse(error, 'req-1');
    expect(response.statusCode).toBe(503);
    expect(response.headers).toMatchObject({ 'Retry-After': '1', 'Content-Type': 'application/problem+json' });
    const body = JSON.parse(response.body) as Record<string, unknown>;
    expect(body).toMatchObject({ code: 'service_unavailable', status: 503, instance: 'req-1' });
    expect(response.body).not.toContain('stand-in refusal');
    expect(warn).toHaveBeenCalledWith('Dependency unavailable', { requestId: 'req-1', error });
    warn.mockRestore();
  });

  it.each([
    ['a condition the code did not handle', { status: 400, type: 'ConditionalCheckFailedException' }],
    ['a request the service rejects', { status: 400, type: 'ValidationException' }],
    ['a missing table', { status: 400, type: 'ResourceNotFoundException' }],
  ])('%s: still a 500 internal_error, logged as an error', async (_name, given) => {
    const logged = jest.spyOn(logger, 'error').mockImplementation(() => undefined);
    const response = errorResponse(await sdkError(given), 'req-2');
    expect(response.statusCode).toBe(500);
    expect(JSON.parse(response.body)).toMatchObject({ code: 'internal_error' });
    expect(response.headers).not.toHaveProperty('Retry-After');
    expect(logged).toHaveBeenCalledWith('Unhandled error', expect.objectContaining({ requestId: 'req-2' }));
    logged.mockRestore();
  });

  it('an error of our own that only borrows a throttling name is not a dependency failure', () => {
    const logged = jest.spyOn(logger, 'error').mockImplementation(() => undefined);
    const own = Object.assign(new Error('not from AWS'), { name: 'ThrottlingException' });
    expect(errorResponse(own, 'req-3').statusCode).toBe(500);
    logged.mockRestore();
  });
});
