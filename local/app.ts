import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { resetAwsClients } from '../shared/adapters/aws-clients';
import { DynamoAccountStore } from '../shared/adapters/account-store';
import { resetConfigForTests } from '../shared/config';
import { startEmulators, type EmulatorOptions, type Emulators } from './emulators';
import { startEmulatorsInChild } from './emulator-process';
import { ensureLocalResources, type LocalResources } from './bootstrap';
import { ensureDemoAccounts, type DemoKeys } from './demo-accounts';
import { startGateway, type UsagePlanThrottles } from './gateway';
import { serveConsoleFromMemory } from './console-site';
import { startLocalCognito } from './cognito';
import { bearerAuthenticator } from '../functions/bearer-authorizer/handler';
import { resetCognitoClient } from '../shared/adapters/cognito-identity-provider';
import { ensureLocalCredentialKey } from './credential-key';
import { resetCredentialSignerForTests } from '../shared/adapters/credential-signer';
import { settleUsage } from '../shared/http/deps';
import { startUploadWatcher } from './upload-watcher';
import { stopLocalConnectionFanOut } from './connection-fan-out';
import { stopLocalProcessingFanOut } from './processing-fan-out';
import { JOB_KINDS } from '../shared/application/jobs/job-start';
import { JOB_QUEUE_SETTINGS } from '../shared/adapters/sqs-job-starter';
import { startBackgroundWorkers } from './background-workers';
import { startOutboxSweeper } from './outbox-sweeper';
import { seedLibrary } from './seed-library';
import { DynamoResourceStore } from '../shared/adapters/resource-store';
import { startStatewideCogs } from './statewide-cogs';

export interface LocalAppOptions {
  dataDir: string;
  /** Gateway port; 0 picks a free one (tests). */
  port: number;
  emulatorPorts?: EmulatorOptions['ports'];
  /**
   * Run the emulators in a process of their own, as DynamoDB, S3 and SQS are services apart from the
   * API in AWS (`npm start`): called with the exit code if that process ends while the app runs.
   * Absent, they run in this process (tests, operator commands).
   */
  emulatorsInChild?: { onLost(code: number | null): void };
  /**
   * The queue poller feeding the webhook dispatcher, the daily reminder timer and the job workers
   * (default true). Tests that read events straight off the queue turn them off; `'jobs'` keeps only
   * the job workers, so nothing is sent out (webhook deliveries, reminders).
   */
  backgroundWorkers?: boolean | 'jobs';
  /**
   * Serve the bundled quads as statewide COGs over 127.0.0.1 and read the statewide source from
   * them, as AWS reads the 3DEP tiles (`npm start` with `LOCAL_STATEWIDE_COGS=1`).
   */
  statewideCogs?: boolean;
  /**
   * The usage plans' throttles, per usage key as API Gateway applies them (`npm start` with
   * `LOCAL_THROTTLES=1` applies the stage's); absent, nothing is throttled (tests, benches).
   */
  usagePlans?: UsagePlanThrottles;
}

export interface LocalApp {
  baseUrl: string;
  keys: DemoKeys;
  resources: LocalResources;
  dataDir: string;
  /** The emulators' process, when they run in one of their own. */
  emulatorsPid?: number;
  stop(): Promise<void>;
}

export const LOCAL_TABLE_NAME = 'va-compliance';
export const LOCAL_BUCKET_NAME = 'va-compliance-local';

/**
 * Everything `npm start` runs: the emulators on loopback (in a process of their own for `npm start`),
 * the resources the stack would create, the seed data and demo accounts, and the gateway in front of
 * the handlers. Tests start the same app on free ports with a temporary data directory.
 */
