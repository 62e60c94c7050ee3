import { createRequire } from 'node:module';
import path from 'node:path';
import { requiredSetting } from '../shared/config';
import { startEmulators } from '../local/emulators';
import { ensureLocalResources } from '../local/bootstrap';
import { LOCAL_BUCKET_NAME, LOCAL_TABLE_NAME, useLocalEmulators } from '../local/app';

/** An expected failure of an operator command: its message is the whole story. Exit 2 for a wrong invocation. */
export class CliError extends Error {
  constructor(message: string, readonly exitCode = 1) {
    super(message);
  }
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
  await assertDatabaseFree(dataDir);
  const emulators = await startEmulators({ dataDir });
  try {
    useLocalEmulators(dataDir, emulators.endpoints);
    await ensureLocalResources(LOCAL_TABLE_NAME, LOCAL_BUCKET_NAME);
  } catch (error) {
    await emulators.stop();
    throw error;
  }
  return { description: `the local data directory ${dataDir}`, close: () => emulators.stop() };
}

/** The local DynamoDB's LevelDB is held by one process at a time: say so instead of failing later. */
async function assertDatabaseFree(dataDir: string): Promise<void> {
  const { Level } = createRequire(require.resolve('dynalite'))('level') as { Level: new (location: string) => { open(): Promise<void>; close(): Promise<void> } };
  const db = new Level(path.join(dataDir, 'dynamodb'));
  try {
    await db.open();
  } catch (error) {
    if ((error as { cause?: { code?: string } }).cause?.code === 'LEVEL_LOCKED') {
      throw new CliError(`The local database in ${dataDir} is in use by another process (is \`npm start\` running on it?). Stop it, run this command again, then restart the server.`);
    }
    throw error;
  } finally {
    await db.close();
  }
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
