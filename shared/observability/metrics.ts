import type { Context } from 'aws-lambda';
import type { Tier } from '../domain/tiers';
import { attachLambdaContext, SERVICE_NAME } from './logger';

/** CloudWatch namespace of the business metrics (the stack's alarms and dashboard read it). */
export const METRICS_NAMESPACE = 'VaComplianceApi';

/** The business metrics, each a count. */
export const METRIC = {
  /** Every API answer, by route group and tier. */
  apiRequests: 'ApiRequests',
  /** Requests refused because the hourly quota was spent (429 rate_limit_exceeded). */
  quotaRejections: 'QuotaRejections',
  /** Asset imports the API accepted (imported, queued, or waiting for their upload). */
  importsAccepted: 'ImportsAccepted',
  /** Asset imports the API refused as invalid (4xx other than key, tier and quota). */
  importsRejected: 'ImportsRejected',
  /** Asset imports that ended failed: in the import worker, or a 5xx of an import route. */
  importsFailed: 'ImportsFailed',
  /** Hazard analyses completed: sea level rise impact, flood analysis (answered or run as a job). */
  analysesRun: 'AnalysesRun',
  /** Hazard analyses that failed: a 5xx of an analysis route, or a flood-analysis job ended failed. */
  analysesFailed: 'AnalysesFailed',
  /** Deliverable packages generated. */
  deliverablesRun: 'DeliverablesRun',
  deliverablesFailed: 'DeliverablesFailed',
  /** Uploaded elevation models processed into tiles, and those that ended failed. */
  elevationModelsProcessed: 'ElevationModelsProcessed',
  elevationModelsFailed: 'ElevationModelsFailed',
  /** Webhook delivery attempts that failed (each retry counts). */
  webhookDeliveriesFailed: 'WebhookDeliveriesFailed',
  /** Webhook deliveries given up after the last retry. */
  webhookDeliveriesDeadLettered: 'WebhookDeliveriesDeadLettered',
} as const;

export type MetricName = (typeof METRIC)[keyof typeof METRIC];

/** Values Powertools reads as true in its switches (`POWERTOOLS_METRICS_DISABLED`, `POWERTOOLS_DEV`). */
const TRUE_VALUES = new Set(['1', 'y', 'yes', 't', 'true', 'on']);

/**
 * Whether metrics are silenced, with the Powertools switches and their precedence: a set
 * `POWERTOOLS_METRICS_DISABLED` decides (the test suite sets it), else `POWERTOOLS_DEV`.
 */
function metricsDisabled(env: NodeJS.ProcessEnv): boolean {
  const disabled = env.POWERTOOLS_METRICS_DISABLED ?? env.POWERTOOLS_DEV;
  return disabled !== undefined && TRUE_VALUES.has(disabled.trim().toLowerCase());
}

/**
 * What one invocation counted, written as one line of CloudWatch's embedded metric format (EMF):
 * CloudWatch turns the line into metrics, locally it is a log line. Each dimension set is the
 * service plus the set's own dimensions; counts without a set are under [service] alone. Written
 * here rather than with the Powertools metrics package, whose load (about 20 ms) every API
 * function's cold start paid for the few lines below.
 */
class EmfBuffer {
  private readonly dimensionSets: Record<string, string>[] = [];
  private readonly counts = new Map<MetricName, number>();
  private readonly disabled = metricsDisabled(process.env);

  addDimensions(dimensions: Record<string, string>): void {
    this.dimensionSets.push(dimensions);
  }

  add(name: MetricName, count: number): void {
    this.counts.set(name, (this.counts.get(name) ?? 0) + count);
  }

  /** Writes the line (if anything was counted and metrics are on) and empties the buffer. */
  publish(): void {
    if (this.counts.size > 0 && !this.disabled) process.stdout.write(`${JSON.stringify(this.line(Date.now()))}\n`);
    this.counts.clear();
    this.dimensionSets.length = 0;
  }

  private line(timestamp: number): Record<string, unknown> {
    const service = { service: SERVICE_NAME };
    const sets = this.dimensionSets.length > 0 ? this.dimensionSets : [{}];
    return {
      _aws: {
        Timestamp: timestamp,
        CloudWatchMetrics: [{
          Namespace: METRICS_NAMESPACE,
          Dimensions: sets.map((set) => Object.keys({ ...service, ...set })),
          Metrics: [...this.counts.keys()].map((name) => ({ Name: name, Unit: 'Count' })),
        }],
      },
      ...service,
      ...Object.assign({}, ...sets),
      ...Object.fromEntries(this.counts),
    };
  }
}

/** One buffer per process, flushed once per invocation; created on first use. */
let buffer: EmfBuffer | undefined;
const metrics = (): EmfBuffer => (buffer ??= new EmfBuffer());

/** Counts one occurrence (or `count`) of a business outcome; sent with the invocation's flush. */
export function countMetric(name: MetricName, count = 1): void {
  metrics().add(name, count);
}

/** Sends what the invocation counted, if anything, as one EMF line. */
export function publishMetrics(): void {
  buffer?.publish();
}

/**
 * Wraps a background function: its log lines carry the invocation, and what it counted is
 * published once at its end, whether it succeeds or throws.
 */
