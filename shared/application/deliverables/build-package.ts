import type { Feature, MultiPolygon, Polygon } from 'geojson';
import type { BlobStore } from '../../ports';
import { sha256Hex } from '../../domain/content-hash';
import { jobFailureOf } from '../../domain/job-failure';
import type { Assessment } from '../../domain/assessments/model';
import { complianceOf } from '../../domain/assessments/model';
import type { AssessmentStore } from '../../domain/assessments/ports';
import type { AssetStore, StoredAsset } from '../../domain/assets/ports';
import type { ComplianceEvidence } from '../../domain/compliance/evidence';
import { EMPTY_ANALYSIS_RECORD, floodAnalysisRecord } from '../../domain/hazards/analysis-record';
import { governingOverall } from '../../domain/hazards/asset-exposure';
import { countyBoundaryByFips } from '../../domain/hazards/florida-counties';
import type { ComponentExtent, InundationExtent } from '../../domain/hazards/inundation-extents';
import { heldBoundary } from '../../domain/jurisdiction-boundaries';
import { evidenceDocumentKey } from '../../domain/deliverables/analysis-link';
import { assetListRow, assetListSheet } from '../../domain/deliverables/asset-list';
import { assetOrder } from '../../domain/deliverables/asset-priority';
import { exposureSummary, ExposureTally } from '../../domain/deliverables/exposure-summary';
import {
  assetFootprint,
  assetLayerHeads,
  assetProperties,
  boundaryLayer,
  componentExtentLayer,
  footprintLayer,
  inundationLayer,
  type AssetColumns,
  type GisLayer,
  type GisLayerHead,
} from '../../domain/deliverables/gis-layers';
import {
  albersAreaM2,
  AssetLayerOutlines,
  fgdcMetadata,
  GEOPACKAGE_SRS,
  geoPackageTable,
  outlineOf,
  packageReadme,
  projectFeature,
  shapefileLayer,
  type LayerOutline,
} from '../../domain/deliverables/gis-package';
import {
  DELIVERABLE_LEASE_MS,
  type DeliverableFile,
  type DeliverableJob,
  type DeliverableKind,
  type DeliverableRef,
  type DeliverableStore,
} from '../../domain/deliverables/jobs';
import type { AnalysisEvidence, ProjectedFeature } from '../../domain/deliverables/ports';
import { countPriority, emptyPriorityCounts, REPORT_LISTED_ASSETS } from '../../domain/deliverables/priority-counts';
import {
  PUBLISHER,
  reportDocument,
  type ReportAsset,
  type ReportInput,
  type ReportMap,
  type ScenarioRow,
} from '../../domain/deliverables/report-document';
import { drawReportMap, ReportMapDots, reportMapSpecs } from '../../domain/deliverables/report-maps';
import type { FeatureSink, PackageRenderers, ShapefileBuilder, SortedSpill } from './ports';

export interface DeliverableDeps {
  jobs: DeliverableStore;
  assessments: Pick<AssessmentStore, 'get'>;
  assets: Pick<AssetStore, 'list'>;
  blobs: BlobStore;
  evidence: (assessment: Assessment) => Promise<ComplianceEvidence>;
  clock: () => Date;
  warn: (message: string, details: Record<string, unknown>) => void;
}

export type DeliverableWorkerDeps = DeliverableDeps & { renderers: PackageRenderers };

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
export async function runDeliverableJob(
  deps: DeliverableWorkerDeps,
  ref: DeliverableRef,
  owner: string,
): Promise<void> {
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
      files.push({
        name: file.name,
        kind: file.kind,
        content_type: file.contentType,
        bytes: file.content.length,
        sha256: sha256Hex(file.content),
        key,
      });
    }
    if (!(await deps.jobs.finish(job, { owner }, { files }, deps.clock()))) throw new Error('lease lost');
  } catch (error) {
    const refusal = jobFailureOf(error);
    if (!refusal)
      deps.warn('Deliverable job failed', { deliverable_id: job.deliverable_id, error: (error as Error).message });
    await Promise.all(stored.map((key) => deps.blobs.delete(key)));
    await deps.jobs.finish(
      job,
      { owner },
      {
        error: refusal ?? {
          code: 'internal_error',
          detail: `The deliverables could not be generated. Quote ${job.deliverable_id} when reporting it.`,
        },
      },
      deps.clock(),
    );
  }
}

async function readJson<T>(blobs: BlobStore, key: string | null): Promise<T | undefined> {
  if (!key) return undefined;
  const body = await blobs.get(key);
  return body ? (JSON.parse(body.toString('utf8')) as T) : undefined;
}

/** Assets read at a time. */
const ASSET_PAGE = 1000;
/** Assets sorted in memory at a time, then spilled as one run. */
const SORT_RUN = 5000;

