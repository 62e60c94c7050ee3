/**
 * The local app (emulators, resources, gateway) in a process of its own, for benchmarks that
 * measure a worker's memory without the emulators' in the same figure. Prints one JSON line with
 * the environment a client process needs (endpoints, table and bucket names, and the gateway's URL
 * as `BENCH_BASE_URL`), then runs until its
 * stdin closes. With `--discard-batch-writes` the DynamoDB endpoint it gives is the write sink
 * (`dynamo-write-sink.ts`) in front of the emulator.
 */
import { startWriteSink } from './dynamo-write-sink';
import { startBenchApp } from './local-app';

async function main(): Promise<void> {
  const before = { ...process.env };
  const app = await startBenchApp();
  const sink = process.argv.includes('--discard-batch-writes') ? await startWriteSink(process.env.AWS_ENDPOINT_URL_DYNAMODB!) : undefined;
  const env = Object.fromEntries(Object.entries(process.env).filter(([name, value]) => before[name] !== value));
  if (sink) env.AWS_ENDPOINT_URL_DYNAMODB = sink.endpoint;
  env.BENCH_BASE_URL = app.baseUrl;
  process.stdout.write(`${JSON.stringify({ env })}\n`);
  process.stdin.resume();
  process.stdin.on('end', () => {
    void (sink?.stop() ?? Promise.resolve()).then(() => app.stop()).then(() => process.exit(0));
  });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