export async function startLocalApp(options: LocalAppOptions): Promise<LocalApp> {
  const dataDir = path.resolve(options.dataDir);
  mkdirSync(dataDir, { recursive: true });
  const emulatorOptions = { dataDir, ports: options.emulatorPorts };
  const emulators: Emulators & { pid?: number } = options.emulatorsInChild
    ? await startEmulatorsInChild(emulatorOptions, options.emulatorsInChild.onLost)
    : await startEmulators(emulatorOptions);

  useLocalEmulators(dataDir, emulators.endpoints);
  // The /v1 user pool: cognito-local under $DATA_DIR/cognito, reached through the stock SDK client.
  const cognito = await startLocalCognito(dataDir);
  Object.assign(process.env, {
    AWS_ENDPOINT_URL_COGNITO_IDENTITY_PROVIDER: cognito.endpoint,
    USER_POOL_ID: cognito.userPoolId,
    USER_POOL_CLIENT_ID: cognito.clientId,
  });
  resetCognitoClient();
  // Credentials are signed by a key kept under $DATA_DIR (KMS in AWS).
  process.env.CREDENTIAL_KEY_FILE = ensureLocalCredentialKey(dataDir);
  resetCredentialSignerForTests();

  const resources = await ensureLocalResources(LOCAL_TABLE_NAME, LOCAL_BUCKET_NAME);
  process.env.EVENT_QUEUE_URL = resources.queueUrl;
  process.env.EVENT_DLQ_URL = resources.deadLetterQueueUrl;
  process.env.REMINDER_QUEUE_URL = resources.reminderQueueUrl;
  for (const kind of JOB_KINDS) process.env[JOB_QUEUE_SETTINGS[kind]] = resources.jobQueueUrls[kind];
  const statewideCogs = options.statewideCogs ? await startStatewideCogs(dataDir) : undefined;
  resetConfigForTests();
  const outboxSweeper = startOutboxSweeper();

  await seedLibrary(new DynamoResourceStore());
  const accounts = new DynamoAccountStore();
  const keys = await ensureDemoAccounts(dataDir, accounts, new Date());
  const stopServingConsole = serveConsoleFromMemory();
  const gateway = await startGateway({ port: options.port, accounts, bearer: bearerAuthenticator(), usagePlans: options.usagePlans });
  // Stands in for the bucket's ObjectCreated notification that starts large asset imports.
  const uploadWatcher = startUploadWatcher({ bucket: resources.bucketName });
  const workers = options.backgroundWorkers === false ? undefined : startBackgroundWorkers(resources, { outbound: options.backgroundWorkers !== 'jobs' });

  return {
    baseUrl: gateway.url,
    keys,
    resources,
    dataDir,
    emulatorsPid: emulators.pid,
    async stop() {
      await gateway.close();
      stopServingConsole();
      await settleUsage().catch(() => undefined);
      await uploadWatcher.stop();
      await workers?.stop();
      // Processing first: a run that is stopped must not start a connection run on its way out.
      await stopLocalProcessingFanOut();
      await stopLocalConnectionFanOut();
      await outboxSweeper.stop();
      await emulators.stop();
      await cognito.stop();
      await statewideCogs?.close();
      resetAwsClients();
      resetCognitoClient();
    },
  };
}

/**
 * Points this process's SDK clients and settings at the emulators: the local app, and operator
 * commands (such as `npm run library:load`) that work on the same data directory.
 */
export function useLocalEmulators(dataDir: string, endpoints: Emulators['endpoints']): void {
  Object.assign(process.env, {
    APP_MODE: 'local',
    DATA_DIR: dataDir,
    AWS_REGION: 'us-east-1',
    // s3rver accepts only its own fixed credentials; the other emulators accept any.
    AWS_ACCESS_KEY_ID: 'S3RVER',
    AWS_SECRET_ACCESS_KEY: 'S3RVER',
    AWS_ENDPOINT_URL_DYNAMODB: endpoints.dynamodb,
    AWS_ENDPOINT_URL_S3: endpoints.s3,
    AWS_ENDPOINT_URL_SQS: endpoints.sqs,
    TABLE_NAME: LOCAL_TABLE_NAME,
    BUCKET_NAME: LOCAL_BUCKET_NAME,
    // Local mode runs on the machine's Node 20 by design (Lambda runs Node 22).
    AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
    POWERTOOLS_LOG_LEVEL: process.env.POWERTOOLS_LOG_LEVEL ?? 'WARN',
  });
  resetConfigForTests();
  resetAwsClients();
}
