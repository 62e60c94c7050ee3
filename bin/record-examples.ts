/**
 * Records the answer of every OpenAPI example (`npm run examples:record`): starts the same local
 * app as the end-to-end test (loopback only, no background deliveries), sends each example's
 * request in order and writes the answers, normalised and shortened, to
 * `shared/openapi/examples/recorded.json`. Run it after changing an example or an answer, then
 * `npm run openapi` and `npm run client`.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { serializeRecording } from '../shared/openapi/example-recording';
import { recordAnswers } from '../shared/openapi/example-replay';
import { startTestApp } from '../test/helpers/local-app';
import { CliError, runCli } from './cli';

export const RECORDING_PATH = path.resolve(__dirname, '..', 'shared', 'openapi', 'examples', 'recorded.json');

async function main(): Promise<void> {
  const started = Date.now();
  const app = await startTestApp({ backgroundWorkers: false });
  try {
    const { answers, wrongStatus } = await recordAnswers(app);
    if (wrongStatus.length > 0) {
      throw new CliError(
        `Not recorded: these examples are not answered with the status they expect:\n${wrongStatus.map((line) => `  - ${line}`).join('\n')}`,
      );
    }
    writeFileSync(RECORDING_PATH, serializeRecording(answers));
    process.stdout.write(
      `Recorded ${answers.length} answers in ${path.relative(process.cwd(), RECORDING_PATH)} (${((Date.now() - started) / 1000).toFixed(1)} s).\n`,
    );
  } finally {
    await app.stop();
  }
}

if (require.main === module) runCli(main);
