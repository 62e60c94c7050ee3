import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { startTestApp } from '../helpers/local-app';
import { DynamoFloodEventStore } from '../../shared/adapters/flood-event-store';
import { readStormEventsFile } from '../../bin/storm-events-load';

const run = promisify(execFile);
const ROOT = path.join(__dirname, '../..');
const DEFAULT_MANIFEST = path.join(ROOT, 'bin/seed-manifest.json');
const STORM_EVENTS = path.join(ROOT, 'shared/data/hazards/source/StormEvents_details-ftp_v1.0_d2019_c20190617.csv.gz');

/** Runs an operator command on the data directory; APP_MODE=aws left in the shell must not matter to `--stage local`. */
async function command(dataDir: string, script: string, ...args: string[]) {
  return run(process.execPath, ['--import', 'tsx', path.join(ROOT, script), ...args], {
    cwd: ROOT,
    env: { ...process.env, DATA_DIR: dataDir, APP_MODE: script === 'bin/seed.ts' ? 'aws' : 'local' },
  });
}

/** `step: N listed, M written` lines of the command's output. */
function writesByStep(stdout: string): Record<string, { listed: number; written: number }> {
  return Object.fromEntries([...stdout.matchAll(/^(.+): (\d+) listed, (\d+) written$/gm)].map((m) => [m[1], { listed: Number(m[2]), written: Number(m[3]) }]));
}

/** A Key West rainfall layer (WGS 84 lon/lat, level in NAVD88 metres). */
function layerFile(wseMetres: number): string {
  return JSON.stringify({
    type: 'FeatureCollection',
    features: [{
      type: 'Feature',
      properties: { wse_navd88_m: wseMetres },
      geometry: { type: 'Polygon', coordinates: [[[-81.81, 24.54], [-81.75, 24.54], [-81.75, 24.57], [-81.81, 24.57], [-81.81, 24.54]]] },
    }],
  });
}

describe('npm run seed --stage local', () => {
  const work = mkdtempSync(path.join(tmpdir(), 'vac-seed-'));
  const dataDir = path.join(work, 'data');
  const manifestFile = path.join(work, 'manifest.json');
  const layer = path.join(work, 'rain-100.geojson');
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  beforeAll(() => {
    // The shipped manifest, with its paths made absolute, plus one hazard layer.
    const shipped = JSON.parse(readFileSync(DEFAULT_MANIFEST, 'utf8'));
    const absolute = (p: string) => path.resolve(path.dirname(DEFAULT_MANIFEST), p);
    writeFileSync(layer, layerFile(2.5));
    writeFileSync(manifestFile, JSON.stringify({
      library: absolute(shipped.library),
      elevation_models: shipped.elevation_models.map(absolute),
      storm_events: shipped.storm_events.map(absolute),
      hazard_layers: [{ file: layer, component: 'rainfall', return_period_years: 100, name: 'Key West 100-year rainfall', source: 'seed test', id: 'rain-100-key-west' }],
    }));
  });

  it('loads everything on a fresh data directory, then a second run writes nothing and says so', async () => {
    const resources = (JSON.parse(readFileSync(path.join(ROOT, 'shared/data/library/resources.json'), 'utf8')) as { resources: unknown[] }).resources.length;
    const bundledModels = readdirSync(path.join(ROOT, 'shared/data/dem'), { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name).sort();

    const first = await command(dataDir, 'bin/seed.ts', '--stage', 'local', '--manifest', manifestFile);
    const firstSteps = writesByStep(first.stdout);
    expect(firstSteps['library resources']).toEqual({ listed: resources, written: resources });
    expect(firstSteps['operator elevation models']).toEqual({ listed: bundledModels.length, written: bundledModels.length });
    expect(firstSteps['hazard layers']).toEqual({ listed: 1, written: 1 });
    expect(firstSteps['storm events']!.written).toBeGreaterThan(0);
    expect(firstSteps['storm events']!.written).toBe(firstSteps['storm events']!.listed);

    const second = await command(dataDir, 'bin/seed.ts', '--stage', 'local', '--manifest', manifestFile);
    expect(Object.values(writesByStep(second.stdout)).map((s) => s.written)).toEqual([0, 0, 0, 0]);
    expect(second.stdout).toContain('(0 writes)');

    // What was published is what the operator's own listing shows.
    const listed = (await command(dataDir, 'bin/dem-load.ts', '--list')).stdout.split('\n').filter(Boolean).map((line) => line.split('\t')[0]).sort();
    expect(listed).toEqual(bundledModels);
  }, 180_000);

  it('writes again only what changed', async () => {
    writeFileSync(layer, layerFile(2.75));
    const steps = writesByStep((await command(dataDir, 'bin/seed.ts', '--stage', 'local', '--manifest', manifestFile)).stdout);
    expect(steps['hazard layers']).toEqual({ listed: 1, written: 1 });
    expect(steps['library resources']!.written + steps['operator elevation models']!.written + steps['storm events']!.written).toBe(0);
  }, 120_000);

  it('refuses a deployed stage without the deploy outputs, naming the file to write', async () => {
    await expect(command(dataDir, 'bin/seed.ts', '--stage', 'prod', '--outputs', path.join(work, 'missing.json'))).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringContaining('--outputs-file'),
    });
  });
});

