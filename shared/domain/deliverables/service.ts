import type { MultiPolygon, Polygon } from 'geojson';
import type { BlobStore } from '../../ports';
import { sha256Hex } from '../content-hash';
import { jobFailureOf } from '../job-failure';
import type { Assessment } from '../assessments/model';
import { complianceOf } from '../assessments/model';
import type { AssessmentStore } from '../assessments/ports';
import type { AssetStore, StoredAsset } from '../assets/ports';
import type { ComplianceEvidence } from '../compliance/evidence';
import { governingOverall } from '../hazards/asset-exposure';
import { countyBoundaryByFips } from '../hazards/florida-counties';
import { heldBoundary } from '../jurisdiction-boundaries';
import { assetListXlsx } from './asset-list-xlsx';
import { sortAssets } from './asset-priority';
import { albersAreaM2, fgdcMetadata, geoPackageContent, packageReadme, shapefileZip } from './gis-package';
import { exposureSummary, ExposureTally } from './exposure-summary';
import { EMPTY_ANALYSIS_RECORD, floodAnalysisRecord } from '../hazards/analysis-record';
import { evidenceDocumentKey } from './analysis-link';
import { assetLayers, boundaryLayer, componentExtentLayer, inundationLayer, type GisLayer } from './gis-layers';
import type { ComponentExtent, InundationExtent } from '../hazards/inundation-extents';
import { DELIVERABLE_LEASE_MS, isLostForGood, isRunnable, MAX_ATTEMPTS, type DeliverableFile, type DeliverableJob, type DeliverableKind, type DeliverableRef, type DeliverableStore } from './jobs';
import { reportMaps } from './report-maps';
import type { AnalysisEvidence, GeoPackageWriter, PngRenderer } from './ports';
import { reportPdf, type ReportInput, type ScenarioRow } from './report-pdf';

export interface DeliverableDeps {
  jobs: DeliverableStore;
  assessments: Pick<AssessmentStore, 'get'>;
  assets: Pick<AssetStore, 'list'>;
  blobs: BlobStore;
  evidence: (assessment: Assessment) => Promise<ComplianceEvidence>;
  clock: () => Date;
  warn: (message: string, details: Record<string, unknown>) => void;
}

/** What builds the files, which only the worker loads (the API function never does). */
export interface DeliverableRenderers {
  geoPackage: GeoPackageWriter;
  png: PngRenderer;
}

export type DeliverableWorkerDeps = DeliverableDeps & { renderers: DeliverableRenderers };

const PUBLISHER = 'Vulnerability Assessment Compliance API';

interface BuiltFile {
  name: string;
  kind: DeliverableKind;
  contentType: string;
  content: Buffer;
}

/**
 * Runs a job once under a lease: builds every file, stores them, then records them. A failure
 * is recorded without internals; the files of a failed build are removed.
 */
export async function runDeliverableJob(deps: DeliverableWorkerDeps, ref: DeliverableRef, owner: string): Promise<void> {
  const job = await deps.jobs.claim(ref, owner, deps.clock(), DELIVERABLE_LEASE_MS);
  if (!job) return;
  const stored: string[] = [];
  try {
    const built = await buildFiles(deps, job);
    const files: DeliverableFile[] = [];
    for (const file of built) {
      const key = `deliverables/${job.account_id}/${job.assessment_id}/${job.deliverable_id}/${file.name}`;
      await deps.blobs.put(key, file.content, file.contentType);
      stored.push(key);
      files.push({ name: file.name, kind: file.kind, content_type: file.contentType, bytes: file.content.length, sha256: sha256Hex(file.content), key });
    }
    if (!(await deps.jobs.finish(job, { owner }, { files }, deps.clock()))) throw new Error('lease lost');
  } catch (error) {
    const refusal = jobFailureOf(error);
    if (!refusal) deps.warn('Deliverable job failed', { deliverable_id: job.deliverable_id, error: (error as Error).message });
    await Promise.all(stored.map((key) => deps.blobs.delete(key)));
    await deps.jobs.finish(job, { owner }, { error: refusal ?? { code: 'internal_error', detail: `The deliverables could not be generated. Quote ${job.deliverable_id} when reporting it.` } }, deps.clock());
  }
}

