import { existsSync } from 'node:fs';
import { App, Stack, Validations, type CfnElement } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { Bucket } from 'aws-cdk-lib/aws-s3';
import { AwsSolutionsChecks } from 'cdk-nag';
import type { IConstruct } from 'constructs';
import { AppFunction, handlerEntry, type EntryResolver } from '../../lib/app-function';
import { EVENT_MAX_RECEIVE_COUNT } from '../../lib/data-store';
import { ComplianceApiStack } from '../../lib/stack';
import { STAGES, stageConfig, type StageConfig } from '../../lib/stage-config';
import { ROUTES } from '../../shared/routes';
import { TIER_ORDER } from '../../shared/domain/tiers';

process.env.CDK_DISABLE_CLI_TELEMETRY = 'true';

/**
 * Bundling is skipped, so no handler is compiled; a function whose handler is not written yet
 * points at an existing one, since the construct still checks that its entry file exists.
 */
const entry: EntryResolver = (name) => (existsSync(handlerEntry(name)) ? handlerEntry(name) : handlerEntry('docs'));

function buildStack(config: StageConfig = STAGES.dev): { app: App; stack: ComplianceApiStack } {
  const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
  const stack = new ComplianceApiStack(app, 'Test', { config, entry });
  return { app, stack };
}

type Resources = Record<string, { Type: string; Properties: Record<string, any> }>;
type Statement = { Action: string | string[]; Effect: string; Resource: unknown; Condition?: Record<string, any> };

let stack: ComplianceApiStack;
let template: Template;
let resources: Resources;

const logicalId = (construct: IConstruct) => stack.getLogicalId(construct.node.defaultChild as CfnElement);
const actionsOf = (statement: Statement) => [statement.Action].flat();

/** Every statement attached to a function's role. */
function statementsOf(fn: AppFunction): Statement[] {
  const roleId = stack.getLogicalId(fn.role!.node.defaultChild as CfnElement);
  return Object.values(resources)
    .filter((r) => r.Type === 'AWS::IAM::Policy' && r.Properties.Roles.some((role: any) => role.Ref === roleId))
    .flatMap((r) => r.Properties.PolicyDocument.Statement as Statement[]);
}

/** Full path of an API Gateway resource, rebuilt from its parent chain. */
function resourcePath(resourceRef: any): string {
  if (resourceRef['Fn::GetAtt']) return '';
  const resource = resources[resourceRef.Ref]!;
  return `${resourcePath(resource.Properties.ParentId)}/${resource.Properties.PathPart}`;
}

beforeAll(() => {
  ({ stack } = buildStack());
  template = Template.fromStack(stack);
  resources = template.toJSON().Resources;
});

