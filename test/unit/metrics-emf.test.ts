import { freshModule } from '../helpers/fresh-module';
import type { APIGatewayProxyEvent, Context, SQSEvent } from 'aws-lambda';
import { createGroupHandler } from '../../shared/http/pipeline';
import { readRouteForm } from '../../shared/http/multipart';
import { HttpError } from '../../shared/http/problem';
import { attachLambdaContext, logger } from '../../shared/observability/logger';
import { aggregateApiMetrics, countJobEnd, publishMetrics, ROUTE_OUTCOMES } from '../../shared/observability/metrics';
import { routesOfGroup } from '../../shared/routes';
import type { FunctionGroup } from '../../shared/routes/types';
import type { Tier } from '../../shared/domain/tiers';
import type { RouteImplementation, RouteResult } from '../../shared/http/types';
import type { UsageCounter } from '../../shared/ports';
import { createDispatcher } from '../../functions/webhook-dispatcher/handler';
import { firstDelivery } from '../../shared/domain/webhooks/delivery';
import type { SendResult, Webhook } from '../../shared/domain/webhooks/ports';
import { resetConfigForTests } from '../../shared/config';
import { unusedIdempotencyStore } from '../helpers/unused-idempotency-store';

/**
 * The business metrics as CloudWatch receives them: the EMF lines written to stdout, read back
 * and checked field by field (namespace, dimension sets, metric names and values).
 */
process.env.POWERTOOLS_METRICS_DISABLED = 'false';

interface EmfLine {
  _aws: { CloudWatchMetrics: { Namespace: string; Dimensions: string[][]; Metrics: { Name: string; Unit: string }[] }[] };
  [field: string]: unknown;
}

let written: string[] = [];
beforeEach(() => {
  written = [];
  // EMF lines go to stdout, error logs to stderr.
  for (const stream of [process.stdout, process.stderr]) {
    jest.spyOn(stream, 'write').mockImplementation((chunk: string | Uint8Array) => {
      written.push(chunk.toString());
      return true;
    });
  }
});
afterEach(() => jest.restoreAllMocks());

const emfLines = (): EmfLine[] => written.join('').split('\n').filter((line) => line.includes('"_aws"')).map((line) => JSON.parse(line) as EmfLine);
/** Metric name → value, over every EMF line written. */
const counted = (): Record<string, number> => {
  const totals: Record<string, number> = {};
  for (const line of emfLines()) {
    for (const { Name } of line._aws.CloudWatchMetrics[0]!.Metrics) totals[Name] = (totals[Name] ?? 0) + (line[Name] as number);
  }
  return totals;
};

const NOW = new Date('2026-11-23T15:00:00Z');
function usageAt(used: number): UsageCounter {
  return {
    consume: async (_key, _window, limit) => (limit !== null && used >= limit ? { allowed: false, used } : { allowed: true, used: ++used }),
    used: async () => used,
  };
}

/** A group's real routes, each answered by `answer` once the pipeline lets the request through. */
function api(group: FunctionGroup, answer: (routeId: string) => Promise<RouteResult>, usedBefore = 0) {
  const implementations = Object.fromEntries(routesOfGroup(group).map((route): [string, RouteImplementation<any>] => [route.id, () => answer(route.id)]));
  return createGroupHandler(routesOfGroup(group), implementations, { usage: () => usageAt(usedBefore), clock: () => NOW, readForm: readRouteForm, idempotency: () => unusedIdempotencyStore });
}

function event(method: string, resource: string, tier: Tier | null, headers: Record<string, string> = {}, body: string | null = null): APIGatewayProxyEvent {
  return {
    httpMethod: method, resource, path: resource, headers, multiValueHeaders: {}, body, isBase64Encoded: false,
    pathParameters: null, queryStringParameters: null, multiValueQueryStringParameters: null, stageVariables: null,
    requestContext: { requestId: 'req-7', stage: 'api', authorizer: tier === null ? null : { accountId: 'acct_1', tier, keyHash: `hash-${tier}` } },
  } as unknown as APIGatewayProxyEvent;
}

