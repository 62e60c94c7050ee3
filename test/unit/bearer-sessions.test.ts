import { bearerAuthorizerContext, bearerUserFromContext } from '../../shared/http/bearer';
import { authenticateBearer } from '../../shared/http/bearer-tokens';
import type { BearerUser } from '../../shared/domain/identity/signed-in-user';

/** Signed-out sessions: the bearer step refuses their tokens, and the session travels to the handler for logout. */
const USER: BearerUser = { user_id: 'u-1', email: 'ana@example.org', name: 'Ana', role: 'staff', account_id: 'acct_1', tier: 'free' };
const segment = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
const HEADER = `Bearer ${segment({ alg: 'RS256', kid: 'k' })}.${segment({ sub: 'u-1' })}.c2ln`;
const SESSION = { id: 'origin-7', expires_at: 1_795_000_000 };
const verify = async () => ({ sub: 'u-1', session: SESSION });
const directory = async () => USER;

describe('bearer sessions', () => {
  it('refuses a token whose session was signed out, asking with the token\'s user and session', async () => {
    const asked: string[][] = [];
    const outcome = await authenticateBearer(HEADER, verify, directory, async (userId, sessionId) => {
      asked.push([userId, sessionId]);
      return true;
    });
    expect(outcome).toEqual({ ok: false, detail: 'The token\'s session was signed out (POST /v1/users/logout); log in again.' });
    expect(asked).toEqual([['u-1', 'origin-7']]);
  });

  it('hands the session of an accepted token to the handler through the authorizer context', async () => {
    const outcome = await authenticateBearer(HEADER, verify, directory, async () => false);
    expect(outcome).toEqual({ ok: true, user: { ...USER, session: SESSION } });
    const context = bearerAuthorizerContext(outcome);
    // API Gateway carries context values as strings.
    expect(context.session_id).toBe('origin-7');
    expect(context.session_expires_at).toBe('1795000000');
    expect(bearerUserFromContext(context)).toEqual({ ok: true, user: { ...USER, session: SESSION } });
  });

  it('leaves out a session whose expiry is not a whole number of seconds', () => {
    const context = { ...bearerAuthorizerContext({ ok: true, user: USER }), session_id: 's', session_expires_at: 'soon' };
    const outcome = bearerUserFromContext(context);
    expect(outcome.ok && outcome.user.session).toBeUndefined();
  });
});
