import { randomBytes, scrypt } from 'node:crypto';
import { promisify } from 'node:util';

/*
 * The emulator keeps a user's password in its pool file and compares it as a string. Every request
 * that carries a password is rewritten on the way in, so what it stores and compares is a salted
 * scrypt hash: a new password is hashed with a new salt, a password to check is hashed with the salt
 * of the stored hash. The pool file then never holds a password.
 */

const scryptAsync = promisify(scrypt) as (password: string, salt: Buffer, keylen: number) => Promise<Buffer>;
const PREFIX = 'scrypt$';
const KEY_BYTES = 32;

export function isPasswordHash(value: unknown): value is string {
  return typeof value === 'string' && /^scrypt\$[\w-]{22}\$[\w-]{43}$/.test(value);
}

/** `scrypt$<salt>$<hash>` (base64url), scrypt's default cost (N = 16384, r = 8, p = 1). */
export async function hashPassword(password: string, salt: Buffer = randomBytes(16)): Promise<string> {
  return `${PREFIX}${salt.toString('base64url')}$${(await scryptAsync(password, salt, KEY_BYTES)).toString('base64url')}`;
}

/**
 * What the emulator must compare with the stored value: the hash of `password` under the stored
 * hash's salt, or under a fresh salt when there is none (an unknown user: the same work, no match).
 */
export async function comparable(password: string, stored: unknown): Promise<string> {
  return hashPassword(password, isPasswordHash(stored) ? Buffer.from(stored.slice(PREFIX.length).split('$')[0]!, 'base64url') : undefined);
}

type Request = Record<string, unknown> & { ClientId?: string; AuthParameters?: Record<string, string> };
type Route = (ctx: unknown, request: Request) => Promise<unknown>;

interface StoredUser {
  Username: string;
  Password?: string;
}

interface UserPool {
  getUserByUsername(ctx: unknown, username: string): Promise<StoredUser | null>;
  listUsers(ctx: unknown): Promise<StoredUser[]>;
  saveUser(ctx: unknown, user: StoredUser): Promise<void>;
}

export interface PoolDirectory {
  getUserPoolForClientId(ctx: unknown, clientId: string): Promise<UserPool>;
  listUserPools(ctx: unknown): Promise<Array<{ Id: string }>>;
  getUserPool(ctx: unknown, userPoolId: string): Promise<UserPool>;
}

/** A request whose new password is stored hashed. */
const newPassword = (field: string) => async (request: Request) => (typeof request[field] === 'string' ? { ...request, [field]: await hashPassword(request[field]) } : request);

/** A password sign-in: the password is replaced by its hash under the stored user's salt. */
const passwordCheck = (pools: PoolDirectory) => async (ctx: unknown, request: Request) => {
  const parameters = request.AuthParameters;
  if (typeof parameters?.PASSWORD !== 'string' || typeof parameters.USERNAME !== 'string' || typeof request.ClientId !== 'string') return request;
  let stored: unknown;
  try {
    stored = (await (await pools.getUserPoolForClientId(ctx, request.ClientId)).getUserByUsername(ctx, parameters.USERNAME))?.Password;
  } catch {
    // An unknown client: the emulator answers that itself.
  }
  return { ...request, AuthParameters: { ...parameters, PASSWORD: await comparable(parameters.PASSWORD, stored) } };
};

/** Targets that take or check a password and are supported here; the ones below are refused. */
function rewrites(pools: PoolDirectory): Record<string, (ctx: unknown, request: Request) => Promise<Request>> {
  return {
    SignUp: (_ctx, request) => newPassword('Password')(request),
    ConfirmForgotPassword: (_ctx, request) => newPassword('Password')(request),
    AdminSetUserPassword: (_ctx, request) => newPassword('Password')(request),
    InitiateAuth: passwordCheck(pools),
    AdminInitiateAuth: passwordCheck(pools),
  };
}

/**
 * Targets that would store or compare a password this wrapper does not see in a form it can hash
 * (a temporary password that is also mailed, a password change checked against the access token's
 * user, a new password given in a challenge): not emulated locally.
 */
const REFUSED = new Set(['AdminCreateUser', 'ChangePassword', 'RespondToAuthChallenge', 'AdminRespondToAuthChallenge']);

/** The emulator's router with every password hashed before it is stored or compared. */
export function hashingPasswords<E extends Error>(router: (target: string) => Route, pools: PoolDirectory, refusal: (target: string) => E): (target: string) => Route {
  const byTarget = rewrites(pools);
  return (target) => {
    if (REFUSED.has(target)) return () => Promise.reject(refusal(target));
    const route = router(target);
    const rewrite = byTarget[target];
    return rewrite ? async (ctx, request) => route(ctx, await rewrite(ctx, request ?? {})) : route;
  };
}

/** Pool files written before passwords were hashed: every password still stored as given is hashed in place. */
export async function hashStoredPasswords(ctx: unknown, pools: PoolDirectory): Promise<number> {
  let hashed = 0;
  for (const { Id } of await pools.listUserPools(ctx)) {
    const pool = await pools.getUserPool(ctx, Id);
    for (const user of await pool.listUsers(ctx)) {
      if (typeof user.Password !== 'string' || isPasswordHash(user.Password)) continue;
      await pool.saveUser(ctx, { ...user, Password: await hashPassword(user.Password) });
      hashed += 1;
    }
  }
  return hashed;
}
