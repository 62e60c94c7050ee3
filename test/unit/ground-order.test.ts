import { defaultElevationSource, elevationSourceWith, statewideBareEarth, useStatewideBareEarth } from '../../shared/adapters/elevation';
import { LayeredElevationSource, type ModelLayer } from '../../shared/adapters/elevation/layered';
import { assetExposures } from '../../shared/domain/hazards/asset-exposure';
import type { ValidBoundary } from '../../shared/domain/hazards/boundary';
import type { ElevationGrid, ElevationSource } from '../../shared/domain/hazards/elevation';
import { analyzeFlooding, type AnalysedSurfaces } from '../../shared/domain/hazards/flood-analysis';
import type { BBox } from '../../shared/domain/hazards/geo';
import { groundAtPoint, noGroundReason, withheldSurfaceModelAt } from '../../shared/domain/hazards/ground';
import type { AssetPoint } from '../../shared/domain/hazards/spatial-index';

process.env.APP_MODE = 'local';

/**
 * Ground order at a point: surveyed → the account's models → the operator's → the statewide
 * bare-earth source → nothing; a surface model only when the caller allows it. Each test model is
 * flat at its own height, so the height read says which model answered.
 */
const CELL = 0.001;

/** A flat model of `height` m NAVD88 over `bbox`, answering the posts of a box that fall inside it. */
function flatModel(id: string, bbox: BBox, height: number, surface = false): ModelLayer {
  return {
    bbox, name: id,
    info: () => ({ name: id, elevation_model_id: id, vertical_datum: 'NAVD88', native_resolution: '0.001°', resolution_m: 100, surface_model: surface }),
    grid: async (box): Promise<ElevationGrid | undefined> => {
      const west = Math.max(box[0], bbox[0]), east = Math.min(box[2], bbox[2]);
      const south = Math.max(box[1], bbox[1]), north = Math.min(box[3], bbox[3]);
      if (west > east || south > north) return undefined;
      const c0 = Math.ceil(west / CELL - 1e-9), c1 = Math.floor(east / CELL + 1e-9);
      const r0 = Math.ceil(south / CELL - 1e-9), r1 = Math.floor(north / CELL + 1e-9);
      if (c1 < c0 || r1 < r0) return undefined;
      const width = c1 - c0 + 1, rows = r1 - r0 + 1;
      return { values: new Float32Array(width * rows).fill(height), width, height: rows, west: c0 * CELL, north: r1 * CELL, cellLon: CELL, cellLat: CELL, verticalDatum: 'NAVD88', source: id };
    },
  };
}

// Account model over the south-west, operator model over the south half, statewide over all but the
// far east, a surface model everywhere.
const account = flatModel('account-lidar', [-82.5, 27.5, -82.45, 27.55], 1.1);
const operator = flatModel('operator-dem', [-82.5, 27.5, -82.3, 27.55], 2.2);
const statewide = flatModel('statewide-3dep', [-82.5, 27.5, -82.2, 27.7], 3.3);
const surface = flatModel('srtm-like', [-82.5, 27.5, -82.0, 27.7], 9.9, true);
const layered = new LayeredElevationSource([account, operator], statewide, surface);

const ground = async (lon: number, lat: number, allowSurfaceModel = false) => {
  const found = await groundAtPoint(layered, { lon, lat }, 0, { allowSurfaceModel });
  return found && [found.source.elevation_model_id, Math.round(found.ground_navd88_m * 1000) / 1000];
};

describe('ground order at a point', () => {
  it('reads the account model, then the operator model, then the statewide bare-earth source', async () => {
    expect(await ground(-82.475, 27.525)).toEqual(['account-lidar', 1.1]);
    expect(await ground(-82.35, 27.525)).toEqual(['operator-dem', 2.2]);
    expect(await ground(-82.35, 27.65)).toEqual(['statewide-3dep', 3.3]);
  });

  it('uses the surface model only when the caller allows it, and names it as what was withheld', async () => {
    expect(await ground(-82.1, 27.65)).toBeUndefined();
    expect(await ground(-82.1, 27.65, true)).toEqual(['srtm-like', 9.9]);
    expect((await withheldSurfaceModelAt(layered, { lon: -82.1, lat: 27.65 }))?.elevation_model_id).toBe('srtm-like');
    expect(await noGroundReason(layered, { lon: -82.1, lat: 27.65 })).toBe('no_bare_earth');
    // Bare earth wins over the surface model even when the caller allows it.
    expect(await ground(-82.35, 27.65, true)).toEqual(['statewide-3dep', 3.3]);
  });

  it('says outside_model where nothing covers the point', async () => {
    expect(await ground(-81.5, 27.65, true)).toBeUndefined();
    expect(await noGroundReason(layered, { lon: -81.5, lat: 27.65 })).toBe('outside_model');
  });

  it('traces connection over adjoining models as one extent, else over the fallback\'s', () => {
    expect(layered.extentAt(-82.475, 27.525)).toEqual([-82.5, 27.5, -82.3, 27.55]);
    expect(layered.extentAt(-82.35, 27.65)).toBeUndefined();
  });
});

