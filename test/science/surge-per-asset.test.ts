import { analyzeFlooding } from '../../shared/domain/hazards/flood-analysis';
import { validateBoundary } from '../../shared/domain/hazards/boundary';
import { harmonicTides } from '../../shared/adapters/hazard-tide-predictor';
import type { ElevationSource } from '../../shared/domain/hazards/elevation';
import type { HazardLayerSource } from '../../shared/domain/hazards/hazard-layers';
import { csv, packageDatums, twoClosestUsable, usableGauges } from './readers/raw';

const usable = usableGauges();
const datums = packageDatums(usable.map((g) => g.id));
const gevFits = new Map(csv('gev_model1.csv').map((r) => [r['']!, { mu: Number(r.mu), sigma: Number(r.sigma), xi: Number(r.xi) }]));
const noElevation: ElevationSource = { info: () => ({ name: 'none', vertical_datum: 'NAVD88', native_resolution: 'none' }), grid: async () => undefined };
const noLayers = { layersFor: async () => [] } as unknown as HazardLayerSource;

/** The raw GEV return level (mm in the file) in metres above the annual mean sea level. */
const returnLevelM = (site: string, years: number) => {
  const { mu, sigma, xi } = gevFits.get(site)!;
  return (mu + (sigma / xi) * ((-Math.log(1 - 1 / years)) ** -xi - 1)) / 1000;
};

/** MSL − NAVD88, rise 1992→2000 and the Intermediate rise to `year` at a place, from its two closest gauges (inverse distance). */
function localTerms(point: { lat: number; lon: number }, year: number) {
  const pair = twoClosestUsable(point);
  const sum = (f: (g: (typeof usable)[number]) => number) => pair.reduce((s, { g, w }) => s + w * f(g), 0);
  return sum((g) => datums[g.id]!.MSL! - datums[g.id]!.NAVD88!) + sum((g) => (g.trajectory(1, 2000) - g.trajectory(1, 1992)) / 1000) + sum((g) => g.total('intermediate', 1, year) / 1000);
}

describe('gauge-statistics surge at each asset', () => {
  it('gives assets 180 km apart in one boundary each their own fit and datums (Naples and St. Petersburg)', async () => {
    const v = validateBoundary({ type: 'Polygon', coordinates: [[[-82.1, 26.0], [-81.6, 26.0], [-82.4, 27.9], [-82.9, 27.9], [-82.1, 26.0]]] });
    if (!v.ok) throw new Error('boundary refused');
    // Surveyed ground above today's MHHW (not existing water) and below any 100-year surge level, so both are listed.
    const asset = (asset_id: string, name: string, lat: number, lon: number) => ({ asset_id, name, category: 'critical_infrastructure', lat, lon, surveyed: { navd88_m: 0.5, kind: 'ground' as const, column: 'ground_elevation_m_navd88' } });
    const assets = [asset('a_naples', 'Naples pier pump station', 26.13, -81.8), asset('a_stpete', 'St. Petersburg lift station', 27.76, -82.63)];
    const result = await analyzeFlooding({ boundary: v.boundary, components: ['surge'], scenarios: ['intermediate'], horizons: [2050] }, { elevation: noElevation, layers: noLayers, tides: harmonicTides, assets });
    const surge = result.components.surge as { status: string; asset_gauges: { noaa_id: string; assets: number }[]; results: { return_period_years: number; exposed_assets: { assets: { asset_id: string; water_level_navd88: { m: number } }[] } }[] };
    expect(surge.status).toBe('ok');
    const hundred = surge.results.find((r) => r.return_period_years === 100)!;
    const level = (id: string) => hundred.exposed_assets.assets.find((a) => a.asset_id === id)!.water_level_navd88.m;
    // The API fits the shipped annual maxima itself: within a few millimetres of the published fit.
    expect(Math.abs(level('a_naples') - (returnLevelM('NaplesFL', 100) + localTerms({ lat: 26.13, lon: -81.8 }, 2050)))).toBeLessThanOrEqual(0.006);
    expect(Math.abs(level('a_stpete') - (returnLevelM('StPetersburgFL', 100) + localTerms({ lat: 27.76, lon: -82.63 }, 2050)))).toBeLessThanOrEqual(0.006);
    expect(Math.abs(level('a_naples') - level('a_stpete'))).toBeGreaterThan(0.05);
    expect(surge.asset_gauges.map((g) => g.noaa_id).sort()).toEqual(['8725110', '8726520']);
  });
});