describe('REST API', () => {
  test('is deployed to the stage named api', () => {
    template.resourceCountIs('AWS::ApiGateway::Stage', 1);
    template.hasResourceProperties('AWS::ApiGateway::Stage', { StageName: 'api', TracingEnabled: true });
  });

  test('has one method per route of the route table, on its path, integrated with its group function', () => {
    const methods = Object.values(resources).filter((r) => r.Type === 'AWS::ApiGateway::Method');
    expect(methods).toHaveLength(ROUTES.length);
    for (const route of ROUTES) {
      const method = methods.find((m) => m.Properties.OperationName === route.id);
      expect(method).toBeDefined();
      expect(method!.Properties.HttpMethod).toBe(route.method);
      expect(resourcePath(method!.Properties.ResourceId)).toBe(route.path);
      expect(method!.Properties.Integration.Type).toBe('AWS_PROXY');
      expect(JSON.stringify(method!.Properties.Integration.Uri)).toContain(`"${logicalId(stack.functions.byGroup[route.group])}"`);
    }
  });

  test('keyed routes use the REQUEST authorizer and an API key; documentation routes are public', () => {
    const authorizerId = Object.keys(template.findResources('AWS::ApiGateway::Authorizer'))[0];
    for (const route of ROUTES) {
      const [method] = Object.values(template.findResources('AWS::ApiGateway::Method', { Properties: { OperationName: route.id } }));
      if (route.auth === 'api_key') {
        expect(method.Properties).toMatchObject({ AuthorizationType: 'CUSTOM', AuthorizerId: { Ref: authorizerId }, ApiKeyRequired: true });
      } else if (route.auth === 'bearer') {
        // The /v1 bearer routes: see test/infra/v1-identity.test.ts. The usage key the bearer
        // authorizer names puts them under their tier's /v1 throttles (below).
        expect(method.Properties.AuthorizationType).toBe('CUSTOM');
        expect(method.Properties.AuthorizerId).not.toEqual({ Ref: authorizerId });
        expect(method.Properties.ApiKeyRequired).toBe(true);
      } else if (route.path.startsWith('/v1/users/')) {
        expect(method.Properties.AuthorizationType).toBe('NONE');
      } else {
        // Public otherwise: what the docs function serves (it has no data access, below), and what a
        // third party needs to check a credential without an account.
        if (route.group !== 'docs') expect(['verifyCertification', 'credentialJwks']).toContain(route.id);
        expect(method.Properties.AuthorizationType).toBe('NONE');
        expect(method.Properties.ApiKeyRequired).toBeFalsy();
      }
    }
  });

  test('the authorizer reads X-API-Key and the usage plan comes from the authorizer', () => {
    template.hasResourceProperties('AWS::ApiGateway::Authorizer', {
      Type: 'REQUEST',
      IdentitySource: 'method.request.header.X-API-Key',
      AuthorizerResultTtlInSeconds: STAGES.dev.authorizerCacheTtl.toSeconds(),
    });
    const [authorizer] = Object.values(template.findResources('AWS::ApiGateway::Authorizer'));
    expect(JSON.stringify(authorizer.Properties.AuthorizerUri)).toContain(`"${logicalId(stack.authorizer)}"`);
    template.hasResourceProperties('AWS::ApiGateway::RestApi', {
      ApiKeySourceType: 'AUTHORIZER',
      BinaryMediaTypes: Match.arrayWith(['multipart/form-data']),
    });
  });

  test.each([
    ['UNAUTHORIZED', 401, 'missing_api_key'],
    ['ACCESS_DENIED', 403, 'invalid_api_key'],
    ['MISSING_AUTHENTICATION_TOKEN', 404, 'not_found'],
    ['THROTTLED', 429, 'rate_limit_exceeded'],
  ])('gateway response %s answers %i problem+json with code %s', (type, status, code) => {
    const [response] = Object.values(template.findResources('AWS::ApiGateway::GatewayResponse', { Properties: { ResponseType: type } }));
    expect(response.Properties.StatusCode).toBe(String(status));
    expect(response.Properties.ResponseParameters['gatewayresponse.header.Content-Type']).toBe("'application/problem+json'");
    const body = JSON.parse(response.Properties.ResponseTemplates['application/json']);
    expect(body).toEqual({
      type: `/api/docs#error-${code}`,
      title: expect.any(String),
      status,
      detail: expect.any(String),
      instance: '$context.requestId',
      code,
    });
  });

  test('three usage plans, one per tier, each with its throttle and its own key', () => {
    template.resourceCountIs('AWS::ApiGateway::UsagePlan', 3);
    template.resourceCountIs('AWS::ApiGateway::ApiKey', 3);
    template.resourceCountIs('AWS::ApiGateway::UsagePlanKey', 3);
    for (const tier of TIER_ORDER) {
      const { rateLimit, burstLimit } = STAGES.dev.tierThrottles[tier];
      const planId = logicalId(stack.usagePlans.plans[tier]);
      expect(resources[planId]!.Properties.Throttle).toEqual({ RateLimit: rateLimit, BurstLimit: burstLimit });
      template.hasResourceProperties('AWS::ApiGateway::UsagePlanKey', {
        KeyId: { Ref: logicalId(stack.usagePlans.keys[tier]) },
        UsagePlanId: { Ref: planId },
      });
    }
  });

  test('each tier\'s plan throttles every /v1 bearer method with the tier\'s /v1 throttle, and no other method', () => {
    const bearerMethods = ROUTES.filter((route) => route.auth === 'bearer').map((route) => `${route.path}/${route.method}`).sort();
    expect(bearerMethods.length).toBeGreaterThan(10);
    expect(bearerMethods.every((key) => key.startsWith('/v1/'))).toBe(true);
    for (const tier of TIER_ORDER) {
      const [stage] = resources[logicalId(stack.usagePlans.plans[tier])]!.Properties.ApiStages;
      const { rateLimit, burstLimit } = STAGES.dev.v1TierThrottles[tier];
      expect(Object.keys(stage.Throttle).sort()).toEqual(bearerMethods);
      for (const key of bearerMethods) expect([key, stage.Throttle[key]]).toEqual([key, { RateLimit: rateLimit, BurstLimit: burstLimit }]);
    }
    // Lowest tier lowest, and each /v1 throttle above the tier's own backstop (one key serves all its users).
    const rates = TIER_ORDER.map((tier) => STAGES.dev.v1TierThrottles[tier].rateLimit);
    expect([...rates].sort((a, b) => a - b)).toEqual(rates);
    for (const tier of TIER_ORDER) expect(STAGES.prod.v1TierThrottles[tier].rateLimit).toBeGreaterThanOrEqual(STAGES.prod.tierThrottles[tier].rateLimit);
  });

  test('the bearer authorizer can name each tier\'s usage key: the key ids and read access to exactly those keys', () => {
    const environment = resources[logicalId(stack.bearerAuthorizer)]!.Properties.Environment.Variables;
    const keyIds = TIER_ORDER.map((tier) => ({ Ref: logicalId(stack.usagePlans.keys[tier]) }));
    expect(['USAGE_KEY_ID_FREE', 'USAGE_KEY_ID_PRO', 'USAGE_KEY_ID_ENTERPRISE'].map((name) => environment[name])).toEqual(keyIds);
    const reads = statementsOf(stack.bearerAuthorizer).filter((s) => actionsOf(s).includes('apigateway:GET'));
    expect(reads).toHaveLength(1);
    expect(JSON.stringify(reads[0]!.Resource)).toContain(logicalId(stack.usagePlans.keys.free));
  });
});

