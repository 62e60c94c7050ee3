import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startLocalApp, type LocalApp, type LocalAppOptions } from '../../local/app';
import { fetchRequester, type ReplayRequest, type ReplayResponse } from '../../shared/openapi/example-replay';

/**
 * Starts the whole local API (emulators on free loopback ports, a fresh data directory, seed
 * data, demo keys) for one test file, and removes everything afterwards.
 */
export async function startTestApp(options: Pick<LocalAppOptions, 'backgroundWorkers' | 'statewideCogs' | 'usagePlans'> & { dataDir?: string } = {}): Promise<LocalApp & { request: TestRequest }> {
  const dataDir = options.dataDir ?? mkdtempSync(path.join(tmpdir(), 'vac-test-'));
  const app = await startLocalApp({ port: 0, ...options, dataDir });
  const request = fetchRequester(app.baseUrl);
  return {
    ...app,
    request,
    async stop() {
      await app.stop();
      // A data directory the caller gave is the caller's to remove.
      if (options.dataDir === undefined) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Calls of the test app (relative to its base URL), as the examples' replay makes them. */
export type TestResponse = ReplayResponse;
export type TestRequest = ReplayRequest;
