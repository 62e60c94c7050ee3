/**
 * The deliverable package of large inventories: Monroe County's assessment with a GENERATED
 * inventory of 1,000, 10,000 and 50,000 assets (BENCH_DELIVERABLES_SIZES to change them), each
 * with depths for two scenarios × two horizons, per-component depths, a vulnerability score, and
 * one in ten drawn as a small area. The package is built as the worker builds it (the real
 * renderers, the sorted spill on the local disk) from an asset store that generates each page
 * when it is read, so the process holds nothing of the inventory but what the build keeps.
 *
 * Each size runs in its own process; its time and peak RSS (the kernel's high-water mark) are
 * printed beside the anchor measured in the same run: the same package of ANCHOR_ASSETS assets,
 * the fixed part (maps, report, boundary and flood layers). Not of an empty inventory: with no
 * exposed asset the maps' insets zoom on the flooding instead, a different drawing. The growth
 * exponents say how time and the RSS above the anchor grow with the inventory between the sizes.
 */
import { execFileSync } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import type { Geometry } from 'geojson';
import type { BlobStore } from '../shared/ports';
import type { StoredAsset } from '../shared/domain/assets/ports';
import type { ComplianceEvidence } from '../shared/domain/compliance/evidence';
import {
  DELIVERABLE_LEASE_MS,
  type DeliverableFile,
  type DeliverableJob,
  type DeliverableStore,
} from '../shared/domain/deliverables/jobs';
import type { AnalysisEvidence } from '../shared/domain/deliverables/ports';
import { runDeliverableJob } from '../shared/application/deliverables/build-package';
import { packageRenderers } from '../shared/adapters/renderers/package-renderers';
import { compliantMethodology, storedAssessment } from '../test/helpers/assessment-fixtures';

const SIZES = (process.env.BENCH_DELIVERABLES_SIZES ?? '1000,10000,50000').split(',').map(Number);
const ANCHOR_ASSETS = 10;
const NOW = new Date('2026-11-23T15:00:00Z');
const COMBOS = [
  ['intermediate_low', 2046],
  ['intermediate_low', 2076],
  ['intermediate', 2046],
  ['intermediate', 2076],
] as const;
const CATEGORIES = [
  'transportation',
  'critical_infrastructure',
  'community_emergency',
  'natural_cultural_historical',
] as const;
/** Monroe County's mainland and Keys, where the generated assets lie. */
const WEST = -81.8,
  EAST = -80.4,
  SOUTH = 24.55,
  NORTH = 25.35;

interface Measure {
  assets: number;
  seconds: number;
  peakRssMb: number;
  rssBeforeMb: number;
  files: { name: string; bytes: number }[];
}

/** A repeatable uniform number in [0, 1) per asset and purpose (a hash, so no generator state is kept). */
function uniform(i: number, salt: number): number {
  let h = Math.imul(i ^ 0x9e3779b9, 0x85ebca6b) ^ Math.imul(salt, 0xc2b2ae35);
  h = Math.imul(h ^ (h >>> 13), 0x27d4eb2d);
  return ((h ^ (h >>> 15)) >>> 0) / 2 ** 32;
}

function generatedAsset(i: number): StoredAsset {
  const lon = WEST + uniform(i, 1) * (EAST - WEST);
  const lat = SOUTH + uniform(i, 2) * (NORTH - SOUTH);
  const ground = uniform(i, 3) * 3;
  const levels = [0.9, 1.2, 1.0, 1.6];
  const byComponent = COMBOS.map(([scenario, year], c) => {
    const tidal = Math.max(0, levels[c]! - ground) / 0.3048;
    const surge = Math.max(0, levels[c]! + 0.8 - ground) / 0.3048;
    const depthFt = {
      tidal: Number(tidal.toFixed(2)),
      surge: Number(surge.toFixed(2)),
      rainfall: null,
      compound: null,
    };
    return {
      scenario,
      planning_horizon: year,
      storm: null,
      depth_m: { tidal: tidal * 0.3048, surge: surge * 0.3048, rainfall: null, compound: null },
      depth_ft: depthFt,
      governing_component: surge > 0 ? ('surge' as const) : null,
    };
  });
  const depths = byComponent.map((e) => ({
    scenario: e.scenario,
    planning_horizon: e.planning_horizon,
    water_level_navd88_m: null,
    depth_m: e.depth_m.surge,
    depth_ft: e.depth_ft.surge,
    governing_component: e.governing_component,
  }));
  const maxDepth = Math.max(...depths.map((d) => d.depth_ft ?? 0));
  const score = Number((uniform(i, 4) * Math.min(1, maxDepth / 3)).toFixed(4));
  const level = score >= 0.75 ? 'very_high' : score >= 0.5 ? 'high' : score >= 0.25 ? 'moderate' : 'low';
  const d = 0.0005;
  const area: Geometry | null =
    i % 10 === 0
      ? {
          type: 'Polygon',
          coordinates: [
            [
              [lon - d, lat - d],
              [lon + d, lat - d],
              [lon + d, lat + d],
              [lon - d, lat + d],
              [lon - d, lat - d],
            ],
          ],
        }
      : null;
  return {
    asset_id: `a_${String(i).padStart(6, '0')}`,
    jurisdiction_id: 'county:12087',
    name: `Generated asset ${i}`,
    category: CATEGORIES[i % CATEGORIES.length]!,
    asset_type: null,
    source_type: 'lift station',
    classification: {
      category: null,
      asset_type: null,
      rule: 'unclassified',
      matched_field: null,
      matched_text: null,
      ruleset_version: '1',
    } as never,
    lon,
    lat,
    geometry_type: area ? 'Polygon' : 'Point',
    geometry: area,
    source_id: `SRC-${i}`,
    address: `${i} Overseas Highway`,
    city: 'Marathon',
    county: 'Monroe',
    owner: 'Monroe County',
    attributes: { facility_code: `F${i}` },
    content_hash: 'h',
    import_id: 'imp_1',
    vulnerability: {
      vulnerability_score: score,
      vulnerability_level: level,
      first_exposed_year: maxDepth > 0 ? 2046 : null,
      flood_depth_ft: maxDepth,
    } as never,
    vulnerability_level: level,
    impact_timeline: maxDepth > 0 ? 'near_term' : 'not_exposed',
    vulnerability_history: [],
    exposure: {
      analysis_id: 'fa_1',
      assessment_id: 'va_test',
      analysed_at: NOW.toISOString(),
      status: maxDepth > 0 ? 'exposed' : 'not_exposed',
      ground_elevation_navd88_m: ground,
      ground_source: 'srtm',
      components: ['tidal', 'surge'],
      depths,
      by_component: byComponent,
      first_exposed_year: maxDepth > 0 ? 2046 : null,
      max_depth_ft: maxDepth,
      ...(maxDepth > 0 ? {} : { reason: 'above_water_level' as const }),
    } as never,
    version: 1,
    created_at: NOW.toISOString(),
    updated_at: NOW.toISOString(),
  };
}