/** Reads the jurisdiction's inventory page by page: each asset is shown to `visit` and spilled to be sorted. */
async function readInventory(
  deps: DeliverableDeps,
  accountId: string,
  jurisdictionId: string,
  spill: SortedSpill<StoredAsset>,
  visit: (asset: StoredAsset) => void,
): Promise<void> {
  let run: StoredAsset[] = [];
  let cursor: string | undefined;
  do {
    const page = await deps.assets.list(accountId, { jurisdictionId }, { limit: ASSET_PAGE, cursor });
    for (const asset of page.items) {
      visit(asset);
      run.push(asset);
    }
    if (run.length >= SORT_RUN) {
      await spill.add(run);
      run = [];
    }
    cursor = page.nextCursor;
  } while (cursor);
  if (run.length > 0) await spill.add(run);
}

const reportAsset = (a: StoredAsset, priority: number): ReportAsset => ({
  priority,
  name: a.name,
  category: a.category,
  score: a.vulnerability?.vulnerability_score ?? null,
  level: a.vulnerability_level,
  firstExposedYear: a.vulnerability?.first_exposed_year ?? a.exposure?.first_exposed_year ?? null,
  maxDepthFt: a.exposure?.max_depth_ft ?? null,
  noDepthReason: a.exposure?.reason ?? null,
  governingComponent: governingOverall(a.exposure?.by_component ?? []),
});

const projected = (feature: Feature, esriRings: boolean): ProjectedFeature => {
  const { geometry, properties } = projectFeature(feature, esriRings);
  return { geometry, properties: properties ?? {} };
};

/**
 * Builds the package from the inventory in two passes, never holding it: the first reads the pages
 * (counting, placing map dots, learning the layers' extents) and spills them in sorted runs; the
 * second takes the assets back in priority order and writes each one's row to the GeoPackage, the
 * Shapefiles and the workbook, keeping the head of the list for the report.
 */
