import { existsSync } from 'node:fs';
import { App, Stack, Validations, type CfnElement } from 'aws-cdk-lib';
import type { Template } from 'aws-cdk-lib/assertions';
import { AttributeType, Table, type ITable } from 'aws-cdk-lib/aws-dynamodb';
import { Bucket, type IBucket } from 'aws-cdk-lib/aws-s3';
import { AwsSolutionsChecks } from 'cdk-nag';
import type { Construct } from 'constructs';
import { handlerEntry, type EntryResolver } from '../../lib/app-function';
import { acknowledgeStackFindings } from '../../lib/nag-suppressions';
import { STAGES, type StageConfig } from '../../lib/stage-config';

/** What the tests of the fan-out state machines (lib/fan-out-machine.ts) read their templates with. */

/** Bundling skipped; a function whose handler is not written yet points at an existing one. */
export const fanOutEntry: EntryResolver = (name) => (existsSync(handlerEntry(name)) ? handlerEntry(name) : handlerEntry('docs'));

export type State = Record<string, any>;
export interface Definition { States: Record<string, State>; StartAt: string; TimeoutSeconds: number }

/** The definition of the template's one state machine, its `Fn::Join` pieces put back together (function ARNs kept as their references). */
export function definitionOf(template: Template): Definition {
  const machines = template.findResources('AWS::StepFunctions::StateMachine');
  expect(Object.keys(machines)).toHaveLength(1);
  const body = Object.values(machines)[0]!.Properties.DefinitionString;
  const text = (body['Fn::Join'][1] as unknown[]).map((part) => (typeof part === 'string' ? part : JSON.stringify(part).replace(/"/g, "'"))).join('');
  return JSON.parse(text);
}

export type Resources = Record<string, { Type: string; Properties: Record<string, any> }>;
export type Statement = { Action: string | string[]; Effect: string; Resource: unknown; Condition?: Record<string, any> };

/** Logical ids and IAM statements of a synthesized stack, read once the stack and its resources exist. */
export function policyReader(stack: () => Stack, resources: () => Resources) {
  const idOf = (construct: { node: { defaultChild?: unknown } }) => stack().getLogicalId(construct.node.defaultChild as CfnElement);
  const statementsOfRole = (roleId: string): Statement[] => Object.values(resources())
    .filter((r) => r.Type === 'AWS::IAM::Policy' && r.Properties.Roles.some((role: any) => role.Ref === roleId))
    .flatMap((r) => r.Properties.PolicyDocument.Statement as Statement[]);
  const statementsOf = (fn: { role?: unknown }) => statementsOfRole(idOf(fn.role as { node: { defaultChild?: unknown } }));
  const actionsOf = (statement: Statement) => [statement.Action].flat();
  return { idOf, statementsOfRole, statementsOf, actionsOf };
}

type FanOutConstruct = new (scope: Construct, id: string, props: { config: StageConfig; bucket: IBucket; table: ITable; entry?: EntryResolver }) => unknown;

/** Synthesizes the construct alone in a stack (in `env`, if given) under cdk-nag's AwsSolutions checks: throws on an unacknowledged error. */
export function synthNagged(FanOut: FanOutConstruct, id: string, env?: { account: string; region: string }): void {
  const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
  const nagged = new Stack(app, 'Nagged', env ? { env } : {});
  new FanOut(nagged, id, {
    config: STAGES.dev, bucket: new Bucket(nagged, 'Data', { enforceSSL: true, serverAccessLogsPrefix: 'logs/' }),
    table: new Table(nagged, 'Table', { partitionKey: { name: 'pk', type: AttributeType.STRING }, pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true } }), entry: fanOutEntry,
  });
  // The findings every function of the application stack shares are acknowledged stack-wide there.
  acknowledgeStackFindings(nagged);
  Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
  app.synth();
}
