import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { startTestApp } from '../helpers/local-app';
import { startLocalApp } from '../../local/app';
import { registerAndLogin } from '../helpers/v1-user';

const run = promisify(execFile);
const ROOT = path.join(__dirname, '../..');

async function accounts(dataDir: string, ...args: string[]) {
  return run(process.execPath, ['--import', 'tsx', path.join(ROOT, 'bin/accounts.ts'), ...args], {
    cwd: ROOT,
    env: { ...process.env, DATA_DIR: dataDir, APP_MODE: 'local' },
  });
}

type App = Awaited<ReturnType<typeof startTestApp>>;

describe('npm run accounts: the accounts of /v1 users', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'vac-accounts-v1-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  /** The app on the shared data directory; the CLI needs it stopped (one process per database). */
  async function withApp<T>(work: (app: App) => Promise<T>): Promise<T> {
    const local = await startLocalApp({ dataDir, port: 0, backgroundWorkers: false });
    const request: App['request'] = async (method, route, options = {}) => {
      const headers: Record<string, string> = { ...(options.headers ?? {}) };
      if (options.key) headers['X-API-Key'] = options.key;
      if (options.json !== undefined) headers['Content-Type'] = 'application/json';
      const response = await fetch(`${local.baseUrl}${route}`, { method, headers, body: options.json === undefined ? undefined : JSON.stringify(options.json) });
      const text = await response.text();
      return { status: response.status, headers: response.headers, text, json: text ? JSON.parse(text) : undefined };
    };
    try {
      return await work({ ...local, request } as App);
    } finally {
      await local.stop();
    }
  }

  it('moves a user\'s own account to Pro, then links the user to another account; the pool and users survive restarts', async () => {
    const { user, accountId, key } = await withApp(async (app) => {
      const registered = await registerAndLogin(app.request);
      const profile = await app.request('GET', '/v1/users/profile', { headers: registered.headers });
      const created = await app.request('POST', '/v1/keys', { headers: registered.headers, json: { name: 'before' } });
      return { user: registered, accountId: profile.json.account_id as string, key: created.json.key as string };
    });

    expect((await accounts(dataDir, 'tier', '--account', accountId, '--tier', 'pro')).stdout).toContain('pro tier');
    const created = await accounts(dataDir, 'create', '--name', 'County team', '--tier', 'enterprise');
    const teamAccount = /Created (acct_\S+)/.exec(created.stdout)![1]!;
    expect((await accounts(dataDir, 'link', '--email', user.email, '--account', teamAccount)).stdout).toContain(teamAccount);

    await withApp(async (app) => {
      // Signing in again after the restart: the emulator's pool, client and users persisted under DATA_DIR.
      const login = await app.request('POST', '/v1/users/login', { json: { email: user.email, password: user.password } });
      expect(login.status).toBe(200);
      const headers = { Authorization: `Bearer ${login.json.access_token}` };
      const profile = await app.request('GET', '/v1/users/profile', { headers });
      expect(profile.json).toMatchObject({ account_id: teamAccount, subscription_tier: 'enterprise' });
      // The key issued on the user's first account moved to Pro with it.
      const paid = await app.request('POST', '/compliance/validate', { key, json: {} });
      expect(paid.status).not.toBe(403);
      const issued = await app.request('POST', '/v1/keys', { headers, json: { name: 'team' } });
      expect(issued.json.subscription_tier).toBe('enterprise');
    });
  });

  it('refuses unknown accounts and users, and wrong invocations with exit code 2', async () => {
    await expect(accounts(dataDir, 'tier', '--account', 'acct_missing', '--tier', 'pro')).rejects.toMatchObject({ code: 1 });
    await expect(accounts(dataDir, 'link', '--email', 'nobody@example.org', '--account', 'acct_missing')).rejects.toMatchObject({ code: 1 });
    await expect(accounts(dataDir, 'tier', '--account', 'acct_x', '--tier', 'gold')).rejects.toMatchObject({ code: 2 });
    await expect(accounts(dataDir, 'link', '--account', 'acct_x')).rejects.toMatchObject({ code: 2 });
  });
});
