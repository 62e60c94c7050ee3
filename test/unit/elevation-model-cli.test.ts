import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { TiledModelSource } from '../../shared/adapters/elevation/tiled-model';
import { assessSlrImpact } from '../../shared/domain/hazards/slr-impact';
import { readTampaClip } from '../helpers/dem-fixture';
import { writeTiff } from '../helpers/tiff-writer';

const ROOT = path.join(__dirname, '../..');
const FIXTURE = path.join(ROOT, 'test/fixtures/dem/tampa_clip_fl_west_ftus_ngvd29.tif');
const out = mkdtempSync(path.join(tmpdir(), 'dem-load-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));

function demLoad(...args: string[]) {
  return spawnSync(path.join(ROOT, 'node_modules/.bin/tsx'), ['bin/dem-load.ts', ...args], { cwd: ROOT, encoding: 'utf8' });
}

describe('bin/dem-load.ts (operator CLI)', () => {
  it('processes a State Plane feet GeoTIFF into a model directory that reads back', async () => {
    const dir = path.join(out, 'clip');
    const run = demLoad(FIXTURE, '--id', 'clip', '--name', 'Tampa clip', '--units', 'ft', '--vertical-datum', 'NGVD29',
      '--ngvd29-to-navd88-m=-0.2652', '--vertical-accuracy-m', '0.76', '--water-value', '0', '--out', dir);
    expect(run.stderr).not.toMatch(/Error/);
    expect(run.status).toBe(0);
    const model = await TiledModelSource.open(dir);
    expect(model.record).toMatchObject({ elevation_model_id: 'clip', crs: { epsg: 2237 }, vertical_datum: 'NAVD88', source_vertical_datum: 'NGVD29', vertical_accuracy_m: 0.76 });
    expect(model.record.resolution_m).toBeCloseTo(30.48, 1);
    expect(model.info()).toEqual({
      name: 'Tampa clip', vertical_datum: 'NAVD88', native_resolution: '30.5 m',
      elevation_model_id: 'clip', resolution_m: 30.46, vertical_accuracy_m: 0.76, surface_model: false,
      vertical_conversion: 'NGVD29 US survey feet × 0.3048006, converted to NAVD88 metres by adding the stated shift of -0.2652 m.',
    });
    expect((await model.grid(model.record.bbox, 1e6))!.values.some((v) => !Number.isNaN(v))).toBe(true);
    // Every answer standing on the model repeats its NGVD29 shift with its ground sources.
    const [west, south, east, north] = model.record.bbox;
    const answer = await assessSlrImpact({ point: { lat: (south + north) / 2, lon: (west + east) / 2 }, scenario: 'intermediate', planningHorizon: 2070, percentile: '50', radiusKm: 0.5, includeGeoJson: false, currentYear: 2026 },
      { elevation: model, assets: [] });
    expect((answer.elevation as { sources: { vertical_conversion?: string }[] }).sources[0]!.vertical_conversion).toContain('shift of -0.2652 m');
  });

  it('processes the parts of one model given as several files into the model the whole file gives', async () => {
    const clip = await readTampaClip();
    const { origin, cellSize, nodata } = clip.frame;
    const files = [[0, 37], [37, clip.height]].map(([r0, r1], i) => {
      const file = path.join(out, `clip-part-${i + 1}.tif`);
      writeFileSync(file, writeTiff({
        width: clip.width, height: r1! - r0!, epsg: 2237, origin: [origin[0], origin[1] - r0! * cellSize[1]], cellSize, nodata: String(nodata), value: (r, c) => clip.at(r + r0!, c),
      }));
      return file;
    });
    const [whole, parts] = ['whole', 'parts'].map((name) => path.join(out, `clip-${name}`));
    const common = ['--name', 'Tampa clip', '--units', 'ft', '--vertical-datum', 'NGVD29', '--ngvd29-to-navd88-m=-0.2652'];
    expect(demLoad(FIXTURE, '--id', 'whole', ...common, '--out', whole!).status).toBe(0);
    const run = demLoad(...files, '--id', 'parts', ...common, '--out', parts!);
    expect(run.stderr).toBe('');
    const [a, b] = [await TiledModelSource.open(whole!), await TiledModelSource.open(parts!)];
    expect(b.record.bbox).toEqual(a.record.bbox);
    expect(b.record.pyramid).toEqual(a.record.pyramid);
    expect((await b.grid(b.record.bbox, 1e6))!.values).toEqual((await a.grid(a.record.bbox, 1e6))!.values);
  });

  it.each([
    ['an NGVD29 model without its shift', [FIXTURE, '--units', 'ft', '--vertical-datum', 'NGVD29'], /ngvd29_to_navd88_m/],
    ['a file that is not a GeoTIFF', [path.join(ROOT, 'package.json'), '--units', 'm', '--vertical-datum', 'NAVD88'], /not a readable GeoTIFF/],
    ['a missing unit', [FIXTURE, '--vertical-datum', 'NAVD88'], /Usage/],
    ['a shift that is not a number', [FIXTURE, '--units', 'ft', '--vertical-datum', 'NGVD29', '--ngvd29-to-navd88-m', 'abc'], /must be a number/],
  ])('refuses %s with exit status 2, a reason, and writes nothing', (_name, args, reason) => {
    const dir = path.join(out, 'refused');
    const run = demLoad(...args, '--id', 'x', '--name', 'x', '--out', dir);
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(reason);
    expect(() => readdirSync(dir)).toThrow();
  });
});
