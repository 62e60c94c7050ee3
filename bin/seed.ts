import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { isDeepStrictEqual, parseArgs } from 'node:util';
import { resetConfigForTests } from '../shared/config';
import { DynamoResourceStore } from '../shared/adapters/resource-store';
import { DynamoFloodEventStore } from '../shared/adapters/flood-event-store';
import { S3HazardLayerStore } from '../shared/adapters/hazard-layer-store';
import { S3BlobStore } from '../shared/adapters/s3-blob-store';
import { OperatorElevationModels } from '../shared/adapters/elevation/operator-models';
import { processedModelKeys } from '../shared/adapters/elevation/processed-model';
import { MODEL_FILE } from '../shared/adapters/elevation/tiled-model';
import type { ElevationModelRecord } from '../shared/domain/elevation-models/model';
import type { HazardLayer } from '../shared/domain/hazards/hazard-layers';
import { stackName } from '../lib/names';
import { seedLibrary } from '../local/seed-library';
import { CliError, openOperatorStorage, runCli } from './operator-storage';
import { readLayerFile } from './hazard-layers-load';
import { readStormEventsFile } from './storm-events-load';

const USAGE = `Load everything a fresh stack needs, idempotently: the library catalogue, the operator's
elevation models, hazard layers and storm events. A second run writes nothing and says so.

Usage: npm run seed -- --stage local|<stage> [--manifest FILE] [--outputs FILE]

--stage local    the local data directory (DATA_DIR, default .data; stop \`npm start\` first): the
                 command starts the emulators on it for its duration.
--stage <stage>  the deployed stack of that stage (${stackName('<stage>')}): its table and bucket are
                 read from the outputs file that \`npx cdk deploy --outputs-file cdk-outputs.json\`
                 writes; the usual AWS credentials; the region is the API's.
--manifest FILE  what to load (default bin/seed-manifest.json); paths in it are relative to it:
                 {"library": FILE.json, "elevation_models": [MODEL_DIR...],
                  "hazard_layers": [{"file", "component", "return_period_years", "name", "source", "id"?}...],
                  "storm_events": [StormEvents_details FILE.csv[.gz]...]}
                 A MODEL_DIR is a processed model (model.json and its tiles, as bin/dem-load.ts --out
                 writes), published for every account.
--outputs FILE   the deploy's outputs file (default cdk-outputs.json).
`;

const DEFAULT_MANIFEST = path.join(__dirname, 'seed-manifest.json');

interface LayerEntry {
  file: string;
  component: string;
  return_period_years: number;
  name: string;
  source: string;
  id?: string;
}

export interface SeedManifest {
  library: string;
  elevation_models: string[];
  hazard_layers: LayerEntry[];
  storm_events: string[];
}

/** One kind of seed data: how many items the manifest holds and how many had to be written. */
export interface SeedStep {
  step: string;
  items: number;
  written: number;
}

export async function readManifest(file: string): Promise<SeedManifest> {
  let json: Partial<SeedManifest>;
  try {
    json = JSON.parse(await readFile(file, 'utf8')) as Partial<SeedManifest>;
  } catch (error) {
    throw new CliError(`Cannot read the manifest ${file}: ${(error as Error).message}`);
  }
  const within = (relative: string) => path.resolve(path.dirname(file), relative);
  if (typeof json.library !== 'string') throw new CliError(`${file}: "library" must name a catalogue file.`);
  return {
    library: within(json.library),
    elevation_models: (json.elevation_models ?? []).map(within),
    hazard_layers: (json.hazard_layers ?? []).map((layer) => ({ ...layer, file: within(layer.file) })),
    storm_events: (json.storm_events ?? []).map(within),
  };
}

/** Upserts the catalogue entries that differ from the store. */
async function seedCatalogue(file: string): Promise<SeedStep> {
  const { resources, written } = await seedLibrary(new DynamoResourceStore(), JSON.parse(await readFile(file, 'utf8')));
  return { step: 'library resources', items: resources, written };
}

/** Publishes each processed model unless the same record is already published under its id. */
async function seedElevationModels(directories: readonly string[], now: Date): Promise<SeedStep> {
  const published = new OperatorElevationModels(new S3BlobStore());
  let written = 0;
  for (const directory of directories) {
    const record = await readFile(path.join(directory, MODEL_FILE), 'utf8').then((text) => JSON.parse(text) as ElevationModelRecord, (error: Error) => {
      throw new CliError(`${directory} is not a processed elevation model (bin/dem-load.ts --out writes one): ${error.message}`);
    });
    if (isDeepStrictEqual(await published.publishedRecord(record.elevation_model_id), record)) continue;
    const tiles = new Map<string, Uint8Array>();
    for (const key of processedModelKeys('', record).filter((k) => k !== MODEL_FILE)) tiles.set(key, await readFile(path.join(directory, key)));
    await published.publish(record, tiles, now);
    written++;
  }
  return { step: 'operator elevation models', items: directories.length, written };
}

