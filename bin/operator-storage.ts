import path from 'node:path';
import { requiredSetting } from '../shared/config';
import { DataDirectoryInUseError, startEmulators } from '../local/emulators';
import { ensureLocalResources } from '../local/bootstrap';
import { LOCAL_BUCKET_NAME, LOCAL_TABLE_NAME, useLocalEmulators } from '../local/app';
import { CliError } from './cli';

// The commands that write through this module take these from it too.
export { CliError, option, runCli } from './cli';

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
