import { chmodSync, mkdirSync } from 'node:fs';
import { appendFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { createServer as createHttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import {
  CognitoIdentityProviderClient, CreateGroupCommand, CreateUserPoolClientCommand, CreateUserPoolCommand, ListUserPoolClientsCommand,
  ListUserPoolsCommand,
} from '@aws-sdk/client-cognito-identity-provider';
import { PASSWORD_POLICY, TOKEN_VALIDITY, USER_POOL_CLIENT_NAME, USER_POOL_NAME } from '../shared/domain/identity/pool-settings';
import { USER_ROLES } from '../shared/domain/identity/roles';
import { hashingPasswords, hashStoredPasswords } from './cognito-passwords';
import { outlastClientKeepAlive } from './keep-alive';
import { discoveryHandler, ensureTokenSigningKey, signingWith } from './cognito-tokens';

export interface LocalCognito {
  /** `http://127.0.0.1:<port>`: the SDK endpoint, and the issuer's base. */
  endpoint: string;
  userPoolId: string;
  clientId: string;
  stop(): Promise<void>;
}

const LOOPBACK = '127.0.0.1';

/** What the emulator hands a message sender: the code, and the texts a pool's message settings would make. */
interface EmulatorMessage {
  __code?: string;
  emailSubject?: string;
}

/**
 * Mail the user pool would send (password reset codes), kept on the machine since none leaves it:
 * one JSON line per message in `mailbox.jsonl`, readable by its owner only.
 */
function localMailbox(file: string) {
  const deliver = async (_ctx: unknown, _user: unknown, destination: string, message: EmulatorMessage) => {
    await appendFile(file, `${JSON.stringify({ sent_at: new Date().toISOString(), to: destination, code: message.__code ?? null })}\n`, { mode: 0o600 });
  };
  return { sendEmail: deliver, sendSms: deliver };
}

/**
 * The cognito-local emulator in this process, assembled from its own factories (its default
 * server keeps data in `./.cognito`, listens where HOST/PORT say and signs with the key its package
 * ships): data under `<dataDir>/cognito` readable by the owner only, passwords stored as scrypt
 * hashes, tokens signed with a key of this data directory (`<dataDir>/keys`), loopback only, a free
 * port, no log output (request bodies carry passwords), the codes it would email in
 * `<dataDir>/cognito/mailbox.jsonl`. Its hosted UI is not served.
 * The pool, its app client and the role groups are created on first start and found again by
 * name after a restart.
 */
export async function startLocalCognito(dataDir: string): Promise<LocalCognito> {
  const directory = path.join(dataDir, 'cognito');
  mkdirSync(directory, { recursive: true, mode: 0o700 });
  chmodSync(directory, 0o700);
  const load = createRequire(require.resolve('cognito-local'));
  const pino = load('pino') as (options: object) => unknown;
  const logger = pino({ level: 'silent' });
  const { DateClock, TriggersService, LambdaService, MessagesService } = load('./services');
  const { CognitoServiceFactoryImpl } = load('./services/cognitoService');
  const { UserPoolServiceFactoryImpl } = load('./services/userPoolService');
  const { StormDBDataStoreFactory } = load('./services/dataStore/stormDb');
  const { JwtTokenGenerator } = load('./services/tokenGenerator');
  const { MessageDeliveryService } = load('./services/messageDelivery/messageDelivery');
  const { otp } = load('./services/otp');
  const { UnsupportedError } = load('./errors');
  const { Router } = load('./server/Router');
  const { createServer } = load('./server/server');

  const ctx = { logger };
  const clock = new DateClock();
  const stores = ownerOnly(new StormDBDataStoreFactory(directory), directory);
  const cognito = await new CognitoServiceFactoryImpl(directory, stores, new UserPoolServiceFactoryImpl(clock, stores))
    .create(ctx, { UsernameAttributes: ['email'] });
  await hashStoredPasswords(ctx, cognito);
  // No Lambda triggers are configured, so neither the Lambda client nor the KMS crypto is ever used.
  const triggers = new TriggersService(clock, cognito, new LambdaService({}, undefined), undefined);
  // The issuer needs the port, known only once listening; the generator reads it per token.
  const tokenConfig = { IssuerDomain: '' };
  const key = ensureTokenSigningKey(dataDir);
  const services = {
    clock,
    cognito,
    config: {},
    messages: new MessagesService(triggers, new MessageDeliveryService(localMailbox(path.join(directory, 'mailbox.jsonl')))),
    otp,
    tokenGenerator: signingWith(key, new JwtTokenGenerator(clock, triggers, tokenConfig)),
    triggers,
  };
  const router = hashingPasswords(Router(services), cognito, (target) => new UnsupportedError(`${target} is not emulated locally`));
  // Without `services` the emulator serves no hosted UI (its login form compares passwords itself).
  const { application } = createServer(router, logger, { development: false }, undefined);
  const http = outlastClientKeepAlive(createHttpServer(discoveryHandler(key, () => tokenConfig.IssuerDomain, application)));
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(0, LOOPBACK, () => resolve());
  });
  const endpoint = `http://${LOOPBACK}:${(http.address() as AddressInfo).port}`;
  tokenConfig.IssuerDomain = endpoint;

  const stop = () => new Promise<void>((resolve) => {
    http.closeAllConnections();
    http.close(() => resolve());
  });
  try {
    const { userPoolId, clientId } = await ensurePool(endpoint);
    return { endpoint, userPoolId, clientId, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

interface DataStoreFactory {
  create(ctx: unknown, id: string, defaults: object): Promise<unknown>;
}

/** The emulator's files (users, clients) made readable by the owner only as they are opened. */
function ownerOnly(factory: DataStoreFactory, directory: string): DataStoreFactory {
  return {
    async create(ctx, id, defaults) {
      const store = await factory.create(ctx, id, defaults);
      chmodSync(path.join(directory, `${id}.json`), 0o600);
      return store;
    },
  };
}

/** The same pool settings the CDK stack declares, as far as the emulator takes them. */
async function ensurePool(endpoint: string): Promise<{ userPoolId: string; clientId: string }> {
  const client = new CognitoIdentityProviderClient({ endpoint, region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
  try {
    const { UserPools = [] } = await client.send(new ListUserPoolsCommand({ MaxResults: 60 }));
    let userPoolId = UserPools.find((pool) => pool.Name === USER_POOL_NAME)?.Id;
    if (!userPoolId) {
      const created = await client.send(new CreateUserPoolCommand({
        PoolName: USER_POOL_NAME,
        UsernameAttributes: ['email'],
        Policies: {
          PasswordPolicy: {
            MinimumLength: PASSWORD_POLICY.minLength,
            RequireLowercase: PASSWORD_POLICY.requireLowercase,
            RequireUppercase: PASSWORD_POLICY.requireUppercase,
            RequireNumbers: PASSWORD_POLICY.requireDigits,
            RequireSymbols: PASSWORD_POLICY.requireSymbols,
          },
        },
      }));
      userPoolId = created.UserPool!.Id!;
      for (const role of USER_ROLES) await client.send(new CreateGroupCommand({ UserPoolId: userPoolId, GroupName: role }));
    }
    const { UserPoolClients = [] } = await client.send(new ListUserPoolClientsCommand({ UserPoolId: userPoolId, MaxResults: 60 }));
    let clientId = UserPoolClients.find((c) => c.ClientName === USER_POOL_CLIENT_NAME)?.ClientId;
    if (!clientId) {
      const created = await client.send(new CreateUserPoolClientCommand({
        UserPoolId: userPoolId,
        ClientName: USER_POOL_CLIENT_NAME,
        GenerateSecret: false,
        ExplicitAuthFlows: ['ALLOW_USER_PASSWORD_AUTH', 'ALLOW_REFRESH_TOKEN_AUTH'],
        AccessTokenValidity: TOKEN_VALIDITY.accessTokenHours,
        IdTokenValidity: TOKEN_VALIDITY.idTokenHours,
        RefreshTokenValidity: TOKEN_VALIDITY.refreshTokenDays,
        TokenValidityUnits: { AccessToken: 'hours', IdToken: 'hours', RefreshToken: 'days' },
        EnableTokenRevocation: true,
      }));
      clientId = created.UserPoolClient!.ClientId!;
    }
    return { userPoolId, clientId };
  } finally {
    client.destroy();
  }
}
