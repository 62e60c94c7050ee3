import type * as Cognito from '@aws-sdk/client-cognito-identity-provider';
import type { AuthenticationResultType, CognitoIdentityProviderClient } from '@aws-sdk/client-cognito-identity-provider';
import { appConfig, requiredSetting } from '../config';
import { traced } from './aws-clients';
import { commandOnFirstUse } from './sdk-commands';
import {
  EmailTakenError, EmailUndeliverableError, InvalidConfirmationCodeError, InvalidCredentialsError, TooManyAttemptsError, WeakPasswordError,
  type IdentityProvider, type TokenSet,
} from '../domain/identity/ports';
import type { UserRole } from '../domain/identity/roles';

/** `@aws-sdk/client-cognito-identity-provider` is loaded with the first call (see sdk-commands.ts). */
const sdk = () => require('@aws-sdk/client-cognito-identity-provider') as typeof Cognito;
const SignUpCommand = commandOnFirstUse(sdk, 'SignUpCommand');
const AdminAddUserToGroupCommand = commandOnFirstUse(sdk, 'AdminAddUserToGroupCommand');
const AdminConfirmSignUpCommand = commandOnFirstUse(sdk, 'AdminConfirmSignUpCommand');
const ConfirmSignUpCommand = commandOnFirstUse(sdk, 'ConfirmSignUpCommand');
const ResendConfirmationCodeCommand = commandOnFirstUse(sdk, 'ResendConfirmationCodeCommand');
const ForgotPasswordCommand = commandOnFirstUse(sdk, 'ForgotPasswordCommand');
const ConfirmForgotPasswordCommand = commandOnFirstUse(sdk, 'ConfirmForgotPasswordCommand');
const AdminUserGlobalSignOutCommand = commandOnFirstUse(sdk, 'AdminUserGlobalSignOutCommand');
const RevokeTokenCommand = commandOnFirstUse(sdk, 'RevokeTokenCommand');
const AdminDeleteUserCommand = commandOnFirstUse(sdk, 'AdminDeleteUserCommand');
const InitiateAuthCommand = commandOnFirstUse(sdk, 'InitiateAuthCommand');

let client: CognitoIdentityProviderClient | undefined;

/** One client per process; locally `AWS_ENDPOINT_URL_COGNITO_IDENTITY_PROVIDER` points it at the emulator. */
function cognito(): CognitoIdentityProviderClient {
  client ??= traced(new (sdk().CognitoIdentityProviderClient)({}));
  return client;
}

export function resetCognitoClient(): void {
  client?.destroy();
  client = undefined;
}

const errorName = (error: unknown) => (error as { name?: string })?.name ?? '';

/**
 * Cognito's own limits, as refusals to try again later. Repeated wrong codes or passwords lock the
 * user for a while (`TooManyFailedAttemptsException`); `LimitExceededException` is that lockout
 * ("Attempt limit exceeded") or another quota of the pool, such as its daily emails. Cognito does
 * not say how long either lasts, so the advice is a minute; throttling passes within a second.
 */
const PROVIDER_LIMITS = new Map<string, { seconds: number; message: string }>([
  ['TooManyFailedAttemptsException', { seconds: 60, message: 'Too many failed attempts for this user.' }],
  ['LimitExceededException', { seconds: 60, message: 'The identity provider refuses more of these requests for now.' }],
  ['TooManyRequestsException', { seconds: 1, message: 'The identity provider is receiving too many requests.' }],
]);

/** One call to Cognito, its limit refusals turned into `TooManyAttemptsError` (429, never a 500). */
async function call<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    const limit = PROVIDER_LIMITS.get(errorName(error));
    throw limit ? new TooManyAttemptsError(limit.seconds, limit.message) : error;
  }
}

/**
 * A call that has Cognito email a code. An unknown user, or one it will not send this code to
 * (`InvalidParameterException`: already confirmed, or no verified email), gets the same silent
 * answer as a sent code, so the answer does not tell who is registered.
 */
async function emailCode(send: () => Promise<unknown>): Promise<void> {
  try {
    await call(send);
  } catch (error) {
    if (errorName(error) === 'CodeDeliveryFailureException') throw new EmailUndeliverableError('The code could not be emailed to this address. Check the address.');
    if (!['UserNotFoundException', 'InvalidParameterException'].includes(errorName(error))) throw error;
  }
}

/**
 * The user pool through the AWS SDK, the same code against Cognito and cognito-local. It smooths
 * the emulator's differences: a wrong password is `InvalidPasswordException` there
 * (`NotAuthorizedException` in Cognito), and its auth results lack `ExpiresIn` and `TokenType`.
 */
export class CognitoIdentityProvider implements IdentityProvider {
  constructor(
    private readonly userPoolId = requiredSetting('USER_POOL_ID'),
    private readonly clientId = requiredSetting('USER_POOL_CLIENT_ID'),
    /** No mail is sent on the machine, so local registrations are confirmed at once. */
    private readonly confirmAtOnce = appConfig().APP_MODE === 'local',
    /** The local emulator has no global sign-out. */
    private readonly globalSignOut = appConfig().APP_MODE !== 'local',
  ) {}

