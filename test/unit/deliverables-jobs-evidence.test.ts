import type { Polygon } from 'geojson';
import booleanPointInPolygon from '@turf/boolean-point-in-polygon';
import type { BlobStore } from '../../shared/ports';
import type { Assessment } from '../../shared/domain/assessments/model';
import { analysisTarget, evidenceDocumentKey, evidenceOf, requireLinkableAssessment, runLinkedAnalysis, type AnalysisLinkDeps } from '../../shared/domain/deliverables/analysis-link';
import { DELIVERABLE_LEASE_MS, isLostForGood, isRunnable, MAX_ATTEMPTS, type DeliverableJob, type DeliverableStore } from '../../shared/domain/deliverables/jobs';
import { deliverableView, SIGNED_URL_SECONDS, startDeliverables } from '../../shared/application/deliverables/deliverable-requests';
import { packageRenderers } from '../../shared/adapters/renderers/package-renderers';
import { runDeliverableJob, type DeliverableWorkerDeps } from '../../shared/application/deliverables/build-package';
import { deliverableJobs } from '../../shared/application/deliverables/deliverable-jobs';
import { sweepLapsedJobs } from '../../shared/application/jobs/sweep';
import type { AnalysisEvidence } from '../../shared/domain/deliverables/ports';
import type { AnalysedSurfaces, AssetSite } from '../../shared/domain/hazards/flood-analysis';
import type { ExposureChange, StoredAsset } from '../../shared/domain/assets/ports';

/**
 * The deliverable job's life (queued, leased, taken over, failed for good), the API's view of it,
 * and what a linked flood analysis records as an assessment's evidence. The builder's files are
 * exercised end to end (test/e2e/deliverables.test.ts); here, the paths around it.
 */

const NOW = new Date('2026-11-23T15:00:00Z');
const iso = (msFromNow: number) => new Date(NOW.getTime() + msFromNow).toISOString();

function job(overrides: Partial<DeliverableJob> = {}): DeliverableJob {
  return {
    deliverable_id: 'dlv_1', assessment_id: 'asm_1', account_id: 'acct_1', status: 'queued', created_at: iso(-60_000), updated_at: iso(-60_000),
    error: null, files: [], lease: null, ...overrides,
  };
}

function memoryBlobs() {
  const objects = new Map<string, { body: string; type: string }>();
  const blobs: BlobStore = {
    async put(key, body, type) { objects.set(key, { body: body.toString(), type }); },
    async get(key) { const o = objects.get(key); return o ? Buffer.from(o.body) : undefined; },
    async exists(key) { return objects.has(key); },
    async delete(key) { objects.delete(key); },
    async deleteMany(keys) { for (const key of keys) objects.delete(key); },
    async signedGetUrl(key, seconds, name) { return `https://blobs.test/${key}?expires=${seconds}&name=${name}`; },
    async signedPutUrl(key) { return `https://blobs.test/${key}`; },
  };
  return { blobs, objects };
}

