import { existsSync } from 'node:fs';
import { App, type CfnElement } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import type { IConstruct } from 'constructs';
import { AppFunction, handlerEntry, POWERTOOLS_LAYER_PARAMETER, RUNTIME_PROVIDED_MODULES, type EntryResolver } from '../../lib/app-function';
import { ALARM_EMAIL_CONTEXT } from '../../lib/observability';
import { ComplianceApiStack } from '../../lib/stack';
import { STAGES } from '../../lib/stage-config';

process.env.CDK_DISABLE_CLI_TELEMETRY = 'true';

/** Bundling is skipped; a function whose handler is not written yet points at an existing one. */
const entry: EntryResolver = (name) => (existsSync(handlerEntry(name)) ? handlerEntry(name) : handlerEntry('docs'));

function synth(context: Record<string, string> = {}) {
  const app = new App({ context: { 'aws:cdk:bundling-stacks': [], ...context } });
  const stack = new ComplianceApiStack(app, 'Test', { config: STAGES.dev, entry });
  const template = Template.fromStack(stack);
  return { stack, template, resources: template.toJSON().Resources as Record<string, { Type: string; Properties: Record<string, any> }> };
}

const { stack, template, resources } = synth();
const logicalId = (construct: IConstruct) => stack.getLogicalId(construct.node.defaultChild as CfnElement);
const ofType = (type: string) => Object.entries(resources).filter(([, r]) => r.Type === type);
const alarms: Record<string, any>[] = ofType('AWS::CloudWatch::Alarm').map(([id, r]) => ({ id, ...r.Properties }));
const alarmNamed = (fragment: string) => {
  const found = alarms.filter((alarm) => alarm.id.includes(fragment));
  expect(found).toHaveLength(1);
  return found[0]!;
};
/** The metrics an alarm reads, whether it has one metric or a math expression over several. */
const metricsOf = (alarm: Record<string, any>): { Namespace: string; MetricName: string; Dimensions: { Name: string; Value: unknown }[] }[] =>
  alarm.Metrics
    ? alarm.Metrics.filter((m: any) => m.MetricStat).map((m: any) => m.MetricStat.Metric)
    : [{ Namespace: alarm.Namespace, MetricName: alarm.MetricName, Dimensions: alarm.Dimensions }];

const appFunctions = stack.node.findAll().filter((c): c is AppFunction => c instanceof AppFunction);

describe('alarms', () => {
  test('one SNS topic, SSL only, receives every alarm', () => {
    const topics = ofType('AWS::SNS::Topic');
    expect(topics).toHaveLength(1);
    const [topicId] = topics[0]!;
    expect(alarms.length).toBeGreaterThan(0);
    for (const alarm of alarms) expect({ id: alarm.id, actions: alarm.AlarmActions }).toEqual({ id: alarm.id, actions: [{ Ref: topicId }] });
    template.hasResourceProperties('AWS::SNS::TopicPolicy', {
      PolicyDocument: { Statement: Match.arrayWith([Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } })]) },
    });
    template.hasOutput('AlarmTopicArn', { Value: { Ref: topicId } });
  });

  test('the dead-letter queue holding one message alarms', () => {
    const alarm = alarmNamed('DeadLetterQueueNotEmpty');
    expect(alarm).toMatchObject({ Namespace: 'AWS/SQS', MetricName: 'ApproximateNumberOfMessagesVisible', Threshold: 1, ComparisonOperator: 'GreaterThanOrEqualToThreshold' });
    expect(alarm.Dimensions).toEqual([{ Name: 'QueueName', Value: { 'Fn::GetAtt': [logicalId(stack.data.eventDeadLetterQueue), 'QueueName'] } }]);
  });

  test('a table-stream record parked after its retries alarms, and so does a consumer falling behind', () => {
    const parked = alarmNamed('StreamFailuresNotEmpty');
    expect(parked).toMatchObject({ Namespace: 'AWS/SQS', MetricName: 'ApproximateNumberOfMessagesVisible', Threshold: 1 });
    expect(parked.Dimensions).toEqual([{ Name: 'QueueName', Value: { 'Fn::GetAtt': [logicalId(stack.data.streamFailureQueue), 'QueueName'] } }]);
    // Jobs start from their queues: the outbox relay is the only stream consumer left.
    const consumers = [stack.jobs.outboxRelay];
    for (const fn of consumers) {
      const alarm = alarmNamed(`${fn.node.id}IteratorAge`);
      expect(alarm).toMatchObject({ Namespace: 'AWS/Lambda', MetricName: 'IteratorAge', Statistic: 'Maximum', Threshold: 300_000, ComparisonOperator: 'GreaterThanThreshold' });
      expect(alarm.Dimensions).toEqual([{ Name: 'FunctionName', Value: { Ref: logicalId(fn) } }]);
    }
    expect(alarms.filter((alarm) => alarm.MetricName === 'IteratorAge')).toHaveLength(consumers.length);
  });

  test('every table-stream consumer reports failed records one by one and parks them after its retries', () => {
    const mappings = ofType('AWS::Lambda::EventSourceMapping').map(([, r]) => r.Properties).filter((p) => p.EventSourceArn?.['Fn::GetAtt']?.[1] === 'StreamArn');
    expect(mappings).toHaveLength(1);
    for (const mapping of mappings) {
      expect(mapping.FunctionResponseTypes).toEqual(['ReportBatchItemFailures']);
      expect(mapping.DestinationConfig).toEqual({ OnFailure: { Destination: { 'Fn::GetAtt': [logicalId(stack.data.streamFailureQueue), 'Arn'] } } });
      expect(mapping.MaximumRetryAttempts).toBeGreaterThan(0);
    }
  });

  test('a 5xx rate above 5 % of the API\'s answers alarms', () => {
    const alarm = alarmNamed('Api5xxRate');
    expect(alarm).toMatchObject({ Namespace: 'AWS/ApiGateway', MetricName: '5XXError', Statistic: 'Average', Threshold: 0.05, ComparisonOperator: 'GreaterThanThreshold' });
    expect(alarm.Dimensions).toEqual(expect.arrayContaining([{ Name: 'ApiName', Value: expect.anything() }]));
  });

  test('failed imports and failed jobs alarm from the business metrics', () => {
    const service = [{ Name: 'service', Value: 'va-compliance-api' }];
    expect(metricsOf(alarmNamed('ImportFailures'))).toEqual([{ Namespace: 'VaComplianceApi', MetricName: 'ImportsFailed', Dimensions: service }]);
    const jobs = alarmNamed('JobFailures');
    expect(metricsOf(jobs).map((m) => [m.Namespace, m.MetricName, m.Dimensions])).toEqual([
      ['VaComplianceApi', 'AnalysesFailed', service], ['VaComplianceApi', 'DeliverablesFailed', service], ['VaComplianceApi', 'ElevationModelsFailed', service],
    ]);
    expect(jobs.Threshold).toBe(1);
  });

  test('every function of the stack has an errors-or-throttles alarm', () => {
    expect(appFunctions.length).toBeGreaterThan(15);
    const perFunction = alarms.filter((alarm) => alarm.id.includes('ErrorsOrThrottles'));
    expect(perFunction).toHaveLength(appFunctions.length);
    const watched = perFunction.map((alarm) => {
      const metrics = metricsOf(alarm);
      expect(metrics.map((m) => m.MetricName).sort()).toEqual(['Errors', 'Throttles']);
      return metrics[0]!.Dimensions[0]!.Value;
    });
    expect(new Set(watched.map((v) => JSON.stringify(v)))).toEqual(new Set(appFunctions.map((fn) => JSON.stringify({ Ref: logicalId(fn) }))));
  });

  test('no e-mail subscription unless the operator names an address', () => {
    expect(ofType('AWS::SNS::Subscription')).toHaveLength(0);
    const withEmail = synth({ [ALARM_EMAIL_CONTEXT]: 'ops@example.com' });
    const subscriptions = Object.values(withEmail.resources).filter((r) => r.Type === 'AWS::SNS::Subscription');
    expect(subscriptions.map((r) => [r.Properties.Protocol, r.Properties.Endpoint])).toEqual([['email', 'ops@example.com']]);
  });
});

