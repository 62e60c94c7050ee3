import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startLocalApp, type LocalApp, type LocalAppOptions } from '../../local/app';

/**
 * Starts the whole local API (emulators on free loopback ports, a fresh data directory, seed
 * data, demo keys) for one test file, and removes everything afterwards.
 */
export async function startTestApp(options: Pick<LocalAppOptions, 'backgroundWorkers'> & { dataDir?: string } = {}): Promise<LocalApp & { request: TestRequest }> {
  const dataDir = options.dataDir ?? mkdtempSync(path.join(tmpdir(), 'vac-test-'));
  const app = await startLocalApp({ port: 0, ...options, dataDir });
  const request: TestRequest = async (method, route, options = {}) => {
    const headers: Record<string, string> = { ...(options.headers ?? {}) };
    if (options.key !== undefined) headers['X-API-Key'] = options.key;
    let body: string | Buffer | undefined;
    if (options.json !== undefined) {
      headers['Content-Type'] ??= 'application/json';
      body = JSON.stringify(options.json);
    } else if (options.body !== undefined) {
      body = options.body;
    }
    const response = await fetch(`${app.baseUrl}${route}`, { method, headers, body, redirect: 'manual' });
    const text = await response.text();
    let json: any;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = undefined;
    }
    return { status: response.status, headers: response.headers, text, json };
  };
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

export interface TestResponse {
  status: number;
  headers: Headers;
  text: string;
  json: any;
}

export type TestRequest = (
  method: string,
  route: string,
  options?: { key?: string; json?: unknown; body?: string | Buffer; headers?: Record<string, string> },
) => Promise<TestResponse>;
