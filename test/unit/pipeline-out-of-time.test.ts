import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { createGroupHandler } from '../../shared/http/pipeline';
import { logger } from '../../shared/observability/logger';
import { routesOfGroup } from '../../shared/routes';
import type { RouteImplementation } from '../../shared/http/types';

/**
 * A route that has not answered when the invocation's time runs out (a machine under load, or a
 * slow dependency): the client gets 503 `service_unavailable` with Retry-After, as problem+json —
 * never a 500, which would say the request or the code was at fault.
 */
// Unreferenced: the route the pipeline stopped waiting for may still be asleep when the test ends.
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms).unref());
const routes = routesOfGroup('docs');

/** Whether the last route called has answered. */
let routeAnswered = false;

function handlerTaking(ms: number) {
  const slow: RouteImplementation = async () => {
    routeAnswered = false;
    await sleep(ms);
    routeAnswered = true;
    return { status: 200, body: { ok: true } };
  };
  return createGroupHandler(routes, Object.fromEntries(routes.map((route) => [route.id, slow])), {
    usage: () => { throw new Error('routes without authentication count nothing'); },
    clock: () => new Date('2026-11-29T10:00:00Z'),
  });
}

/** A Lambda context whose invocation has `remainingMs` left, as API Gateway's 29 s leaves it. */
function contextWith(remainingMs: number): Context {
  const deadline = Date.now() + remainingMs;
  return { getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()) } as Context;
}

async function call(routeMs: number, remainingMs: number): Promise<APIGatewayProxyResult> {
  const event = {
    httpMethod: 'GET', resource: '/health', path: '/health', headers: {}, multiValueHeaders: {}, body: null, isBase64Encoded: false,
    pathParameters: null, queryStringParameters: null, multiValueQueryStringParameters: null, stageVariables: null, requestContext: { requestId: 'r-late' },
  } as unknown as APIGatewayProxyEvent;
  return handlerTaking(routeMs)(event, contextWith(remainingMs));
}

describe('an invocation that runs out of time', () => {
  afterEach(() => jest.restoreAllMocks());

  it('answers 503 service_unavailable with Retry-After, as problem+json', async () => {
    const warn = jest.spyOn(logger, 'warn').mockImplementation(() => undefined);
    const error = jest.spyOn(logger, 'error').mockImplementation(() => undefined);
    const result = await call(2_000, 200);
    // Answered when the time ran out, not when the route finished.
    expect(routeAnswered).toBe(false);
    expect(result.statusCode).toBe(503);
    expect(result.headers).toMatchObject({ 'Content-Type': 'application/problem+json', 'Retry-After': '5', 'X-Request-Id': 'r-late' });
    expect(JSON.parse(result.body)).toMatchObject({ code: 'service_unavailable', status: 503, instance: 'r-late' });
    expect(error).not.toHaveBeenCalled();
    expect(warn).toHaveBeenCalledTimes(1);
  });

  it('answers as usual when the route finishes in time', async () => {
    const result = await call(20, 2_000);
    expect(routeAnswered).toBe(true);
    expect(result.statusCode).toBe(200);
    expect(JSON.parse(result.body)).toEqual({ ok: true });
  });
});
