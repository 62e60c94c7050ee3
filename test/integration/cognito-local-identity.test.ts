import { createPublicKey, scryptSync, verify } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  AdminConfirmSignUpCommand, AdminCreateUserCommand, CognitoIdentityProviderClient, InitiateAuthCommand, SignUpCommand,
} from '@aws-sdk/client-cognito-identity-provider';
import { startLocalCognito, type LocalCognito } from '../../local/cognito';

/**
 * The local user pool on its own (no API): what it keeps on disk, what it signs with, and how a
 * data directory written before passwords were hashed is brought up to date on start.
 */
describe('local user pool', () => {
  let dataDir: string;
  let cognito: LocalCognito;
  const password = 'Mangrove-Tide-2026!';
  const email = 'keeper@example.org';

  const client = () => new CognitoIdentityProviderClient({ endpoint: cognito.endpoint, region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
  const poolFile = () => path.join(dataDir, 'cognito', `${cognito.userPoolId}.json`);
  const storedPassword = () => Object.values((JSON.parse(readFileSync(poolFile(), 'utf8')) as { Users: Record<string, { Password: string }> }).Users)[0]!.Password;
  const signIn = (pass: string) => client().send(new InitiateAuthCommand({ ClientId: cognito.clientId, AuthFlow: 'USER_PASSWORD_AUTH', AuthParameters: { USERNAME: email, PASSWORD: pass } }));

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'vac-cognito-'));
    cognito = await startLocalCognito(dataDir);
    await client().send(new SignUpCommand({ ClientId: cognito.clientId, Username: email, Password: password, UserAttributes: [{ Name: 'email', Value: email }] }));
    await client().send(new AdminConfirmSignUpCommand({ UserPoolId: cognito.userPoolId, Username: email }));
  });
  afterAll(async () => {
    await cognito?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('stores a salted scrypt hash, signs in with the password and refuses another', async () => {
    const [scheme, salt, hash] = storedPassword().split('$');
    expect(scheme).toBe('scrypt');
    expect(scryptSync(password, Buffer.from(salt!, 'base64url'), 32).toString('base64url')).toBe(hash);
    expect((await signIn(password)).AuthenticationResult?.AccessToken).toBeDefined();
    await expect(signIn(`${password}x`)).rejects.toMatchObject({ name: 'InvalidPasswordException' });
    // The stored hash itself is no password.
    await expect(signIn(storedPassword())).rejects.toMatchObject({ name: 'InvalidPasswordException' });
  });

  it('signs tokens with the data directory\'s key, which its JWKS serves', async () => {
    const token = (await signIn(password)).AuthenticationResult!.AccessToken!;
    const [header, payload, signature] = token.split('.') as [string, string, string];
    const jwk = JSON.parse(readFileSync(path.join(dataDir, 'keys', 'token-signing-key.jwk.json'), 'utf8')) as { n: string; e: string };
    const publicKey = createPublicKey({ key: { kty: 'RSA', n: jwk.n, e: jwk.e }, format: 'jwk' });
    expect(verify('sha256', Buffer.from(`${header}.${payload}`), publicKey, Buffer.from(signature, 'base64url'))).toBe(true);
    const jwks = await (await fetch(`${cognito.endpoint}/${cognito.userPoolId}/.well-known/jwks.json`)).json() as { keys: Array<{ n: string; kid: string }> };
    expect(jwks.keys.map((k) => [k.n, k.kid])).toEqual([[jwk.n, JSON.parse(Buffer.from(header, 'base64url').toString()).kid]]);
    const discovery = await (await fetch(`${cognito.endpoint}/${cognito.userPoolId}/.well-known/openid-configuration`)).json() as { issuer: string; jwks_uri: string };
    expect(discovery).toMatchObject({ issuer: `${cognito.endpoint}/${cognito.userPoolId}`, jwks_uri: `${cognito.endpoint}/${cognito.userPoolId}/.well-known/jwks.json` });
    expect(JSON.parse(Buffer.from(payload, 'base64url').toString()).iss).toBe(discovery.issuer);
  });

  it('refuses the calls that would store a password it cannot hash', async () => {
    await expect(client().send(new AdminCreateUserCommand({ UserPoolId: cognito.userPoolId, Username: 'other@example.org', TemporaryPassword: 'Temporary-Pass-1!' })))
      .rejects.toThrow(/not emulated locally/);
  });

  it('keeps its files owner-only, and on start hashes passwords a data directory still holds as given', async () => {
    expect(statSync(path.join(dataDir, 'cognito')).mode & 0o777).toBe(0o700);
    expect(statSync(poolFile()).mode & 0o777).toBe(0o600);
    const key = readFileSync(path.join(dataDir, 'keys', 'token-signing-key.jwk.json'), 'utf8');
    await cognito.stop();
    // As an earlier version left it: the password in the clear, the file readable by all.
    const pool = JSON.parse(readFileSync(poolFile(), 'utf8')) as { Users: Record<string, { Password: string }> };
    for (const user of Object.values(pool.Users)) user.Password = password;
    writeFileSync(poolFile(), JSON.stringify(pool), { mode: 0o644 });

    cognito = await startLocalCognito(dataDir);
    expect(storedPassword()).toMatch(/^scrypt\$/);
    expect(readFileSync(poolFile(), 'utf8')).not.toContain(password);
    expect(statSync(poolFile()).mode & 0o777).toBe(0o600);
    expect((await signIn(password)).AuthenticationResult?.AccessToken).toBeDefined();
    // The same key across restarts, so tokens issued before still verify.
    expect(readFileSync(path.join(dataDir, 'keys', 'token-signing-key.jwk.json'), 'utf8')).toBe(key);
  });
});