describe('each account\'s own usage key', () => {
  const identity = () => stack.functions.byGroup['v1-identity'];
  /** Statements of the policies attached to a function's role, its default policy and any other. */
  const attachedStatements = (roleId: string): Statement[] => Object.values(resources)
    .filter((r) => r.Type === 'AWS::IAM::Policy' && JSON.stringify(r.Properties.Roles).includes(roleId))
    .flatMap((r) => r.Properties.PolicyDocument.Statement as Statement[]);
  const roleOf = (fn: AppFunction) => stack.getLogicalId(fn.role!.node.defaultChild as CfnElement);

  test('the function that opens accounts knows each plan by its name', () => {
    const environment = resources[logicalId(identity())]!.Properties.Environment.Variables;
    for (const tier of TIER_ORDER) {
      const plan = resources[logicalId(stack.usagePlans.plans[tier])]!.Properties;
      expect(environment[`USAGE_PLAN_NAME_${tier.toUpperCase()}`]).toBe(plan.UsagePlanName);
    }
  });

  /** A resource ARN as text, references written `{LogicalId}`. */
  const arnText = (resource: unknown): string => {
    if (typeof resource === 'string') return resource;
    const join = (resource as { 'Fn::Join'?: [string, unknown[]] })['Fn::Join'];
    if (join) return join[1].map(arnText).join(join[0]);
    const ref = (resource as { Ref?: string }).Ref;
    return ref ? `{${ref}}` : JSON.stringify(resource);
  };

  test('it may create API keys and add them to the three plans, read keys and plans, and no more of API Gateway', () => {
    const statements = attachedStatements(roleOf(identity())).filter((s) => actionsOf(s).some((a) => a.startsWith('apigateway:')));
    const byAction = (action: string) => statements.filter((s) => actionsOf(s).includes(action))
      .flatMap((s) => [s.Resource].flat().map((r) => arnText(r).replace(/^arn:aws:apigateway:\{AWS::Region\}::/, '')));
    expect(byAction('apigateway:POST').sort()).toEqual([
      '/apikeys', ...TIER_ORDER.map((tier) => `/usageplans/{${logicalId(stack.usagePlans.plans[tier])}}/keys`),
    ].sort());
    expect(byAction('apigateway:GET')).toEqual(['/apikeys', '/usageplans']);
    // The cache flush of key revocation is the only other grant.
    expect(byAction('apigateway:DELETE')).toHaveLength(1);
    expect(byAction('apigateway:DELETE')[0]).toContain('/cache/authorizers');
    expect(new Set(statements.flatMap(actionsOf))).toEqual(new Set(['apigateway:POST', 'apigateway:GET', 'apigateway:DELETE']));
  });

  test('no other function may create API keys', () => {
    const others = stack.node.findAll().filter((c): c is AppFunction => c instanceof AppFunction && c !== identity());
    for (const fn of others) {
      const posts = attachedStatements(roleOf(fn)).filter((s) => actionsOf(s).includes('apigateway:POST'));
      expect(posts).toEqual([]);
    }
  });

  test('the template has no dependency cycle (the plans depend on the stage, whose methods call the function)', () => {
    const edges = new Map<string, Set<string>>();
    const refs = (value: unknown, into: Set<string>): void => {
      if (Array.isArray(value)) value.forEach((v) => refs(v, into));
      else if (value && typeof value === 'object') {
        for (const [key, v] of Object.entries(value)) {
          if (key === 'Ref' && typeof v === 'string') into.add(v);
          else if (key === 'Fn::GetAtt') into.add(Array.isArray(v) ? String(v[0]) : String(v).split('.')[0]!);
          else refs(v, into);
        }
      }
    };
    const full = template.toJSON().Resources as Record<string, { Properties?: unknown; DependsOn?: string | string[] }>;
    for (const [id, resource] of Object.entries(full)) {
      const into = new Set<string>([resource.DependsOn ?? []].flat());
      refs(resource.Properties, into);
      edges.set(id, new Set([...into].filter((target) => target in full)));
    }
    const state = new Map<string, 'open' | 'done'>();
    const cycle: string[] = [];
    const visit = (id: string, path: string[]): boolean => {
      if (state.get(id) === 'done') return false;
      if (state.get(id) === 'open') {
        cycle.push(...path.slice(path.indexOf(id)), id);
        return true;
      }
      state.set(id, 'open');
      for (const next of edges.get(id)!) if (visit(next, [...path, id])) return true;
      state.set(id, 'done');
      return false;
    };
    for (const id of edges.keys()) if (visit(id, [])) break;
    expect(cycle).toEqual([]);
  });
});

