import { readFileSync } from 'node:fs';
import { SourceMap } from 'node:module';

/**
 * Stack traces of unexpected errors, mapped to the TypeScript sources. The API functions run
 * without `--enable-source-maps`, which parses the whole map at load (100–500 ms of cold start);
 * instead a bundle's map is read the first time one of its frames has to be logged, which is rare.
 */
const maps = new Map<string, SourceMap | undefined>();

function mapOf(file: string): SourceMap | undefined {
  if (!maps.has(file)) {
    let map: SourceMap | undefined;
    try {
      map = new SourceMap(JSON.parse(readFileSync(`${file}.map`, 'utf8')));
    } catch {
      map = undefined; // No map beside the file (dependencies, local runs from source): its frames stay as they are.
    }
    maps.set(file, map);
  }
  return maps.get(file);
}

const FRAME_LOCATION = /((?:\/|file:\/\/)[^\s()]+\.[cm]?js):(\d+):(\d+)/;

function mappedFrame(frame: string): string {
  return frame.replace(FRAME_LOCATION, (whole, file: string, line: string, column: string) => {
    const map = mapOf(file.replace(/^file:\/\//, ''));
    const entry = map?.findEntry(Number(line) - 1, Number(column) - 1);
    if (!entry || !('originalSource' in entry)) return whole;
    return `${entry.originalSource}:${entry.originalLine + 1}:${entry.originalColumn + 1}`;
  });
}

export function sourceMappedStack(stack: string): string {
  if (process.sourceMapsEnabled) return stack;
  return stack.split('\n').map(mappedFrame).join('\n');
}