export function observedHandler<A extends [event: unknown, context?: Partial<Context>], R>(handler: (...args: A) => Promise<R>): (...args: A) => Promise<R> {
  return async (...args) => {
    attachLambdaContext(args[1]);
    try {
      return await handler(...args);
    } finally {
      publishMetrics();
    }
  };
}

export interface ApiAnswer {
  group: string;
  /** Absent when no route matched (404). */
  routeId: string | undefined;
  /** Absent on keyless routes and when the caller could not be identified. */
  tier: Tier | undefined;
  status: number;
  /** The problem code of an error answer. */
  problemCode: string | undefined;
}

/** Key, tier and quota refusals are counted as such, not as refused imports. */
const ACCESS_REFUSALS = new Set([401, 403, 429]);

const importOutcome = (status: number): MetricName | undefined => {
  if (status === 201 || status === 202) return METRIC.importsAccepted;
  if (status >= 400 && status < 500 && !ACCESS_REFUSALS.has(status)) return METRIC.importsRejected;
  return status >= 500 ? METRIC.importsFailed : undefined;
};

/** A flood analysis answered 202 was handed to a job: the job worker counts its outcome. */
const analysisOutcome = (status: number): MetricName | undefined => {
  if (status === 200) return METRIC.analysesRun;
  return status >= 500 ? METRIC.analysesFailed : undefined;
};

/** What an answer of these routes means for the business, by route id (the route table's). */
export const ROUTE_OUTCOMES: Readonly<Record<string, (status: number) => MetricName | undefined>> = {
  importAssets: importOutcome,
  startAssetImport: importOutcome,
  assessSlrImpact: analysisOutcome,
  analyzeFlooding: analysisOutcome,
};

/**
 * Counts one API answer: requests by route group and tier (and in total), quota refusals, and the
 * business outcome of the routes that have one. Every count of the invocation carries both
 * dimension sets, [service, group, tier] and [service], so alarms read the totals.
 */
export function countApiAnswer(answer: ApiAnswer): void {
  const tier = answer.tier ?? 'none';
  const names: MetricName[] = [METRIC.apiRequests];
  if (answer.problemCode === 'rate_limit_exceeded') names.push(METRIC.quotaRejections);
  const outcome = answer.routeId ? ROUTE_OUTCOMES[answer.routeId]?.(answer.status) : undefined;
  if (outcome) names.push(outcome);
  if (aggregated) {
    const key = `${answer.group}\n${tier}`;
    let entry = aggregated.get(key);
    if (!entry) aggregated.set(key, (entry = { group: answer.group, tier, counts: new Map() }));
    for (const name of names) entry.counts.set(name, (entry.counts.get(name) ?? 0) + 1);
    return;
  }
  addApiCounts(answer.group, tier, names.map((name) => [name, 1]));
}

function addApiCounts(group: string, tier: string, counts: Iterable<[MetricName, number]>): void {
  const buffered = metrics();
  buffered.addDimensions({ group, tier });
  buffered.addDimensions({});
  for (const [name, count] of counts) countMetric(name, count);
}

/**
 * API answers counted but not yet sent, by route group and tier, while one process answers many
 * requests (the local gateway); undefined in Lambda, where each invocation sends its own line.
 */
let aggregated: Map<string, { group: string; tier: string; counts: Map<MetricName, number> }> | undefined;

/** Sends the aggregated API counts: one EMF line per route group and tier, the same totals as one line per answer. */
function flushAggregated(): void {
  if (!aggregated || aggregated.size === 0) return;
  const entries = [...aggregated.values()];
  aggregated.clear();
  for (const { group, tier, counts } of entries) {
    addApiCounts(group, tier, counts);
    publishMetrics();
  }
}

/**
 * Sums the API answers' counts in memory and sends them every `intervalMs` instead of one EMF line
 * per answer (writing a line costs about as much as a cheap request). For a process that answers
 * many requests (the local gateway); returns the stop, which sends what is left.
 */
export function aggregateApiMetrics(intervalMs = 1000): () => void {
  aggregated ??= new Map();
  aggregators++;
  const timer = setInterval(flushAggregated, intervalMs);
  timer.unref();
  let stopped = false;
  return () => {
    if (stopped) return;
    stopped = true;
    clearInterval(timer);
    flushAggregated();
    // Several gateways may share the process (tests): the last one stopped ends the aggregation.
    if (--aggregators === 0) aggregated = undefined;
  };
}
let aggregators = 0;

/** Final statuses of jobs (analyses, deliverables) and imports. */
const SUCCEEDED = new Set(['succeeded', 'complete']);
const FAILED = 'failed';

/**
 * Counts the outcome of a background job this invocation ended: open before the run, final after
 * it. A repeated delivery of a job already ended counts nothing.
 */
export function countJobEnd(before: string | undefined, after: string | undefined, outcome: { succeeded?: MetricName; failed: MetricName }): void {
  if (before !== undefined && (SUCCEEDED.has(before) || before === FAILED)) return;
  if (after !== undefined && SUCCEEDED.has(after)) {
    if (outcome.succeeded) countMetric(outcome.succeeded);
  } else if (after === FAILED) {
    countMetric(outcome.failed);
  }
}
