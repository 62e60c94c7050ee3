import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { processDem } from '../shared/adapters/elevation/geotiff-dem';
import { writeModelDirectory } from '../shared/adapters/elevation/tiled-model';
import { processedModelRecord } from '../shared/adapters/elevation/processed-model';
import { OperatorElevationModels } from '../shared/adapters/elevation/operator-models';
import { S3BlobStore } from '../shared/adapters/s3-blob-store';
import { CliError, openOperatorStorage } from './operator-storage';
import { RasterError } from '../shared/domain/elevation-models/reproject';
import { VerticalReferenceError, type DemUnits, type DemVerticalDatum } from '../shared/domain/elevation-models/vertical';

const USAGE = `Process a GeoTIFF DEM into an elevation model (tile pyramid + model.json), into a directory
or published for every account.

Usage: npx tsx bin/dem-load.ts FILE.tif [FILE.tif …] --id ID --name NAME --units m|ft
         --vertical-datum NAVD88|EGM96|NGVD29 [--ngvd29-to-navd88-m M] [--vertical-accuracy-m M]
         [--water-value V] [--surface-model] [--source TEXT] (--out DIR | --publish)
       npx tsx bin/dem-load.ts --list
       npx tsx bin/dem-load.ts --remove ID

FILE.tif   single-band GeoTIFF in any EPSG CRS the service reprojects (Florida State Plane in
           US feet or metres, UTM 16N/17N, Florida GDL Albers, NAD83/WGS84/NAD27 geographic);
           several files are the parts of one model (tiles on one grid), processed as one raster.
--ngvd29-to-navd88-m   the shift stated in the DEM's metadata (required for NGVD29), metres;
                       give a negative value with '=': --ngvd29-to-navd88-m=-0.265.
--water-value          raw value the DEM uses for open water (USGS quads: 0), flagged as water.
--out DIR              directory written: tiles first, model.json last.
--publish              stores the model for every account's hazard answers (after the account's own
                       models, before the bundled ones): in the bucket named by BUCKET_NAME with
                       APP_MODE=aws, else in the local data directory (DATA_DIR, default .data; stop
                       \`npm start\` first). The same --id replaces a published model.
--list, --remove ID    the published models; take one out.`;

/** The operator's published models in the storage of the mode (the emulators locally, for the command's duration). */
async function withPublished<T>(work: (models: OperatorElevationModels) => Promise<T>): Promise<T> {
  const storage = await openOperatorStorage();
  try {
    return await work(new OperatorElevationModels(new S3BlobStore()));
  } finally {
    await storage.close();
  }
}

async function main(argv: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args: argv, allowPositionals: true,
    options: {
      id: { type: 'string' }, name: { type: 'string' }, units: { type: 'string' }, 'vertical-datum': { type: 'string' },
      'ngvd29-to-navd88-m': { type: 'string' }, 'vertical-accuracy-m': { type: 'string' }, 'water-value': { type: 'string' },
      'surface-model': { type: 'boolean' }, source: { type: 'string' }, out: { type: 'string' }, help: { type: 'boolean' },
      publish: { type: 'boolean' }, list: { type: 'boolean' }, remove: { type: 'string' },
    },
  });
  if (values.list) {
    const models = await withPublished((published) => published.list());
    for (const m of models) console.log(`${m.elevation_model_id}\t${m.resolution_m} m\t${m.bbox.map((v) => v.toFixed(4)).join(',')}\t${m.published_at}\t${m.name}`);
    if (models.length === 0) console.log('No published elevation model.');
    return;
  }
  if (values.remove !== undefined) {
    const removed = await withPublished((published) => published.remove(values.remove!));
    if (!removed) throw new RasterError(`No published elevation model ${values.remove}.`);
    console.log(`${values.remove}: removed.`);
    return;
  }
  const [file] = positionals;
  const units = values.units as DemUnits | undefined;
  const datum = values['vertical-datum'] as DemVerticalDatum | undefined;
  if (values.help || !file || !values.id || !values.name || (values.out === undefined) === !values.publish || !['m', 'ft'].includes(units ?? '') || !['NAVD88', 'EGM96', 'NGVD29'].includes(datum ?? '')) {
    throw new RasterError(USAGE);
  }
  const number = (text: string | undefined, flag: string) => {
    if (text === undefined) return undefined;
    const n = Number(text);
    if (!Number.isFinite(n)) throw new RasterError(`${flag} must be a number, got "${text}".`);
    return n;
  };
  const shift = number(values['ngvd29-to-navd88-m'], '--ngvd29-to-navd88-m');
  const water = number(values['water-value'], '--water-value');
  const processed = await processDem(await Promise.all(positionals.map((part) => readFile(part))), {
    vertical_datum: datum!, units: units!,
    ...(shift === undefined ? {} : { ngvd29_to_navd88_m: shift }),
    ...(water === undefined ? {} : { water_raw_value: water }),
  });
  const record = processedModelRecord(processed, {
    elevation_model_id: values.id, name: values.name, source_vertical_datum: datum!,
    vertical_accuracy_m: number(values['vertical-accuracy-m'], '--vertical-accuracy-m') ?? null,
    surface_model: values['surface-model'] ?? false,
    ...(values.source ? { source: values.source } : {}),
  });
  const summary = `${record.elevation_model_id}: ${record.crs.name}, ${record.resolution_m} m, bbox ${record.bbox.map((v) => v.toFixed(4)).join(', ')}, ${processed.tiles.size} tiles`;
  if (values.publish) {
    await withPublished((published) => published.publish(record, processed.tiles, new Date()));
    console.log(`${summary} → published for every account`);
  } else {
    await writeModelDirectory(values.out!, record, processed.tiles);
    console.log(`${summary} → ${path.resolve(values.out!)}`);
  }
}

main(process.argv.slice(2)).catch((error: unknown) => {
  const known = error instanceof RasterError || error instanceof VerticalReferenceError || error instanceof CliError
    || String((error as { code?: unknown }).code).startsWith('ERR_PARSE_ARGS');
  console.error(known ? (error as Error).message : error);
  process.exit(known ? 2 : 1);
});
