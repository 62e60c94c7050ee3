import { analyzeFlooding } from '../../shared/domain/hazards/flood-analysis';
import { validateBoundary } from '../../shared/domain/hazards/boundary';
import { gaugeById } from '../../shared/domain/hazards/gauges';
import { harmonicTides } from '../../shared/adapters/hazard-tide-predictor';
import { dailyHighestTides, projectFloodDays } from '../../shared/domain/hazards/tide-flood-days';
import type { ElevationSource } from '../../shared/domain/hazards/elevation';
import type { HazardLayerSource } from '../../shared/domain/hazards/hazard-layers';
import { csv, distanceKm, ncGauges, observedMean2007to2016, packageDatums, regionalTrajectoryRise, tr086Series, twoClosestUsable, usableGauges } from './readers/raw';

const nc = ncGauges();
const usable = usableGauges();
const datums = packageDatums(nc.map((g) => g.id));
const noElevation: ElevationSource = { info: () => ({ name: 'none', vertical_datum: 'NAVD88', native_resolution: 'none' }), grid: async () => undefined };
const noLayers = { layersFor: async () => [] } as unknown as HazardLayerSource;

/** GEV return level from the raw fit (mm): z = μ + σ/ξ·((−ln(1 − 1/T))^−ξ − 1). */
const gevFits = new Map(csv('gev_model1.csv').map((r) => [r['']!, { mu: Number(r.mu), sigma: Number(r.sigma), xi: Number(r.xi) }]));
const returnLevelM = (site: string, years: number) => {
  const { mu, sigma, xi } = gevFits.get(site)!;
  return (mu + (sigma / xi) * ((-Math.log(1 - 1 / years)) ** -xi - 1)) / 1000;
};

function boxAround(lat: number, lon: number) {
  const v = validateBoundary({ type: 'Polygon', coordinates: [[[lon - 0.01, lat - 0.01], [lon + 0.01, lat - 0.01], [lon + 0.01, lat + 0.01], [lon - 0.01, lat + 0.01], [lon - 0.01, lat - 0.01]]] });
  if (!v.ok) throw new Error('bad box');
  return v.boundary;
}

