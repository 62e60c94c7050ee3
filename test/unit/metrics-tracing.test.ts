import http from 'node:http';
import https from 'node:https';
import { freshModule } from '../helpers/fresh-module';

/**
 * X-Ray capture of every AWS SDK client and of outbound HTTP(S), in Lambda only: each case loads
 * the client module afresh under the environment it describes.
 */
type Clients = typeof import('../../shared/adapters/aws-clients');
const XRAY_MIDDLEWARE = 'XRaySDKInstrumentation';

const middlewareOf = (client: { middlewareStack: { identify(): string[] } }) => client.middlewareStack.identify().map((entry) => entry.split(' ')[0]);

function loadClients(lambda: boolean): Clients {
  if (lambda) process.env.AWS_EXECUTION_ENV = 'AWS_Lambda_nodejs22.x';
  else delete process.env.AWS_EXECUTION_ENV;
  return freshModule<Clients>(require.resolve('../../shared/adapters/aws-clients'));
}

const original = { http: http.request, https: https.request };
const originalGet = { http: http.get, https: https.get };
afterEach(() => {
  delete process.env.AWS_EXECUTION_ENV;
  // The tracer patches these process-wide (marking them with __request/__get); undo it for the next case.
  for (const [module, name] of [[http, 'http'], [https, 'https']] as const) {
    Object.assign(module, { request: original[name], get: originalGet[name] });
    delete (module as unknown as Record<string, unknown>).__request;
    delete (module as unknown as Record<string, unknown>).__get;
  }
});

describe('in Lambda', () => {
  it('every client the adapters share carries the X-Ray middleware', () => {
    const clients = loadClients(true);
    expect(clients.activeTracer()).toBeDefined();
    for (const client of [clients.dynamo(), clients.s3(), clients.sqs()]) expect(middlewareOf(client)).toContain(XRAY_MIDDLEWARE);
    clients.resetAwsClients();
  });

  it('clients made elsewhere (KMS, Cognito, API Gateway) are captured through traced()', async () => {
    const clients = loadClients(true);
    const { KMSClient } = await import('@aws-sdk/client-kms');
    const { CognitoIdentityProviderClient } = await import('@aws-sdk/client-cognito-identity-provider');
    const { APIGatewayClient } = await import('@aws-sdk/client-api-gateway');
    for (const client of [new KMSClient({}), new CognitoIdentityProviderClient({}), new APIGatewayClient({})]) {
      expect(middlewareOf(client)).not.toContain(XRAY_MIDDLEWARE);
      expect(middlewareOf(clients.traced(client))).toContain(XRAY_MIDDLEWARE);
      client.destroy();
    }
  });

  it('outbound HTTP(S) (webhook deliveries) is captured once the tracer exists', () => {
    const clients = loadClients(true);
    expect(https.request).toBe(original.https);
    clients.activeTracer();
    expect(https.request).not.toBe(original.https);
    expect(http.request).not.toBe(original.http);
  });

  it('the webhook sender creates the tracer, so its first POST is captured', async () => {
    process.env.AWS_EXECUTION_ENV = 'AWS_Lambda_nodejs22.x';
    const sender = freshModule<typeof import('../../shared/adapters/webhook-sender')>(require.resolve('../../shared/adapters/webhook-sender'));
    new sender.HttpWebhookSender({ mode: 'aws' });
    expect(https.request).not.toBe(original.https);
  });
});

describe('outside Lambda (local mode, tests)', () => {
  it('no tracer, clients unchanged, https untouched', () => {
    const clients = loadClients(false);
    expect(clients.activeTracer()).toBeUndefined();
    for (const client of [clients.dynamo(), clients.s3(), clients.sqs()]) expect(middlewareOf(client)).not.toContain(XRAY_MIDDLEWARE);
    expect(https.request).toBe(original.https);
    clients.resetAwsClients();
  });
});

describe('the shared clients, in Lambda and outside', () => {
  it.each([true, false])('leave out the SDK call logging, which redacts every input and output for a logger that writes nothing (Lambda: %s)', async (lambda) => {
    const clients = loadClients(lambda);
    const { DynamoDBClient } = await import('@aws-sdk/client-dynamodb');
    const plain = new DynamoDBClient({});
    expect(middlewareOf(plain)).toContain('loggerMiddleware');
    for (const client of [clients.dynamo(), clients.s3(), clients.sqs()]) expect(middlewareOf(client)).not.toContain('loggerMiddleware');
    plain.destroy();
    clients.resetAwsClients();
  });
});