describe('functions', () => {
  const appFunctions = () => stack.node.findAll().filter((c): c is AppFunction => c instanceof AppFunction);

  test('the functions are one per route group, the background jobs, the tile, join and window workers and the two authorizers, and no other', () => {
    expect(Object.keys(stack.functions.byGroup).sort()).toEqual([...new Set(ROUTES.map((route) => route.group))].sort());
    const jobs = Object.values(stack.jobs).filter((c): c is AppFunction => c instanceof AppFunction);
    expect(jobs.length).toBeGreaterThan(0);
    const paths = (fns: AppFunction[]) => fns.map((fn) => fn.node.path).sort();
    const expected = paths([...Object.values(stack.functions.byGroup), ...jobs, stack.elevationTiles.worker, stack.elevationTiles.joinWorker, stack.elevationProcessing.worker, stack.authorizer, stack.bearerAuthorizer]);
    expect(new Set(expected).size).toBe(expected.length);
    expect(paths(appFunctions())).toEqual(expected);
  });

  test('every application function runs Node.js 22 on arm64 with Powertools settings', () => {
    for (const fn of appFunctions()) {
      const props = resources[logicalId(fn)]!.Properties;
      expect(props.Runtime).toBe('nodejs22.x');
      expect(props.Architectures).toEqual(['arm64']);
      expect(props.TracingConfig).toEqual({ Mode: 'Active' });
      expect(props.Environment.Variables).toMatchObject({ APP_MODE: 'aws', POWERTOOLS_SERVICE_NAME: expect.any(String), POWERTOOLS_LOG_LEVEL: 'DEBUG' });
      expect(props.FunctionName).toBeUndefined();
    }
  });

  test('API functions finish within API Gateway\'s 29 s', () => {
    for (const fn of [...Object.values(stack.functions.byGroup), stack.authorizer]) {
      expect(resources[logicalId(fn)]!.Properties.Timeout).toBeLessThanOrEqual(29);
    }
  });

  test('log groups have the stage retention', () => {
    for (const fn of appFunctions()) {
      const logGroupRef = resources[logicalId(fn)]!.Properties.LoggingConfig.LogGroup.Ref;
      expect(resources[logGroupRef]!.Properties.RetentionInDays).toBe(7);
    }
  });
});

