import { existsSync } from 'node:fs';
import { App, Validations, type CfnElement } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { AwsSolutionsChecks } from 'cdk-nag';
import { handlerEntry, type EntryResolver } from '../../lib/app-function';
import { ComplianceApiStack } from '../../lib/stack';
import { STAGES } from '../../lib/stage-config';
import { ROUTES } from '../../shared/routes';

process.env.CDK_DISABLE_CLI_TELEMETRY = 'true';

const entry: EntryResolver = (name) => (existsSync(handlerEntry(name)) ? handlerEntry(name) : handlerEntry('docs'));

function buildStack(): { app: App; stack: ComplianceApiStack } {
  const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
  return { app, stack: new ComplianceApiStack(app, 'IdentityTest', { config: STAGES.dev, entry }) };
}

type Resources = Record<string, { Type: string; Properties: Record<string, any> }>;

let stack: ComplianceApiStack;
let template: Template;
let resources: Resources;
const idOf = (construct: { node: { defaultChild?: unknown } }) => stack.getLogicalId(construct.node.defaultChild as CfnElement);

beforeAll(() => {
  ({ stack } = buildStack());
  template = Template.fromStack(stack);
  resources = template.toJSON().Resources;
});

function resourcePath(resourceRef: any): string {
  if (resourceRef['Fn::GetAtt']) return '';
  const resource = resources[resourceRef.Ref]!;
  return `${resourcePath(resource.Properties.ParentId)}/${resource.Properties.PathPart}`;
}

function policyStatementsOf(functionLogicalId: string): any[] {
  const roleRef = resources[functionLogicalId]!.Properties.Role['Fn::GetAtt'][0];
  return Object.values(resources)
    .filter((r) => r.Type === 'AWS::IAM::Policy' && r.Properties.Roles.some((role: any) => role.Ref === roleRef))
    .flatMap((r) => r.Properties.PolicyDocument.Statement);
}

describe('Cognito user pool', () => {
  test('email is the user name; the password policy needs 12 characters of every class; threat protection is enforced', () => {
    template.resourceCountIs('AWS::Cognito::UserPool', 1);
    template.hasResourceProperties('AWS::Cognito::UserPool', {
      UsernameAttributes: ['email'],
      AutoVerifiedAttributes: ['email'],
      UsernameConfiguration: { CaseSensitive: false },
      Policies: { PasswordPolicy: { MinimumLength: 12, RequireLowercase: true, RequireUppercase: true, RequireNumbers: true, RequireSymbols: true } },
      UserPoolTier: 'PLUS',
      UserPoolAddOns: { AdvancedSecurityMode: 'ENFORCED' },
      AccountRecoverySetting: { RecoveryMechanisms: [{ Name: 'verified_email', Priority: 1 }] },
    });
  });

  test('has one group per role', () => {
    const groups = Object.values(resources).filter((r) => r.Type === 'AWS::Cognito::UserPoolGroup').map((r) => r.Properties.GroupName).sort();
    expect(groups).toEqual(['admin', 'consultant', 'resident', 'staff']);
  });

  test('the API\'s client signs in with USER_PASSWORD_AUTH and refreshes, has no secret, 1 h tokens, 30-day refresh and revocation', () => {
    template.resourceCountIs('AWS::Cognito::UserPoolClient', 1);
    const client = Object.values(resources).find((r) => r.Type === 'AWS::Cognito::UserPoolClient')!.Properties;
    expect([...client.ExplicitAuthFlows].sort()).toEqual(['ALLOW_REFRESH_TOKEN_AUTH', 'ALLOW_USER_PASSWORD_AUTH']);
    expect(client.GenerateSecret).toBe(false);
    expect(client.EnableTokenRevocation).toBe(true);
    expect(client.PreventUserExistenceErrors).toBe('ENABLED');
    const minutes = (value: number, unit: string) => value * ({ minutes: 1, hours: 60, days: 1440 } as Record<string, number>)[unit]!;
    expect(minutes(client.AccessTokenValidity, client.TokenValidityUnits.AccessToken)).toBe(60);
    expect(minutes(client.IdTokenValidity, client.TokenValidityUnits.IdToken)).toBe(60);
    expect(minutes(client.RefreshTokenValidity, client.TokenValidityUnits.RefreshToken)).toBe(30 * 1440);
  });
});

