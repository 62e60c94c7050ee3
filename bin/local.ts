import path from 'node:path';
import { startLocalApp } from '../local/app';
import { DataDirectoryInUseError } from '../local/emulators';
import { TIER_THROTTLES, V1_TIER_THROTTLES } from '../shared/domain/throttles';

const STOP_GRACE_MS = 8000;

/** `npm start`: the whole API on http://127.0.0.1:$PORT/api, state under $DATA_DIR. */
async function main(): Promise<void> {
  const port = Number(process.env.PORT ?? 3000);
  const dataDir = path.resolve(process.env.DATA_DIR ?? '.data');
  const app = await startLocalApp({
    dataDir, port,
    emulatorsInChild: {
      onLost: (code) => {
        process.stderr.write(`The emulators' process ended (${code}); the API cannot answer without them. Stopping.\n`);
        process.exit(1);
      },
    },
    statewideCogs: process.env.LOCAL_STATEWIDE_COGS === '1',
    // The usage plans' burst throttles per account, as API Gateway applies them (off by default: a local client may load the API freely).
    usagePlans: process.env.LOCAL_THROTTLES === '1' ? { throttles: TIER_THROTTLES, v1Throttles: V1_TIER_THROTTLES } : undefined,
  });
  const keysFile = path.join(dataDir, 'demo-keys.json');
  process.stdout.write([
    `Vulnerability Assessment Compliance API listening on ${app.baseUrl}`,
    `  docs:    ${app.baseUrl}/docs`,
    `  openapi: ${app.baseUrl}/openapi.json`,
    `  data:    ${dataDir}`,
    `  processes: API ${process.pid}, emulators ${app.emulatorsPid}`,
    `Demo API keys (also in ${keysFile}):`,
    `  free:       ${app.keys.free}`,
    `  pro:        ${app.keys.pro}`,
    `  enterprise: ${app.keys.enterprise}`,
    `Try: curl -H "X-API-Key: ${app.keys.free}" ${app.baseUrl}/grants/deadlines`,
    '',
  ].join('\n'));
  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    process.stdout.write(`\n${signal}: stopping…\n`);
    // New requests are refused at once and running imports stop at their next row; whatever still
    // holds on is cut off, so the process is gone within the 10 s a supervisor waits before SIGKILL.
    setTimeout(() => process.exit(1), STOP_GRACE_MS).unref();
    app.stop().then(() => process.exit(0), () => process.exit(1));
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
}

main().catch((error: unknown) => {
  const reason = error instanceof DataDirectoryInUseError ? `${error.message} Use another DATA_DIR or stop it.` : (error as Error).stack ?? String(error);
  process.stderr.write(`Failed to start: ${reason}\n`);
  process.exit(1);
});