  async register(input: { email: string; password: string; name: string; role: UserRole }): Promise<{ userId: string; confirmed: boolean }> {
    let userId: string;
    try {
      const result = await call(() => cognito().send(new SignUpCommand({
        ClientId: this.clientId,
        Username: input.email,
        Password: input.password,
        UserAttributes: [{ Name: 'email', Value: input.email }, { Name: 'name', Value: input.name }],
      })));
      userId = result.UserSub!;
    } catch (error) {
      if (errorName(error) === 'UsernameExistsException' || errorName(error) === 'AliasExistsException') throw new EmailTakenError();
      if (errorName(error) === 'InvalidPasswordException') throw new WeakPasswordError();
      if (errorName(error) === 'CodeDeliveryFailureException') {
        // Cognito may keep the user it created before the email failed; one nobody can confirm would hold the address for good.
        await this.removeIfPresent(input.email);
        throw new EmailUndeliverableError('The confirmation code could not be emailed to this address, so nothing was registered. Check the address and register again.');
      }
      throw error;
    }
    try {
      await call(() => cognito().send(new AdminAddUserToGroupCommand({ UserPoolId: this.userPoolId, Username: input.email, GroupName: input.role })));
      if (this.confirmAtOnce) await call(() => cognito().send(new AdminConfirmSignUpCommand({ UserPoolId: this.userPoolId, Username: input.email })));
    } catch (error) {
      // A user left without its role's group (or unconfirmed) would hold the email with no way in: undone, so the email can register again.
      await this.remove(input.email);
      throw error;
    }
    return { userId, confirmed: this.confirmAtOnce };
  }

  async confirm(email: string, code: string): Promise<void> {
    try {
      await call(() => cognito().send(new ConfirmSignUpCommand({ ClientId: this.clientId, Username: email, ConfirmationCode: code })));
    } catch (error) {
      if (['CodeMismatchException', 'ExpiredCodeException', 'UserNotFoundException', 'NotAuthorizedException'].includes(errorName(error))) {
        throw new InvalidConfirmationCodeError();
      }
      throw error;
    }
  }

  async resendCode(email: string): Promise<void> {
    // Local users are confirmed at registration: there is never a code to send.
    if (this.confirmAtOnce) return;
    await emailCode(() => cognito().send(new ResendConfirmationCodeCommand({ ClientId: this.clientId, Username: email })));
  }

  async requestPasswordReset(email: string): Promise<void> {
    await emailCode(() => cognito().send(new ForgotPasswordCommand({ ClientId: this.clientId, Username: email })));
  }

  async resetPassword(email: string, code: string, password: string): Promise<void> {
    try {
      await call(() => cognito().send(new ConfirmForgotPasswordCommand({ ClientId: this.clientId, Username: email, ConfirmationCode: code, Password: password })));
    } catch (error) {
      if (['CodeMismatchException', 'ExpiredCodeException', 'UserNotFoundException'].includes(errorName(error))) throw new InvalidConfirmationCodeError();
      if (errorName(error) === 'InvalidPasswordException') throw new WeakPasswordError();
      throw error;
    }
  }

  async signOutEverywhere(email: string): Promise<void> {
    if (!this.globalSignOut) return;
    await call(() => cognito().send(new AdminUserGlobalSignOutCommand({ UserPoolId: this.userPoolId, Username: email })));
  }

  async signIn(email: string, password: string): Promise<TokenSet> {
    return this.authenticate('USER_PASSWORD_AUTH', { USERNAME: email, PASSWORD: password });
  }

  async refresh(refreshToken: string): Promise<TokenSet> {
    return this.authenticate('REFRESH_TOKEN_AUTH', { REFRESH_TOKEN: refreshToken });
  }

  async revoke(refreshToken: string): Promise<void> {
    try {
      await call(() => cognito().send(new RevokeTokenCommand({ ClientId: this.clientId, Token: refreshToken })));
    } catch (error) {
      // Revoking a token that is already invalid leaves the same state: nothing can use it.
      if (!['NotAuthorizedException', 'InvalidParameterException', 'UnsupportedTokenTypeException'].includes(errorName(error))) throw error;
    }
  }

  async remove(email: string): Promise<void> {
    await call(() => cognito().send(new AdminDeleteUserCommand({ UserPoolId: this.userPoolId, Username: email })));
  }

  /**
   * After a sign-up refused with `CodeDeliveryFailureException`: a user of that name existed only if
   * this sign-up made it (an existing one is refused with `UsernameExistsException` first).
   */
  private async removeIfPresent(email: string): Promise<void> {
    try {
      await this.remove(email);
    } catch (error) {
      if (errorName(error) !== 'UserNotFoundException') throw error;
    }
  }

  private async authenticate(flow: 'USER_PASSWORD_AUTH' | 'REFRESH_TOKEN_AUTH', parameters: Record<string, string>): Promise<TokenSet> {
    let result: AuthenticationResultType | undefined;
    try {
      ({ AuthenticationResult: result } = await call(() => cognito().send(new InitiateAuthCommand({ ClientId: this.clientId, AuthFlow: flow, AuthParameters: parameters }))));
    } catch (error) {
      if (['NotAuthorizedException', 'InvalidPasswordException', 'UserNotFoundException', 'UserNotConfirmedException', 'PasswordResetRequiredException'].includes(errorName(error))) {
        throw new InvalidCredentialsError();
      }
      throw error;
    }
    if (!result?.AccessToken || !result.IdToken) throw new InvalidCredentialsError();
    return {
      access_token: result.AccessToken,
      id_token: result.IdToken,
      ...(flow === 'USER_PASSWORD_AUTH' && result.RefreshToken ? { refresh_token: result.RefreshToken } : {}),
      token_type: 'Bearer',
      expires_in: result.ExpiresIn ?? lifetimeSeconds(result.AccessToken),
    };
  }
}

/** `exp - iat` of a token the provider just issued (the emulator omits `ExpiresIn`). */
function lifetimeSeconds(token: string): number {
  const claims = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')) as { exp: number; iat: number };
  return claims.exp - claims.iat;
}
