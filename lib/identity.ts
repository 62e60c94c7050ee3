import { Duration, Stack, Validations } from 'aws-cdk-lib';
import type { RestApi } from 'aws-cdk-lib/aws-apigateway';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import {
  AccountRecovery, FeaturePlan, Mfa, StandardThreatProtectionMode, UserPool, UserPoolClient, UserPoolGroup,
} from 'aws-cdk-lib/aws-cognito';
import { Effect, PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import { Construct } from 'constructs';
import { PASSWORD_POLICY, TOKEN_VALIDITY } from '../shared/domain/identity/pool-settings';
import { USER_ROLES } from '../shared/domain/identity/roles';
import { pascalCase } from './names';
import { STAGE_NAME } from './rest-api';
import type { StageConfig } from './stage-config';

const ROLE_DESCRIPTIONS: Record<(typeof USER_ROLES)[number], string> = {
  resident: 'Residents: risk, preparedness and training routes for themselves',
  staff: 'Local government staff',
  consultant: 'Consultants working for local governments',
  admin: 'Operators; granted by an operator, never at registration',
};

/**
 * The /v1 users: a Cognito user pool (email is the user name, 12-character password policy,
 * threat protection on the Plus plan), one group per role, and the API's own app client
 * (USER_PASSWORD_AUTH and refresh, no secret, access and ID tokens 1 h, refresh 30 days,
 * revocation on). The same settings create the emulator's pool in local mode.
 */
export class Identity extends Construct {
  readonly userPool: UserPool;
  readonly client: UserPoolClient;

  constructor(scope: Construct, id: string, props: { config: StageConfig }) {
    super(scope, id);
    this.userPool = new UserPool(this, 'Users', {
      selfSignUpEnabled: true,
      signInAliases: { email: true },
      signInCaseSensitive: false,
      autoVerify: { email: true },
      keepOriginal: { email: true },
      standardAttributes: { email: { required: true, mutable: true }, fullname: { required: true, mutable: true } },
      passwordPolicy: {
        minLength: PASSWORD_POLICY.minLength,
        requireLowercase: PASSWORD_POLICY.requireLowercase,
        requireUppercase: PASSWORD_POLICY.requireUppercase,
        requireDigits: PASSWORD_POLICY.requireDigits,
        requireSymbols: PASSWORD_POLICY.requireSymbols,
        tempPasswordValidity: Duration.days(3),
      },
      accountRecovery: AccountRecovery.EMAIL_ONLY,
      featurePlan: FeaturePlan.PLUS,
      standardThreatProtectionMode: StandardThreatProtectionMode.FULL_FUNCTION,
      mfa: Mfa.OFF,
      deletionProtection: props.config.name === 'prod',
      removalPolicy: props.config.removalPolicy,
    });
    Validations.of(this.userPool).acknowledge({
      id: 'AwsSolutions-COG2',
      reason: 'The API signs users in with USER_PASSWORD_AUTH and answers tokens in one step; an MFA challenge has no step in that first-party flow. Stolen passwords are covered by Cognito threat protection (Plus plan, full function: compromised-credential and adaptive checks) and by the API\'s own sign-in limits per email and per address. MFA belongs with the hosted-UI flow for third-party clients.',
    });

    for (const role of USER_ROLES) {
      new UserPoolGroup(this, `${pascalCase(role)}Group`, { userPool: this.userPool, groupName: role, description: ROLE_DESCRIPTIONS[role] });
    }

    this.client = this.userPool.addClient('ApiClient', {
      authFlows: { userPassword: true },
      generateSecret: false,
      accessTokenValidity: Duration.hours(TOKEN_VALIDITY.accessTokenHours),
      idTokenValidity: Duration.hours(TOKEN_VALIDITY.idTokenHours),
      refreshTokenValidity: Duration.days(TOKEN_VALIDITY.refreshTokenDays),
      enableTokenRevocation: true,
      preventUserExistenceErrors: true,
    });
  }

  /** The pool ids a function verifies tokens with (no AWS permission needed: the JWKS is public). */
  bindVerifier(fn: LambdaFunction): void {
    fn.addEnvironment('USER_POOL_ID', this.userPool.userPoolId);
    fn.addEnvironment('USER_POOL_CLIENT_ID', this.client.userPoolClientId);
  }

  /** The bearer authorizer's table access: GetItem on the user and account records only. */
  bindUserLookup(fn: LambdaFunction, table: ITable): void {
    fn.addEnvironment('TABLE_NAME', table.tableName);
    fn.addToRolePolicy(new PolicyStatement({
      effect: Effect.ALLOW,
      actions: ['dynamodb:GetItem'],
      resources: [table.tableArn],
      conditions: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['USER#*', 'ACCOUNT#*'] } },
    }));
  }

  /** Sign-up, confirmation, sign-in, password reset and revocation for the users function: the admin calls it makes, on this pool only. */
  bindUserManagement(fn: LambdaFunction): void {
    this.bindVerifier(fn);
    fn.addToRolePolicy(new PolicyStatement({
      effect: Effect.ALLOW,
      actions: ['cognito-idp:AdminAddUserToGroup', 'cognito-idp:AdminDeleteUser', 'cognito-idp:AdminUserGlobalSignOut'],
      resources: [this.userPool.userPoolArn],
    }));
  }
}

/**
 * Revoking a key flushes the stage's authorizer cache (FlushStageAuthorizersCache), so the key is
 * refused from the next request although answers are cached per key for `authorizerCacheTtl`.
 */
export function bindAuthorizerCacheFlush(fn: LambdaFunction, api: RestApi): void {
  fn.addEnvironment('REST_API_ID', api.restApiId);
  // The stage's name, not a reference to the stage: the stage's deployment depends on this function.
  fn.addEnvironment('REST_API_STAGE', STAGE_NAME);
  fn.addToRolePolicy(new PolicyStatement({
    effect: Effect.ALLOW,
    actions: ['apigateway:DELETE'],
    resources: [Stack.of(fn).formatArn({ service: 'apigateway', account: '', resource: `/restapis/${api.restApiId}/stages/${STAGE_NAME}/cache/authorizers` })],
  }));
}