describe('background jobs', () => {
  test('the dispatcher consumes the events queue in batches with partial batch responses', () => {
    template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      EventSourceArn: { 'Fn::GetAtt': [logicalId(stack.data.eventQueue), 'Arn'] },
      FunctionName: { Ref: logicalId(stack.jobs.webhookDispatcher) },
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      BatchSize: 10,
    });
  });

  test('the events queue redrives to the dead-letter queue and outlasts six dispatcher timeouts', () => {
    const queue = resources[logicalId(stack.data.eventQueue)]!.Properties;
    expect(queue.RedrivePolicy).toEqual({
      deadLetterTargetArn: { 'Fn::GetAtt': [logicalId(stack.data.eventDeadLetterQueue), 'Arn'] },
      maxReceiveCount: EVENT_MAX_RECEIVE_COUNT,
    });
    const dispatcherTimeout = resources[logicalId(stack.jobs.webhookDispatcher)]!.Properties.Timeout;
    expect(queue.VisibilityTimeout).toBeGreaterThanOrEqual(6 * dispatcherTimeout);
    for (const q of [stack.data.eventQueue, stack.data.eventDeadLetterQueue]) {
      expect(resources[logicalId(q)]!.Properties).toMatchObject({ SqsManagedSseEnabled: true });
      expect(resources[logicalId(q)]!.Properties.QueueName).toBeUndefined();
    }
    template.hasResourceProperties('AWS::SQS::QueuePolicy', {
      PolicyDocument: { Statement: Match.arrayWith([Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } })]) },
    });
  });

  test('a daily EventBridge schedule triggers the deadline reminder', () => {
    template.hasResourceProperties('AWS::Events::Rule', {
      ScheduleExpression: 'cron(0 13 * * ? *)',
      State: 'ENABLED',
      Targets: [Match.objectLike({ Arn: { 'Fn::GetAtt': [logicalId(stack.jobs.deadlineReminder), 'Arn'] } })],
    });
  });

  test('the outbox relay reads the table stream, filtered to items with pending events', () => {
    const [mapping] = Object.values(template.findResources('AWS::Lambda::EventSourceMapping', {
      Properties: { FunctionName: { Ref: logicalId(stack.jobs.outboxRelay) } },
    }));
    expect(mapping.Properties.EventSourceArn).toEqual({ 'Fn::GetAtt': [logicalId(stack.data.table), 'StreamArn'] });
    expect(mapping.Properties.FunctionResponseTypes).toEqual(['ReportBatchItemFailures']);
    const patterns = mapping.Properties.FilterCriteria.Filters.map((f: { Pattern: string }) => JSON.parse(f.Pattern));
    expect(patterns.length).toBeGreaterThan(0);
    for (const pattern of patterns) expect(Object.keys(pattern.dynamodb.NewImage)).toEqual(['outbox']);
  });
});