/** Saves each layer unless a layer of that id holds the same definition and features (its load time aside). */
async function seedHazardLayers(entries: readonly LayerEntry[], now: Date): Promise<SeedStep> {
  const store = new S3HazardLayerStore();
  const sameLayer = (a: HazardLayer, b: HazardLayer) => isDeepStrictEqual({ ...a, loaded_at: null }, { ...b, loaded_at: null });
  let written = 0;
  for (const entry of entries) {
    const layer = await readLayerFile(entry.file, { component: entry.component, returnPeriod: String(entry.return_period_years), name: entry.name, source: entry.source, id: entry.id }, now);
    const stored = (await store.layersFor(layer.component, layer.bbox)).find((l) => l.layer_id === layer.layer_id);
    if (stored && sameLayer(stored, layer)) continue;
    await store.save(layer);
    written++;
  }
  return { step: 'hazard layers', items: entries.length, written };
}

/** Writes the Florida flood-type events that are not stored as they are. */
async function seedStormEvents(files: readonly string[]): Promise<SeedStep> {
  const store = new DynamoFloodEventStore();
  const events = [];
  for (const file of files) events.push(...(await readStormEventsFile(file)).events.filter((e) => e.location.county_fips));
  const counties = [...new Set(events.map((e) => e.location.county_fips!))];
  const stored = new Map((await store.eventsInCounties(counties)).map((e) => [e.event_id, e]));
  const changed = events.filter((e) => !isDeepStrictEqual(stored.get(e.event_id), e));
  await store.putEvents(changed);
  return { step: 'storm events', items: events.length, written: changed.length };
}

export async function seed(manifest: SeedManifest, now: Date): Promise<SeedStep[]> {
  return [
    await seedCatalogue(manifest.library),
    await seedElevationModels(manifest.elevation_models, now),
    await seedHazardLayers(manifest.hazard_layers, now),
    await seedStormEvents(manifest.storm_events),
  ];
}

/**
 * Points the operator storage at a deployed stage: its table, bucket and region from the outputs
 * file of `cdk deploy` (outputs BaseUrl, TableName and BucketName of the stage's stack).
 */
async function useDeployedStage(stage: string, outputsFile: string): Promise<void> {
  let outputs: Record<string, Record<string, string>>;
  try {
    outputs = JSON.parse(await readFile(outputsFile, 'utf8')) as Record<string, Record<string, string>>;
  } catch (error) {
    throw new CliError(`Cannot read ${outputsFile} (${(error as Error).message}); deploy with \`npx cdk deploy --outputs-file ${outputsFile}\` first.`);
  }
  const stack = outputs[stackName(stage)];
  if (!stack?.TableName || !stack.BucketName) {
    throw new CliError(`${outputsFile} has no TableName and BucketName of stack ${stackName(stage)} (it holds: ${Object.keys(outputs).join(', ') || 'nothing'}).`);
  }
  const region = /execute-api\.([a-z0-9-]+)\.amazonaws\.com/.exec(stack.BaseUrl ?? '')?.[1];
  Object.assign(process.env, { APP_MODE: 'aws', TABLE_NAME: stack.TableName, BUCKET_NAME: stack.BucketName, ...(region ? { AWS_REGION: region } : {}) });
  resetConfigForTests();
}

async function main(argv: string[]): Promise<void> {
  const { values } = parseArgs({ args: argv, options: { stage: { type: 'string' }, manifest: { type: 'string' }, outputs: { type: 'string' }, help: { type: 'boolean', short: 'h' } } });
  if (values.help) {
    process.stdout.write(USAGE);
    return;
  }
  if (!values.stage) throw new CliError('--stage is required (local, or the stage of a deployed stack). See --help.', 2);
  const manifest = await readManifest(path.resolve(values.manifest ?? DEFAULT_MANIFEST));
  if (values.stage === 'local') process.env.APP_MODE = 'local';
  else await useDeployedStage(values.stage, path.resolve(values.outputs ?? 'cdk-outputs.json'));

  const storage = await openOperatorStorage();
  try {
    const steps = await seed(manifest, new Date());
    for (const { step, items, written } of steps) process.stdout.write(`${step}: ${items} listed, ${written} written\n`);
    const writes = steps.reduce((sum, s) => sum + s.written, 0);
    process.stdout.write(writes === 0
      ? `Nothing to change in ${storage.description}: everything is already in place (0 writes).\n`
      : `Seeded ${storage.description}: ${writes} writes.\n`);
  } finally {
    await storage.close();
  }
}

if (require.main === module) runCli(main);
