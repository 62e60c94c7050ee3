import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { startLocalApp } from '../../local/app';

const run = promisify(execFile);
const ROOT = path.join(__dirname, '../..');

async function accounts(dataDir: string, ...args: string[]) {
  return run(process.execPath, ['--import', 'tsx', path.join(ROOT, 'bin/accounts.ts'), ...args], {
    cwd: ROOT,
    env: { ...process.env, DATA_DIR: dataDir, APP_MODE: 'local' },
  });
}

describe('npm run accounts', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'vac-accounts-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('creates an account whose key works, then revokes it', async () => {
    const created = await accounts(dataDir, 'create', '--name', 'City of Example', '--tier', 'pro');
    const key = /API key \(shown once\): (vac_\S+)/.exec(created.stdout)![1]!;
    expect((await accounts(dataDir, 'list')).stdout).toContain('City of Example');

    let app = await startLocalApp({ dataDir, port: 0, backgroundWorkers: false });
    expect((await fetch(`${app.baseUrl}/account/usage`, { headers: { 'X-API-Key': key } })).status).toBe(200);
    await app.stop();

    expect((await accounts(dataDir, 'revoke', '--key', key)).stdout).toContain('revoked');
    app = await startLocalApp({ dataDir, port: 0, backgroundWorkers: false });
    const refused = await fetch(`${app.baseUrl}/account/usage`, { headers: { 'X-API-Key': key } });
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { code: string }).code).toBe('invalid_api_key');
    await app.stop();
  });

  it('refuses a wrong invocation with exit code 2', async () => {
    await expect(accounts(dataDir, 'create', '--tier', 'gold')).rejects.toMatchObject({ code: 2 });
  });
});