describe('deliverable job leases', () => {
  it('runs a queued job, and a running one only once its lease has expired with attempts left', () => {
    expect(DELIVERABLE_LEASE_MS).toBe(600_000);
    expect(MAX_ATTEMPTS).toBe(3);
    expect(isRunnable(job(), NOW)).toBe(true);
    const running = (expiresIn: number, attempt: number) => job({ status: 'running', lease: { owner: 'w1', expires_at: iso(expiresIn), attempt } });
    expect(isRunnable(running(1000, 1), NOW)).toBe(false);
    expect(isRunnable(running(-1, 1), NOW)).toBe(true);
    expect(isRunnable(running(-1, 2), NOW)).toBe(true);
    expect(isRunnable(running(-1, 3), NOW)).toBe(false);
    expect(isLostForGood(running(-1, 3), NOW)).toBe(true);
    expect(isLostForGood(running(-1, 2), NOW)).toBe(false);
    expect(isLostForGood(running(1000, 3), NOW)).toBe(false);
    for (const status of ['succeeded', 'failed'] as const) {
      expect(isRunnable(job({ status, lease: { owner: 'w1', expires_at: iso(-1), attempt: 1 } }), NOW)).toBe(false);
      expect(isLostForGood(job({ status, lease: { owner: 'w1', expires_at: iso(-1), attempt: 3 } }), NOW)).toBe(false);
    }
  });

  function workerDeps(open: DeliverableJob[], claimed: DeliverableJob | undefined) {
    const finished: unknown[][] = [];
    const warnings: unknown[][] = [];
    const claims: unknown[][] = [];
    const { blobs, objects } = memoryBlobs();
    const jobs: DeliverableStore = {
      async open(j) { return j; }, async get() { return undefined; },
      async claim(ref, owner, now, leaseMs) { claims.push([ref.deliverable_id, owner, now.toISOString(), leaseMs]); return claimed; },
      async finish(ref, owner, outcome) { finished.push([ref.deliverable_id, owner, outcome]); return true; },
      async listOpen() { return open; },
    };
    const deps: DeliverableWorkerDeps = {
      jobs, blobs, clock: () => NOW, warn: (m, d) => warnings.push([m, d]),
      renderers: packageRenderers(),
      assessments: { get: async () => undefined }, assets: { list: async () => ({ items: [], nextCursor: undefined }) },
      evidence: async () => { throw new Error('not reached'); },
    };
    return { deps, finished, warnings, claims, objects };
  }

  it('fails a job lost on its last attempt with a message quoting its id, and runs the runnable ones', async () => {
    const lost = job({ deliverable_id: 'dlv_lost', status: 'running', lease: { owner: 'w-dead', expires_at: iso(-1), attempt: 3 } });
    const busy = job({ deliverable_id: 'dlv_busy', status: 'running', lease: { owner: 'w2', expires_at: iso(60_000), attempt: 1 } });
    const queued = job({ deliverable_id: 'dlv_q' });
    const w = workerDeps([lost, busy, queued], undefined);
    const starts: unknown[] = [];
    expect((await sweepLapsedJobs([deliverableJobs(w.deps.jobs)], { start: async (s) => { starts.push(s); } }, NOW)).deliverable).toEqual({ retried: 0, failed: 1, restarted: 0 });
    expect(starts).toEqual([]);
    for (const open of [busy, queued].filter((j) => isRunnable(j, NOW))) await runDeliverableJob(w.deps, open, 'w-me');
    expect(w.finished).toEqual([['dlv_lost', { seen: lost.lease }, { error: { code: 'worker_lost', detail: 'The package stopped when its worker ended unexpectedly (a crash or a timeout), on attempt 3 of 3; request it again, and quote dlv_lost if it happens again.' } }]]);
    // Only the queued job is claimed (and another worker took it first: nothing more happens).
    expect(w.claims).toEqual([['dlv_q', 'w-me', NOW.toISOString(), DELIVERABLE_LEASE_MS]]);
  });

  it('records a failed build without internals and stores no file', async () => {
    const queued = job();
    const w = workerDeps([queued], { ...queued, status: 'running', lease: { owner: 'w-me', expires_at: iso(DELIVERABLE_LEASE_MS), attempt: 1 } });
    await runDeliverableJob(w.deps, queued, 'w-me');
    expect(w.warnings).toEqual([['Deliverable job failed', { deliverable_id: 'dlv_1', error: 'assessment gone' }]]);
    expect(w.finished).toEqual([['dlv_1', { owner: 'w-me' }, { error: { code: 'internal_error', detail: 'The deliverables could not be generated. Quote dlv_1 when reporting it.' } }]]);
    expect(w.objects.size).toBe(0);
  });
});

