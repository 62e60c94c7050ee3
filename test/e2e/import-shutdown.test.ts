import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { callServer as call, inventoryCsv, startLocalServer as startServer } from '../helpers/local-server';

const ROWS = 8_000;
const EXIT_LIMIT_MS = 10_000;

/**
 * SIGTERM on the local server while a background import is writing: the process is gone within
 * 10 s, the import is left to resume, and a server started again on the same data directory
 * finishes it with every row stored once.
 */
describe('stopping the local server mid-import', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'vac-import-stop-'));
  let running: ChildProcess | undefined;

  afterAll(() => {
    if (running && running.exitCode === null) running.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('exits within 10 s on SIGTERM and resumes the import after a restart, without duplicates', async () => {
    const first = await startServer(dataDir);
    running = first.child;
    const started = await call(first, 'POST', '/assets/imports', { filename: 'inventory.csv', jurisdiction: 'Hillsborough County' });
    expect(started.status).toBe(201);
    const importId: string = started.json.import_id;
    expect((await fetch(started.json.upload_url, { method: 'PUT', body: inventoryCsv(ROWS) })).status).toBe(200);

    // Mid-way: some assets written, not all.
    let progress: { phase: string; rows_processed: number } | undefined;
    for (let i = 0; i < 1200; i++) {
      const record = await call(first, 'GET', `/assets/imports/${importId}`);
      progress = record.json.progress;
      expect(record.json.status).not.toBe('complete');
      if (record.json.status === 'processing' && progress?.phase === 'writing' && progress.rows_processed > 0) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(progress).toMatchObject({ phase: 'writing' });

    const signalled = Date.now();
    const exited = once(first.child, 'exit');
    first.child.kill('SIGTERM');
    const [code] = await exited;
    expect(Date.now() - signalled).toBeLessThan(EXIT_LIMIT_MS);
    expect(code).toBe(0);

    const second = await startServer(dataDir);
    running = second.child;
    try {
      let record: any;
      for (let i = 0; i < 1800; i++) {
        record = (await call(second, 'GET', `/assets/imports/${importId}`)).json;
        if (record.status !== 'processing' && record.status !== 'pending') break;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(record).toMatchObject({ status: 'complete', asset_count: ROWS });
      // The resumed run found the first run's assets stored already.
      expect(record.report.written.unchanged).toBeGreaterThan(0);
      expect(record.report.written.created + record.report.written.unchanged).toBe(ROWS);

      const ids = new Set<string>();
      let listed = 0;
      let cursor: string | null = null;
      do {
        const page: any = await call(second, 'GET', `/assets?jurisdiction=Hillsborough%20County&limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
        for (const asset of page.json.data) {
          ids.add(asset.source_id);
          listed++;
        }
        cursor = page.json.next_cursor;
      } while (cursor);
      expect(listed).toBe(ROWS);
      expect(ids.size).toBe(ROWS);
    } finally {
      const exited = once(second.child, 'exit');
      second.child.kill('SIGTERM');
      await exited;
    }
  }, 480_000);
});
