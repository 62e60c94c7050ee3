import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startLocalApp } from '../../local/app';
import { S3BlobStore } from '../../shared/adapters/s3-blob-store';

/** `npm start` twice on the same data directory: keys, counters and objects survive. */
describe('local persistence across restarts', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'vac-restart-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('keeps demo keys, table items and bucket objects', async () => {
    const first = await startLocalApp({ dataDir, port: 0 });
    const keysOnDisk = JSON.parse(readFileSync(path.join(dataDir, 'demo-keys.json'), 'utf8'));
    expect(keysOnDisk).toEqual(first.keys);
    const headers = { 'X-API-Key': first.keys.pro };
    await fetch(`${first.baseUrl}/grants/deadlines`, { headers });
    await new S3BlobStore().put('restart-check.txt', 'still here', 'text/plain');
    await first.stop();

    const second = await startLocalApp({ dataDir, port: 0 });
    try {
      expect(second.keys).toEqual(first.keys);
      const usage = (await (await fetch(`${second.baseUrl}/account/usage`, { headers })).json()) as { requests_used: number };
      // One request before the restart, this one after (unless the clock hour turned in between).
      expect([2, 1]).toContain(usage.requests_used);
      expect((await new S3BlobStore().get('restart-check.txt'))?.toString()).toBe('still here');
    } finally {
      await second.stop();
    }
  });
});