async function buildFiles(deps: DeliverableWorkerDeps, job: DeliverableJob): Promise<BuiltFile[]> {
  const assessment = await deps.assessments.get(job.account_id, job.assessment_id);
  if (!assessment) throw new Error('assessment gone');
  const evidence = await deps.evidence(assessment);
  const checklist = complianceOf(assessment, evidence).dep_checklist_status;
  const analyses: AnalysisEvidence[] = evidence.analyses;
  const latest = analyses[analyses.length - 1];
  const answer = latest
    ? floodAnalysisRecord(await readJson<unknown>(deps.blobs, latest.result_key))
    : EMPTY_ANALYSIS_RECORD;
  // Measured as the delivered layer is (EPSG:3087), so the report prints what a GIS measures in the package.
  const measured = <E extends { geometry: MultiPolygon }>(e: E): E => {
    const area = albersAreaM2(e.geometry);
    return { ...e, area_m2: area, area_km2: area / 1e6 };
  };
  const extents = (latest ? ((await readJson<InundationExtent[]>(deps.blobs, latest.extents_key)) ?? []) : []).map(
    measured,
  );
  const componentExtents = (
    latest
      ? ((await readJson<ComponentExtent[]>(
          deps.blobs,
          evidenceDocumentKey(job.account_id, job.assessment_id, latest.analysis_id, 'component_extents'),
        )) ?? [])
      : []
  ).map(measured);
  const combos = [
    ...new Map(
      analyses.flatMap((a) =>
        a.scenarios.flatMap((scenario) =>
          a.planning_horizons.map((year) => [`${scenario}|${year}`, { scenario, planning_horizon: year }] as const),
        ),
      ),
    ).values(),
  ].sort((a, b) => a.planning_horizon - b.planning_horizon || a.scenario.localeCompare(b.scenario));
  const jurisdiction = assessment.jurisdiction.display_name;

  // The jurisdiction's own Census boundary; an id no longer known falls back on its county, named so.
  const held = heldBoundary(assessment.jurisdiction.id);
  const county = countyBoundaryByFips(assessment.jurisdiction.county_fips)!;
  const boundaryName =
    held || assessment.jurisdiction.type === 'county'
      ? jurisdiction
      : `${county.name} County (county of ${jurisdiction})`;
  const boundary = (held?.geometry ?? county.geometry) as Polygon | MultiPolygon;

  const spill = await deps.renderers.sorter.open<StoredAsset>(assetOrder('-vulnerability_score'));
  try {
    const tally = new ExposureTally(combos);
    const dots = new ReportMapDots(
      reportMapSpecs({ jurisdiction, extents, componentExtents, sources: answer.sources }),
    );
    const priorities = emptyPriorityCounts();
    const assetOutlines = new AssetLayerOutlines();
    await readInventory(deps, job.account_id, assessment.jurisdiction.id, spill, (asset) => {
      tally.add(asset);
      dots.add(asset);
      countPriority(priorities, asset);
      assetOutlines.add(asset);
    });

    const columns: AssetColumns = { combos, withComponents: assetOutlines.withComponents };
    const assetHeads = assetLayerHeads(columns);
    const layers: (GisLayer | LayerOutline)[] = [
      boundaryLayer(boundaryName, boundary),
      ...assetOutlines.outlines(assetHeads),
      inundationLayer(extents),
      componentExtentLayer('rainfall', componentExtents),
      componentExtentLayer('compound', componentExtents),
    ];
    const sources = answer.sources.map((s) => `${s.name}${s.version ? ` (${s.version})` : ''}`);
    const context = { jurisdiction, publisher: PUBLISHER, generatedAt: deps.clock().toISOString(), sources };
    const slug = jurisdiction
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '');
    const geoPackageName = `${slug}-gis-epsg3087.gpkg`;
    const workbookName = `${slug}-prioritized-assets.xlsx`;
    const shapefileName = (layer: GisLayerHead) => `${slug}-${layer.name}-epsg3087-shp.zip`;

    const geoPackage = await deps.renderers.geoPackage.open(GEOPACKAGE_SRS);
    const tables = new Map<string, FeatureSink>();
    const shapefiles = new Map<string, ShapefileBuilder>();
    for (const layer of layers) {
      const metadata = fgdcMetadata(layer, context);
      tables.set(layer.name, geoPackage.table(geoPackageTable(layer, metadata)));
      if (outlineOf(layer).features > 0)
        shapefiles.set(layer.name, deps.renderers.shapefile.open(shapefileLayer(layer, metadata)));
    }
    const write = (layer: string, feature: Feature) => {
      tables.get(layer)!.add(projected(feature, false));
      shapefiles.get(layer)?.add(projected(feature, true));
    };
    for (const layer of layers)
      if ('collection' in layer) layer.collection.features.forEach((feature) => write(layer.name, feature));

    const workbook = await deps.renderers.workbook.open(
      assetListSheet(assetHeads.assets, `Prioritized critical assets, ${jurisdiction}`),
    );
    const listed: ReportAsset[] = [];
    let priority = 0;
    for await (const asset of spill.sorted()) {
      priority++;
      const properties = assetProperties(asset, priority, columns);
      write('assets', {
        type: 'Feature',
        geometry: { type: 'Point', coordinates: [asset.lon, asset.lat] },
        properties,
      });
      const footprint = assetFootprint(asset);
      if (footprint) write(footprintLayer(footprint), { type: 'Feature', geometry: footprint, properties });
      workbook.addRow(assetListRow(properties, asset.lon, asset.lat));
      if (priority <= REPORT_LISTED_ASSETS) listed.push(reportAsset(asset, priority));
    }

    // The layer files are closed before the maps are drawn: their writers' rows are let go before the
    // rasteriser's memory grows, so the two never add up.
    const geoPackageFile: BuiltFile = {
      name: geoPackageName,
      kind: 'gis_package',
      contentType: 'application/geopackage+sqlite3',
      content: await geoPackage.finish(),
    };
    const shapefileFiles = layers
      .filter((layer) => shapefiles.has(layer.name))
      .map((layer): BuiltFile => ({
        name: shapefileName(layer),
        kind: 'gis_package',
        contentType: 'application/zip',
        content: shapefiles.get(layer.name)!.finish(),
      }));
    shapefiles.clear();
    tables.clear();
    const workbookFile: BuiltFile = {
      name: workbookName,
      kind: 'asset_list_xlsx',
      contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      content: await workbook.finish(),
    };

    // One map at a time: each holds a dot per asset while it is drawn.
    const maps: ReportMap[] = [];
    for (const [i, spec] of dots.specs.entries()) {
      const drawing = drawReportMap(spec, { jurisdiction, boundary }, dots.dots(i));
      maps.push({ drawing, png: await deps.renderers.png.render(drawing.svg) });
    }
    const report: ReportInput = {
      title: 'Vulnerability Assessment Report',
      jurisdiction,
      generatedAt: context.generatedAt,
      assessment: {
        assessment_id: assessment.assessment_id,
        type: assessment.type,
        scope: assessment.scope,
        start_date: assessment.timeline.start_date,
        status: assessment.status,
        vertical_datum: assessment.methodology.vertical_datum ?? null,
        dem: assessment.methodology.dem
          ? `${assessment.methodology.dem.source}${assessment.methodology.dem.year ? ` (${assessment.methodology.dem.year})` : ''}`
          : null,
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
      exposure: exposureSummary(answer, tally, extents),
      assets: listed,
      priorities,
      fullListFiles: { workbook: workbookName, geoPackage: geoPackageName },
      maps,
      checklist,
    };

    return [
      {
        name: `${slug}-vulnerability-assessment-report.pdf`,
        kind: 'report_pdf',
        contentType: 'application/pdf',
        content: await deps.renderers.report.render(reportDocument(report)),
      },
      geoPackageFile,
      ...shapefileFiles,
      workbookFile,
      {
        name: `${slug}-gis-readme.txt`,
        kind: 'gis_package',
        contentType: 'text/plain; charset=utf-8',
        content: Buffer.from(
          packageReadme(layers, { geoPackage: geoPackageName, shapefile: shapefileName }, context),
          'utf8',
        ),
      },
    ];
  } finally {
    await spill.dispose();
  }
}
