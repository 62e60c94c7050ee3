/**
 * The local app (emulators, resources, gateway) in a process of its own, for benchmarks that
 * measure a worker's memory without the emulators' in the same figure. Prints one JSON line with
 * the environment a client process needs (endpoints, table and bucket names), then runs until its
 * stdin closes.
 */
import { startBenchApp } from './local-app';

async function main(): Promise<void> {
  const before = { ...process.env };
  const app = await startBenchApp();
  const env = Object.fromEntries(Object.entries(process.env).filter(([name, value]) => before[name] !== value));
  process.stdout.write(`${JSON.stringify({ env })}\n`);
  process.stdin.resume();
  process.stdin.on('end', () => {
    void app.stop().then(() => process.exit(0));
  });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
