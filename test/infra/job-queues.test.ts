import { existsSync } from 'node:fs';
import { App, type CfnElement } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import type { IConstruct } from 'constructs';
import { handlerEntry, type EntryResolver } from '../../lib/app-function';
import { ComplianceApiStack } from '../../lib/stack';
import { STAGES } from '../../lib/stage-config';

process.env.CDK_DISABLE_CLI_TELEMETRY = 'true';

const entry: EntryResolver = (name) => (existsSync(handlerEntry(name)) ? handlerEntry(name) : handlerEntry('docs'));
const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
const stack = new ComplianceApiStack(app, 'Test', { config: STAGES.dev, entry });
const template = Template.fromStack(stack);
const resources = template.toJSON().Resources as Record<string, { Type: string; Properties: Record<string, any> }>;
const logicalId = (construct: IConstruct) => stack.getLogicalId(construct.node.defaultChild as CfnElement);
const ofType = (type: string): Record<string, any>[] => Object.entries(resources).filter(([, r]) => r.Type === type).map(([id, r]) => ({ id, ...r.Properties }));

const { jobs: jobQueues, reminders } = stack.data.workQueues;
/** Each kind's worker, with the concurrency its event source must have (stated per kind, never unbounded). */
const WORKERS = [
  { kind: 'hazard_job', fn: stack.jobs.hazardJobWorker, maxConcurrency: 20, timeoutSeconds: 600 },
  { kind: 'asset_import', fn: stack.jobs.assetImportWorker, maxConcurrency: 10, timeoutSeconds: 900 },
  { kind: 'elevation_model', fn: stack.jobs.elevationModelWorker, maxConcurrency: 5, timeoutSeconds: 900 },
  { kind: 'deliverable', fn: stack.jobs.deliverablesWorker, maxConcurrency: 10, timeoutSeconds: 600 },
] as const;

const mappingsOf = (fnId: string) => ofType('AWS::Lambda::EventSourceMapping').filter((m) => m.FunctionName?.Ref === fnId);
const alarms = ofType('AWS::CloudWatch::Alarm');

