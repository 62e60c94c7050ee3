import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import { ensureLocalResources } from '../../local/bootstrap';
import { LOCAL_BUCKET_NAME, LOCAL_TABLE_NAME, useLocalEmulators } from '../../local/app';
import { ensureLocalCredentialKey } from '../../local/credential-key';
import { startEmulators } from '../../local/emulators';
import { resetCredentialSignerForTests } from '../../shared/adapters/credential-signer';
import { bearerAuthorizerContext } from '../../shared/http/bearer';
import { settleUsage } from '../../shared/http/deps';
import type { BearerUser } from '../../shared/domain/identity/signed-in-user';
import type { ApiHandler } from '../../shared/http/pipeline';
import { matchRoute } from '../../local/gateway';

export interface HarnessResponse {
  status: number;
  headers: Record<string, string>;
  json: any;
  body: string;
}

/**
 * The /v1 handlers of one group against the DynamoDB emulator, invoked with the event API Gateway
 * sends after its bearer authorizer accepted the user (the authorizer itself is tested apart).
 */
export async function startV1Harness(loadHandler: () => Promise<{ handler: ApiHandler }>) {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'vac-v1-'));
  const emulators = await startEmulators({ dataDir });
  useLocalEmulators(dataDir, emulators.endpoints);
  await ensureLocalResources(LOCAL_TABLE_NAME, LOCAL_BUCKET_NAME);
  process.env.CREDENTIAL_KEY_FILE = ensureLocalCredentialKey(dataDir);
  resetCredentialSignerForTests();
  const { handler } = await loadHandler();
  let counter = 0;

  async function invoke(method: string, pathAndQuery: string, options: { user?: BearerUser; json?: unknown; headers?: Record<string, string> } = {}): Promise<HarnessResponse> {
    const url = new URL(pathAndQuery, 'http://127.0.0.1');
    const matched = matchRoute(method, url.pathname);
    if (!matched) throw new Error(`No route ${method} ${url.pathname}`);
    const query: Record<string, string> = {};
    const multi: Record<string, string[]> = {};
    for (const [name, value] of url.searchParams) {
      query[name] = value;
      (multi[name] ??= []).push(value);
    }
    const headers = { Host: '127.0.0.1:3000', 'X-Forwarded-Proto': 'http', ...(options.json !== undefined ? { 'Content-Type': 'application/json' } : {}), ...options.headers };
    const event = {
      resource: matched.route.path,
      path: url.pathname,
      httpMethod: method,
      headers,
      multiValueHeaders: {},
      queryStringParameters: Object.keys(query).length ? query : null,
      multiValueQueryStringParameters: Object.keys(query).length ? multi : null,
      pathParameters: Object.keys(matched.params).length ? matched.params : null,
      stageVariables: null,
      body: options.json === undefined ? null : JSON.stringify(options.json),
      isBase64Encoded: false,
      requestContext: {
        requestId: `req-${++counter}`,
        stage: 'api',
        identity: { sourceIp: '127.0.0.1' },
        authorizer: options.user ? bearerAuthorizerContext({ ok: true, user: options.user }) : null,
      },
    } as unknown as APIGatewayProxyEvent;
    const result = await handler(event, {} as Context);
    const body = result.isBase64Encoded ? Buffer.from(result.body, 'base64').toString('latin1') : result.body;
    let json: any;
    try {
      json = body ? JSON.parse(body) : undefined;
    } catch {
      json = undefined;
    }
    return { status: result.statusCode, headers: Object.fromEntries(Object.entries(result.headers ?? {}).map(([k, v]) => [k.toLowerCase(), String(v)])), json, body };
  }

  return {
    invoke,
    baseUrl: 'http://127.0.0.1:3000/api',
    async stop() {
      // Leases settle on a timer; settled here, while the emulators still answer, a lease timer
      // never fires in a later test file's environment.
      await settleUsage();
      await emulators.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

let users = 0;

/** A signed-in user as the bearer authorizer hands it to the function. */
export function testUser(overrides: Partial<BearerUser> = {}): BearerUser {
  users += 1;
  return { user_id: `00000000-0000-4000-8000-${String(users).padStart(12, '0')}`, email: `staff${users}@example.org`, name: `Staff Member ${users}`, role: 'staff', account_id: `acct_${users}`, tier: 'pro', ...overrides };
}