/** Why a job whose worker was lost on its last attempt ended `failed`. */
const lostDeliverableError = (job: DeliverableJob) => ({
  code: 'worker_lost',
  detail: `The package stopped when its worker ended unexpectedly (a crash or a timeout), on attempt ${job.lease!.attempt} of ${MAX_ATTEMPTS}; request it again, and quote ${job.deliverable_id} if it happens again.`,
});

/**
 * Runs every open job whose turn it is (the local worker's poll, the lost-job schedule in AWS); one
 * lost on its last attempt is failed. Resolves with how many were failed that way.
 */
export async function runOpenDeliverableJobs(deps: DeliverableWorkerDeps, owner: string): Promise<number> {
  const now = deps.clock();
  let failed = 0;
  for (const job of await deps.jobs.listOpen()) {
    if (isRunnable(job, now)) await runDeliverableJob(deps, job, owner);
    else if (isLostForGood(job, now)) {
      const ended = await deps.jobs.finish(job, { seen: job.lease! }, { error: lostDeliverableError(job) }, now);
      if (ended) failed++;
    }
  }
  return failed;
}

async function jurisdictionAssets(deps: DeliverableDeps, accountId: string, jurisdictionId: string): Promise<StoredAsset[]> {
  const assets: StoredAsset[] = [];
  let cursor: string | undefined;
  do {
    const page = await deps.assets.list(accountId, { jurisdictionId }, { limit: 1000, cursor });
    assets.push(...page.items);
    cursor = page.nextCursor;
  } while (cursor);
  return assets;
}

async function readJson<T>(blobs: BlobStore, key: string | null): Promise<T | undefined> {
  if (!key) return undefined;
  const body = await blobs.get(key);
  return body ? JSON.parse(body.toString('utf8')) as T : undefined;
}