describe('deliverable requests', () => {
  it('queues a job for an assessment of the account under its version, and 404s any other', async () => {
    const created: DeliverableJob[] = [];
    const opened: string[] = [];
    const deps = {
      jobs: { open: async (j: DeliverableJob, inputs: string) => { created.push(j); opened.push(inputs); return j; }, get: async () => undefined },
      assessments: { get: async (account: string, id: string) => (account === 'acct_1' && id === 'asm_1' ? ({ version: 7 } as Assessment) : undefined) },
      blobs: memoryBlobs().blobs,
      clock: () => NOW,
    };
    const queued = await startDeliverables(deps, 'acct_1', 'asm_1');
    expect(queued).toEqual({ ...job(), deliverable_id: queued.deliverable_id, created_at: NOW.toISOString(), updated_at: NOW.toISOString() });
    expect(queued.deliverable_id).toMatch(/^dlv_[A-Za-z0-9_-]{16}$/);
    expect(created).toEqual([queued]);
    expect(opened).toEqual(['version:7']);
    await expect(startDeliverables(deps, 'acct_2', 'asm_1')).rejects.toMatchObject({ kind: 'not_found', message: 'No assessment asm_1 in this account.' });
    await expect(deliverableView(deps, job())).rejects.toMatchObject({ kind: 'not_found', message: 'No deliverable dlv_1 of assessment asm_1 in this account.' });
  });

  it('shows the files behind signed URLs valid 15 minutes, under their own names', async () => {
    const file = { name: 'monroe-report.pdf', kind: 'report_pdf' as const, content_type: 'application/pdf', bytes: 1234, sha256: 'ab'.repeat(32), key: 'deliverables/acct_1/asm_1/dlv_1/monroe-report.pdf' };
    const done = job({ status: 'succeeded', files: [file] });
    const view = await deliverableView({ jobs: { open: async (j) => j, get: async () => done }, blobs: memoryBlobs().blobs, clock: () => NOW }, done);
    expect(SIGNED_URL_SECONDS).toBe(900);
    expect(view).toEqual({
      deliverable_id: 'dlv_1', assessment_id: 'asm_1', status: 'succeeded', created_at: done.created_at, updated_at: done.updated_at, error: null,
      files: [{ name: file.name, kind: 'report_pdf', content_type: 'application/pdf', bytes: 1234, sha256: file.sha256, url: `https://blobs.test/${file.key}?expires=900&name=monroe-report.pdf`, url_expires_at: '2026-11-23T15:15:00.000Z' }],
    });
  });
});

