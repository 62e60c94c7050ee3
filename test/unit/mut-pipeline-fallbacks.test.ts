import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { createGroupHandler } from '../../shared/http/pipeline';
import { routesOfGroup } from '../../shared/routes';
import type { RouteImplementation } from '../../shared/http/types';

/**
 * What the pipeline assumes when an event lacks what API Gateway normally sends (a hand-made test
 * event, a local invocation): no request context, no path parameters.
 */
const echo: RouteImplementation = async (request) => ({
  status: 200,
  body: { requestId: request.requestId, baseUrl: request.baseUrl, clientIp: request.clientIp, params: request.params },
});
const routes = routesOfGroup('docs');
const handler = createGroupHandler(routes, Object.fromEntries(routes.map((route) => [route.id, echo])), {
  usage: () => { throw new Error('routes without authentication count nothing'); },
  clock: () => new Date('2026-11-23T05:45:00Z'),
});

async function call(resource: string, pathParameters: Record<string, string> | null, requestContext?: object) {
  const event = {
    httpMethod: 'GET', resource, path: resource, headers: {}, multiValueHeaders: {}, body: null, isBase64Encoded: false,
    pathParameters, queryStringParameters: null, multiValueQueryStringParameters: null, stageVariables: null, requestContext,
  } as unknown as APIGatewayProxyEvent;
  const result: APIGatewayProxyResult = await handler(event, {} as Context);
  return { status: result.statusCode, headers: result.headers, json: JSON.parse(result.body) };
}

describe('events without a request context', () => {
  it('serve with the unknown request id, a localhost base URL on the api stage and an unknown client', async () => {
    const result = await call('/health', null);
    expect(result.status).toBe(200);
    expect(result.headers).toMatchObject({ 'X-Request-Id': 'unknown' });
    expect(result.json).toEqual({ requestId: 'unknown', baseUrl: 'https://localhost/api', clientIp: 'unknown', params: {} });
  });

  it('answer an unknown route with a problem whose instance is unknown', async () => {
    const result = await call('/nothing', null);
    expect([result.status, result.json.code, result.json.instance]).toEqual([404, 'not_found', 'unknown']);
  });

  it('take the client address from the request context when there is one', async () => {
    const result = await call('/health', null, { requestId: 'r-1', identity: { sourceIp: '192.0.2.7' } });
    expect([result.json.requestId, result.json.clientIp]).toEqual(['r-1', '192.0.2.7']);
  });
});

describe('events without path parameters', () => {
  it('name the missing path parameter rather than refusing the whole object', async () => {
    const result = await call('/docs/assets/{file}', null, { requestId: 'r-2' });
    expect([result.status, result.json.code]).toEqual([400, 'invalid_request']);
    expect(result.json.errors).toEqual([expect.objectContaining({ field: 'file', in: 'path' })]);
  });
});

describe('building a group handler', () => {
  it('refuses at load a group whose routes are not all implemented, naming each missing one', () => {
    const [first, ...rest] = routes;
    const partial = Object.fromEntries(rest.slice(1).map((route) => [route.id, echo]));
    expect(() => createGroupHandler(routes, { [first!.id]: echo, ...partial }, { usage: () => { throw new Error('unused'); }, clock: () => new Date() }))
      .toThrow(`The docs function has no implementation of ${rest[0]!.id}.`);
    expect(() => createGroupHandler(routes, {}, { usage: () => { throw new Error('unused'); }, clock: () => new Date() }))
      .toThrow(`The docs function has no implementation of ${routes.map((route) => route.id).join(', ')}.`);
  });

  it('refuses at load a group with multipart routes but no multipart reader, naming those routes', () => {
    const assets = routesOfGroup('assets');
    const all = Object.fromEntries(assets.map((route) => [route.id, echo]));
    const withForm = assets.filter((route) => route.request?.form).map((route) => route.id);
    expect(withForm.length).toBeGreaterThan(0);
    expect(() => createGroupHandler(assets, all, { usage: () => { throw new Error('unused'); }, clock: () => new Date() }))
      .toThrow(`The assets function has no multipart reader for ${withForm.join(', ')}.`);
    expect(() => createGroupHandler(routes, Object.fromEntries(routes.map((route) => [route.id, echo])), { usage: () => { throw new Error('unused'); }, clock: () => new Date() }))
      .not.toThrow();
  });
});
