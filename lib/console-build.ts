import { mkdir, writeFile } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { FLORIDA_COUNTIES, floridaMunicipalities } from '../shared/domain/jurisdictions';
import type { ConsoleFileName } from '../shared/routes/docs';

const SOURCE_DIR = path.resolve(__dirname, '..', 'console');

/** The picker's choices: every county by name and every municipality by its jurisdiction id. */
export function jurisdictionChoices(): { counties: { value: string; label: string }[]; municipalities: { value: string; label: string }[] } {
  const countyName = new Map(FLORIDA_COUNTIES.map((county) => [county.fips, county.name]));
  return {
    counties: FLORIDA_COUNTIES.map((county) => ({ value: `${county.name} County`, label: `${county.name} County` })),
    municipalities: [...floridaMunicipalities()]
      .sort((a, b) => a.name.localeCompare(b.name))
      .map((municipality) => ({ value: `municipality:${municipality.cid}`, label: `${municipality.name} (${countyName.get(municipality.county_fips)} County)` })),
  };
}

/**
 * The console (`console/`) as the files it is served as: its page, `main.js` and `main.css` bundled
 * by esbuild with OpenLayers and the typed client (nothing loaded from other hosts), and the
 * picker's jurisdictions from the API's own tables. The one build of both modes: the local server
 * keeps it in memory, the docs function's bundling writes it beside the handler for AWS.
 */
export async function buildConsoleFiles(): Promise<Map<ConsoleFileName, Buffer>> {
  // esbuild is a development dependency: loaded only when the console is built.
  const { build } = await import('esbuild');
  const result = await build({
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
  const files = new Map<ConsoleFileName, Buffer>([
    ['index.html', readFileSync(path.join(SOURCE_DIR, 'index.html'))],
    ['jurisdictions.json', Buffer.from(JSON.stringify(jurisdictionChoices()))],
  ]);
  for (const output of result.outputFiles) files.set(path.basename(output.path) as ConsoleFileName, Buffer.from(output.contents));
  return files;
}

/** Writes the console's files into `outDir` (the docs function's asset, `console/` beside its handler). */
export async function writeConsoleFiles(outDir: string): Promise<string[]> {
  const files = await buildConsoleFiles();
  await mkdir(outDir, { recursive: true });
  for (const [name, body] of files) await writeFile(path.join(outDir, name), body);
  return [...files.keys()];
}
