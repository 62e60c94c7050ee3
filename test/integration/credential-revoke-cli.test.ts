import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import * as jose from 'jose';
import { startLocalApp, type LocalApp } from '../../local/app';
import { registerAndLogin, type V1User } from '../helpers/v1-user';
import type { TestRequest } from '../helpers/local-app';

const run = promisify(execFile);
const ROOT = path.join(__dirname, '../..');

/** The operator command on the app's data directory (the app stopped: one process per database). */
async function credentials(dataDir: string, ...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, ['--import', 'tsx', path.join(ROOT, 'bin/credentials.ts'), ...args], {
      cwd: ROOT,
      env: { ...process.env, DATA_DIR: dataDir, APP_MODE: 'local' },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

/** The JWT's payload changed by one claim, header and signature kept. */
function tampered(jwt: string): string {
  const [header, payload, signature] = jwt.split('.');
  const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString('utf8'));
  claims.validUntil = '2099-01-01T00:00:00.000Z';
  return `${header}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.${signature}`;
}

describe('npm run credentials -- revoke: an operator revokes a certification', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'vac-credentials-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  async function withApp<T>(work: (app: LocalApp, request: TestRequest) => Promise<T>): Promise<T> {
    const app = await startLocalApp({ dataDir, port: 0, backgroundWorkers: false });
    const request: TestRequest = async (method, route, options = {}) => {
      const headers: Record<string, string> = { ...(options.headers ?? {}) };
      if (options.json !== undefined) headers['Content-Type'] = 'application/json';
      const response = await fetch(`${app.baseUrl}${route}`, { method, headers, body: options.json === undefined ? undefined : JSON.stringify(options.json) });
      const text = await response.text();
      return { status: response.status, headers: response.headers, text, json: text ? JSON.parse(text) : undefined };
    };
    try {
      return await work(app, request);
    } finally {
      await app.stop();
    }
  }

  it('makes verification answer revoked, while jose, used on its own, still finds the signature genuine and refuses a tampered copy', async () => {
    const issued = await withApp(async (app, request) => {
      const staff: V1User = await registerAndLogin(request, { role: 'staff', name: 'Sam Staff' });
      const enrolled = await request('POST', '/v1/courses/enroll', { headers: staff.headers, json: { course_code: 'IS-100.c' } });
      expect(enrolled.status).toBe(201);
      const done = await request('POST', `/v1/courses/enrollments/${enrolled.json.enrollment_id}/complete`, { headers: staff.headers, json: { completed_on: '2026-10-01' } });
      expect(done.status).toBe(200);
      const certification = done.json.certifications[0];
      const before = await request('GET', `/v1/certifications/${certification.certification_id}/verify`);
      expect(before.json).toMatchObject({ valid: true, status: 'active', revoked_at: null });
      // The issuer is the API's /v1 base as the completion reached it (this run's port).
      return { id: certification.certification_id as string, jwt: certification.credential_jwt as string, issuer: `${app.baseUrl}/v1` };
    });

    const revoked = await credentials(dataDir, 'revoke', '--certification', issued.id, '--reason', 'Recorded against the wrong person');
    expect(revoked).toMatchObject({ code: 0 });
    expect(revoked.stdout).toContain(`Revoked ${issued.id}`);
    const again = await credentials(dataDir, 'revoke', '--certification', issued.id, '--reason', 'Twice');
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/already revoked/);

    await withApp(async (_app, request) => {
      const verification = await request('GET', `/v1/certifications/${issued.id}/verify`);
      expect(verification.status).toBe(200);
      expect(verification.json).toMatchObject({ valid: false, status: 'revoked', signature_valid: true, attestation: 'self_reported' });
      expect(Date.parse(verification.json.revoked_at)).not.toBeNaN();

      const jwks = jose.createLocalJWKSet((await request('GET', '/v1/.well-known/jwks.json')).json);
      const { payload } = await jose.jwtVerify(issued.jwt, jwks, { algorithms: ['ES256'], issuer: issued.issuer });
      expect(payload.credentialStatus).toMatchObject({ id: expect.stringContaining(`/certifications/${issued.id}/verify`) });
      await expect(jose.jwtVerify(tampered(issued.jwt), jwks, { algorithms: ['ES256'] })).rejects.toThrow(jose.errors.JWSSignatureVerificationFailed);
    });
  });

  it('refuses an unknown certification, a malformed id and a missing reason', async () => {
    const unknown = await credentials(dataDir, 'revoke', '--certification', 'cert_doesnotexist', '--reason', 'Not ours');
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('No certification cert_doesnotexist.');
    expect((await credentials(dataDir, 'revoke', '--certification', '../etc', '--reason', 'Bad id')).code).toBe(2);
    expect((await credentials(dataDir, 'revoke', '--certification', 'cert_abc')).code).toBe(2);
    expect((await credentials(dataDir, 'purge')).code).toBe(2);
  });
});