describe('stateful resources', () => {
  test('the table is on demand, recoverable, encrypted, expiring, indexed and streamed', () => {
    template.resourceCountIs('AWS::DynamoDB::Table', 1);
    template.hasResourceProperties('AWS::DynamoDB::Table', {
      BillingMode: 'PAY_PER_REQUEST',
      KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }, { AttributeName: 'sk', KeyType: 'RANGE' }],
      PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
      SSESpecification: { SSEEnabled: true },
      TimeToLiveSpecification: { AttributeName: 'expires_at', Enabled: true },
      StreamSpecification: { StreamViewType: 'NEW_AND_OLD_IMAGES' },
      GlobalSecondaryIndexes: [
        { IndexName: 'gsi1', KeySchema: [{ AttributeName: 'gsi1pk', KeyType: 'HASH' }, { AttributeName: 'gsi1sk', KeyType: 'RANGE' }], Projection: { ProjectionType: 'ALL' } },
        { IndexName: 'gsi2', KeySchema: [{ AttributeName: 'gsi2pk', KeyType: 'HASH' }, { AttributeName: 'gsi2sk', KeyType: 'RANGE' }], Projection: { ProjectionType: 'ALL' } },
        { IndexName: 'gsi3', KeySchema: [{ AttributeName: 'gsi3pk', KeyType: 'HASH' }, { AttributeName: 'gsi3sk', KeyType: 'RANGE' }], Projection: { ProjectionType: 'ALL' } },
      ],
    });
    const table = resources[logicalId(stack.data.table)]!.Properties;
    expect(table.AttributeDefinitions).toEqual(expect.arrayContaining(['gsi1pk', 'gsi1sk', 'gsi2pk', 'gsi2sk', 'gsi3pk', 'gsi3sk'].map((name) => ({ AttributeName: name, AttributeType: 'S' }))));
    expect(table.TableName).toBeUndefined();
  });

  test('the data bucket is private, encrypted, TLS-only, logged and expires uploads after 7 days', () => {
    const bucket = resources[logicalId(stack.data.bucket)]!.Properties;
    expect(bucket.PublicAccessBlockConfiguration).toEqual({ BlockPublicAcls: true, BlockPublicPolicy: true, IgnorePublicAcls: true, RestrictPublicBuckets: true });
    expect(bucket.BucketEncryption.ServerSideEncryptionConfiguration).toEqual([{ ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } }]);
    expect(bucket.LoggingConfiguration.DestinationBucketName).toBeDefined();
    expect(bucket.LifecycleConfiguration.Rules).toEqual(expect.arrayContaining([
      expect.objectContaining({ Prefix: 'uploads/', ExpirationInDays: 7, Status: 'Enabled' }),
    ]));
    expect(bucket.BucketName).toBeUndefined();
    template.hasResourceProperties('AWS::S3::BucketPolicy', {
      Bucket: { Ref: logicalId(stack.data.bucket) },
      PolicyDocument: { Statement: Match.arrayWith([Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } })]) },
    });
  });

  test('objects created under uploads/ start an import on the asset import queue', () => {
    template.hasResourceProperties('Custom::S3BucketNotifications', {
      NotificationConfiguration: {
        QueueConfigurations: Match.arrayWith([Match.objectLike({
          Events: ['s3:ObjectCreated:*'],
          Filter: { Key: { FilterRules: [{ Name: 'prefix', Value: 'uploads/' }] } },
          QueueArn: { 'Fn::GetAtt': [logicalId(stack.data.workQueues.jobs.asset_import.queue), 'Arn'] },
        })]),
      },
    });
  });
});