describe('npm run seed --stage <deployed stage>', () => {
  let app: Awaited<ReturnType<typeof startTestApp>>;
  const work = mkdtempSync(path.join(tmpdir(), 'vac-seed-stage-'));
  const outputsFile = path.join(work, 'cdk-outputs.json');

  beforeAll(async () => {
    // The running app's emulators stand in for the stack: the outputs name its table and bucket.
    app = await startTestApp({ backgroundWorkers: false });
    writeFileSync(outputsFile, JSON.stringify({
      'VaComplianceApi-prod': {
        BaseUrl: 'https://abc123.execute-api.us-east-1.amazonaws.com/api/',
        TableName: app.resources.tableName,
        BucketName: app.resources.bucketName,
      },
    }));
  });
  afterAll(async () => {
    await app?.stop();
    rmSync(work, { recursive: true, force: true });
  });

  /** The seed in AWS mode, its SDK clients pointed at the app's emulators as they would be at AWS. */
  const seedStage = (stage: string) => run(process.execPath, ['--import', 'tsx', path.join(ROOT, 'bin/seed.ts'), '--stage', stage, '--outputs', outputsFile], {
    cwd: ROOT,
    env: { ...process.env, APP_MODE: 'local', TABLE_NAME: 'not-this-table', BUCKET_NAME: 'not-this-bucket' },
  });

  it('writes into the table and bucket the outputs name (the library the API already holds untouched); a rerun writes nothing', async () => {
    const first = await seedStage('prod');
    expect(first.stdout).toContain(`table ${app.resources.tableName} and bucket ${app.resources.bucketName}`);
    const steps = writesByStep(first.stdout);
    // The app seeded the library when it started; the rest is new.
    expect(steps['library resources']!.written).toBe(0);
    expect(steps['operator elevation models']!.written).toBe(steps['operator elevation models']!.listed);
    expect(steps['storm events']!.written).toBeGreaterThan(0);

    // The table the outputs name holds every Florida flood-type event of the file, as the API reads them.
    const { events } = await readStormEventsFile(STORM_EVENTS);
    const stored = await new DynamoFloodEventStore(app.resources.tableName).eventsInCounties([...new Set(events.map((e) => e.location.county_fips!))]);
    expect(stored.map((e) => e.event_id).sort()).toEqual(events.map((e) => e.event_id).sort());
    expect(stored).toHaveLength(steps['storm events']!.written);
    const published = await app.request('GET', '/resources?action=stats', { key: app.keys.free });
    expect(published.json.total_resources).toBe(steps['library resources']!.listed);

    expect((await seedStage('prod')).stdout).toContain('(0 writes)');
  }, 180_000);

  it('refuses a stage the outputs do not hold, naming the stacks they hold', async () => {
    await expect(seedStage('dev')).rejects.toMatchObject({ code: 1, stderr: expect.stringContaining('VaComplianceApi-dev') });
    await expect(seedStage('dev')).rejects.toMatchObject({ stderr: expect.stringContaining('it holds: VaComplianceApi-prod') });
  }, 60_000);
});
