import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '../..');
const START_LIMIT_MS = 120_000;

export interface LocalServer {
  child: ChildProcess;
  baseUrl: string;
  key: string;
  /** The process the emulators run in (`npm start` runs them apart from the API). */
  emulatorsPid: number;
}

/** `npm start`'s program in a child process on free ports; resolves once it prints its address and keys. */
export async function startLocalServer(dataDir: string): Promise<LocalServer> {
  const child = spawn(process.execPath, ['--expose-gc', '--import', 'tsx', path.join(ROOT, 'bin/local.ts')], {
    cwd: ROOT,
    env: { ...process.env, PORT: '0', DATA_DIR: dataDir, POWERTOOLS_LOG_LEVEL: 'ERROR' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stderr!.on('data', (chunk: Buffer) => {
    output += chunk.toString('utf8');
  });
  return new Promise((resolve, reject) => {
    const exitedEarly = (code: number | null) => reject(new Error(`the server exited (${code}) before it listened: ${output}`));
    child.once('error', reject);
    child.once('exit', exitedEarly);
    const timer = setTimeout(() => reject(new Error(`the server did not start in ${START_LIMIT_MS / 1000} s: ${output}`)), START_LIMIT_MS);
    const awaitAddress = (chunk: Buffer) => {
      output += chunk.toString('utf8');
      const baseUrl = /listening on (\S+)/.exec(output)?.[1];
      const key = /enterprise:\s+(\S+)/.exec(output)?.[1];
      const emulatorsPid = Number(/emulators (\d+)/.exec(output)?.[1]);
      if (baseUrl && key && emulatorsPid) {
        // Only this function's own listeners go: a caller's wait for 'exit' must stay.
        clearTimeout(timer);
        child.off('exit', exitedEarly);
        child.stdout!.off('data', awaitAddress);
        child.stdout!.resume();
        resolve({ child, baseUrl, key, emulatorsPid });
      }
    };
    child.stdout!.on('data', awaitAddress);
  });
}

/** Generated rows spread over inland Hillsborough County, each a distinct facility. */
export function inventoryCsv(rows: number): string {
  const lines = ['FACILITY_ID,NAME,TYPE,LATITUDE,LONGITUDE'];
  for (let i = 0; i < rows; i++) {
    lines.push(`FAC-${i},Facility ${i},Lift Station,${(27.8 + ((i * 7919) % 30_000) / 100_000).toFixed(6)},${(-82.4 + ((i * 104_729) % 30_000) / 100_000).toFixed(6)}`);
  }
  return `${lines.join('\n')}\n`;
}

/** A JSON call with the server's enterprise key. */
export async function callServer(server: Pick<LocalServer, 'baseUrl' | 'key'>, method: string, route: string, json?: unknown): Promise<{ status: number; json: any }> {
  const res = await fetch(`${server.baseUrl}${route}`, {
    method,
    headers: { 'X-API-Key': server.key, ...(json ? { 'Content-Type': 'application/json' } : {}) },
    body: json ? JSON.stringify(json) : undefined,
  });
  return { status: res.status, json: (await res.json()) as any };
}

/** Resident memory of a process in MiB, from the kernel's own account (Linux). */
export function residentMb(pid: number): number {
  const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  if (!kb) throw new Error(`No resident size for process ${pid}`);
  return Number(kb) / 1024;
}

/**
 * Starts an import of `csv` through the API and its presigned upload, and polls it until it ends;
 * `onPoll` runs between polls (every `pollMs`). Resolves with the import record as last read.
 */
export async function importThroughApi(server: LocalServer, csv: string, options: { pollMs?: number; onPoll?: () => void; maxPolls?: number } = {}): Promise<any> {
  const started = await callServer(server, 'POST', '/assets/imports', { filename: 'inventory.csv', jurisdiction: 'Hillsborough County' });
  if (started.status !== 201) throw new Error(`starting the import answered ${started.status}`);
  const upload = await fetch(started.json.upload_url, { method: 'PUT', body: csv });
  if (upload.status !== 200) throw new Error(`the upload answered ${upload.status}`);
  let record: any;
  for (let i = 0; i < (options.maxPolls ?? 7200); i++) {
    options.onPoll?.();
    record = (await callServer(server, 'GET', `/assets/imports/${started.json.import_id}`)).json;
    if (record.status !== 'processing' && record.status !== 'pending') return record;
    await new Promise((resolve) => setTimeout(resolve, options.pollMs ?? 250));
  }
  return record;
}
