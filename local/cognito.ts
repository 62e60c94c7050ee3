import { mkdirSync } from 'node:fs';
import { appendFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import {
  CognitoIdentityProviderClient, CreateGroupCommand, CreateUserPoolClientCommand, CreateUserPoolCommand, ListUserPoolClientsCommand,
  ListUserPoolsCommand,
} from '@aws-sdk/client-cognito-identity-provider';
import { PASSWORD_POLICY, TOKEN_VALIDITY, USER_POOL_CLIENT_NAME, USER_POOL_NAME } from '../shared/domain/identity/pool-settings';
import { USER_ROLES } from '../shared/domain/identity/roles';

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
 * server keeps data in `./.cognito` and listens where HOST/PORT say): data under
 * `<dataDir>/cognito`, loopback only, a free port, no log output (request bodies carry passwords),
 * the codes it would email in `<dataDir>/cognito/mailbox.jsonl`.
 * The pool, its app client and the role groups are created on first start and found again by
 * name after a restart. Tokens are signed with the key the package ships: local use only.
 */
export async function startLocalCognito(dataDir: string): Promise<LocalCognito> {
  const directory = path.join(dataDir, 'cognito');
  mkdirSync(directory, { recursive: true });
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
  const { Router } = load('./server/Router');
  const { createServer } = load('./server/server');

  const ctx = { logger };
  const clock = new DateClock();
  const stores = new StormDBDataStoreFactory(directory);
  const cognito = await new CognitoServiceFactoryImpl(directory, stores, new UserPoolServiceFactoryImpl(clock, stores))
    .create(ctx, { UsernameAttributes: ['email'] });
  // No Lambda triggers are configured, so neither the Lambda client nor the KMS crypto is ever used.
  const triggers = new TriggersService(clock, cognito, new LambdaService({}, undefined), undefined);
  // The issuer needs the port, known only once listening; the generator reads it per token.
  const tokenConfig = { IssuerDomain: '' };
  const services = {
    clock,
    cognito,
    config: {},
    messages: new MessagesService(triggers, new MessageDeliveryService(localMailbox(path.join(directory, 'mailbox.jsonl')))),
    otp,
    tokenGenerator: new JwtTokenGenerator(clock, triggers, tokenConfig),
    triggers,
  };
  const server = createServer(Router(services), logger, { port: 0, hostname: LOOPBACK, development: false, https: false }, services);
  const http = (await server.start()) as Server;
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
