import { analyzeFlooding, type AnalysedSurfaces } from '../../shared/domain/hazards/flood-analysis';
import { assetExposures } from '../../shared/domain/hazards/asset-exposure';
import { wholeGridSource } from '../helpers/test-grid';
import { colLon, noTides, PIT_FRAME, pitGridBoundary, pitGround, pitStorm, rowLat } from '../helpers/pit-grid';

/**
 * The analysis hands the storm's ponding to the exposure, on the pit grid (see pit-grid.ts): a 2 m
 * runoff leaves 1.1 m of water in the pit. The pump in the pit stands on 1.5 m; the road at column 12
 * on 0.9 m, open to the bay.
 */
const site = (id: string, col: number) => ({ asset_id: id, name: id, category: 'Transportation', lat: rowLat(20), lon: colLon(col) });

describe('per-component depths from an analysis with a storm', () => {
  it('give the pit its ponded 1.1 m of rain, the coastal levels where they reach, and the governing component', async () => {
    let handed: AnalysedSurfaces | undefined;
    const result = await analyzeFlooding(
      { boundary: pitGridBoundary(), components: ['tidal', 'surge', 'rainfall', 'compound'], scenarios: ['intermediate'], horizons: [2050], currentYear: 2026, rainfall: pitStorm },
      { elevation: wholeGridSource(PIT_FRAME, pitGround, { name: 'Pit test grid' }), layers: { layersFor: async () => [] }, tides: noTides, assets: [site('pump', 30), site('road', 12)], onSurfaces: (analysed) => { handed = analysed; } },
    );
    const levelOf = (name: string) => (result.components[name] as { results: { design_water_level_navd88?: { m: number }; return_period_years?: number }[] }).results
      .find((r) => r.return_period_years === undefined || r.return_period_years === 100)!.design_water_level_navd88!.m;
    const tidal = levelOf('tidal');
    const surge = levelOf('surge');
    // The pit is enclosed by ground of 2.6 m and more: coastal water reaches it only above that.
    const coastal = (level: number, ground: number, enclosedAt = -Infinity) => (level > enclosedAt && level > ground ? level - ground : 0);
    const exposures = assetExposures(handed!, { analysisId: 'fa', assessmentId: null, analysedAt: '2026-01-01T00:00:00Z' });
    const pump = exposures.get('pump')!.by_component[0]!;
    const pumpSurge = coastal(surge, 1.5, 2.6);
    expect(pump.depth_m.tidal).toBeCloseTo(coastal(tidal, 1.5, 2.6), 2);
    expect(pump.depth_m.surge).toBeCloseTo(pumpSurge, 2);
    expect(pump.depth_m.rainfall).toBeCloseTo(1.1, 2);
    expect(pump.depth_m.compound).toBeCloseTo(Math.max(1.1, pumpSurge), 2);
    expect(pump.governing_component).toBe(pumpSurge > 1.1 + 0.001 ? 'surge' : 'rainfall');
    expect(pump.storm).toEqual({ return_period_years: 100, depth_mm: 2000, duration_h: 24, source: pitStorm.source });
    const road = exposures.get('road')!.by_component[0]!;
    expect(road.depth_m.rainfall).toBe(0);
    expect(road.depth_m.tidal).toBeCloseTo(coastal(tidal, 0.9), 2);
    expect(road.depth_m.surge).toBeCloseTo(coastal(surge, 0.9), 2);
    expect(road.depth_m.surge).toBeGreaterThan(0);
    // The sea at the surge level stands on the road in the compound case too: a tie, which surge wins.
    expect(road.depth_m.compound).toBeCloseTo(coastal(surge, 0.9), 2);
    expect(road.governing_component).toBe('surge');
  });
});