async function buildFiles(deps: DeliverableWorkerDeps, job: DeliverableJob): Promise<BuiltFile[]> {
  const assessment = await deps.assessments.get(job.account_id, job.assessment_id);
  if (!assessment) throw new Error('assessment gone');
  const evidence = await deps.evidence(assessment);
  const checklist = complianceOf(assessment, evidence).dep_checklist_status;
  const analyses: AnalysisEvidence[] = evidence.analyses;
  const latest = analyses[analyses.length - 1];
  const answer = latest ? floodAnalysisRecord(await readJson<unknown>(deps.blobs, latest.result_key)) : EMPTY_ANALYSIS_RECORD;
  // Measured as the delivered layer is (EPSG:3087), so the report prints what a GIS measures in the package.
  const measured = <E extends { geometry: MultiPolygon }>(e: E): E => {
    const area = albersAreaM2(e.geometry);
    return { ...e, area_m2: area, area_km2: area / 1e6 };
  };
  const extents = (latest ? await readJson<InundationExtent[]>(deps.blobs, latest.extents_key) ?? [] : []).map(measured);
  const componentExtents = (latest ? await readJson<ComponentExtent[]>(deps.blobs, evidenceDocumentKey(job.account_id, job.assessment_id, latest.analysis_id, 'component_extents')) ?? [] : []).map(measured);
  const assets = sortAssets(await jurisdictionAssets(deps, job.account_id, assessment.jurisdiction.id), '-vulnerability_score');
  const combos = [...new Map(analyses.flatMap((a) => a.scenarios.flatMap((scenario) => a.planning_horizons.map((year) => [`${scenario}|${year}`, { scenario, planning_horizon: year }] as const)))).values()]
    .sort((a, b) => a.planning_horizon - b.planning_horizon || a.scenario.localeCompare(b.scenario));

  // The jurisdiction's own Census boundary; an id no longer known falls back on its county, named so.
  const held = heldBoundary(assessment.jurisdiction.id);
  const county = countyBoundaryByFips(assessment.jurisdiction.county_fips)!;
  const boundaryName = held || assessment.jurisdiction.type === 'county' ? assessment.jurisdiction.display_name : `${county.name} County (county of ${assessment.jurisdiction.display_name})`;
  const boundary = (held?.geometry ?? county.geometry) as Polygon | MultiPolygon;
  const layers: GisLayer[] = [
    boundaryLayer(boundaryName, boundary), ...assetLayers(assets, combos), inundationLayer(extents),
    componentExtentLayer('rainfall', componentExtents), componentExtentLayer('compound', componentExtents),
  ];
  const sources = answer.sources.map((s) => `${s.name}${s.version ? ` (${s.version})` : ''}`);
  const context = { jurisdiction: assessment.jurisdiction.display_name, publisher: PUBLISHER, generatedAt: deps.clock().toISOString(), sources };
  const metadata = new Map(layers.map((layer) => [layer.name, fgdcMetadata(layer, context)]));
  const slug = assessment.jurisdiction.display_name.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');

  const maps = await Promise.all(reportMaps({ jurisdiction: assessment.jurisdiction.display_name, boundary, assets, extents, componentExtents, sources: answer.sources })
    .map(async (drawing) => ({ drawing, png: await deps.renderers.png.render(drawing.svg) })));
  const report: ReportInput = {
    title: 'Vulnerability Assessment Report',
    jurisdiction: assessment.jurisdiction.display_name,
    generatedAt: context.generatedAt,
    assessment: {
      assessment_id: assessment.assessment_id, type: assessment.type, scope: assessment.scope, start_date: assessment.timeline.start_date, status: assessment.status,
      vertical_datum: assessment.methodology.vertical_datum ?? null, dem: assessment.methodology.dem ? `${assessment.methodology.dem.source}${assessment.methodology.dem.year ? ` (${assessment.methodology.dem.year})` : ''}` : null,
    },
    analyses,
    sources: answer.sources,
    gauges: answer.gauges.map((g) => ({
      ...g,
      rows: (answer.components.tidal ?? []).map((r): ScenarioRow => ({
        scenario: r.scenario,
        planning_horizon: r.planning_horizon,
        sea_level_rise_ft: r.sea_level_rise_ft,
        design_level_ft: r.design_level_navd88_ft,
        flood_days: r.flood_days_by_gauge.find((b) => b.noaa_id === g.noaa_id)?.days ?? null,
      })),
    })),
    datumCheck: latest?.tidal_datum_check ?? null,
    gaugeCautions: latest?.gauge_selection?.cautions ?? [],
    inventory: evidence.assets,
    exposure: exposureSummary(answer, assets.reduce((tally, asset) => { tally.add(asset); return tally; }, new ExposureTally(combos)), extents),
    assets: assets.map((a, i) => ({
      priority: i + 1, name: a.name, category: a.category, score: a.vulnerability?.vulnerability_score ?? null, level: a.vulnerability_level,
      firstExposedYear: a.vulnerability?.first_exposed_year ?? a.exposure?.first_exposed_year ?? null, maxDepthFt: a.exposure?.max_depth_ft ?? null,
      noDepthReason: a.exposure?.reason ?? null,
      governingComponent: governingOverall(a.exposure?.by_component ?? []),
    })),
    maps,
    checklist,
  };

  const geoPackageName = `${slug}-gis-epsg3087.gpkg`;
  const shapefileName = (layer: GisLayer) => `${slug}-${layer.name}-epsg3087-shp.zip`;
  return [
    { name: `${slug}-vulnerability-assessment-report.pdf`, kind: 'report_pdf', contentType: 'application/pdf', content: await reportPdf(report) },
    { name: geoPackageName, kind: 'gis_package', contentType: 'application/geopackage+sqlite3', content: await deps.renderers.geoPackage.write(geoPackageContent(layers, metadata)) },
    ...layers.filter((layer) => layer.collection.features.length > 0).map((layer): BuiltFile => ({ name: shapefileName(layer), kind: 'gis_package', contentType: 'application/zip', content: shapefileZip(layer, metadata.get(layer.name)!) })),
    { name: `${slug}-prioritized-assets.xlsx`, kind: 'asset_list_xlsx', contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', content: await assetListXlsx(layers[1]!, `Prioritized critical assets, ${assessment.jurisdiction.display_name}`) },
    { name: `${slug}-gis-readme.txt`, kind: 'gis_package', contentType: 'text/plain; charset=utf-8', content: Buffer.from(packageReadme(layers, { geoPackage: geoPackageName, shapefile: shapefileName }, context), 'utf8') },
  ];
}
