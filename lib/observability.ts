import { Duration, Validations } from 'aws-cdk-lib';
import type { RestApi } from 'aws-cdk-lib/aws-apigateway';
import {
  Alarm, ComparisonOperator, Dashboard, GraphWidget, MathExpression, Metric, TextWidget, TreatMissingData, type IMetric,
} from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import type { Queue } from 'aws-cdk-lib/aws-sqs';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { EmailSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import { Construct } from 'constructs';
import { SERVICE_NAME } from '../shared/observability/logger';
import { METRIC, METRICS_NAMESPACE, type MetricName } from '../shared/observability/metrics';
import type { AppFunction } from './app-function';
import { JOB_MAX_RECEIVE_COUNT, type RedrivenQueue } from './job-queues';

/** The context key of the operator's address: `cdk deploy -c alarmEmail=ops@county.gov`. */
export const ALARM_EMAIL_CONTEXT = 'alarmEmail';

/** Share of API answers that may be 5xx over five minutes before the operator is told. */
export const API_5XX_RATE_THRESHOLD = 0.05;

const FIVE_MINUTES = Duration.minutes(5);

/** How long a job start or reminder page may wait in its queue before the operator is told. */
export const WORK_QUEUE_AGE_LIMIT = Duration.minutes(30);

/** How long a table-stream record may wait for its consumer before the operator is told. */
export const STREAM_ITERATOR_AGE_LIMIT = Duration.minutes(5);

export interface ObservabilityProps {
  api: RestApi;
  /** Where failed webhook deliveries and unprocessable events end up. */
  deadLetterQueue: Queue;
  /** Where the table-stream consumers park records they could not process. */
  streamFailureQueue: Queue;
  /** The functions the table's stream feeds: each gets an iterator-age alarm. */
  streamConsumers: AppFunction[];
  /** The job kinds' queues and the reminder queue, by name: each gets a backlog-age and a dead-letter alarm. */
  workQueues: Record<string, RedrivenQueue>;
  /** Every function of the stack: each gets an errors-and-throttles alarm. */
  functions: AppFunction[];
}

/** A business metric as the functions emit it (Powertools EMF), summed over all groups and tiers. */
export function businessMetric(name: MetricName, period: Duration = FIVE_MINUTES): Metric {
  return new Metric({ namespace: METRICS_NAMESPACE, metricName: name, dimensionsMap: { service: SERVICE_NAME }, statistic: 'Sum', period });
}

/**
 * What the operator watches: alarms on the failures a client would otherwise report first — a
 * dead-letter queue that is not empty, a 5xx rate, failed imports and jobs, function errors and
 * throttles — all sent to one SNS topic, and a dashboard of the API and business metrics.
 */
export class Observability extends Construct {
  readonly alarmTopic: Topic;
  readonly alarms: Alarm[] = [];
  readonly dashboard: Dashboard;

  constructor(scope: Construct, id: string, props: ObservabilityProps) {
    super(scope, id);
    this.alarmTopic = new Topic(this, 'AlarmTopic', { displayName: 'VA Compliance API alarms', enforceSSL: true });
    Validations.of(this.alarmTopic).acknowledge({
      id: 'AwsSolutions-SNS2',
      reason: 'Alarm notifications carry alarm names and states only, no customer data; CloudWatch cannot publish to a topic encrypted with the AWS managed SNS key.',
    });
    const email = this.node.tryGetContext(ALARM_EMAIL_CONTEXT) as string | undefined;
    if (email) this.alarmTopic.addSubscription(new EmailSubscription(email));

    this.alarm('DeadLetterQueueNotEmpty', {
      description: 'Events or webhook deliveries were parked in the dead-letter queue: look at their last error, fix, and redrive.',
      metric: props.deadLetterQueue.metricApproximateNumberOfMessagesVisible({ period: Duration.minutes(1), statistic: 'Maximum' }),
      threshold: 1,
    });
    this.alarm('StreamFailuresNotEmpty', {
      description: 'A table-stream record (an outbox event) failed all its retries and was parked: the message names the shard and sequence numbers; fix the cause and relay the event again.',
      metric: props.streamFailureQueue.metricApproximateNumberOfMessagesVisible({ period: Duration.minutes(1), statistic: 'Maximum' }),
      threshold: 1,
    });
    for (const [name, { queue, deadLetterQueue }] of Object.entries(props.workQueues)) {
      this.alarm(`${name}DeadLetters`, {
        description: `${name}: a message failed ${JOB_MAX_RECEIVE_COUNT} receives and was parked (its job's worker kept failing before recording an outcome): fix the cause and redrive it; a job it started is swept meanwhile.`,
        metric: deadLetterQueue.metricApproximateNumberOfMessagesVisible({ period: Duration.minutes(1), statistic: 'Maximum' }),
        threshold: 1,
      });
      this.alarm(`${name}Backlog`, {
        description: `${name}: the oldest message waited more than ${WORK_QUEUE_AGE_LIMIT.toHumanString()} (a burst beyond the worker's concurrency, or the worker is failing).`,
        metric: queue.metricApproximateAgeOfOldestMessage({ period: FIVE_MINUTES, statistic: 'Maximum' }),
        threshold: WORK_QUEUE_AGE_LIMIT.toSeconds(),
        comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
      });
    }
    for (const fn of props.streamConsumers) {
      this.alarm(`${fn.node.id}IteratorAge`, {
        description: `${fn.node.id}: the oldest table-stream record it reads waited more than ${STREAM_ITERATOR_AGE_LIMIT.toHumanString()} (events go out late or the consumer is stuck).`,
        metric: fn.metric('IteratorAge', { period: FIVE_MINUTES, statistic: 'Maximum' }),
        threshold: STREAM_ITERATOR_AGE_LIMIT.toMilliseconds(),
        comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
      });
    }
    this.alarm('Api5xxRate', {
      description: `More than ${API_5XX_RATE_THRESHOLD * 100} % of API answers were 5xx in two consecutive 5-minute periods.`,
      metric: props.api.metricServerError({ period: FIVE_MINUTES, statistic: 'Average' }),
      threshold: API_5XX_RATE_THRESHOLD,
      evaluationPeriods: 2,
      comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
    });
    this.alarm('ImportFailures', {
      description: 'An asset import ended failed (in the import worker, or a 5xx of an import route).',
      metric: businessMetric(METRIC.importsFailed),
      threshold: 1,
    });
    this.alarm('JobFailures', {
      description: 'A flood-analysis, deliverables or elevation model job ended failed (or an analysis answered 5xx).',
      metric: new MathExpression({
        label: 'Failed jobs',
        expression: 'analyses + deliverables + models',
        usingMetrics: {
          analyses: businessMetric(METRIC.analysesFailed),
          deliverables: businessMetric(METRIC.deliverablesFailed),
          models: businessMetric(METRIC.elevationModelsFailed),
        },
        period: FIVE_MINUTES,
      }),
      threshold: 1,
    });
    for (const fn of props.functions) {
      this.alarm(`${fn.node.id}ErrorsOrThrottles`, {
        description: `${fn.node.id}: invocations failed (error or timeout) or were throttled.`,
        metric: new MathExpression({
          label: `${fn.node.id} errors + throttles`,
          expression: 'errors + throttles',
          usingMetrics: { errors: fn.metricErrors({ period: FIVE_MINUTES, statistic: 'Sum' }), throttles: fn.metricThrottles({ period: FIVE_MINUTES, statistic: 'Sum' }) },
          period: FIVE_MINUTES,
        }),
        threshold: 1,
      });
    }

    this.dashboard = new Dashboard(this, 'Dashboard');
    const search = (dimensions: string, metricName: string, label: string) =>
      new MathExpression({ expression: `SEARCH('{${dimensions}} MetricName="${metricName}"', 'Sum', 300)`, label, period: FIVE_MINUTES });
    const graph = (title: string, left: IMetric[]) => new GraphWidget({ title, left, width: 12 });
    this.dashboard.addWidgets(
      new TextWidget({ markdown: '# VA Compliance API\nBusiness metrics come from the functions (namespace `' + METRICS_NAMESPACE + '`); alarms go to the topic `' + this.alarmTopic.node.id + '`.', width: 24, height: 2 }),
      graph('Requests by tier and route group', [search(`${METRICS_NAMESPACE},group,service,tier`, METRIC.apiRequests, '')]),
      graph('API answers: 4xx, 5xx, quota rejections', [
        props.api.metricClientError({ period: FIVE_MINUTES, statistic: 'Sum' }),
        props.api.metricServerError({ period: FIVE_MINUTES, statistic: 'Sum' }),
        businessMetric(METRIC.quotaRejections),
      ]),
      graph('API latency (p50, p95)', [props.api.metricLatency({ period: FIVE_MINUTES, statistic: 'p50' }), props.api.metricLatency({ period: FIVE_MINUTES, statistic: 'p95' })]),
      graph('Imports', [businessMetric(METRIC.importsAccepted), businessMetric(METRIC.importsRejected), businessMetric(METRIC.importsFailed)]),
      graph('Analyses and deliverables', [
        businessMetric(METRIC.analysesRun), businessMetric(METRIC.analysesFailed), businessMetric(METRIC.deliverablesRun), businessMetric(METRIC.deliverablesFailed),
      ]),
      graph('Webhooks and dead-letter queue', [
        businessMetric(METRIC.webhookDeliveriesFailed), businessMetric(METRIC.webhookDeliveriesDeadLettered),
        props.deadLetterQueue.metricApproximateNumberOfMessagesVisible({ period: FIVE_MINUTES, statistic: 'Maximum' }),
      ]),
      graph('Function errors and throttles', [search('AWS/Lambda,FunctionName', 'Errors', 'Errors'), search('AWS/Lambda,FunctionName', 'Throttles', 'Throttles')]),
    );
  }

  private alarm(id: string, settings: { description: string; metric: IMetric; threshold: number; evaluationPeriods?: number; comparisonOperator?: ComparisonOperator }): void {
    const alarm = new Alarm(this, id, {
      alarmDescription: settings.description,
      metric: settings.metric,
      threshold: settings.threshold,
      evaluationPeriods: settings.evaluationPeriods ?? 1,
      comparisonOperator: settings.comparisonOperator ?? ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      // No data is no failure: quiet hours are not an incident.
      treatMissingData: TreatMissingData.NOT_BREACHING,
    });
    alarm.addAlarmAction(new SnsAction(this.alarmTopic));
    this.alarms.push(alarm);
  }
}
