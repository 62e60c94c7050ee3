import { CognitoIdentityProvider, resetCognitoClient } from '../../shared/adapters/cognito-identity-provider';
import { answering } from '../../functions/v1-identity/handler';
import { EmailUndeliverableError, InvalidConfirmationCodeError, TooManyAttemptsError, WeakPasswordError } from '../../shared/domain/identity/ports';
import { HttpError } from '../../shared/http/problem';
import { startAwsStandIn, type StandInAnswer } from '../helpers/aws-stand-in';

/**
 * The Cognito adapter against a stand-in of Cognito's JSON protocol on loopback: each operation
 * answers as scripted (a result, or an error named the way Cognito names it), so the adapter's
 * reading of Cognito's refusals is tested through the real SDK client, error parsing included.
 */
const refusal = (type: string, message = 'refused'): StandInAnswer => ({ status: 400, body: { __type: type, message } });

let standIn: Awaited<ReturnType<typeof startAwsStandIn>>;
let script: Record<string, StandInAnswer> = {};
let calls: string[] = [];
const saved = { ...process.env };

beforeAll(async () => {
  standIn = await startAwsStandIn('application/x-amz-json-1.1', (operation) => {
    calls.push(operation);
    return script[operation] ?? { status: 200, body: {} };
  });
  Object.assign(process.env, {
    AWS_ENDPOINT_URL_COGNITO_IDENTITY_PROVIDER: standIn.endpoint,
    AWS_REGION: 'us-east-1', AWS_ACCESS_KEY_ID: 'test', AWS_SECRET_ACCESS_KEY: 'test', AWS_MAX_ATTEMPTS: '1',
  });
  resetCognitoClient();
});

afterAll(async () => {
  resetCognitoClient();
  process.env = saved;
  await standIn.close();
});

beforeEach(() => {
  script = {};
  calls = [];
});

/** `local` as in local mode: registrations confirmed at once, no global sign-out (the emulator has none). */
const provider = (local = false) => new CognitoIdentityProvider('us-east-1_pool', 'client-id', local, !local);
const registration = { email: 'ana@example.org', password: 'Str0ng-enough-pass', name: 'Ana', role: 'staff' as const };

async function refusedWith(work: Promise<unknown>): Promise<TooManyAttemptsError> {
  const error = await work.then(() => undefined, (e: unknown) => e);
  expect(error).toBeInstanceOf(TooManyAttemptsError);
  return error as TooManyAttemptsError;
}

describe('Cognito refusals under its own limits are "try again later", never a failure', () => {
  it('repeated wrong confirmation codes: wait a minute', async () => {
    script.ConfirmSignUp = refusal('TooManyFailedAttemptsException');
    const error = await refusedWith(provider().confirm('ana@example.org', '123456'));
    expect(error.retryAfterSeconds).toBe(60);
    expect(error.message).toBe('Too many failed attempts for this user.');
  });

  it('"Attempt limit exceeded" (LimitExceededException): wait a minute too', async () => {
    script.ConfirmSignUp = refusal('LimitExceededException', 'Attempt limit exceeded, please try after some time.');
    const error = await refusedWith(provider().confirm('ana@example.org', '123456'));
    expect(error.retryAfterSeconds).toBe(60);
    // It may also be another quota of the pool (its daily emails), so the message blames no one.
    expect(error.message).toBe('The identity provider refuses more of these requests for now.');
  });

  it('throttling of sign-in, refresh and sign-out: wait a second', async () => {
    script.InitiateAuth = refusal('TooManyRequestsException');
    script.RevokeToken = refusal('TooManyRequestsException');
    for (const work of [provider().signIn('ana@example.org', 'pw'), provider().refresh('token'), provider().revoke('token')]) {
      const error = await refusedWith(work);
      expect(error.retryAfterSeconds).toBe(1);
      expect(error.message).toBe('The identity provider is receiving too many requests.');
    }
  });

  it('a wrong code is still a wrong code, and an unknown refusal still fails', async () => {
    script.ConfirmSignUp = refusal('CodeMismatchException');
    await expect(provider().confirm('ana@example.org', '123456')).rejects.toBeInstanceOf(InvalidConfirmationCodeError);
    script.ConfirmSignUp = refusal('InternalErrorException');
    const other = await provider().confirm('ana@example.org', '123456').catch((e: unknown) => e);
    expect(other).not.toBeInstanceOf(TooManyAttemptsError);
    expect((other as Error).name).toBe('InternalErrorException');
  });

  it('an error named like an object property is not mistaken for a limit', async () => {
    script.ConfirmSignUp = refusal('constructor');
    const error = await provider().confirm('ana@example.org', '123456').catch((e: unknown) => e);
    expect(error).not.toBeInstanceOf(TooManyAttemptsError);
  });
});