describe('least privilege', () => {
  const allFunctions = () => stack.node.findAll().filter((c): c is AppFunction => c instanceof AppFunction);

  test('no statement of an application function uses a wildcard action or Scan', () => {
    for (const fn of allFunctions()) {
      for (const action of statementsOf(fn).flatMap(actionsOf)) {
        expect(action).not.toContain('*');
        expect(action).not.toBe('dynamodb:Scan');
      }
    }
  });

  test('the grants function may only count usage: lease, settle and read USAGE# items', () => {
    const dynamo = statementsOf(stack.functions.byGroup.grants).filter((s) => actionsOf(s).some((a) => a.startsWith('dynamodb:')));
    expect(dynamo).toEqual([expect.objectContaining({
      Action: ['dynamodb:UpdateItem', 'dynamodb:GetItem', 'dynamodb:Query'],
      Condition: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['USAGE#*'] } },
    })]);
    const actions = statementsOf(stack.functions.byGroup.grants).flatMap(actionsOf);
    for (const forbidden of ['dynamodb:PutItem', 'dynamodb:DeleteItem', 'dynamodb:BatchWriteItem', 's3:GetObject', 'sqs:SendMessage']) {
      expect(actions).not.toContain(forbidden);
    }
  });

  test('the compliance function reads the table and writes only usage counters', () => {
    const writes = statementsOf(stack.functions.byGroup.compliance)
      .filter((s) => actionsOf(s).some((a) => ['dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem', 'dynamodb:BatchWriteItem'].includes(a)));
    expect(writes).toEqual([expect.objectContaining({ Action: ['dynamodb:UpdateItem', 'dynamodb:GetItem', 'dynamodb:Query'], Condition: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['USAGE#*'] } } })]);
    expect(statementsOf(stack.functions.byGroup.compliance).flatMap(actionsOf)).toContain('dynamodb:Query');
  });

  test('the authorizer only reads API key items and the three tier keys', () => {
    const statements = statementsOf(stack.authorizer).filter((s) => !actionsOf(s).every((a) => a.startsWith('xray:')));
    expect(statements).toHaveLength(2);
    expect(statements[0]).toMatchObject({ Action: ['dynamodb:GetItem', 'dynamodb:UpdateItem'], Condition: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['APIKEY#*'] } } });
    expect(statements[1]!.Action).toBe('apigateway:GET');
    const keyResources = JSON.stringify(statements[1]!.Resource);
    for (const tier of TIER_ORDER) expect(keyResources).toContain(`"Ref":"${logicalId(stack.usagePlans.keys[tier])}"`);
    const env = resources[logicalId(stack.authorizer)]!.Properties.Environment.Variables;
    expect(env).toMatchObject({
      USAGE_KEY_ID_FREE: { Ref: logicalId(stack.usagePlans.keys.free) },
      USAGE_KEY_ID_PRO: { Ref: logicalId(stack.usagePlans.keys.pro) },
      USAGE_KEY_ID_ENTERPRISE: { Ref: logicalId(stack.usagePlans.keys.enterprise) },
    });
  });

  test('the docs function has no data access at all', () => {
    const actions = statementsOf(stack.functions.byGroup.docs).flatMap(actionsOf);
    expect(actions.filter((a) => !a.startsWith('xray:'))).toEqual([]);
    const env = resources[logicalId(stack.functions.byGroup.docs)]!.Properties.Environment.Variables;
    expect(env.TABLE_NAME).toBeUndefined();
  });

  test('the library function reads objects under library/ only', () => {
    const objectStatements = statementsOf(stack.functions.byGroup.library).filter((s) => actionsOf(s).includes('s3:GetObject'));
    expect(objectStatements).toHaveLength(1);
    expect(actionsOf(objectStatements[0]!)).toEqual(['s3:GetObject']);
    expect(JSON.stringify(objectStatements[0]!.Resource)).toContain('/library/*');
  });

  test('only the functions that emit events may send to the queue, and only the dispatcher dead-letters', () => {
    const named = {
      ...stack.functions.byGroup, dispatcher: stack.jobs.webhookDispatcher, reminder: stack.jobs.deadlineReminder, reminderWorker: stack.jobs.reminderWorker,
      relay: stack.jobs.outboxRelay, authorizer: stack.authorizer,
    };
    const sendersTo = (queueId: string) => Object.entries(named)
      .filter(([, fn]) => statementsOf(fn).some((s) => actionsOf(s).includes('sqs:SendMessage') && JSON.stringify(s.Resource).includes(`"${queueId}"`)))
      .map(([name]) => name)
      .sort();
    // The daily step only fans out to the reminder queue; its worker sends the events.
    expect(sendersTo(logicalId(stack.data.eventQueue))).toEqual(['account', 'assessments', 'dispatcher', 'relay', 'reminderWorker']);
    expect(sendersTo(logicalId(stack.data.workQueues.reminders.queue))).toEqual(['reminder']);
    expect(sendersTo(logicalId(stack.data.eventDeadLetterQueue))).toEqual(['dispatcher']);
    const dispatcherEnv = resources[logicalId(stack.jobs.webhookDispatcher)]!.Properties.Environment.Variables;
    expect(dispatcherEnv.EVENT_DLQ_URL).toEqual({ Ref: logicalId(stack.data.eventDeadLetterQueue) });
  });

  test('the hazards function writes job results but only reads reference layers', () => {
    const objectStatements = statementsOf(stack.functions.byGroup.hazards).filter((s) => actionsOf(s).includes('s3:GetObject'));
    const writable = objectStatements.filter((s) => actionsOf(s).includes('s3:PutObject')).map((s) => JSON.stringify(s.Resource));
    const readOnly = objectStatements.filter((s) => !actionsOf(s).includes('s3:PutObject')).map((s) => JSON.stringify(s.Resource));
    expect(writable.join()).toContain('/hazard-jobs/*');
    expect(writable.join()).not.toMatch(/\/(dem|hazard-layers)\//);
    expect(readOnly.join()).toContain('/dem/*');
    expect(readOnly.join()).toContain('/hazard-layers/*');
  });
});

describe('stage configuration', () => {
  test('prod keeps the table, bucket and queues when the stack is deleted', () => {
    const prod = Template.fromStack(buildStack(stageConfig('prod')).stack);
    prod.hasResource('AWS::DynamoDB::Table', { DeletionPolicy: 'Retain', Properties: Match.objectLike({ DeletionProtectionEnabled: true }) });
    for (const type of ['AWS::S3::Bucket', 'AWS::SQS::Queue']) {
      for (const resource of Object.values(prod.findResources(type))) expect(resource.DeletionPolicy).toBe('Retain');
    }
  });

  test('an unknown stage name is refused', () => {
    expect(() => stageConfig('staging')).toThrow(/Unknown stage "staging"/);
  });
});

describe('cdk-nag AwsSolutions', () => {
  test('reports no unacknowledged errors for the stack', () => {
    const { app } = buildStack();
    Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
    expect(() => app.synth()).not.toThrow();
  });

  test('is live in this setup: an unacknowledged finding fails synthesis', () => {
    const app = new App();
    new Bucket(new Stack(app, 'Bare'), 'Unlogged');
    Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
    expect(() => app.synth()).toThrow(/AwsSolutions-S1/);
  });
});
