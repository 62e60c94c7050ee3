/**
 * The DynamoDB emulator alone, in memory, in a process of its own, with the app's table: what the
 * emulator can store at best on this machine, with no disk, no other emulator and no import on
 * its core. Prints one JSON line with the environment a client process needs, as
 * `emulator-host.ts` does, then runs until its stdin closes.
 */
import type { AddressInfo } from 'node:net';
import dynalite from 'dynalite';
import { resetAwsClients } from '../../shared/adapters/aws-clients';
import { ensureTable } from '../../local/bootstrap';

async function main(): Promise<void> {
  const server = dynalite({ createTableMs: 0, deleteTableMs: 0, updateTableMs: 0 });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const env = {
    AWS_REGION: 'us-east-1',
    AWS_ACCESS_KEY_ID: 'local',
    AWS_SECRET_ACCESS_KEY: 'local',
    AWS_ENDPOINT_URL_DYNAMODB: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    TABLE_NAME: 'vac-emulator-ceiling',
    AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
  };
  Object.assign(process.env, env);
  resetAwsClients();
  await ensureTable(env.TABLE_NAME);
  process.stdout.write(`${JSON.stringify({ env })}\n`);
  process.stdin.resume();
  process.stdin.on('end', () => server.close(() => process.exit(0)));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
