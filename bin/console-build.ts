/**
 * Builds the console into the directory given: the docs function's bundling step runs it
 * (lib/api-functions.ts) so that the function serves the page and its files in AWS.
 */
import path from 'node:path';
import { writeConsoleFiles } from '../lib/console-build';

const outDir = process.argv[2];
if (!outDir) {
  process.stderr.write('Usage: tsx bin/console-build.ts <output directory>\n');
  process.exit(2);
}
writeConsoleFiles(path.resolve(outDir)).then(
  (names) => process.stdout.write(`Console built into ${outDir}: ${names.join(', ')}\n`),
  (error: unknown) => {
    process.stderr.write(`The console did not build: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