describe('storm surge levels, recomputed from the raw GEV fits and the NOAA datums', () => {
  it.each([
    ['Key West', 24.556, -81.79, 'KeyWestFL'],
    ['St. Petersburg', 27.76, -82.63, 'StPetersburgFL'],
    ['Pensacola', 30.4, -87.2, 'PensacolaFL'],
    ['Naples', 26.13, -81.8, 'NaplesFL'],
    ['Fernandina Beach', 30.67, -81.46, 'FernandinaBeach'],
    // Seven kilometres from Virginia Key, whose trajectory is too short for interpolation (so the two
    // closest usable gauges are Vaca Key and Naples) but whose surge record is long.
    ['Miami Beach', 25.79, -80.13, 'VirginiaKeyFL'],
  ])('%s: return level above the annual MSL + the location\'s own MSL − NAVD88 + rise 1992→2000 (+ projected rise)', async (_name, lat, lon, site) => {
    const result = await analyzeFlooding({ boundary: boxAround(lat, lon), components: ['surge'], scenarios: ['intermediate'], horizons: [2050] }, { elevation: noElevation, layers: noLayers, tides: harmonicTides, assets: [] });
    const surge = result.components.surge as { status: string; current_conditions: { return_period_years: number; design_water_level_navd88: { m: number } }[]; results: { return_period_years: number; design_water_level_navd88: { m: number } }[]; label: string };
    expect(surge.status).toBe('ok');
    expect(surge.label).toMatch(/Research product/);
    const centre = { lat, lon };
    const w = twoClosestUsable(centre);
    const msl = w.reduce((s, { g, w: k }) => s + k * (datums[g.id]!.MSL! - datums[g.id]!.NAVD88!), 0);
    const epoch = w.reduce((s, { g, w: k }) => s + k * (g.trajectory(1, 2000) - g.trajectory(1, 1992)) / 1000, 0);
    const rise = w.reduce((s, { g, w: k }) => s + k * g.total('intermediate', 1, 2050) / 1000, 0);
    // The API fits the annual maxima as shipped (to the millimetre): its return levels stay within a
    // few millimetres of the published fit's (more at 500 years, where ξ > 0 magnifies the tail).
    for (const [rp, tolerance] of [[100, 0.006], [500, 0.015]] as const) {
      const current = surge.current_conditions.find((c) => c.return_period_years === rp)!.design_water_level_navd88.m;
      expect(Math.abs(current - (returnLevelM(site, rp) + msl + epoch))).toBeLessThanOrEqual(tolerance);
      const future = surge.results.find((r) => r.return_period_years === rp)!.design_water_level_navd88.m;
      expect(Math.abs(future - (returnLevelM(site, rp) + msl + epoch + rise))).toBeLessThanOrEqual(tolerance);
    }
  });

  it('shows NOAA\'s official Key West 1 % level (0.74 m above MHHW) beside the GEV value', async () => {
    const result = await analyzeFlooding({ boundary: boxAround(24.556, -81.79), components: ['surge'], scenarios: ['intermediate'], horizons: [2050] }, { elevation: noElevation, layers: noLayers, tides: harmonicTides, assets: [] });
    const official = (result.components.surge as { noaa_official_1pct: { above_mhhw: { m: number }; navd88: { m: number } } }).noaa_official_1pct;
    expect(official.above_mhhw.m).toBe(0.74);
    expect(official.navd88.m).toBeCloseTo(datums['8724580']!.MHHW! - datums['8724580']!.NAVD88! + 0.74, 3);
  });

  it.each([['Fort Lauderdale', 26.12, -80.1], ['Boca Raton', 26.35, -80.07]])('%s, beyond 100 miles of every usable gauge: the Atlantic fit of Virginia Key on Virginia Key\'s datums, not a Gulf regime', async (_name, lat, lon) => {
    const result = await analyzeFlooding({ boundary: boxAround(lat, lon), components: ['surge'], scenarios: ['intermediate'], horizons: [2050] }, { elevation: noElevation, layers: noLayers, tides: harmonicTides, assets: [] });
    const surge = result.components.surge as { status: string; gauge: { noaa_id: string }; current_conditions: { return_period_years: number; design_water_level_navd88: { m: number } }[] };
    expect(usable.every((g) => distanceKm({ lat, lon }, g) > 100 * 1.609344)).toBe(true);
    expect(surge.status).toBe('ok');
    expect(surge.gauge.noaa_id).toBe('8723214');
    const key = nc.find((g) => g.id === '8723214')!;
    const msl = datums['8723214']!.MSL! - datums['8723214']!.NAVD88!;
    // Virginia Key's own trajectory rests on fewer than 30 years and runs negative: the Southeast region's stands in.
    expect(key.geq30).toBe(0);
    const epoch = regionalTrajectoryRise('SE');
    const current = surge.current_conditions.find((c) => c.return_period_years === 100)!.design_water_level_navd88.m;
    expect(Math.abs(current - (returnLevelM('VirginiaKeyFL', 100) + msl + epoch))).toBeLessThanOrEqual(0.006);
  });

  it.each([['Cedar Key', 29.135, -83.03], ['Apalachicola', 29.72, -84.98]])('%s: no fit carried in from another surge regime', async (_name, lat, lon) => {
    const result = await analyzeFlooding({ boundary: boxAround(lat, lon), components: ['surge'], scenarios: ['intermediate'], horizons: [2050] }, { elevation: noElevation, layers: noLayers, tides: harmonicTides, assets: [] });
    expect((result.components.surge as { status: string }).status).toBe('no_data');
  });
});

