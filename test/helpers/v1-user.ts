import { randomUUID } from 'node:crypto';
import type { TestRequest } from './local-app';
import { identityDeps } from '../../functions/v1-identity/deps';

export interface V1User {
  user_id: string;
  email: string;
  password: string;
  name: string;
  role: 'resident' | 'staff' | 'consultant';
  access_token: string;
  id_token: string;
  refresh_token: string;
  /** `{ Authorization: 'Bearer <access_token>' }`, to spread into request headers. */
  headers: Record<string, string>;
}

/** A password that meets the pool's policy (12+ characters, upper, lower, digit, symbol). */
export function strongPassword(): string {
  return `Tide-${randomUUID().slice(0, 8)}-Rise!9`;
}

/**
 * Registers a fresh user through `POST /v1/users/register` and signs them in through
 * `POST /v1/users/login`, failing loudly if either answer is not the expected one.
 */
export async function registerAndLogin(
  request: TestRequest,
  overrides: Partial<Pick<V1User, 'email' | 'password' | 'name' | 'role'>> & { organization?: string; county_fips?: string } = {},
): Promise<V1User> {
  const email = overrides.email ?? `user-${randomUUID().slice(0, 12)}@example.org`;
  const password = overrides.password ?? strongPassword();
  const name = overrides.name ?? 'Test Resident';
  const role = overrides.role ?? 'resident';
  const registered = await request('POST', '/v1/users/register', {
    json: { email, password, name, role, ...(overrides.organization ? { organization: overrides.organization } : {}), ...(overrides.county_fips ? { county_fips: overrides.county_fips } : {}) },
  });
  if (registered.status !== 201) throw new Error(`register answered ${registered.status}: ${registered.text}`);
  const login = await request('POST', '/v1/users/login', { json: { email, password } });
  if (login.status !== 200) throw new Error(`login answered ${login.status}: ${login.text}`);
  return {
    user_id: registered.json.user_id,
    email,
    password,
    name,
    role,
    access_token: login.json.access_token,
    id_token: login.json.id_token,
    refresh_token: login.json.refresh_token,
    headers: bearerHeaders(login.json.access_token),
  };
}

export function bearerHeaders(accessToken: string): Record<string, string> {
  return { Authorization: `Bearer ${accessToken}` };
}

/**
 * Replaces the sign-in slowdown's timer of the app running in this process with a recorder: each
 * pause the API would wait is pushed to the returned list and the answer comes at once. Call it
 * after the app has started (the identity adapters read its settings).
 */
export function recordSignInPauses(): number[] {
  const pauses: number[] = [];
  identityDeps().sleep = async (ms) => {
    pauses.push(ms);
  };
  return pauses;
}
