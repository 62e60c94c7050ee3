import { fork } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import { DataDirectoryInUseError, type EmulatorOptions, type Emulators } from './emulators';

export type EmulatorParentMessage = { type: 'start'; options: EmulatorOptions } | { type: 'stop' };
export type EmulatorChildMessage =
  | { type: 'ready'; endpoints: Emulators['endpoints'] }
  | { type: 'failed'; message: string; dataDirectoryInUse: boolean };

export interface EmulatorProcess extends Emulators {
  pid: number;
}

const ROOT = path.resolve(__dirname, '..');
/** The time the emulators have to close their files after a stop before their process is killed. */
const STOP_LIMIT_MS = 5_000;

/**
 * Starts the emulators (`startEmulators`) in a process of their own, as DynamoDB, S3 and SQS are
 * services apart from the API in AWS: the API's process then holds the API's memory only, and what
 * the emulators keep for the data written to them (LevelDB's tables and caches, s3rver's buffers)
 * is theirs, measured on their own process. `onLost` is called if that process ends without being
 * stopped: the API cannot answer without it.
 */
export async function startEmulatorsInChild(options: EmulatorOptions, onLost: (code: number | null) => void): Promise<EmulatorProcess> {
  // The server runs under tsx; so do the emulators, whoever started the server. `--expose-gc` lets
  // them compact their heap after a burst of writes (see emulator-child.ts).
  const child = fork(path.join(__dirname, 'emulator-child.ts'), [], { cwd: ROOT, env: { ...process.env }, execArgv: ['--expose-gc', '--import', 'tsx'] });
  let stopping = false;
  const exited = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
  const started = await new Promise<Emulators['endpoints']>((resolve, reject) => {
    const earlyExit = (code: number | null) => reject(new Error(`the emulators' process exited (${code}) before it was ready`));
    child.once('exit', earlyExit);
    child.once('message', (message: EmulatorChildMessage) => {
      child.off('exit', earlyExit);
      if (message.type === 'ready') resolve(message.endpoints);
      else reject(message.dataDirectoryInUse ? new DataDirectoryInUseError(message.message) : new Error(message.message));
    });
    child.send({ type: 'start', options } satisfies EmulatorParentMessage);
  }).catch(async (error: unknown) => {
    child.kill('SIGKILL');
    await exited;
    throw error;
  });
  void exited.then(([code]) => {
    if (!stopping) onLost(code);
  });
  return {
    pid: child.pid!,
    endpoints: started,
    async stop() {
      stopping = true;
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.send({ type: 'stop' } satisfies EmulatorParentMessage);
      const killer = setTimeout(() => child.kill('SIGKILL'), STOP_LIMIT_MS);
      await exited;
      clearTimeout(killer);
    },
  };
}