describe('a registration that fails after the sign-up is undone at the provider', () => {
  it('throttled while adding the user to its group: the user is deleted, the answer is "try again"', async () => {
    script.SignUp = { status: 200, body: { UserSub: 'sub-1', UserConfirmed: false } };
    script.AdminAddUserToGroup = refusal('TooManyRequestsException');
    const error = await refusedWith(provider().register(registration));
    expect(error.retryAfterSeconds).toBe(1);
    expect(calls).toEqual(['SignUp', 'AdminAddUserToGroup', 'AdminDeleteUser']);
  });

  it('failing to confirm at once (local mode): the user is deleted and the error passes', async () => {
    script.SignUp = { status: 200, body: { UserSub: 'sub-2', UserConfirmed: false } };
    script.AdminConfirmSignUp = refusal('InternalErrorException');
    const error = await provider(true).register(registration).catch((e: unknown) => e);
    expect((error as Error).name).toBe('InternalErrorException');
    expect(calls).toEqual(['SignUp', 'AdminAddUserToGroup', 'AdminConfirmSignUp', 'AdminDeleteUser']);
  });

  it('a sign-up that succeeds throughout deletes nothing', async () => {
    script.SignUp = { status: 200, body: { UserSub: 'sub-3', UserConfirmed: false } };
    await expect(provider(true).register(registration)).resolves.toEqual({ userId: 'sub-3', confirmed: true });
    expect(calls).toEqual(['SignUp', 'AdminAddUserToGroup', 'AdminConfirmSignUp']);
  });
});

describe('a confirmation code that cannot be emailed', () => {
  it('deletes the user Cognito may have kept, and answers 422 email_undeliverable naming the email', async () => {
    script.SignUp = refusal('CodeDeliveryFailureException', 'Invalid email provided/Unable to send the email');
    const error = await provider().register(registration).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EmailUndeliverableError);
    expect(calls).toEqual(['SignUp', 'AdminDeleteUser']);
    const problem = await answering(async () => { throw error; }).catch((e: unknown) => e) as HttpError;
    expect(problem).toBeInstanceOf(HttpError);
    expect([problem.status, problem.code]).toEqual([422, 'email_undeliverable']);
    expect(problem.extra.errors).toEqual([{ field: 'email', in: 'body', message: 'The confirmation code could not be delivered' }]);
  });

  it('when Cognito kept no user, the answer is the same', async () => {
    script.SignUp = refusal('CodeDeliveryFailureException');
    script.AdminDeleteUser = refusal('UserNotFoundException');
    await expect(provider().register(registration)).rejects.toBeInstanceOf(EmailUndeliverableError);
    expect(calls).toEqual(['SignUp', 'AdminDeleteUser']);
  });

  it('a failure to delete is not hidden', async () => {
    script.SignUp = refusal('CodeDeliveryFailureException');
    script.AdminDeleteUser = refusal('TooManyRequestsException');
    const error = await refusedWith(provider().register(registration));
    expect(error.retryAfterSeconds).toBe(1);
  });

  it('other sign-up refusals delete nothing', async () => {
    script.SignUp = refusal('UsernameExistsException');
    await expect(provider().register(registration)).rejects.toThrow();
    script.SignUp = refusal('InvalidPasswordException');
    await expect(provider().register(registration)).rejects.toThrow();
    expect(calls).toEqual(['SignUp', 'SignUp']);
  });
});

