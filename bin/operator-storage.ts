import path from 'node:path';
import { requiredSetting } from '../shared/config';
import { DataDirectoryInUseError, startEmulators } from '../local/emulators';
import { ensureLocalResources } from '../local/bootstrap';
import { LOCAL_BUCKET_NAME, LOCAL_TABLE_NAME, useLocalEmulators } from '../local/app';

/** An expected failure of an operator command: its message is the whole story. Exit 2 for a wrong invocation. */
export class CliError extends Error {
  constructor(message: string, readonly exitCode = 1) {
    super(message);
  }
}

/** The value after `--name` in an operator command's arguments. */
export function option(args: string[], name: string): string | undefined {
  const index = args.indexOf(`--${name}`);
  return index >= 0 ? args[index + 1] : undefined;
}

/**
 * Where an operator command writes: with APP_MODE=aws the table and bucket named by TABLE_NAME and
 * BUCKET_NAME; otherwise the local app's data directory (DATA_DIR, default .data), with the
 * emulators started on it for the command's duration.
 */
export async function openOperatorStorage(): Promise<{ description: string; close(): Promise<void> }> {
  if (process.env.APP_MODE === 'aws') {
    return { description: `table ${requiredSetting('TABLE_NAME')} and bucket ${requiredSetting('BUCKET_NAME')}`, close: async () => undefined };
  }
  const dataDir = path.resolve(process.env.DATA_DIR ?? '.data');
  const emulators = await startEmulators({ dataDir }).catch((error: unknown) => {
    throw error instanceof DataDirectoryInUseError ? new CliError(`${error.message} Stop it, run this command again, then restart the server.`) : error;
  });
  try {
    useLocalEmulators(dataDir, emulators.endpoints);
    await ensureLocalResources(LOCAL_TABLE_NAME, LOCAL_BUCKET_NAME);
  } catch (error) {
    await emulators.stop();
    throw error;
  }
  return { description: `the local data directory ${dataDir}`, close: () => emulators.stop() };
}

/** Runs a command's main, printing expected failures without a stack. */
export function runCli(main: (args: string[]) => Promise<void>): void {
  main(process.argv.slice(2)).catch((error: unknown) => {
    if (error instanceof CliError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(error.exitCode);
    }
    process.stderr.write(`Failed: ${(error as Error).stack ?? String(error)}\n`);
    process.exit(1);
  });
}
