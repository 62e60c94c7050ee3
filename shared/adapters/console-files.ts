import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { ConsoleFileName } from '../routes/docs';

/** The console's built files (lib/console-build.ts) by name; undefined for a file that is not there. */
export type ConsoleFiles = (name: ConsoleFileName) => Promise<Buffer | undefined>;

let localFiles: ConsoleFiles | undefined;

/** The local server hands over its in-memory build; the returned function takes it back. */
export function registerLocalConsoleFiles(files: ConsoleFiles): () => void {
  localFiles = files;
  return () => {
    if (localFiles === files) localFiles = undefined;
  };
}

/**
 * The directory the docs function's bundling writes the console into, beside its handler. Read
 * once per file and container: the files change only with a deployment.
 */
function directoryFiles(directory: string): ConsoleFiles {
  const read = new Map<ConsoleFileName, Promise<Buffer | undefined>>();
  return (name) => {
    let file = read.get(name);
    if (!file) {
      file = readFile(path.join(directory, name)).catch((error: NodeJS.ErrnoException) => {
        if (error.code === 'ENOENT') return undefined;
        read.delete(name);
        throw error;
      });
      read.set(name, file);
    }
    return file;
  };
}

let bundledFiles: ConsoleFiles | undefined;

/** Locally the server's build; in AWS the `console/` directory of the function's asset. */
export function consoleFiles(): ConsoleFiles {
  return localFiles ?? (bundledFiles ??= directoryFiles(path.join(__dirname, 'console')));
}
