import { buildConsoleFiles } from '../lib/console-build';
import { registerLocalConsoleFiles, type ConsoleFiles } from '../shared/adapters/console-files';

let built: Promise<Map<string, Buffer>> | undefined;

/** Built once per process, on the first request; a failed build is tried again on the next one. */
const inMemoryFiles: ConsoleFiles = async (name) => {
  built ??= buildConsoleFiles().catch((failure: unknown) => {
    built = undefined;
    throw failure;
  });
  return (await built).get(name);
};

/**
 * The console for the local server: built in memory (lib/console-build.ts, about a second) and
 * kept for the life of the process, so `npm start` on a fresh clone serves it with no build step.
 * Nothing is written to disk, so parallel test processes never read each other's half-written
 * bundle. The docs function serves it at `/api/console` as it does in AWS. Returns the undo.
 */
export function serveConsoleFromMemory(): () => void {
  return registerLocalConsoleFiles(inMemoryFiles);
}