describe('dashboard', () => {
  test('shows every business metric, the API answers and the dead-letter queue', () => {
    const dashboards = ofType('AWS::CloudWatch::Dashboard');
    expect(dashboards).toHaveLength(1);
    // The body is a join of JSON text and references; references become placeholders.
    const parts = dashboards[0]![1].Properties.DashboardBody['Fn::Join'][1] as unknown[];
    const body = JSON.parse(parts.map((part) => (typeof part === 'string' ? part : 'REF')).join(''));
    const shown = new Set<string>();
    for (const widget of body.widgets) {
      for (const metric of widget.properties.metrics ?? []) {
        if (typeof metric[0] === 'string') shown.add(metric[1]);
        else for (const [, name] of String(metric[0].expression).matchAll(/MetricName="([^"]+)"/g)) shown.add(name!);
      }
    }
    expect([...shown].sort()).toEqual(['4XXError', '5XXError', 'AnalysesFailed', 'AnalysesRun', 'ApiRequests', 'ApproximateNumberOfMessagesVisible',
      'DeliverablesFailed', 'DeliverablesRun', 'Errors', 'ImportsAccepted', 'ImportsFailed', 'ImportsRejected', 'Latency', 'QuotaRejections',
      'Throttles', 'WebhookDeliveriesDeadLettered', 'WebhookDeliveriesFailed']);
  });
});

describe('Powertools layer', () => {
  test('every function has the layer of the installed Powertools version, and bundles leave Powertools and X-Ray out', () => {
    const parameters = Object.entries(template.toJSON().Parameters as Record<string, { Type: string; Default: string }>)
      .filter(([, p]) => p.Default === POWERTOOLS_LAYER_PARAMETER);
    expect(parameters).toHaveLength(1);
    expect(POWERTOOLS_LAYER_PARAMETER).toBe(`/aws/service/powertools/typescript/generic/all/${require('@aws-lambda-powertools/commons').PT_VERSION}`);
    for (const fn of appFunctions) {
      expect({ fn: fn.node.id, layers: resources[logicalId(fn)]!.Properties.Layers }).toEqual({ fn: fn.node.id, layers: [{ Ref: parameters[0]![0] }] });
    }
    expect(RUNTIME_PROVIDED_MODULES).toEqual(expect.arrayContaining(['@aws-lambda-powertools/*', 'aws-xray-sdk-core']));
  });
});
