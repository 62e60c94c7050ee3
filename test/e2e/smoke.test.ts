import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { startLocalServer, type LocalServer } from '../helpers/local-server';

const run = promisify(execFile);
const ROOT = path.join(__dirname, '../..');

function smoke(...args: string[]) {
  return run(process.execPath, ['--import', 'tsx', path.join(ROOT, 'bin/smoke.ts'), ...args], { cwd: ROOT, env: process.env });
}

describe('npm run smoke against the local server', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'vac-smoke-'));
  let server: LocalServer;

  beforeAll(async () => {
    server = await startLocalServer(dataDir);
  }, 150_000);
  afterAll(async () => {
    if (server && server.child.exitCode === null) {
      const exited = new Promise((resolve) => server.child.once('exit', resolve));
      server.child.kill('SIGTERM');
      await exited;
    }
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('replays the examples and exits 0 when every answer matches', async () => {
    const { stdout } = await smoke('--base-url', server.baseUrl, '--api-key', server.key);
    expect(stdout).toMatch(/^ok 1\/\d+ getHealth \(GET \/health\) 200$/m);
    expect(stdout).toContain('ok 6/13 getResource (GET /resources/{id}) 200');
    expect(stdout).toMatch(/All 13 answers match their examples\.\n$/);
  }, 120_000);

  it('stops at the first answer that differs and exits 1, saying which and how', async () => {
    // A Free key reaches the free routes; the first Pro route answers 403 where the example has 200.
    const freeKey = (JSON.parse(readFileSync(path.join(dataDir, 'demo-keys.json'), 'utf8')) as { free: string }).free;
    const failed = await smoke('--base-url', server.baseUrl, '--api-key', freeKey).then(() => undefined, (error: { code: number; stdout: string; stderr: string }) => error);
    expect(failed?.code).toBe(1);
    expect(failed!.stderr).toContain('FAIL rankGrantProject (POST /grants/ranking): the answer does not match the documented example:\n  - status 403, expected 200');
    expect(failed!.stdout).not.toContain('validateCompliance');
  }, 120_000);
});

describe('npm run smoke against an API whose answer has another shape', () => {
  let impostor: Server;
  beforeAll(async () => {
    impostor = createServer((_request, response) => {
      response.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ ok: true }));
    });
    await new Promise<void>((resolve) => impostor.listen(0, '127.0.0.1', resolve));
  });
  afterAll(() => new Promise((resolve) => impostor.close(resolve)));

  it('exits 1 on the first route and names the missing and unexpected fields', async () => {
    const baseUrl = `http://127.0.0.1:${(impostor.address() as AddressInfo).port}/api`;
    const failed = await smoke('--base-url', baseUrl).then(() => undefined, (error: { code: number; stdout: string; stderr: string }) => error);
    expect(failed?.code).toBe(1);
    expect(failed!.stdout).toBe('');
    expect(failed!.stderr).toMatch(/^FAIL getHealth \(GET \/health\): the answer does not match the documented example:\n {2}- \$\.status: missing\n/);
    expect(failed!.stderr).toContain('$.ok: not in the example');
  }, 60_000);

  it('refuses a base URL that is not http(s) with exit 2', async () => {
    await expect(smoke('--base-url', 'localhost:3000')).rejects.toMatchObject({ code: 2 });
  }, 60_000);
});
