import { readFileSync, writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { MultiPolygon } from 'geojson';
import { startLocalApp } from '../local/app';
import { ResvgPngRenderer } from '../shared/adapters/png-renderer';
import type { StoredAsset } from '../shared/domain/assets/ports';
import { albersAreaM2 } from '../shared/domain/deliverables/gis-package';
import { svgWithTexts } from '../shared/domain/deliverables/maps';
import { reportMaps } from '../shared/domain/deliverables/report-maps';
import { countyBoundaryByFips } from '../shared/domain/hazards/florida-counties';

/**
 * The picture of a report map in the docs (docs/report-map-inundation.png), made as a deliverable
 * makes it: the local API imports Monroe County's rows of the bundled asset samples, runs a tidal
 * and surge analysis over the county that writes their exposure, and the report's map of one
 * scenario and horizon is drawn from the answer's extents and the assets. The report sets the
 * map's words in Helvetica; here resvg sets them in the font file given.
 *
 *   npx tsx scripts/render-report-map.ts --font /usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf \
 *     --bold /usr/share/fonts/truetype/liberation/LiberationSans-Bold.ttf --family "Liberation Sans" --out docs/report-map-inundation.png
 */
const arg = (name: string) => {
  const i = process.argv.indexOf(`--${name}`);
  if (i < 0 || !process.argv[i + 1]) throw new Error(`--${name} is required`);
  return process.argv[i + 1]!;
};
const SCENARIO = 'high';
const HORIZON = 2100;

/** name, lat, lon of the rows of one sample file in Monroe County. */
function monroeRows(file: string, name: string, lat: string, lon: string, county: string): string[][] {
  const [header, ...lines] = readFileSync(path.join('shared/data/assets', file), 'utf8').trim().split(/\r?\n/).map((line) => line.match(/("([^"]|"")*"|[^,]*)(,|$)/g)!.map((cell) => cell.replace(/,$/, '').replace(/^"|"$/g, '')));
  const at = (column: string) => header!.indexOf(column);
  return lines.filter((row) => /monroe/i.test(row[at(county)] ?? '')).map((row) => [row[at(name)]!, row[at(lat)]!, row[at(lon)]!]);
}

interface Job {
  job_id: string;
  status: string;
  error?: unknown;
  result: {
    sources: { name: string; version?: string }[];
    inundation_extents: { properties: { scenario: string; planning_horizon: number; components: string[]; km2: number }; geometry: MultiPolygon }[];
  };
}

async function main() {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'report-map-'));
  const app = await startLocalApp({ port: 0, dataDir, backgroundWorkers: false });
  const call = async <T>(method: string, route: string, init: { json?: unknown; body?: Buffer; type?: string } = {}): Promise<T> => {
    const response = await fetch(`${app.baseUrl}${route}`, {
      method, headers: { 'X-API-Key': app.keys.pro, 'Content-Type': init.type ?? 'application/json' }, body: init.json !== undefined ? JSON.stringify(init.json) : init.body,
    });
    return response.json() as Promise<T>;
  };
  try {
    const rows = [
      ...monroeRows('fl-hospitals-hifld.csv', 'NAME', 'LATITUDE', 'LONGITUDE', 'COUNTY'),
      ...monroeRows('fl-library-outlets-imls.csv', 'LIBNAME', 'Lat', 'Long', 'CNTY'),
      ...monroeRows('fl-parks-fgdl-sample.csv', 'NAME', 'Lat', 'Long', 'COUNTY'),
      ...monroeRows('fl-public-schools-sample.csv', 'NAME', 'Lat', 'Long', 'COUNTY'),
    ];
    const csv = `name,latitude,longitude\n${rows.map((r) => r.map((c) => `"${c.replace(/"/g, '""')}"`).join(',')).join('\n')}\n`;
    const boundary = `----map${Date.now()}`;
    const form = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="jurisdiction"\r\n\r\nMonroe County\r\n--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="assets.csv"\r\nContent-Type: text/csv\r\n\r\n${csv}\r\n--${boundary}--\r\n`);
    await call('POST', '/assets/import', { body: form, type: `multipart/form-data; boundary=${boundary}` });
    let job = await call<Job>('POST', '/hazards/flood-analysis', { json: { jurisdiction: 'Monroe County', components: ['tidal', 'surge'], scenarios: [SCENARIO], planning_horizons: [HORIZON], include_extents: true, allow_surface_model: true, apply_to_assets: true } });
    while (job.status !== 'succeeded' && job.status !== 'failed') {
      await new Promise((resolve) => setTimeout(resolve, 2000));
      job = await call<Job>('GET', `/hazards/jobs/${job.job_id}`);
    }
    if (job.status !== 'succeeded') throw new Error(JSON.stringify(job.error));
    const assets: StoredAsset[] = (await call<{ data: StoredAsset[] }>('GET', '/assets?jurisdiction=Monroe%20County&limit=100')).data;
    const extents = job.result.inundation_extents.map((f) => ({ scenario: f.properties.scenario, planning_horizon: f.properties.planning_horizon, components: f.properties.components, area_km2: 0, area_m2: 0, geometry: f.geometry }));
    const [, map] = reportMaps({ jurisdiction: 'Monroe County', boundary: countyBoundaryByFips('12087')!.geometry, assets, extents, sources: job.result.sources });
    const fonts = [readFileSync(arg('font')), readFileSync(arg('bold'))];
    writeFileSync(arg('out'), await new ResvgPngRenderer(fonts).render(svgWithTexts(map!, arg('family'))));
    const exposed = assets.filter((a) => (a.exposure?.depths.find((d) => d.scenario === SCENARIO && d.planning_horizon === HORIZON)?.depth_ft ?? 0) > 0).length;
    console.log(`${assets.length} assets, ${exposed} exposed; inundated land ${(albersAreaM2(extents[0]!.geometry) / 1e6).toFixed(2)} km² (EPSG:3087), the analysis's cell sum ${job.result.inundation_extents[0]!.properties.km2} km²`);
  } finally {
    await app.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

void main();
