import { CfnOutput, Duration, Stack, type StackProps } from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import { ApiFunctions } from './api-functions';
import { AppFunction, type EntryResolver } from './app-function';
import { BackgroundJobs, WEBHOOK_DISPATCHER_TIMEOUT } from './background-jobs';
import { bindApiKeyLookup, bindTable } from './bindings';
import { CredentialSigningKey } from './credentials';
import { DataStore } from './data-store';
import { ElevationProcessingFanOut } from './elevation-processing-fan-out';
import { ElevationTileFanOut } from './elevation-tile-fan-out';
import { Identity, bindAuthorizerCacheFlush } from './identity';
import { acknowledgeStackFindings } from './nag-suppressions';
import { Observability } from './observability';
import { ApiGateway } from './rest-api';
import type { StageConfig } from './stage-config';
import { TierUsagePlans } from './usage-plans';
import { pascalCase } from './names';
import { TIER_ORDER } from '../shared/domain/tiers';
import { USAGE_PLAN_NAME_VARIABLES } from '../shared/adapters/usage-keys';

export interface ComplianceApiStackProps extends StackProps {
  config: StageConfig;
  /** Where function code is found; defaults to `functions/<name>/handler.ts`. */
  entry?: EntryResolver;
}

/** The whole application: stateful data, the functions that use it, and the API in front. */
export class ComplianceApiStack extends Stack {
  readonly data: DataStore;
  readonly functions: ApiFunctions;
  readonly jobs: BackgroundJobs;
  readonly elevationTiles: ElevationTileFanOut;
  readonly elevationProcessing: ElevationProcessingFanOut;
  readonly authorizer: AppFunction;
  readonly identity: Identity;
  readonly bearerAuthorizer: AppFunction;
  readonly gateway: ApiGateway;
  readonly usagePlans: TierUsagePlans;
  readonly credentialKey: CredentialSigningKey;
  readonly observability: Observability;

  constructor(scope: Construct, id: string, props: ComplianceApiStackProps) {
    super(scope, id, props);
    const { config, entry } = props;

    this.data = new DataStore(this, 'Data', { config, eventConsumerTimeout: WEBHOOK_DISPATCHER_TIMEOUT });
    this.functions = new ApiFunctions(this, 'Functions', { config, data: this.data, entry });
    this.credentialKey = new CredentialSigningKey(this, 'CredentialKey', { config });
    this.credentialKey.bindSigner(this.functions.byGroup['v1-training']);
    this.jobs = new BackgroundJobs(this, 'Jobs', { config, data: this.data, entry });
    // A model the elevation model worker turns ready has its tidal connection traced over its tiles.
    this.elevationTiles = new ElevationTileFanOut(this, 'ElevationTiles', { config, bucket: this.data.bucket, table: this.data.table, entry });
    this.elevationTiles.bindStarter(this.jobs.elevationModelWorker);
    // A model of more windows than one run processes is processed by a fan-out the elevation model
    // worker starts; its join, turning the model ready, starts the model's connection run.
    this.elevationProcessing = new ElevationProcessingFanOut(this, 'ElevationProcessing', { config, bucket: this.data.bucket, table: this.data.table, entry });
    this.elevationProcessing.bindStarter(this.jobs.elevationModelWorker);
    this.elevationTiles.bindStarter(this.elevationProcessing.worker);

    this.authorizer = new AppFunction(this, 'Authorizer', {
      name: 'authorizer',
      description: 'API key authorizer: X-API-Key → account, tier and usage plan',
      memorySize: 256,
      timeout: Duration.seconds(5),
      config,
      entry,
    });
    bindApiKeyLookup(this.authorizer, this.data.table);

    this.identity = new Identity(this, 'Identity', { config });
    this.bearerAuthorizer = new AppFunction(this, 'BearerAuthorizer', {
      name: 'bearer-authorizer',
      description: '/v1 bearer authorizer: Cognito access token → user, account and tier',
      memorySize: 256,
      timeout: Duration.seconds(5),
      config,
      entry,
    });
    this.identity.bindVerifier(this.bearerAuthorizer);
    this.identity.bindUserLookup(this.bearerAuthorizer, this.data.table);

    this.gateway = new ApiGateway(this, 'Gateway', {
      config, functions: this.functions.byGroup, authorizer: this.authorizer, bearerAuthorizer: this.bearerAuthorizer,
    });
    this.identity.bindUserManagement(this.functions.byGroup['v1-identity']);
    bindTable(this.functions.byGroup['v1-identity'], this.data.table, 'readWrite');
    bindAuthorizerCacheFlush(this.functions.byGroup['v1-identity'], this.gateway.api);
    this.usagePlans = new TierUsagePlans(this, 'UsagePlans', { api: this.gateway.api, config, v1Methods: this.gateway.v1BearerMethods });
    this.usagePlans.bindAuthorizer(this.authorizer);
    this.usagePlans.bindAuthorizer(this.bearerAuthorizer);
    // Registration opens each user's account, and key issue gives older accounts their usage key.
    this.usagePlans.bindAccountKeys(this.functions.byGroup['v1-identity']);
    for (const tier of TIER_ORDER) {
      new CfnOutput(this, `UsagePlanName${pascalCase(tier)}`, { description: `${USAGE_PLAN_NAME_VARIABLES[tier]} for npm run accounts`, value: this.usagePlans.planNames[tier] });
    }

    new CfnOutput(this, 'BaseUrl', { description: 'Base URL of the API (ends in /api)', value: this.gateway.api.url });
    new CfnOutput(this, 'BucketName', { value: this.data.bucket.bucketName });
    new CfnOutput(this, 'TableName', { value: this.data.table.tableName });
    new CfnOutput(this, 'UserPoolId', { value: this.identity.userPool.userPoolId });
    new CfnOutput(this, 'UserPoolClientId', { value: this.identity.client.userPoolClientId });

    // Last, so every function of the stack has its alarm.
    this.observability = new Observability(this, 'Observability', {
      api: this.gateway.api,
      deadLetterQueue: this.data.eventDeadLetterQueue,
      streamFailureQueue: this.data.streamFailureQueue,
      streamConsumers: this.jobs.streamConsumers,
      workQueues: {
        HazardJobs: this.data.workQueues.jobs.hazard_job,
        AssetImports: this.data.workQueues.jobs.asset_import,
        ElevationModels: this.data.workQueues.jobs.elevation_model,
        Deliverables: this.data.workQueues.jobs.deliverable,
        Reminders: this.data.workQueues.reminders,
      },
      functions: this.node.findAll().filter((construct): construct is AppFunction => construct instanceof AppFunction),
    });
    new CfnOutput(this, 'AlarmTopicArn', { description: 'Subscribe to receive the alarms', value: this.observability.alarmTopic.topicArn });

    acknowledgeStackFindings(this);
  }
}
