import { spawn } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';

export interface HostProcess {
  /** The environment that points clients at the host. */
  env: Record<string, string>;
  pid: number;
  stop(): Promise<void>;
}

/**
 * A host in its own process (`emulator-host.ts`, the local app; `dynalite-memory-host.ts`, the
 * DynamoDB emulator alone in memory); resolves with the environment that points clients at it.
 */
export async function startHost(script: string, options: string[] = []): Promise<HostProcess> {
  const host = spawn(process.execPath, ['--import', 'tsx', path.join(__dirname, script), ...options], { stdio: ['pipe', 'pipe', 'inherit'] });
  let buffered = '';
  const env = await new Promise<Record<string, string>>((resolve, reject) => {
    host.once('exit', (code) => reject(new Error(`emulator host exited (${code})`)));
    host.stdout.on('data', (chunk: Buffer) => {
      buffered += chunk.toString('utf8');
      const line = buffered.split('\n').find((l) => l.startsWith('{"env"'));
      if (line) resolve((JSON.parse(line) as { env: Record<string, string> }).env);
    });
  });
  return {
    env,
    pid: host.pid!,
    stop: async () => {
      host.removeAllListeners('exit');
      const exited = once(host, 'exit');
      host.stdin.end();
      await exited;
    },
  };
}
