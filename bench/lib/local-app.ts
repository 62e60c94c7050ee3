import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startLocalApp, type LocalApp } from '../../local/app';

/** The whole local API on free loopback ports with a throwaway data directory. */
export async function startBenchApp(): Promise<LocalApp> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'vac-bench-'));
  const app = await startLocalApp({ dataDir, port: 0 });
  return {
    ...app,
    async stop() {
      await app.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