describe('a flood analysis as assessment evidence', () => {
  const answer = {
    boundary: { area: { km2: 2580.5 }, counties: [{ name: 'Monroe', fips: '12087' }, { fips: '12086' }, {}] },
    scenarios: ['intermediate_low', 'intermediate'],
    planning_horizons: [2050, 2080],
    components: { tidal: { status: 'ok' }, surge: { status: 'partial' }, rainfall: {} },
    elevation: { status: 'ok', source: { name: 'USGS 3DEP', native_resolution: '1 m' }, cell_size_m: 30 },
    gauge_selection: { method: 'nearest', reason: 'within 50 km', gauges: [{ noaa_id: '8724580' }, {}] },
    assets: { inside_boundary: 42 },
  };
  const meta = { analysisId: 'fa_1', assessmentId: 'asm_1', analysedAt: NOW.toISOString(), applied: null, resultKey: 'r', extentsKey: null };

  it('summarises what the analysis ran and found', () => {
    const evidence = evidenceOf(answer, { ...meta, link: { boundary_source: 'jurisdiction', jurisdiction_id: 'county:12087' }, applied: { assets_written: 40, exposed: 10, not_exposed: 30, unknown_elevation: 0, existing_water: 0 } });
    expect(evidence).toEqual<AnalysisEvidence>({
      analysis_id: 'fa_1', assessment_id: 'asm_1', analysed_at: NOW.toISOString(),
      boundary: { source: 'jurisdiction', jurisdiction_id: 'county:12087', area_km2: 2580.5, counties: ['Monroe', '12086'] },
      components: [{ component: 'tidal', status: 'ok' }, { component: 'surge', status: 'partial' }, { component: 'rainfall', status: 'unknown' }],
      scenarios: ['intermediate_low', 'intermediate'], planning_horizons: [2050, 2080],
      elevation: { status: 'ok', source_name: 'USGS 3DEP', native_resolution: '1 m', cell_size_m: 30 },
      gauges: ['8724580'], gauge_selection: { method: 'nearest', reason: 'within 50 km' },
      assets_inside: 42, assets_applied: 40, result_key: 'r', extents_key: null,
    });
  });

  it('reads an answer without those sections as unknowns and empties', () => {
    expect(evidenceOf({ boundary: { counties: ['Monroe', ''] }, gauge_selection: { method: 'single_gauge' } }, { ...meta, link: { boundary_source: 'boundary_geojson', jurisdiction_id: null } })).toEqual({
      analysis_id: 'fa_1', assessment_id: 'asm_1', analysed_at: NOW.toISOString(),
      boundary: { source: 'boundary_geojson', jurisdiction_id: null, area_km2: null, counties: ['Monroe'] },
      components: [], scenarios: [], planning_horizons: [],
      elevation: { status: 'unknown', source_name: null, native_resolution: null, cell_size_m: null },
      gauges: [], gauge_selection: { method: 'single_gauge', reason: '' }, assets_inside: 0, assets_applied: null, result_key: 'r', extents_key: null,
    });
  });

  it('takes a county or a municipality by id or name, or a drawn polygon; an official boundary wins', () => {
    const county = analysisTarget({ jurisdiction: 'county:12087', assessment_id: 'asm_1' });
    expect(county.link).toEqual({ assessment_id: 'asm_1', apply_to_assets: undefined, boundary_source: 'jurisdiction', jurisdiction_id: 'county:12087' });
    expect((county.geometry as { type: string }).type).toMatch(/Polygon$/);
    const drawn = { type: 'Polygon', coordinates: [[[-81.8, 24.5], [-81.7, 24.5], [-81.7, 24.6], [-81.8, 24.5]]] };
    expect(analysisTarget({ boundary_geojson: drawn, apply_to_assets: true })).toEqual({ geometry: drawn, link: { assessment_id: undefined, apply_to_assets: true, boundary_source: 'boundary_geojson', jurisdiction_id: null } });
    const keyWest = analysisTarget({ jurisdiction: 'Key West' });
    expect(keyWest.link.jurisdiction_id).toBe('municipality:120168');
    // Key West's Census place: Key West island and its neighbours, not all of Monroe County.
    expect(booleanPointInPolygon([-81.7826, 24.5551], keyWest.geometry as Polygon)).toBe(true);
    expect(booleanPointInPolygon([-80.6278, 24.9243], keyWest.geometry as Polygon)).toBe(false);
    const official = { jurisdiction_id: 'municipality:120168', geometry: drawn as Polygon, source_note: null, updated_at: '2026-01-01T00:00:00.000Z' };
    expect(analysisTarget({ jurisdiction: 'Key West' }, official).geometry).toBe(drawn);
    // Another jurisdiction's official boundary is not used.
    expect(analysisTarget({ jurisdiction: 'county:12087' }, official).geometry).not.toBe(drawn);
  });

  it('links only to an assessment of the account that is not submitted', async () => {
    const store = (status: string | undefined) => ({ assessments: { get: async () => (status ? ({ status } as Assessment) : undefined) } });
    await expect(requireLinkableAssessment(store('draft'), 'acct_1', 'asm_1')).resolves.toBeUndefined();
    await expect(requireLinkableAssessment(store('in_progress'), 'acct_1', 'asm_1')).resolves.toBeUndefined();
    await expect(requireLinkableAssessment(store(undefined), 'acct_1', 'asm_1')).rejects.toMatchObject({
      kind: 'invalid_input', message: 'No assessment asm_1 in this account.', issues: [{ field: 'assessment_id', in: 'body', message: 'Unknown assessment' }],
    });
    await expect(requireLinkableAssessment(store('submitted'), 'acct_1', 'asm_1')).rejects.toMatchObject({ kind: 'conflict' });
  });

  function linkDeps() {
    const { blobs, objects } = memoryBlobs();
    const evidence: AnalysisEvidence[] = [];
    const applied: unknown[][] = [];
    const deps: AnalysisLinkDeps = {
      assessments: { get: async () => undefined },
      evidence: { putAnalysis: async (_a, e) => { evidence.push(e); }, listAnalyses: async () => [], linkImport: async () => {}, listImports: async () => [] },
      blobs,
      assets: {
        list: async (_a, _f, page) => (page.cursor ? { items: [], nextCursor: undefined } : { items: [], nextCursor: 'next' }),
        applyExposures: async (account, changes) => { applied.push([account, changes.length]); return changes.length; },
      },
      clock: () => NOW,
    };
    return { deps, objects, evidence, applied };
  }

  it('without links the answer is the analysis\'s own and nothing is written', async () => {
    const w = linkDeps();
    let hooked: unknown = 'unset';
    const result = await runLinkedAnalysis(w.deps, 'acct_1', { boundary_source: 'boundary_geojson', jurisdiction_id: null }, async (onSurfaces) => { hooked = onSurfaces; return { answer: 1 }; });
    expect(result).toEqual({ answer: 1 });
    expect(hooked).toBeUndefined();
    expect(await runLinkedAnalysis(w.deps, 'acct_1', undefined, async () => ({ answer: 2 }))).toEqual({ answer: 2 });
    expect(w.objects.size + w.evidence.length + w.applied.length).toBe(0);
  });

  it('with an assessment, stores the answer and records the evidence under the analysis id', async () => {
    const w = linkDeps();
    const result = await runLinkedAnalysis(w.deps, 'acct_1', { assessment_id: 'asm_1', boundary_source: 'jurisdiction', jurisdiction_id: 'county:12087' }, async (onSurfaces) => {
      expect(typeof onSurfaces).toBe('function');
      return answer;
    });
    const analysisId = (result as unknown as { analysis_id: string }).analysis_id;
    expect(analysisId).toMatch(/^fa_[A-Za-z0-9_-]{16}$/);
    expect(result).toEqual({ ...answer, analysis_id: analysisId, assessment_id: 'asm_1' });
    const key = evidenceDocumentKey('acct_1', 'asm_1', analysisId, 'result');
    expect(key).toBe(`evidence/acct_1/asm_1/${analysisId}/result.json`);
    expect(JSON.parse(w.objects.get(key)!.body)).toEqual(result);
    expect(w.objects.get(key)!.type).toBe('application/json');
    // No surfaces were handed over, so no extents document.
    expect(w.evidence).toEqual([expect.objectContaining({ analysis_id: analysisId, assessment_id: 'asm_1', result_key: key, extents_key: null, assets_applied: null, assets_inside: 42 })]);
    expect(w.applied).toEqual([]);
  });

  it('applying to assets without analysed sites reads and writes no asset, and reports nothing written', async () => {
    const w = linkDeps();
    let listed = 0;
    const list = w.deps.assets.list;
    w.deps.assets = { ...w.deps.assets, list: (...args) => { listed++; return list(...args); } };
    const result = await runLinkedAnalysis(w.deps, 'acct_1', { apply_to_assets: true, boundary_source: 'boundary_geojson', jurisdiction_id: null }, async () => ({ answer: 3 }));
    expect(result).toMatchObject({ answer: 3, assessment_id: null, applied_to_assets: { assets_written: 0, exposed: 0, not_exposed: 0, unknown_elevation: 0, existing_water: 0 } });
    expect(listed).toBe(0);
    expect(w.applied).toEqual([]);
    expect(w.evidence).toEqual([]);
  });

  it("keeps the tidal component's local datum check, and nothing when the answer has none", () => {
    const differs = { components: { tidal: { status: 'ok', local_datum_check: { status: 'differs', note: 'NOAA station Jacksonville (8720226) …' } } } };
    expect(evidenceOf(differs, { ...meta, link: { boundary_source: 'boundary_geojson', jurisdiction_id: null } }).tidal_datum_check)
      .toEqual({ status: 'differs', note: 'NOAA station Jacksonville (8720226) …' });
    expect(evidenceOf({ components: { tidal: { status: 'ok', local_datum_check: { status: 'agrees' } } } }, { ...meta, link: { boundary_source: 'boundary_geojson', jurisdiction_id: null } }).tidal_datum_check)
      .toEqual({ status: 'agrees', note: '' });
    expect(evidenceOf({ components: { tidal: { status: 'ok', local_datum_check: {} } } }, { ...meta, link: { boundary_source: 'boundary_geojson', jurisdiction_id: null } })).not.toHaveProperty('tidal_datum_check');
  });

  it('keeps the gauge choice\'s cautions when the answer had any, strings only', () => {
    const link = { ...meta, link: { boundary_source: 'boundary_geojson' as const, jurisdiction_id: null } };
    const answer = (cautions: unknown) => ({ gauge_selection: { method: 'inverse_distance_two_gauges', reason: 'r', gauges: [{ noaa_id: '8720030' }], cautions } });
    expect(evidenceOf(answer(['Cedar Key, FL is in …', 7, 'The two gauges are …']), link).gauge_selection).toEqual({ method: 'inverse_distance_two_gauges', reason: 'r', cautions: ['Cedar Key, FL is in …', 'The two gauges are …'] });
    expect(evidenceOf(answer([]), link).gauge_selection).toEqual({ method: 'inverse_distance_two_gauges', reason: 'r' });
    expect(evidenceOf(answer('one'), link).gauge_selection).toEqual({ method: 'inverse_distance_two_gauges', reason: 'r' });
  });

  it('reads a component without a body and an answer without a boundary as unknowns', () => {
    const evidence = evidenceOf({ components: { tidal: null } }, { ...meta, link: { boundary_source: 'boundary_geojson', jurisdiction_id: null } });
    expect(evidence.components).toEqual([{ component: 'tidal', status: 'unknown' }]);
    expect(evidence.boundary).toEqual({ source: 'boundary_geojson', jurisdiction_id: null, area_km2: null, counties: [] });
  });

  // Four analysed assets, one of each exposure status, split over two pages of the store, and a
  // fifth the analysis did not reach (outside its boundary): it is listed but not written.
  const point = (asset_id: string) => ({ asset_id, name: asset_id, category: 'transportation', lat: 24.55, lon: -81.78 });
  const sites: AssetSite[] = [
    { asset: point('a_wet'), cell: undefined, ground: 0.2 },
    { asset: point('a_dry'), cell: undefined, ground: 4 },
    { asset: point('a_void'), cell: undefined, ground: undefined },
    { asset: point('a_sea'), cell: undefined, ground: -1, open_water: true },
  ];
  const level = (value: number) => ({ levelAtCell: () => value, levelAtPoint: () => value });
  const surfaces: AnalysedSurfaces = { model: undefined, mask: undefined, sites, surfaces: new Map([['tidal|intermediate|2046', level(1.1)]]), mhhwAt: () => 0.0082 };
  const stored = (asset_id: string) => ({ asset_id, name: asset_id, category: 'transportation', vulnerability: null }) as unknown as StoredAsset;

  function pagedDeps() {
    const w = linkDeps();
    const cursors: (string | undefined)[] = [];
    const written: ExposureChange[][] = [];
    w.deps.assets = {
      list: async (account, _filter, page) => {
        expect(account).toBe('acct_1');
        expect(page.limit).toBe(1000);
        cursors.push(page.cursor);
        return page.cursor === 'p2'
          ? { items: [stored('a_void'), stored('a_sea'), stored('a_outside')], nextCursor: undefined }
          : { items: [stored('a_wet'), stored('a_dry')], nextCursor: 'p2' };
      },
      applyExposures: async (_account, changes, now) => { expect(now).toEqual(NOW); written.push(changes); return changes.length; },
    };
    return { ...w, cursors, written };
  }

  it('writes each analysed asset\'s exposure across every page and counts them by status', async () => {
    const w = pagedDeps();
    const result = await runLinkedAnalysis(w.deps, 'acct_1', { apply_to_assets: true, boundary_source: 'boundary_geojson', jurisdiction_id: null }, async (onSurfaces) => {
      onSurfaces!(surfaces);
      return { answer: 4 };
    });
    expect(w.cursors).toEqual([undefined, 'p2']);
    // One write per page, of the page's analysed assets (a_outside is not analysed).
    expect(w.written.map((page) => page.map((c) => c.asset.asset_id))).toEqual([['a_wet', 'a_dry'], ['a_void', 'a_sea']]);
    const changes = w.written.flat();
    expect(changes.map((c) => [c.asset.asset_id, c.exposure.status])).toEqual([
      ['a_wet', 'exposed'], ['a_dry', 'not_exposed'], ['a_void', 'unknown_elevation'], ['a_sea', 'existing_water'],
    ]);
    // 1.1 m of water on 0.2 m of ground: 0.9 m = 2.95 ft; 2046 is 20 years after 2026 (weight 1); transportation sensitivity 0.8.
    expect(changes[0]!.exposure).toMatchObject({ assessment_id: null, analysis_id: (result as unknown as { analysis_id: string }).analysis_id, analysed_at: NOW.toISOString(), max_depth_ft: 2.95 });
    expect(changes[0]!.vulnerability!.vulnerability_score).toBeCloseTo((2.95 / 3) * 0.8, 3);
    expect(changes[2]!.vulnerability).toBeUndefined();
    expect(result).toMatchObject({ answer: 4, assessment_id: null, applied_to_assets: { assets_written: 4, exposed: 1, not_exposed: 1, unknown_elevation: 1, existing_water: 1 } });
    expect(w.objects.size + w.evidence.length).toBe(0);
  });

  it('with an assessment as well, stamps the exposures with it and stores the extents beside the answer', async () => {
    const w = pagedDeps();
    const result = await runLinkedAnalysis(w.deps, 'acct_1', { assessment_id: 'asm_1', apply_to_assets: true, boundary_source: 'jurisdiction', jurisdiction_id: 'county:12087' }, async (onSurfaces) => {
      onSurfaces!(surfaces);
      return { answer: 5 };
    }) as unknown as { analysis_id: string };
    expect(w.written.flat().every((c) => c.exposure.assessment_id === 'asm_1')).toBe(true);
    const extentsKey = evidenceDocumentKey('acct_1', 'asm_1', result.analysis_id, 'extents');
    expect(extentsKey).toBe(`evidence/acct_1/asm_1/${result.analysis_id}/extents.json`);
    // Without an elevation model there is no grid to trace: the extents are an empty list, still recorded.
    expect(w.objects.get(extentsKey)).toEqual({ body: '[]', type: 'application/json' });
    expect(w.evidence).toEqual([expect.objectContaining({ extents_key: extentsKey, assets_applied: 4 })]);
  });

  it('with an assessment only, records extents but writes no asset', async () => {
    const w = pagedDeps();
    await runLinkedAnalysis(w.deps, 'acct_1', { assessment_id: 'asm_1', boundary_source: 'jurisdiction', jurisdiction_id: 'county:12087' }, async (onSurfaces) => {
      onSurfaces!(surfaces);
      return { answer: 6 };
    });
    expect(w.cursors).toEqual([]);
    expect(w.written).toEqual([]);
    expect(w.evidence).toEqual([expect.objectContaining({ assets_applied: null, extents_key: expect.stringMatching(/extents\.json$/) })]);
  });
});
