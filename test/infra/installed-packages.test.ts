import { execFile } from 'node:child_process';
import { mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { build } from 'esbuild';
import { SqlJsGeoPackageWriter } from '../../shared/adapters/geopackage-writer';
import { GEOPACKAGE_SRS } from '../../shared/domain/deliverables/gis-package';
import { BUNDLE_SETTINGS, PROJECT_ROOT } from '../../lib/app-function';
import { externalsOf } from './bundle-build';

/** Reads the GeoPackage named on the command line and prints its layer and features. */
const READER = `
import { readFileSync } from 'node:fs';
import { readGeoPackage } from ${JSON.stringify(path.join(PROJECT_ROOT, 'shared/domain/assets/formats/geopackage'))};
readGeoPackage(readFileSync(process.argv[2])).then(async (file) => {
  const names = [];
  for await (const feature of file.features) names.push(feature.properties.name);
  console.log(JSON.stringify({ layer: file.layer, names }));
}, (error) => { console.log(JSON.stringify({ error: error.message })); });
`;

/**
 * The asset API reads GeoPackages (GIS validation) with sql.js, which loads its WebAssembly from
 * beside its own script. Built as the stack builds the function, with the packages it installs
 * beside the bundle in `node_modules`, the reader opens a package; bundled, sql.js looks beside the
 * bundle and cannot.
 */
describe('the asset API bundle with its installed packages', () => {
  let dir: string;
  let gpkg: string;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'vac-installed-'));
    await writeFile(path.join(dir, 'reader.ts'), READER);
    // The project's node_modules stands for the packages npm installs beside the bundle.
    await symlink(path.join(PROJECT_ROOT, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
    gpkg = path.join(dir, 'roads.gpkg');
    await writeFile(gpkg, await new SqlJsGeoPackageWriter().write({
      srs: GEOPACKAGE_SRS,
      tables: [{
        name: 'bridges', title: 'Bridges', description: 'Two bridges', geometryType: 'POINT', columns: [{ name: 'name', type: 'TEXT' }],
        metadata: { standardUri: 'http://www.fgdc.gov/metadata/csdgm', mimeType: 'text/xml', document: '<metadata/>' },
        features: [
          { geometry: { type: 'Point', coordinates: [688_870, 62_560] }, properties: { name: 'Seven Mile Bridge' } },
          { geometry: { type: 'Point', coordinates: [848_690, 196_370] }, properties: { name: 'Brickell Avenue Bridge' } },
        ],
      }],
    }));
  }, 60_000);

  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  /** Bundles the reader with these packages left out (found beside it at run time), runs it on the package. */
  async function readWith(external: string[], outfile: string): Promise<{ exitCode: number; stdout: string; stderr: string }> {
    await build({
      entryPoints: [path.join(dir, 'reader.ts')], absWorkingDir: PROJECT_ROOT, bundle: true, platform: 'node',
      minify: BUNDLE_SETTINGS.minify, target: BUNDLE_SETTINGS.target, format: BUNDLE_SETTINGS.format,
      external, outfile: path.join(dir, outfile), logLevel: 'silent',
    });
    try {
      const { stdout, stderr } = await promisify(execFile)(process.execPath, [path.join(dir, outfile), gpkg], { cwd: dir, encoding: 'utf8' });
      return { exitCode: 0, stdout: stdout.trim(), stderr };
    } catch (error) {
      const failed = error as { code: number; stdout: string; stderr: string };
      return { exitCode: failed.code, stdout: failed.stdout.trim(), stderr: failed.stderr.slice(0, 2000) };
    }
  }

  it('opens a GeoPackage', async () => {
    expect(externalsOf('assets')).toContain('sql.js');
    const run = await readWith(externalsOf('assets'), 'assets.js');
    expect({ exitCode: run.exitCode, answer: JSON.parse(run.stdout) }).toEqual({ exitCode: 0, answer: { layer: 'bridges', names: ['Seven Mile Bridge', 'Brickell Avenue Bridge'] } });
  }, 60_000);

  // The check sees the failure it guards against: bundled, sql.js finds no WebAssembly beside the
  // bundle, the package cannot be opened and the aborted load takes the process down.
  it('could not with sql.js bundled', async () => {
    const run = await readWith(externalsOf('assets').filter((name) => name !== 'sql.js'), 'bundled.js');
    expect(run.exitCode).not.toBe(0);
    expect(run.stderr).toMatch(/no such file or directory, open '[^']*sql-wasm\.wasm'/);
  }, 60_000);
});