const lambdaContext = { awsRequestId: 'lambda-req-9', functionName: 'va-assets', functionVersion: '$LATEST', memoryLimitInMB: '1536', invokedFunctionArn: 'arn:aws:lambda:us-east-1:000000000000:function:va-assets' } as unknown as Context;
const MULTIPART = { 'content-type': 'multipart/form-data; boundary=x' };
/** A well-formed import form: the pipeline validates it before the route answers. */
const IMPORT_FORM = '--x\r\nContent-Disposition: form-data; name="jurisdiction"\r\n\r\nMonroe County\r\n'
  + '--x\r\nContent-Disposition: form-data; name="file"; filename="assets.csv"\r\nContent-Type: text/csv\r\n\r\nname,lat,lon\r\n--x--\r\n';

describe('API requests by tier and route group', () => {
  it('one EMF line per request, counted under [service, group, tier] and [service]', async () => {
    const handler = api('grants', async () => ({ status: 200, body: {} }));
    const answer = await handler(event('GET', '/grants/deadlines', 'pro'), lambdaContext);
    expect(answer.statusCode).toBe(200);

    const lines = emfLines();
    expect(lines).toHaveLength(1);
    const [line] = lines;
    expect(line!._aws.CloudWatchMetrics[0]).toEqual({
      Namespace: 'VaComplianceApi',
      Dimensions: [['service', 'group', 'tier'], ['service']],
      Metrics: [{ Name: 'ApiRequests', Unit: 'Count' }],
    });
    expect(line).toMatchObject({ service: 'va-compliance-api', group: 'grants', tier: 'pro', ApiRequests: 1 });
  });

  it('a request no route matches is counted for its group with tier none', async () => {
    const handler = api('grants', async () => ({ status: 200 }));
    expect((await handler(event('GET', '/grants/nowhere', null), {} as Context)).statusCode).toBe(404);
    expect(emfLines()[0]).toMatchObject({ group: 'grants', tier: 'none', ApiRequests: 1 });
  });
});

describe('quota rejections', () => {
  it('a free key past its 25 requests is counted as a quota rejection (and as a request)', async () => {
    const handler = api('grants', async () => ({ status: 200 }), 25);
    expect((await handler(event('GET', '/grants/deadlines', 'free'), {} as Context)).statusCode).toBe(429);
    expect(counted()).toEqual({ ApiRequests: 1, QuotaRejections: 1 });
    expect(emfLines()[0]).toMatchObject({ tier: 'free' });
  });

  it('a 429 a route answers itself is not a quota rejection', async () => {
    const handler = api('grants', async () => {
      throw new HttpError('too_many_attempts', 'Slow down.');
    });
    expect((await handler(event('GET', '/grants/deadlines', 'pro'), {} as Context)).statusCode).toBe(429);
    expect(counted()).toEqual({ ApiRequests: 1 });
  });
});

describe('imports accepted, rejected and failed', () => {
  const importWith = async (result: () => Promise<RouteResult>, tier: Tier = 'pro') => {
    const handler = api('assets', (routeId) => (routeId === 'importAssets' ? result() : Promise.resolve({ status: 200 })));
    return (await handler(event('POST', '/assets/import', tier, MULTIPART, IMPORT_FORM), {} as Context)).statusCode;
  };

  it.each([201, 202])('an import answered %i is accepted', async (status) => {
    expect(await importWith(async () => ({ status }))).toBe(status);
    expect(counted()).toEqual({ ApiRequests: 1, ImportsAccepted: 1 });
  });

  it.each([200, 303])('an import answered %i is neither accepted, rejected nor failed', async (status) => {
    expect(await importWith(async () => ({ status }))).toBe(status);
    expect(counted()).toEqual({ ApiRequests: 1 });
  });

  it('an invalid file (400) is rejected', async () => {
    expect(await importWith(async () => { throw new HttpError('invalid_request', 'No file part.'); })).toBe(400);
    expect(counted()).toEqual({ ApiRequests: 1, ImportsRejected: 1 });
  });

  it('a free key refused by tier (403) is not a rejected import', async () => {
    expect(await importWith(async () => ({ status: 201 }), 'free')).toBe(403);
    expect(counted()).toEqual({ ApiRequests: 1 });
  });

  it('an unexpected error (500) is a failed import', async () => {
    expect(await importWith(async () => { throw new Error('disk on fire'); })).toBe(500);
    expect(counted()).toEqual({ ApiRequests: 1, ImportsFailed: 1 });
  });

  it('a background import the worker ended failed is counted once; a repeated notification counts nothing', () => {
    countJobEnd('processing', 'failed', { failed: 'ImportsFailed' });
    countJobEnd('failed', 'failed', { failed: 'ImportsFailed' });
    countJobEnd('processing', 'complete', { failed: 'ImportsFailed' });
    publishMetrics();
    expect(counted()).toEqual({ ImportsFailed: 1 });
    expect(emfLines()[0]!._aws.CloudWatchMetrics[0]!.Dimensions).toEqual([['service']]);
  });
});

