import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startLocalApp, type LocalApp } from '../../local/app';

const repo = path.join(__dirname, '../..');
const tsx = path.join(repo, 'node_modules/.bin/tsx');

interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `npm run library:load -- ...args` the way an operator does, on the given data directory. */
function loadLibrary(dataDir: string, ...args: string[]): Promise<CliRun> {
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, POWERTOOLS_LOG_LEVEL: 'ERROR' };
  delete env.APP_MODE;
  return new Promise((resolve) => {
    execFile(tsx, ['bin/library-load.ts', ...args], { cwd: repo, env, timeout: 60_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
  });
}

const newEntry = {
  id: 'cedar-key-flood-study-2024',
  title: 'Cedar Key Flood Study',
  publisher: 'City of Cedar Key',
  published: '2024-05',
  url: 'https://example.org/cedar-key-flood-study.pdf',
  category: 'case_study',
  file_type: 'pdf',
  summary: 'Flood exposure of the island city, with a quokka census appendix.',
  tags: ['Cedar Key', 'flood study'],
  file: 'files/cedar-key.pdf',
};

describe('npm run library:load (operator CLI against the local emulators)', () => {
  let work: string;
  let dataDir: string;
  let app: LocalApp | undefined;
  const fileBytes = Buffer.concat([Buffer.from('%PDF-1.7\n'), randomBytes(4096)]);

  beforeAll(() => {
    work = mkdtempSync(path.join(tmpdir(), 'vac-library-load-'));
    dataDir = path.join(work, 'data');
    mkdirSync(path.join(work, 'files'));
    writeFileSync(path.join(work, 'files/cedar-key.pdf'), fileBytes);
    writeFileSync(path.join(work, 'good.json'), JSON.stringify({ resources: [newEntry] }));
    writeFileSync(path.join(work, 'bad.json'), JSON.stringify([
      { ...newEntry, id: 'should-not-be-written', file: undefined },
      { ...newEntry, id: 'broken-entry', title: 'Broken entry', url: 'not-a-url', category: 'poetry' },
    ]));
    writeFileSync(path.join(work, 'missing-file.json'), JSON.stringify([{ ...newEntry, id: 'should-not-be-written' }, { ...newEntry, id: 'no-file', file: 'files/absent.pdf' }]));
  });
  afterAll(async () => {
    await app?.stop();
    rmSync(work, { recursive: true, force: true });
  });

  it('explains itself and rejects a wrong invocation', async () => {
    const help = await loadLibrary(dataDir, '--help');
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/APP_MODE=aws/);
    expect(help.stdout).toMatch(/DATA_DIR/);
    const none = await loadLibrary(dataDir);
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/Expected one catalogue file/);
  });

  it('lists every invalid field by entry and writes nothing', async () => {
    const run = await loadLibrary(dataDir, path.join(work, 'bad.json'));
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('nothing was written');
    expect(run.stderr).toContain('resources[1] ("Broken entry").url');
    expect(run.stderr).toContain('resources[1] ("Broken entry").category');
    expect(run.stderr).not.toContain('resources[0]');
    const missing = await loadLibrary(dataDir, path.join(work, 'missing-file.json'));
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/resources\[1\] \("Cedar Key Flood Study"\)\.file: .*absent\.pdf is not a readable file/);
  });

  it('uploads the file and upserts the entry', async () => {
    const run = await loadLibrary(dataDir, path.join(work, 'good.json'));
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/Loaded 1 resources \(1 files uploaded\)/);
  });

  it('serves the loaded resource and its file through the API', async () => {
    app = await startLocalApp({ dataDir, port: 0 });
    const headers = { 'X-API-Key': app.keys.enterprise };
    const resource = await (await fetch(`${app.baseUrl}/resources/${newEntry.id}`, { headers })).json();
    expect(resource).toMatchObject({ id: newEntry.id, title: newEntry.title, file_path: `library/${newEntry.id}.pdf`, tags: ['cedar key', 'flood study'], views: 1, downloads: 0 });
    const list = await (await fetch(`${app.baseUrl}/resources?category=case_study&limit=100`, { headers })).json() as { data: Array<{ id: string }> };
    expect(list.data.map((r) => r.id)).toContain(newEntry.id);
    const search = await (await fetch(`${app.baseUrl}/resources?action=search&q=quokka`, { headers })).json() as { data: Array<{ id: string }> };
    expect(search.data.map((r) => r.id)).toEqual([newEntry.id]);
    expect((await fetch(`${app.baseUrl}/resources/should-not-be-written`, { headers })).status).toBe(404);

    const redirect = await fetch(`${app.baseUrl}/resources/${newEntry.id}/download`, { headers, redirect: 'manual' });
    expect(redirect.status).toBe(302);
    const file = await fetch(redirect.headers.get('location')!);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('application/pdf');
    expect(Buffer.from(await file.arrayBuffer()).equals(fileBytes)).toBe(true);
  });

  it('says clearly when the local server holds the data directory', async () => {
    const run = await loadLibrary(dataDir, path.join(work, 'good.json'));
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/in use by another process/);
    expect(run.stderr).not.toMatch(/\n\s+at /);
  });
});
