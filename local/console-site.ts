import { readFileSync } from 'node:fs';
import path from 'node:path';
import { FLORIDA_COUNTIES, FLORIDA_MUNICIPALITIES } from '../shared/domain/jurisdictions';

/**
 * The console (`console/`), bundled with esbuild in memory on its first request and served at
 * `/api/console` by the local gateway: `npm start` on a fresh clone serves it with no build step and
 * nothing fetched from another host. Nothing is written to disk, so parallel test processes never
 * read each other's half-written bundle.
 */
const SOURCE_DIR = path.resolve(__dirname, '..', 'console');

export interface ConsoleFile {
  contentType: string;
  body: Buffer;
}

/** What the page may load: this API only (`connect-src 'self'`); the deliverables' signed URLs are links, not fetches. */
export const CONSOLE_CONTENT_SECURITY_POLICY = "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'";

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
};

/** The picker's choices: every county by name and every municipality by its jurisdiction id. */
export function jurisdictionChoices(): { counties: { value: string; label: string }[]; municipalities: { value: string; label: string }[] } {
  const countyName = new Map(FLORIDA_COUNTIES.map((county) => [county.fips, county.name]));
  return {
    counties: FLORIDA_COUNTIES.map((county) => ({ value: `${county.name} County`, label: `${county.name} County` })),
    municipalities: [...FLORIDA_MUNICIPALITIES]
      .sort((a, b) => a.name.localeCompare(b.name))
      .map((municipality) => ({ value: `municipality:${municipality.cid}`, label: `${municipality.name} (${countyName.get(municipality.county_fips)} County)` })),
  };
}

async function build(): Promise<Map<string, ConsoleFile>> {
  // esbuild is a development dependency: loaded only when the console is first asked for.
  const { build: esbuild } = await import('esbuild');
  const result = await esbuild({
    entryPoints: [path.join(SOURCE_DIR, 'main.ts')],
    bundle: true,
    format: 'esm',
    target: 'es2022',
    minify: true,
    legalComments: 'none',
    outdir: 'console',
    write: false,
    logLevel: 'silent',
  });
  const files = new Map<string, ConsoleFile>();
  files.set('', { contentType: CONTENT_TYPES['.html']!, body: readFileSync(path.join(SOURCE_DIR, 'index.html')) });
  files.set('jurisdictions.json', { contentType: CONTENT_TYPES['.json']!, body: Buffer.from(JSON.stringify(jurisdictionChoices())) });
  for (const output of result.outputFiles) {
    const name = path.basename(output.path);
    files.set(name, { contentType: CONTENT_TYPES[path.extname(name)] ?? 'application/octet-stream', body: Buffer.from(output.contents) });
  }
  return files;
}

let built: Promise<Map<string, ConsoleFile>> | undefined;

/**
 * The file at `/console` (the page, name '') or `/console/<name>`; undefined when there is none.
 * Built once per process; a failed build is retried on the next request.
 */
export async function consoleFile(name: string): Promise<ConsoleFile | undefined> {
  built ??= build().catch((failure: unknown) => {
    built = undefined;
    throw failure;
  });
  return (await built).get(name);
}

/** The console's path below the stage (`/console`, `/console/main.js`) as a file name, or undefined for any other path. */
export function consolePath(path: string): string | undefined {
  if (path === '/console') return '';
  const match = /^\/console\/([\w.-]+)$/.exec(path);
  return match ? match[1] : undefined;
}