describe('route outcomes', () => {
  it('name routes of the route table, in the groups that answer them', () => {
    const routes = new Map((['assets', 'hazards'] as const).flatMap((group) => routesOfGroup(group).map((route) => [route.id, route.group])));
    expect(Object.keys(ROUTE_OUTCOMES).map((id) => [id, routes.get(id)])).toEqual([
      ['importAssets', 'assets'], ['startAssetImport', 'assets'], ['assessSlrImpact', 'hazards'], ['analyzeFlooding', 'hazards'],
    ]);
  });
});

describe('analyses and deliverables run', () => {
  const JSON_HEADERS = { 'content-type': 'application/json' };
  const SLR_BODY = JSON.stringify({ lat: 27.77, lon: -82.64, scenario: 'intermediate', planning_horizon: 2070 });

  it('an impact analysis answered 200 ran; a failed one (500) is counted as failed', async () => {
    const answers: (() => Promise<RouteResult>)[] = [async () => ({ status: 200, body: {} }), async () => { throw new Error('grid read failed'); }];
    const handler = api('hazards', () => answers.shift()!());
    expect((await handler(event('POST', '/hazards/slr-impact', 'pro', JSON_HEADERS, SLR_BODY), {} as Context)).statusCode).toBe(200);
    expect((await handler(event('POST', '/hazards/slr-impact', 'pro', JSON_HEADERS, SLR_BODY), {} as Context)).statusCode).toBe(500);
    expect(emfLines()).toHaveLength(2);
    expect(counted()).toEqual({ ApiRequests: 2, AnalysesRun: 1, AnalysesFailed: 1 });
  });

  it('an analysis refused as invalid (400) counts only as a request', async () => {
    const handler = api('hazards', async () => ({ status: 200 }));
    expect((await handler(event('POST', '/hazards/slr-impact', 'pro', JSON_HEADERS, '{"lat": 91}'), {} as Context)).statusCode).toBe(400);
    expect(counted()).toEqual({ ApiRequests: 1 });
  });

  it('an analysis handed to a job (202) counts only as a request: the job counts its outcome', async () => {
    const handler = api('hazards', async () => ({ status: 202, body: {} }));
    expect((await handler(event('POST', '/hazards/slr-impact', 'pro', JSON_HEADERS, SLR_BODY), {} as Context)).statusCode).toBe(202);
    expect(counted()).toEqual({ ApiRequests: 1 });
  });

  it('jobs that end succeeded or failed count as run or failed, once', () => {
    countJobEnd('queued', 'succeeded', { succeeded: 'AnalysesRun', failed: 'AnalysesFailed' });
    countJobEnd('running', 'failed', { succeeded: 'AnalysesRun', failed: 'AnalysesFailed' });
    countJobEnd('queued', 'succeeded', { succeeded: 'DeliverablesRun', failed: 'DeliverablesFailed' });
    countJobEnd('queued', 'failed', { succeeded: 'DeliverablesRun', failed: 'DeliverablesFailed' });
    countJobEnd('succeeded', 'succeeded', { succeeded: 'DeliverablesRun', failed: 'DeliverablesFailed' });
    countJobEnd('queued', 'running', { succeeded: 'DeliverablesRun', failed: 'DeliverablesFailed' });
    publishMetrics();
    expect(emfLines()).toHaveLength(1);
    expect(counted()).toEqual({ AnalysesRun: 1, AnalysesFailed: 1, DeliverablesRun: 1, DeliverablesFailed: 1 });
  });
});

