import path from 'node:path';
import { PutObjectCommand } from '@aws-sdk/client-s3';
import { writeArrayBuffer } from 'geotiff';
import { startTestApp } from '../helpers/local-app';
import { s3 } from '../../shared/adapters/aws-clients';
import { CogElevationSource } from '../../shared/adapters/elevation/cog-s3';
import { DynamoFloodEventStore } from '../../shared/adapters/flood-event-store';
import { S3HazardLayerStore } from '../../shared/adapters/hazard-layer-store';
import { DynamoHazardJobStore } from '../../shared/adapters/hazard-job-store';
import { harmonicTides } from '../../shared/adapters/hazard-tide-predictor';
import { SrtmTileSource } from '../../shared/adapters/elevation/srtm-tiles';
import { validateBoundary } from '../../shared/domain/hazards/boundary';
import { analyzeFlooding } from '../../shared/domain/hazards/flood-analysis';
import { cellIndexAt } from '../../shared/domain/hazards/elevation';
import { readStormEventsFile } from '../../bin/storm-events-load';

const FIXTURE = path.join(__dirname, '../../shared/data/hazards/source/StormEvents_details-ftp_v1.0_d2019_c20190617.csv.gz');
let app: Awaited<ReturnType<typeof startTestApp>>;

beforeAll(async () => { app = await startTestApp({ backgroundWorkers: false }); });
afterAll(async () => { await app?.stop(); });

describe('flood event store', () => {
  it('stores the NCEI loader output per county and queries it by county and dates', async () => {
    const { events, summary } = await readStormEventsFile(FIXTURE);
    expect(summary.rows).toBe(15447);
    const store = new DynamoFloodEventStore();
    expect(await store.putEvents(events)).toBe(events.length);
    expect(await store.putEvents(events)).toBe(events.length); // idempotent
    const counties = [...new Set(events.map((e) => e.location.county_fips!))];
    const stored = await store.eventsInCounties(counties);
    expect(stored.map((e) => e.event_id).sort()).toEqual(events.map((e) => e.event_id).sort());
    expect(await store.eventsInCounties(counties, '2019-04-01', '2019-12-31')).toEqual([]);
  });
});

describe('hazard layer store', () => {
  it('saves a layer and serves it to the analysis of a boundary it covers', async () => {
    const store = new S3HazardLayerStore();
    const polygon = { type: 'Polygon' as const, coordinates: [[[-81.81, 24.54], [-81.75, 24.54], [-81.75, 24.57], [-81.81, 24.57], [-81.81, 24.54]]] };
    await store.save({
      layer_id: 'rain-100-test', component: 'rainfall', return_period_years: 100, name: 'Test rainfall layer', source: 'integration test',
      loaded_at: '2026-01-01T00:00:00.000Z', bbox: [-81.81, 24.54, -81.75, 24.57], features: [{ geometry: polygon, wse_navd88_m: 2.5 }],
    });
    expect((await store.list()).map((l) => l.layer_id)).toContain('rain-100-test');
    expect(await store.layersFor('rainfall', [-80.2, 25.7, -80.1, 25.8])).toEqual([]);
    const validation = validateBoundary(polygon);
    if (!validation.ok) throw new Error('boundary');
    const result = await analyzeFlooding({ boundary: validation.boundary, components: ['rainfall'], scenarios: ['intermediate'], horizons: [2050], allowSurfaceModel: true }, {
      elevation: new SrtmTileSource(), layers: store, tides: harmonicTides,
      assets: [{ asset_id: 'a', name: 'A', category: null, lat: 24.555, lon: -81.78 }],
    });
    const rainfall = result.components.rainfall as { status: string; results: { return_period_years: number; exposed_assets: { count: number; assets: { water_level_navd88: { m: number } }[] } }[] };
    expect(rainfall.status).toBe('partial'); // 100-year loaded, 500-year missing
    expect(rainfall.results[0]!.return_period_years).toBe(100);
    expect(rainfall.results[0]!.exposed_assets.assets[0]?.water_level_navd88.m).toBe(2.5);
  });
});