const ANALYSIS: AnalysisEvidence = {
  analysis_id: 'fa_1',
  assessment_id: 'va_test',
  analysed_at: NOW.toISOString(),
  boundary: { source: 'jurisdiction', jurisdiction_id: 'county:12087', area_km2: 3895, counties: ['Monroe'] },
  components: [
    { component: 'tidal', status: 'ok' },
    { component: 'surge', status: 'ok' },
  ],
  scenarios: ['intermediate_low', 'intermediate'],
  planning_horizons: [2046, 2076],
  elevation: { status: 'ok', source_name: 'SRTM', native_resolution: '30 m', cell_size_m: 30 },
  gauges: ['8724580'],
  assets_inside: 0,
  assets_applied: 0,
  result_key: 'evidence/result.json',
  extents_key: 'evidence/extents.json',
};

const ANSWER = {
  sources: [{ name: 'NOAA 2022 Technical Report', version: 'TR NOS 01' }],
  gauge_selection: { gauges: [{ noaa_id: '8724580', name: 'Key West', weight: 1 }] },
  components: {
    tidal: {
      results: COMBOS.map(([scenario, planning_horizon], c) => ({
        scenario,
        planning_horizon,
        design_water_level_navd88: { m: [0.9, 1.2, 1.0, 1.6][c], ft: 3 },
        exposed_area: { km2: 10 + c },
      })),
    },
    surge: {
      results: COMBOS.map(([scenario, planning_horizon], c) => ({
        scenario,
        planning_horizon,
        return_period_years: 100,
        design_water_level_navd88: { m: [1.7, 2.0, 1.8, 2.4][c] },
        exposed_area: { km2: 50 + c },
      })),
    },
  },
  elevation: { cell_size_m: 30 },
};

/** One inundation extent per pair: a box in the Keys, larger for the higher water. */
const EXTENTS = COMBOS.map(([scenario, planning_horizon], c) => {
  const [w, s, e, n] = [-81.2 - 0.05 * c, 24.65, -80.9, 24.75 + 0.02 * c];
  return {
    scenario,
    planning_horizon,
    components: ['surge', 'tidal'],
    area_km2: 0,
    area_m2: 0,
    geometry: {
      type: 'MultiPolygon',
      coordinates: [
        [
          [
            [w, s],
            [e, s],
            [e, n],
            [w, n],
            [w, s],
          ],
        ],
      ],
    },
  };
});