describe('bearer authorizer wiring', () => {
  test('every bearer route of the table uses the bearer authorizer; keyed routes keep the API key authorizer', () => {
    const authorizers = Object.entries(resources).filter(([, r]) => r.Type === 'AWS::ApiGateway::Authorizer');
    const bearerId = authorizers.find(([, r]) => r.Properties.AuthorizerUri['Fn::Join'][1].some((part: any) => part['Fn::GetAtt']?.[0] === idOf(stack.bearerAuthorizer)))![0];
    const methods = Object.values(resources).filter((r) => r.Type === 'AWS::ApiGateway::Method');
    const bearerRoutes = ROUTES.filter((route) => route.auth === 'bearer');
    expect(bearerRoutes.length).toBeGreaterThanOrEqual(7);
    for (const route of ROUTES) {
      const method = methods.find((m) => m.Properties.HttpMethod === route.method && resourcePath(m.Properties.ResourceId) === route.path)!;
      expect(method).toBeDefined();
      const usesBearer = method.Properties.AuthorizerId?.Ref === bearerId;
      expect({ route: `${route.method} ${route.path}`, usesBearer }).toEqual({ route: `${route.method} ${route.path}`, usesBearer: route.auth === 'bearer' });
      if (route.auth === 'bearer') expect(method.Properties).toMatchObject({ AuthorizationType: 'CUSTOM' });
    }
  });

  test('the bearer authorizer is a REQUEST authorizer that is never cached and needs no identity source', () => {
    const bearer = Object.values(resources).find((r) => r.Type === 'AWS::ApiGateway::Authorizer'
      && r.Properties.AuthorizerUri['Fn::Join'][1].some((part: any) => part['Fn::GetAtt']?.[0] === idOf(stack.bearerAuthorizer)))!;
    expect(bearer.Properties).toMatchObject({ Type: 'REQUEST', AuthorizerResultTtlInSeconds: 0 });
    expect(bearer.Properties.IdentitySource ?? '').toBe('');
  });

  test('the bearer authorizer verifies against the pool and client, and reads only user and account records', () => {
    const env = resources[idOf(stack.bearerAuthorizer)]!.Properties.Environment.Variables;
    expect(env.USER_POOL_ID).toEqual({ Ref: idOf(stack.identity.userPool) });
    expect(env.USER_POOL_CLIENT_ID).toEqual({ Ref: idOf(stack.identity.client) });
    const dynamoStatements = policyStatementsOf(idOf(stack.bearerAuthorizer)).filter((s) => [s.Action].flat().some((a: string) => a.startsWith('dynamodb:')));
    expect(dynamoStatements).toEqual([expect.objectContaining({
      Action: 'dynamodb:GetItem',
      Condition: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['USER#*', 'ACCOUNT#*'] } },
    })]);
  });

  test('the identity function manages users of this pool only and may flush the stage\'s authorizer cache', () => {
    const fn = stack.functions.byGroup['v1-identity'];
    const statements = policyStatementsOf(idOf(fn));
    expect(statements).toEqual(expect.arrayContaining([
      expect.objectContaining({ Action: ['cognito-idp:AdminAddUserToGroup', 'cognito-idp:AdminDeleteUser', 'cognito-idp:AdminUserGlobalSignOut'], Resource: { 'Fn::GetAtt': [idOf(stack.identity.userPool), 'Arn'] } }),
      expect.objectContaining({ Action: 'apigateway:DELETE' }),
    ]));
    const flush = statements.find((s) => s.Action === 'apigateway:DELETE');
    expect(JSON.stringify(flush.Resource)).toContain('/cache/authorizers');
    const env = resources[idOf(fn)]!.Properties.Environment.Variables;
    expect(env).toMatchObject({ REST_API_ID: { Ref: stack.getLogicalId(stack.gateway.api.node.defaultChild as CfnElement) }, REST_API_STAGE: 'api', USER_POOL_CLIENT_ID: { Ref: idOf(stack.identity.client) } });
  });
});

describe('cdk-nag AwsSolutions on the identity resources', () => {
  test('no unacknowledged error', () => {
    const { app } = buildStack();
    Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
    expect(() => app.synth()).not.toThrow();
  });
});