describe('tidal flood days (Sweet et al.), against NOAA TR 086 observed counts and projections', () => {

  it.each(['8724580', '8726520', '8729840', '8720030', '8725110', '8727520'])('gauge %s: never below the 2007–2016 observed mean, growing with the rise, near TR 086 by mid-century', async (id) => {
    const gauge = gaugeById(id)!;
    const observed = observedMean2007to2016(id);
    const p2020 = await projectFloodDays(harmonicTides, gauge, 'intermediate_low', '50', 2020);
    expect(p2020.days).toBeGreaterThanOrEqual(observed);
    expect(p2020.observed_mean_2007_2016).toBeCloseTo(observed, 6);
    const years = [2030, 2050, 2070];
    const intermediate = [];
    for (const y of years) intermediate.push((await projectFloodDays(harmonicTides, gauge, 'intermediate', '50', y)).days);
    expect(intermediate[1]).toBeGreaterThanOrEqual(intermediate[0]!);
    expect(intermediate[2]).toBeGreaterThanOrEqual(intermediate[1]!);
    const high = (await projectFloodDays(harmonicTides, gauge, 'high', '50', 2050)).days;
    expect(high).toBeGreaterThanOrEqual(intermediate[1]!);
    // TR 086 projects with the 2017 scenarios; the 2022 Intermediate is close to the 2017 Intermediate by 2050.
    const tr = tr086Series(id, 'int').get(2050)!;
    expect(intermediate[1]).toBeGreaterThan(tr / 4);
    expect(intermediate[1]).toBeLessThan(tr * 4 + 5);
  });

  it('counts a day against the threshold with the datum signs the NOAA datums give (Pensacola 2050 Intermediate)', async () => {
    const id = '8729840';
    const gauge = gaugeById(id)!;
    const d = datums[id]!;
    const g = nc.find((x) => x.id === id)!;
    // Threshold above the epoch MSL: (MHHW − MSL) + 0.04·GT + 0.50; water: tide above MSL + rise 1992→2000 + rise 2000→2050.
    const thresholdAboveMsl = d.MHHW! - d.MSL! + 0.04 * d.GT! + 0.5;
    const shift = (g.trajectory(1, 2000) - g.trajectory(1, 1992)) / 1000 + g.total('intermediate', 1, 2050) / 1000;
    const projection = await projectFloodDays(harmonicTides, gauge, 'intermediate', '50', 2050);
    const maxima = await dailyHighestTides(harmonicTides, gauge, 2050);
    const tail = (z: number) => 0.5 * erfc(z / Math.SQRT2);
    const expected = maxima.reduce((sum, level) => sum + tail((thresholdAboveMsl - level - shift) / projection.nontidal_sd_m), 0);
    expect(projection.expected_days).toBeCloseTo(expected, 0);
  });
});

/** erfc by its continued fraction / series (independent of the product's approximation). */
function erfc(x: number): number {
  if (x < 0) return 2 - erfc(-x);
  if (x < 3) {
    // erf series: 2/√π Σ (−1)^n x^(2n+1) / (n! (2n+1))
    let sum = 0;
    let term = x;
    for (let n = 0; n < 80; n++) {
      sum += term / (2 * n + 1);
      term *= (-x * x) / (n + 1);
    }
    return 1 - (2 / Math.sqrt(Math.PI)) * sum;
  }
  let f = 0;
  for (let k = 60; k >= 1; k--) f = (k / 2) / (x + f);
  return Math.exp(-x * x) / Math.sqrt(Math.PI) / (x + f);
}

describe('the project\'s own GEV fits', () => {
  it.each(['8724580', '8726520', '8729840', '8725110', '8720030', '8723214'])('gauge %s: maximum likelihood on the annual maxima reproduces the published fit', (id) => {
    const site = { '8724580': 'KeyWestFL', '8726520': 'StPetersburgFL', '8729840': 'PensacolaFL', '8725110': 'NaplesFL', '8720030': 'FernandinaBeach', '8723214': 'VirginiaKeyFL' }[id]!;
    const fit = gaugeById(id)!.gev!.gev_m;
    const published = gevFits.get(site)!;
    // The annual maxima ship rounded to the millimetre, so the fit may move by a fraction of one.
    expect(Math.abs(fit.mu * 1000 - published.mu)).toBeLessThan(1);
    expect(Math.abs(fit.sigma * 1000 - published.sigma)).toBeLessThan(1);
    expect(Math.abs(fit.xi - published.xi)).toBeLessThan(0.01);
  });
});