async function packageOf(count: number): Promise<Measure> {
  const objects = new Map<string, Buffer>();
  const blobs: BlobStore = {
    async put(key, body) {
      objects.set(key, Buffer.from(body));
    },
    async get(key) {
      return objects.get(key);
    },
    async exists(key) {
      return objects.has(key);
    },
    async delete(key) {
      objects.delete(key);
    },
    async deleteMany(keys) {
      for (const key of keys) objects.delete(key);
    },
    async signedGetUrl(key) {
      return key;
    },
    async signedPutUrl(key) {
      return key;
    },
  };
  objects.set(ANALYSIS.result_key, Buffer.from(JSON.stringify(ANSWER)));
  objects.set(ANALYSIS.extents_key!, Buffer.from(JSON.stringify(EXTENTS)));
  const job: DeliverableJob = {
    deliverable_id: 'dlv_bench',
    assessment_id: 'va_test',
    account_id: 'acct_1',
    status: 'running',
    created_at: NOW.toISOString(),
    updated_at: NOW.toISOString(),
    error: null,
    files: [],
    lease: { owner: 'bench', expires_at: new Date(NOW.getTime() + DELIVERABLE_LEASE_MS).toISOString(), attempt: 1 },
  };
  let outcome: unknown;
  const jobs: DeliverableStore = {
    async open(j) {
      return j;
    },
    async get() {
      return job;
    },
    async listOpen() {
      return [];
    },
    async claim() {
      return job;
    },
    async finish(_ref, _holder, ended) {
      outcome = ended;
      return true;
    },
  };
  const byCategory = Object.fromEntries(
    CATEGORIES.map((c, k) => [c, Math.floor(count / CATEGORIES.length) + (k < count % CATEGORIES.length ? 1 : 0)]),
  );
  const evidence: ComplianceEvidence = {
    jurisdiction_id: 'county:12087',
    jurisdiction_name: 'Monroe County',
    assets: { total: count, by_category: byCategory },
    analyses: [ANALYSIS],
  };
  const rssBeforeMb = process.memoryUsage().rss / 2 ** 20;
  const started = performance.now();
  await runDeliverableJob(
    {
      jobs,
      blobs,
      clock: () => NOW,
      warn: (message, details) => console.error(message, details),
      renderers: packageRenderers(),
      assessments: { get: async () => storedAssessment({ methodology: compliantMethodology('2024', 2026) as never }) },
      // Each page generated when it is read: the store holds no inventory.
      assets: {
        list: async (_account, _filter, page) => {
          const start = page.cursor ? Number(page.cursor) : 0;
          const end = Math.min(start + page.limit, count);
          return {
            items: Array.from({ length: end - start }, (_, k) => generatedAsset(start + k)),
            nextCursor: end < count ? String(end) : undefined,
          };
        },
      },
      evidence: async () => evidence,
    },
    job,
    'bench',
  );
  const seconds = (performance.now() - started) / 1000;
  const ended = outcome as { files?: DeliverableFile[]; error?: { code: string; detail: string } };
  if (!ended?.files) throw new Error(`the package failed: ${JSON.stringify(ended?.error)}`);
  return {
    assets: count,
    seconds,
    peakRssMb: process.resourceUsage().maxRSS / 1024,
    rssBeforeMb,
    files: ended.files.map((f) => ({ name: f.name, bytes: f.bytes })),
  };
}

/** Runs one size in a fresh process, so each peak RSS is its own. */
function measured(count: number): Measure {
  const output = execFileSync(process.execPath, ['--import', 'tsx', __filename, '--assets', String(count)], {
    encoding: 'utf8',
    maxBuffer: 1 << 24,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return JSON.parse(output.trim().split('\n').pop()!) as Measure;
}

const exponent = (a: number, b: number, na: number, nb: number) =>
  a > 0 && b > 0 ? (Math.log(b / a) / Math.log(nb / na)).toFixed(2) : '—';
const mb = (bytes: number) => (bytes / 2 ** 20).toFixed(1);

function main(): void {
  const anchor = measured(ANCHOR_ASSETS);
  const runs = SIZES.map(measured);
  console.log(
    `anchor: the package of ${ANCHOR_ASSETS} assets, ${anchor.seconds.toFixed(1)} s, peak RSS ${anchor.peakRssMb.toFixed(0)} MB`,
  );
  console.log('');
  console.log(
    'assets   time s  over anchor s  peak RSS MB  over anchor MB  workbook MB  GeoPackage MB  assets .shp.zip MB  report MB',
  );
  for (const run of runs) {
    const size = (suffix: string) => mb(run.files.find((f) => f.name.endsWith(suffix))?.bytes ?? 0);
    console.log(
      [
        String(run.assets).padStart(6),
        run.seconds.toFixed(1).padStart(7),
        (run.seconds - anchor.seconds).toFixed(1).padStart(14),
        run.peakRssMb.toFixed(0).padStart(12),
        (run.peakRssMb - anchor.peakRssMb).toFixed(0).padStart(15),
        size('.xlsx').padStart(12),
        size('.gpkg').padStart(14),
        size('-assets-epsg3087-shp.zip').padStart(19),
        size('.pdf').padStart(10),
      ].join(' '),
    );
  }
  for (let k = 1; k < runs.length; k++) {
    const [a, b] = [runs[k - 1]!, runs[k]!];
    console.log(
      `growth ${a.assets} → ${b.assets} assets: time over anchor ∝ N^${exponent(a.seconds - anchor.seconds, b.seconds - anchor.seconds, a.assets, b.assets)}, RSS over anchor ∝ N^${exponent(a.peakRssMb - anchor.peakRssMb, b.peakRssMb - anchor.peakRssMb, a.assets, b.assets)}`,
    );
  }
}

const at = process.argv.indexOf('--assets');
if (at > 0) {
  packageOf(Number(process.argv[at + 1])).then(
    (m) => console.log(JSON.stringify(m)),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
} else {
  main();
}