describe('webhook deliveries failed and dead-lettered', () => {
  const webhook: Webhook = { webhook_id: 'wh_1', account_id: 'acct_1', webhook_url: 'https://hooks.example.com/x', events: ['assessment_complete'], secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', created_at: NOW.toISOString() };
  const message = firstDelivery({ event_id: 'evt_1', account_id: 'acct_1', type: 'assessment_complete', timestamp: NOW.toISOString(), data: {} }, 'wh_1', NOW);
  const sqsEvent = { Records: [{ messageId: 'm1', body: JSON.stringify(message), receiptHandle: 'm1', attributes: {}, messageAttributes: {}, md5OfBody: '', eventSource: 'aws:sqs', eventSourceARN: 'arn:aws:sqs:us-east-1:000000000000:events', awsRegion: 'us-east-1' }] } as unknown as SQSEvent;

  // The dispatcher's configuration (names only: every store and the queue are replaced below).
  beforeAll(() => {
    Object.assign(process.env, { TABLE_NAME: 'table', EVENT_QUEUE_URL: 'http://127.0.0.1:1/events', EVENT_DLQ_URL: 'http://127.0.0.1:1/dlq' });
    resetConfigForTests();
  });

  const dispatcher = (schedule: number[], ok: boolean) => createDispatcher((deps) => ({
    ...deps,
    webhooks: { get: async () => webhook, subscribedTo: async () => [webhook], create: async () => undefined, list: async () => ({ items: [] }), delete: async () => true },
    deliveries: { claimFanOut: async () => true, releaseFanOut: async () => undefined, record: async () => undefined, claimRetry: async () => true, completeRetry: async () => undefined } as unknown as typeof deps.deliveries,
    queue: { schedule: async () => undefined, deadLetter: async () => undefined },
    sender: { send: async (): Promise<SendResult> => (ok ? { ok: true, status: 204, durationMs: 3, error: null } : { ok: false, status: 503, durationMs: 3, error: 'http_status' }) },
    schedule,
    now: () => NOW,
  }));

  it('a failed attempt with retries left is a failed delivery', async () => {
    expect((await dispatcher([5000], false)(sqsEvent, lambdaContext)).batchItemFailures).toEqual([]);
    expect(counted()).toEqual({ WebhookDeliveriesFailed: 1 });
  });

  it('the last failed attempt is also dead-lettered', async () => {
    await dispatcher([], false)(sqsEvent, lambdaContext);
    expect(counted()).toEqual({ WebhookDeliveriesFailed: 1, WebhookDeliveriesDeadLettered: 1 });
  });

  it('a delivered webhook counts nothing and writes no EMF line', async () => {
    await dispatcher([], true)(sqsEvent, lambdaContext);
    expect(emfLines()).toEqual([]);
  });
});

describe('log lines carry the Lambda invocation', () => {
  it('a caller without a Lambda context, or with a partial one, adds nothing and does not fail', () => {
    expect(() => attachLambdaContext(undefined)).not.toThrow();
    expect(() => attachLambdaContext({ functionName: 'local' })).not.toThrow();
  });

  it('an unexpected error is logged with the request id, function and cold-start flag', async () => {
    logger.setLogLevel('ERROR');
    const handler = api('grants', async () => { throw new Error('boom'); });
    await handler(event('GET', '/grants/deadlines', 'pro'), lambdaContext);
    logger.setLogLevel('SILENT');
    const logged = written.join('').split('\n').filter((line) => line.includes('Unhandled error')).map((line) => JSON.parse(line));
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatchObject({ function_request_id: 'lambda-req-9', function_name: 'va-assets', cold_start: expect.any(Boolean), service: 'va-compliance-api' });
  });

  describe('an invocation is stamped when it writes a line', () => {
    // As Lambda sets it for an on-demand instance; Powertools reports no cold start without it.
    const freshLogger = () => {
      process.env.AWS_LAMBDA_INITIALIZATION_TYPE = 'on-demand';
      try {
        const module = freshModule<typeof import('../../shared/observability/logger')>(require.resolve('../../shared/observability/logger'));
        module.logger.setLogLevel('INFO');
        return module;
      } finally {
        delete process.env.AWS_LAMBDA_INITIALIZATION_TYPE;
      }
    };
    const invocation = (awsRequestId: string) => ({ ...lambdaContext, awsRequestId }) as Context;
    const probes = () => written.join('').split('\n').filter((line) => line.includes('"probe"'))
      .map((line) => JSON.parse(line) as { function_request_id?: string; cold_start?: boolean });

    it('each line names the last invocation before it; only the first invocation is the cold start', () => {
      const { attachLambdaContext: attach, logger: log } = freshLogger();
      attach(invocation('first'));
      log.info('probe');
      log.info('probe');
      attach(invocation('second'));
      attach(invocation('third'));
      log.info('probe');
      attach(invocation('fourth'));
      expect(probes().map((line) => [line.function_request_id, line.cold_start])).toEqual([['first', true], ['first', true], ['third', false]]);
    });

    it('the first invocation is the cold start even when it writes no line', () => {
      const { attachLambdaContext: attach, logger: log } = freshLogger();
      attach(invocation('first'));
      attach(invocation('second'));
      log.info('probe');
      expect(probes().map((line) => [line.function_request_id, line.cold_start])).toEqual([['second', false]]);
    });

    it('invocations that write no line are not stamped: a line is stamped once, with the last invocation before it', () => {
      jest.isolateModules(() => {
        const { Logger } = require('@aws-lambda-powertools/logger') as typeof import('@aws-lambda-powertools/logger');
        const stamp = jest.spyOn(Logger.prototype, 'addContext');
        const { attachLambdaContext: attach, logger: log } = require('../../shared/observability/logger') as typeof import('../../shared/observability/logger');
        log.setLogLevel('INFO');
        attach(invocation('first'));
        attach(invocation('second'));
        attach(invocation('third'));
        expect(stamp).not.toHaveBeenCalled();
        log.info('probe');
        log.info('probe');
        expect(stamp.mock.calls.map(([context]) => context.awsRequestId)).toEqual(['third']);
      });
    });

    it('a caller without a Lambda context leaves the last invocation in place', () => {
      const { attachLambdaContext: attach, logger: log } = freshLogger();
      attach(invocation('first'));
      attach(invocation('second'));
      attach(undefined);
      attach({ functionName: 'local' });
      log.info('probe');
      expect(probes().map((line) => line.function_request_id)).toEqual(['second']);
    });
  });
});

describe('the EMF line and its switches', () => {
  /** The metrics module loaded afresh under these switches (they are read when its buffer is made). */
  const metricsUnder = (env: Record<string, string | undefined>) => {
    const saved = { POWERTOOLS_METRICS_DISABLED: process.env.POWERTOOLS_METRICS_DISABLED, POWERTOOLS_DEV: process.env.POWERTOOLS_DEV };
    for (const [name, value] of Object.entries(env)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    try {
      const module = freshModule<typeof import('../../shared/observability/metrics')>(require.resolve('../../shared/observability/metrics'));
      module.countMetric('AnalysesRun');
      module.publishMetrics();
    } finally {
      Object.assign(process.env, saved);
      if (saved.POWERTOOLS_DEV === undefined) delete process.env.POWERTOOLS_DEV;
    }
    return emfLines().length;
  };

  it.each([
    [{ POWERTOOLS_METRICS_DISABLED: 'false', POWERTOOLS_DEV: 'true' }, 1],
    [{ POWERTOOLS_METRICS_DISABLED: ' TRUE ', POWERTOOLS_DEV: undefined }, 0],
    [{ POWERTOOLS_METRICS_DISABLED: '1', POWERTOOLS_DEV: undefined }, 0],
    [{ POWERTOOLS_METRICS_DISABLED: 'no', POWERTOOLS_DEV: undefined }, 1],
    [{ POWERTOOLS_METRICS_DISABLED: undefined, POWERTOOLS_DEV: 'yes' }, 0],
    [{ POWERTOOLS_METRICS_DISABLED: undefined, POWERTOOLS_DEV: undefined }, 1],
  ])('with %j, %i line is written (POWERTOOLS_METRICS_DISABLED decides, else POWERTOOLS_DEV)', (env, lines) => {
    expect(metricsUnder(env)).toBe(lines);
  });

  it('a count repeated in one invocation is summed; the line is stamped with the time it is written', () => {
    const before = Date.now();
    countJobEnd('queued', 'failed', { failed: 'DeliverablesFailed' });
    countJobEnd('running', 'failed', { failed: 'DeliverablesFailed' });
    publishMetrics();
    const [line] = emfLines() as (EmfLine & { _aws: { Timestamp: number } })[];
    expect(line).toEqual({
      _aws: { Timestamp: expect.any(Number), CloudWatchMetrics: [{ Namespace: 'VaComplianceApi', Dimensions: [['service']], Metrics: [{ Name: 'DeliverablesFailed', Unit: 'Count' }] }] },
      service: 'va-compliance-api',
      DeliverablesFailed: 2,
    });
    expect(line!._aws.Timestamp).toBeGreaterThanOrEqual(before);
    expect(line!._aws.Timestamp).toBeLessThanOrEqual(Date.now());
    // The buffer is emptied by the line: nothing more is sent.
    publishMetrics();
    expect(emfLines()).toHaveLength(1);
  });
});

describe('API counts aggregated in one process (the local gateway)', () => {
  it('sends one line per route group and tier with the same totals as one line per answer', async () => {
    const stop = aggregateApiMetrics(60_000);
    try {
      const grants = api('grants', async () => ({ status: 200, body: {} }));
      for (let i = 0; i < 5; i++) await grants(event('GET', '/grants/deadlines', 'pro'), lambdaContext);
      await grants(event('GET', '/grants/deadlines', 'free'), lambdaContext);
      const free = api('grants', async () => ({ status: 200, body: {} }), 25);
      await free(event('GET', '/grants/deadlines', 'free'), lambdaContext);
      expect(emfLines()).toEqual([]);
    } finally {
      stop();
    }
    const lines = emfLines();
    expect(lines).toHaveLength(2);
    expect(lines.find((line) => line.tier === 'pro')).toMatchObject({ group: 'grants', ApiRequests: 5 });
    expect(lines.find((line) => line.tier === 'free')).toMatchObject({ group: 'grants', ApiRequests: 2, QuotaRejections: 1 });
    for (const line of lines) expect(line._aws.CloudWatchMetrics[0]!.Dimensions).toEqual([['service', 'group', 'tier'], ['service']]);
    // Once stopped, each answer is its own line again.
    await api('grants', async () => ({ status: 200 }))(event('GET', '/grants/deadlines', 'pro'), lambdaContext);
    expect(emfLines()).toHaveLength(3);
  });

  it('keeps aggregating while another gateway of the process runs, however often one is stopped', async () => {
    const first = aggregateApiMetrics(60_000);
    const second = aggregateApiMetrics(60_000);
    const grants = api('grants', async () => ({ status: 200, body: {} }));
    first();
    first();
    expect(emfLines()).toEqual([]);
    for (let i = 0; i < 3; i++) await grants(event('GET', '/grants/deadlines', 'pro'), lambdaContext);
    expect(emfLines()).toEqual([]);
    second();
    expect(emfLines()).toHaveLength(1);
    expect(emfLines()[0]).toMatchObject({ group: 'grants', tier: 'pro', ApiRequests: 3 });
    // Stopping again sends nothing more.
    second();
    expect(emfLines()).toHaveLength(1);
  });

  it('writes no line when nothing was counted', () => {
    publishMetrics();
    publishMetrics();
    expect(written.join('')).toBe('');
  });
});
