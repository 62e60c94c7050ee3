import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { S3HazardLayerStore } from '../shared/adapters/hazard-layer-store';
import { parseLayerGeoJson, type HazardLayer, type LayerComponent } from '../shared/domain/hazards/hazard-layers';
import { floridaBBox } from '../shared/domain/hazards/florida-counties';
import { bboxesIntersect } from '../shared/domain/hazards/geo';
import { CliError, openOperatorStorage, option, runCli } from './operator-storage';

const USAGE = `Load a storm surge or rainfall flood layer for POST /hazards/flood-analysis.

Usage: npx tsx bin/hazard-layers-load.ts FILE.geojson --component surge|rainfall --return-period YEARS
         --name "NAME" --source "SOURCE" [--id LAYER_ID] [--dry-run]
       npx tsx bin/hazard-layers-load.ts --list

FILE.geojson is a FeatureCollection of Polygon/MultiPolygon features in WGS 84 lon/lat, each with
the water-surface elevation of the event in NAVD88: property wse_navd88_m (metres) or wse_navd88_ft
(feet). Examples: FEMA coastal still-water elevations, SLOSH/ADCIRC surge results, NOAA Atlas 14
design storms run through a local H&H model. --return-period is in years (100 = 1 % annual chance).
A layer with an existing --id replaces it. Features without a level or of another geometry are
listed and the file is rejected.

Writes to the bucket named by BUCKET_NAME (prefix hazard-layers/) with APP_MODE=aws, else to the
local data directory (DATA_DIR, default .data; stop \`npm start\` first).
`;

/** Reads and checks a layer file; nothing is written when anything is wrong. */
export async function readLayerFile(file: string, options: { component: string | undefined; returnPeriod: string | undefined; name: string | undefined; source: string | undefined; id?: string }, now: Date): Promise<HazardLayer> {
  if (options.component !== 'surge' && options.component !== 'rainfall') throw new CliError('--component must be surge or rainfall.', 2);
  const returnPeriod = Number(options.returnPeriod);
  if (!Number.isInteger(returnPeriod) || returnPeriod < 2 || returnPeriod > 10_000) throw new CliError('--return-period must be a whole number of years (2–10000), e.g. 100.', 2);
  if (!options.name?.trim() || !options.source?.trim()) throw new CliError('--name and --source are required: every result names the layer and where it came from.', 2);
  const layerId = options.id ?? `${options.component}-${returnPeriod}yr-${path.basename(file).replace(/\.(geo)?json$/i, '').replace(/[^A-Za-z0-9_-]+/g, '-').toLowerCase()}`;
  if (!/^[A-Za-z0-9_-]{3,100}$/.test(layerId)) throw new CliError('--id may use letters, digits, - and _ (3–100 characters).', 2);
  let json: unknown;
  try {
    json = JSON.parse(await readFile(file, 'utf8'));
  } catch (error) {
    throw new CliError(`Cannot read ${file}: ${(error as Error).message}`);
  }
  const parsed = parseLayerGeoJson(json);
  if (parsed.errors.length > 0) {
    throw new CliError(`${file} has ${parsed.errors.length} problem${parsed.errors.length > 1 ? 's' : ''}; nothing was written:\n${parsed.errors.slice(0, 50).map((e) => `  - ${e}`).join('\n')}`);
  }
  if (parsed.features.length === 0) throw new CliError(`${file} has no features.`);
  if (!bboxesIntersect(parsed.bbox, floridaBBox())) throw new CliError(`${file} does not overlap Florida (bbox ${parsed.bbox.join(', ')}); coordinates must be WGS 84 longitude, latitude.`);
  return {
    layer_id: layerId,
    component: options.component as LayerComponent,
    return_period_years: returnPeriod,
    name: options.name.trim(),
    source: options.source.trim(),
    loaded_at: now.toISOString(),
    bbox: parsed.bbox,
    features: parsed.features,
  };
}

async function main(args: string[]): Promise<void> {
  if (args.includes('--help') || args.includes('-h')) {
    process.stdout.write(USAGE);
    return;
  }
  if (args.includes('--list')) {
    const storage = await openOperatorStorage();
    try {
      const layers = await new S3HazardLayerStore().list();
      process.stdout.write(layers.length === 0 ? 'No layers loaded.\n' : `${layers.map((l) => `${l.layer_id}\t${l.component}\t${l.return_period_years}-year\t${l.feature_count} features\t${l.name} (${l.source})`).join('\n')}\n`);
    } finally {
      await storage.close();
    }
    return;
  }
  const files = args.filter((a, i) => !a.startsWith('--') && !(i > 0 && args[i - 1]!.startsWith('--') && args[i - 1] !== '--dry-run'));
  if (files.length !== 1) throw new CliError('Expected one GeoJSON file. See --help.', 2);
  const layer = await readLayerFile(files[0]!, {
    component: option(args, 'component'),
    returnPeriod: option(args, 'return-period'),
    name: option(args, 'name'),
    source: option(args, 'source'),
    id: option(args, 'id'),
  }, new Date());
  process.stdout.write(`${files[0]}: ${layer.features.length} features, ${layer.component} ${layer.return_period_years}-year, layer id ${layer.layer_id}.\n`);
  if (args.includes('--dry-run')) {
    process.stdout.write('Nothing written (--dry-run).\n');
    return;
  }
  const storage = await openOperatorStorage();
  try {
    await new S3HazardLayerStore().save(layer);
    process.stdout.write(`Loaded into ${storage.description}.\n`);
  } finally {
    await storage.close();
  }
}

if (require.main === module) runCli(main);