describe('the default source (local mode)', () => {
  const tampa: BBox = [-82.46, 27.94, -82.45, 27.95];
  const ids = (source: ElevationSource, box: BBox) => source.layersFor!(box).map((l) => l.info().elevation_model_id);
  afterEach(() => useStatewideBareEarth(undefined));

  it('reads the bundled quads, then the statewide bare-earth source once installed, then SRTM', () => {
    expect(statewideBareEarth()).toBeUndefined();
    expect(ids(defaultElevationSource(), tampa)).toEqual(['usgs-24k-tampa', 'srtm-1arcsec']);
    useStatewideBareEarth(statewide);
    expect(statewideBareEarth()).toBe(statewide);
    expect(ids(defaultElevationSource(), tampa)).toEqual(['usgs-24k-tampa', 'statewide-3dep', 'srtm-1arcsec']);
    expect(ids(defaultElevationSource(), [-81.0, 26.0, -80.99, 26.01])).toEqual(['statewide-3dep', 'srtm-1arcsec']);
    expect(ids(elevationSourceWith([flatModel('account-lidar', tampa, 1)]), tampa)).toEqual(['account-lidar', 'usgs-24k-tampa', 'statewide-3dep', 'srtm-1arcsec']);
  });
});

describe('a flood analysis where only a surface model covers the ground', () => {
  const ring = [[-82.15, 27.6], [-82.05, 27.6], [-82.05, 27.65], [-82.15, 27.65], [-82.15, 27.6]];
  const boundary = { geometry: { type: 'Polygon', coordinates: [ring] }, bbox: [-82.15, 27.6, -82.05, 27.65], area_km2: 55, vertex_count: 4, counties: [{ fips: '12057', name: 'Hillsborough' }], warnings: [] } as unknown as ValidBoundary;
  const onSurface: AssetPoint = { asset_id: 'on-surface', name: 'on-surface', category: null, lon: -82.1, lat: 27.62 };
  const surveyed: AssetPoint = { asset_id: 'surveyed', name: 'surveyed', category: null, lon: -82.11, lat: 27.62, surveyed: { navd88_m: 0.3, kind: 'ground', column: 'ground_elevation_m_navd88' } };
  const run = async (allowSurfaceModel: boolean) => {
    let analysed: AnalysedSurfaces | undefined;
    const result = await analyzeFlooding({ boundary, components: ['tidal'], scenarios: ['intermediate'], horizons: [2070], currentYear: 2026, allowSurfaceModel },
      { elevation: layered, layers: { layersFor: async () => [] }, tides: { highWaters: async () => [], levelsAt: async (_g, times) => times.map(() => 0) }, assets: [onSurface, surveyed], onSurfaces: (a) => { analysed = a; } });
    return { result, exposures: assetExposures(analysed!, { analysisId: 'fa_test', assessmentId: null, analysedAt: '2026-11-28T00:00:00Z' }) };
  };

  it('answers no_bare_earth with what to do, gives the asset on it reason no_bare_earth and keeps the surveyed asset\'s ground', async () => {
    const { result, exposures } = await run(false);
    expect(result.elevation).toMatchObject({ status: 'no_bare_earth', surface_model: { elevation_model_id: 'srtm-like' } });
    expect((result.elevation as { what_to_do: string }).what_to_do).toMatch(/elevation-models.*allow_surface_model: true/);
    expect(exposures.get('on-surface')).toMatchObject({ status: 'unknown_elevation', reason: 'no_bare_earth', ground_source: null });
    expect(exposures.get('surveyed')).toMatchObject({ ground_elevation_navd88_m: 0.3, ground_source: 'surveyed' });
  });

  it('stands on the surface model when the caller allows it, naming it as the asset\'s ground', async () => {
    const { result, exposures } = await run(true);
    expect(result.elevation).toMatchObject({ status: 'covered', source: { elevation_model_id: 'srtm-like' } });
    expect(exposures.get('on-surface')).toMatchObject({ ground_elevation_navd88_m: 9.9, ground_source: 'srtm-like' });
  });
});