describe('a new confirmation code', () => {
  it('asks Cognito to send one', async () => {
    await provider().resendCode('ana@example.org');
    expect(calls).toEqual(['ResendConfirmationCode']);
  });

  it('says nothing of an unknown or already confirmed user', async () => {
    script.ResendConfirmationCode = refusal('UserNotFoundException');
    await expect(provider().resendCode('ghost@example.org')).resolves.toBeUndefined();
    script.ResendConfirmationCode = refusal('InvalidParameterException', 'User is already confirmed.');
    await expect(provider().resendCode('ana@example.org')).resolves.toBeUndefined();
  });

  it('in local mode, where users are confirmed at registration, calls nothing', async () => {
    await provider(true).resendCode('ana@example.org');
    expect(calls).toEqual([]);
  });
});

describe('the two calls that have Cognito email a code', () => {
  it.each([
    ['ResendConfirmationCode', (email: string) => provider().resendCode(email)],
    ['ForgotPassword', (email: string) => provider().requestPasswordReset(email)],
  ] as const)('%s: an undeliverable address, a limit and an unknown failure are not hidden', async (operation, call) => {
    script[operation] = refusal('CodeDeliveryFailureException');
    await expect(call('ana@example.org')).rejects.toBeInstanceOf(EmailUndeliverableError);
    script[operation] = refusal('LimitExceededException');
    expect((await refusedWith(call('ana@example.org'))).retryAfterSeconds).toBe(60);
    script[operation] = refusal('NotAuthorizedException');
    expect(((await call('ana@example.org').catch((e: unknown) => e)) as Error).name).toBe('NotAuthorizedException');
  });
});

describe('password reset', () => {
  it('asks Cognito for a code, silently for an unknown user or one whose email was never confirmed', async () => {
    await provider().requestPasswordReset('ana@example.org');
    script.ForgotPassword = refusal('UserNotFoundException');
    await expect(provider().requestPasswordReset('ghost@example.org')).resolves.toBeUndefined();
    script.ForgotPassword = refusal('InvalidParameterException', 'Cannot reset password for the user as there is no registered/verified email or phone_number');
    await expect(provider().requestPasswordReset('ana@example.org')).resolves.toBeUndefined();
    expect(calls).toEqual(['ForgotPassword', 'ForgotPassword', 'ForgotPassword']);
  });

  it('sets the password with the code: a wrong, expired or unknown one is one error, a refused password is weak', async () => {
    await provider().resetPassword('ana@example.org', '123456', 'Another-Str0ng-pass');
    expect(calls).toEqual(['ConfirmForgotPassword']);
    for (const type of ['CodeMismatchException', 'ExpiredCodeException', 'UserNotFoundException']) {
      script.ConfirmForgotPassword = refusal(type);
      await expect(provider().resetPassword('ana@example.org', '123456', 'Another-Str0ng-pass')).rejects.toBeInstanceOf(InvalidConfirmationCodeError);
    }
    script.ConfirmForgotPassword = refusal('InvalidPasswordException');
    await expect(provider().resetPassword('ana@example.org', '123456', 'Another-Str0ng-pass')).rejects.toBeInstanceOf(WeakPasswordError);
    script.ConfirmForgotPassword = refusal('TooManyFailedAttemptsException');
    expect((await refusedWith(provider().resetPassword('ana@example.org', '123456', 'Another-Str0ng-pass'))).retryAfterSeconds).toBe(60);
  });

  it('ends every session with a global sign-out in AWS, not in local mode', async () => {
    await provider().signOutEverywhere('ana@example.org');
    await provider(true).signOutEverywhere('ana@example.org');
    expect(calls).toEqual(['AdminUserGlobalSignOut']);
    script.AdminUserGlobalSignOut = refusal('TooManyRequestsException');
    expect((await refusedWith(provider().signOutEverywhere('ana@example.org'))).retryAfterSeconds).toBe(1);
  });
});