describe('job queues', () => {
  test.each(WORKERS)('the $kind worker reads only its own queue, one start at a time, at most $maxConcurrency at once, reporting failures one by one', ({ kind, fn, maxConcurrency, timeoutSeconds }) => {
    const [mapping, ...others] = mappingsOf(logicalId(fn));
    expect(others).toEqual([]);
    expect(mapping).toMatchObject({
      EventSourceArn: { 'Fn::GetAtt': [logicalId(jobQueues[kind].queue), 'Arn'] },
      BatchSize: 1,
      ScalingConfig: { MaximumConcurrency: maxConcurrency },
      FunctionResponseTypes: ['ReportBatchItemFailures'],
    });
    expect(resources[logicalId(fn)]!.Properties.Timeout).toBe(timeoutSeconds);
    // The queue hides a start while its worker may still run it (six times the timeout, as AWS advises).
    const queue = resources[logicalId(jobQueues[kind].queue)]!.Properties;
    expect(queue.VisibilityTimeout).toBe(6 * timeoutSeconds);
    expect(queue.SqsManagedSseEnabled).toBe(true);
  });

  test.each([...WORKERS.map(({ kind }) => [kind, jobQueues[kind]] as const), ['reminders', reminders] as const])(
    'the %s queue parks a message after 3 receives in its own dead-letter queue, which alarms at one message',
    (_name, { queue, deadLetterQueue }) => {
      expect(resources[logicalId(queue)]!.Properties.RedrivePolicy).toEqual({
        deadLetterTargetArn: { 'Fn::GetAtt': [logicalId(deadLetterQueue), 'Arn'] }, maxReceiveCount: 3,
      });
      const onDeadLetters = alarms.filter((alarm) => alarm.MetricName === 'ApproximateNumberOfMessagesVisible'
        && alarm.Dimensions?.[0]?.Value?.['Fn::GetAtt']?.[0] === logicalId(deadLetterQueue));
      expect(onDeadLetters).toHaveLength(1);
      expect(onDeadLetters[0]).toMatchObject({ Threshold: 1, ComparisonOperator: 'GreaterThanOrEqualToThreshold' });
      const backlog = alarms.filter((alarm) => alarm.MetricName === 'ApproximateAgeOfOldestMessage' && alarm.Dimensions?.[0]?.Value?.['Fn::GetAtt']?.[0] === logicalId(queue));
      expect(backlog).toHaveLength(1);
      expect(backlog[0]).toMatchObject({ Threshold: 1800, ComparisonOperator: 'GreaterThanThreshold' });
    },
  );

  test('uploads notify their kind\'s queue, not a function', () => {
    const [notifications] = ofType('Custom::S3BucketNotifications');
    const config = notifications!.NotificationConfiguration;
    expect(config.LambdaFunctionConfigurations ?? []).toEqual([]);
    const byPrefix = Object.fromEntries(config.QueueConfigurations.map((q: any) => [q.Filter.Key.FilterRules[0].Value, q.QueueArn['Fn::GetAtt'][0]]));
    expect(byPrefix).toEqual({ 'uploads/': logicalId(jobQueues.asset_import.queue), 'elevation-uploads/': logicalId(jobQueues.elevation_model.queue) });
  });

  test('the API functions that start jobs may send to their kind\'s queue, and know its URL', () => {
    const env = (fn: IConstruct) => resources[logicalId(fn)]!.Properties.Environment.Variables;
    expect(env(stack.functions.byGroup.hazards).HAZARD_JOB_QUEUE_URL).toEqual({ Ref: logicalId(jobQueues.hazard_job.queue) });
    expect(env(stack.functions.byGroup.assessments).DELIVERABLE_QUEUE_URL).toEqual({ Ref: logicalId(jobQueues.deliverable.queue) });
    expect(env(stack.jobs.jobSweep)).toMatchObject({
      HAZARD_JOB_QUEUE_URL: { Ref: logicalId(jobQueues.hazard_job.queue) },
      ASSET_IMPORT_QUEUE_URL: { Ref: logicalId(jobQueues.asset_import.queue) },
      ELEVATION_MODEL_QUEUE_URL: { Ref: logicalId(jobQueues.elevation_model.queue) },
      DELIVERABLE_QUEUE_URL: { Ref: logicalId(jobQueues.deliverable.queue) },
    });
  });

  test('jobs no longer start from the table stream: its only consumer is the outbox relay', () => {
    const streamMappings = ofType('AWS::Lambda::EventSourceMapping').filter((m) => m.EventSourceArn?.['Fn::GetAtt']?.[1] === 'StreamArn');
    expect(streamMappings.map((m) => m.FunctionName.Ref)).toEqual([logicalId(stack.jobs.outboxRelay)]);
  });
});

describe('schedules', () => {
  const rules = ofType('AWS::Events::Rule');
  const targetsOf = (rule: Record<string, any>) => rule.Targets.map((t: any) => t.Arn['Fn::GetAtt'][0]);

  test('one sweep schedule, every 5 minutes, calls the one sweep function; no worker is scheduled', () => {
    const sweeps = rules.filter((rule) => targetsOf(rule).includes(logicalId(stack.jobs.jobSweep)));
    expect(sweeps).toHaveLength(1);
    expect(sweeps[0]).toMatchObject({ ScheduleExpression: 'rate(5 minutes)', State: 'ENABLED' });
    expect(targetsOf(sweeps[0]!)).toEqual([logicalId(stack.jobs.jobSweep)]);
    const scheduled = rules.flatMap(targetsOf);
    for (const { fn } of WORKERS) expect(scheduled).not.toContain(logicalId(fn));
  });

  test('the daily reminder fans out to the reminder queue, whose worker sends at most 10 pages at once', () => {
    const [mapping, ...others] = mappingsOf(logicalId(stack.jobs.reminderWorker));
    expect(others).toEqual([]);
    expect(mapping).toMatchObject({
      EventSourceArn: { 'Fn::GetAtt': [logicalId(reminders.queue), 'Arn'] }, BatchSize: 1, ScalingConfig: { MaximumConcurrency: 10 }, FunctionResponseTypes: ['ReportBatchItemFailures'],
    });
    expect(resources[logicalId(stack.jobs.deadlineReminder)]!.Properties.Environment.Variables.REMINDER_QUEUE_URL).toEqual({ Ref: logicalId(reminders.queue) });
    expect(mappingsOf(logicalId(stack.jobs.deadlineReminder))).toEqual([]);
  });
});