describe('hazard job store', () => {
  it('keeps jobs per account, changes status once, and stores documents in the bucket', async () => {
    const store = new DynamoHazardJobStore();
    const now = new Date();
    const requestKey = await store.putDocument('acct-a', 'hjob_test000001', 'request', { hello: 'world' });
    await store.create({ job_id: 'hjob_test000001', account_id: 'acct-a', kind: 'flood_analysis', status: 'queued', progress: 0, created_at: now.toISOString(), updated_at: now.toISOString(), request_key: requestKey, error: null, result_key: null });
    expect(await store.get('acct-b', 'hjob_test000001')).toBeUndefined();
    expect(await store.start('acct-a', 'hjob_test000001', 0.05, now)).toBe(true);
    expect(await store.start('acct-a', 'hjob_test000001', 0.05, now)).toBe(false);
    expect((await store.get('acct-a', 'hjob_test000001'))!.status).toBe('running');
    expect(await store.getDocument(requestKey)).toEqual({ hello: 'world' });
  });
});

describe('COG elevation source (S3 range requests)', () => {
  it('reads a window of a GeoTIFF listed in dem/index.json', async () => {
    // A 20×10 grid of 0.001° cells from (-81.80, 24.56): value = column index (metres).
    const width = 20;
    const height = 10;
    const values = Array.from({ length: width * height }, (_, i) => i % width);
    const tiff = writeArrayBuffer(values, {
      width, height, ModelPixelScale: [0.001, 0.001, 0], ModelTiepoint: [0, 0, 0, -81.8, 24.56, 0], GeographicTypeGeoKey: 4326, GTModelTypeGeoKey: 2,
    }) as ArrayBuffer;
    const bucket = app.resources.bucketName;
    await s3().send(new PutObjectCommand({ Bucket: bucket, Key: 'dem/test.tif', Body: Buffer.from(tiff), ContentType: 'image/tiff' }));
    await s3().send(new PutObjectCommand({ Bucket: bucket, Key: 'dem/index.json', ContentType: 'application/json', Body: JSON.stringify({ dems: [{ key: 'dem/test.tif', bbox: [-81.8, 24.55, -81.78, 24.56], vertical_datum: 'NAVD88', name: 'test DEM' }] }) }));
    const source = new CogElevationSource(bucket);
    const grid = (await source.grid([-81.8, 24.55, -81.78, 24.56], 10_000))!;
    expect(grid.verticalDatum).toBe('NAVD88');
    expect(grid.width).toBe(20);
    expect(grid.values[cellIndexAt(grid, 24.5555, -81.7905)!]).toBe(9);
    expect(await source.grid([-80.2, 25.7, -80.1, 25.8], 10_000)).toBeUndefined();
  });

  it('mosaics a window over two adjoining DEMs and traces connection over both', async () => {
    // Two 20×10 grids of 0.001° cells side by side; each cell holds its column counted from -81.80 across both.
    const bucket = app.resources.bucketName;
    const dems = [];
    for (const [i, west] of [-81.8, -81.78].entries()) {
      const values = Array.from({ length: 200 }, (_, k) => 20 * i + (k % 20));
      const tiff = writeArrayBuffer(values, {
        width: 20, height: 10, ModelPixelScale: [0.001, 0.001, 0], ModelTiepoint: [0, 0, 0, west, 24.56, 0], GeographicTypeGeoKey: 4326, GTModelTypeGeoKey: 2,
      }) as ArrayBuffer;
      await s3().send(new PutObjectCommand({ Bucket: bucket, Key: `dem/side-${i}.tif`, Body: Buffer.from(tiff), ContentType: 'image/tiff' }));
      dems.push({ key: `dem/side-${i}.tif`, bbox: [west, 24.55, west + 0.02, 24.56], vertical_datum: 'NAVD88', name: `side ${i}` });
    }
    await s3().send(new PutObjectCommand({ Bucket: bucket, Key: 'dem/index.json', ContentType: 'application/json', Body: JSON.stringify({ dems }) }));
    const source = new CogElevationSource(bucket);
    const box: [number, number, number, number] = [-81.795, 24.551, -81.765, 24.559];
    const grid = (await source.grid(box, 10_000))!;
    for (let col = 0; col < grid.width; col++) {
      const lon = grid.west + col * grid.cellLon;
      expect(grid.values[col]).toBe(Math.floor((lon + 81.8) / 0.001));
    }
    expect(grid.west + (grid.width - 1) * grid.cellLon).toBeGreaterThan(-81.766);
    expect(source.extentAt(-81.79, 24.555)).toEqual([-81.8, 24.55, -81.76, 24.56]);
    expect(source.extentAt(-81.5, 24.555)).toBeUndefined();
  });
});
