import type { Polygon } from 'geojson';
import { bboxesIntersect, bboxOfPositions, polygonIntersectsBBox, type BBox } from '../../shared/domain/hazards/geo';
import { floridaBBox, floridaCountyBoundaries } from '../../shared/domain/hazards/florida-counties';
import { gaugeById, selectGauges, type GaugeSelection } from '../../shared/domain/hazards/gauges';
import { describeGaugeSelection } from '../../shared/domain/hazards/responses';
import { scenarioReport } from '../../shared/domain/hazards/scenario-report';
import { surgeBasis } from '../../shared/domain/hazards/surge';
import { valueForYear } from '../../shared/domain/hazards/scenarios';
import { distanceKm } from '../science/readers/raw';

/**
 * The parts every hazard answer shares: the gauge choice as reported, the years a scenario covers,
 * box tests, Florida's extent and the scenario report's location, warnings and sources.
 */

describe('the gauge choice as an answer reports it', () => {
  it('gives each gauge its distance in km and in statute miles (1.609344 km), and the weights', () => {
    const described = describeGaugeSelection(selectGauges({ lat: 25.7617, lon: -80.1918 }));
    expect(described.method).toBe('inverse_distance_two_gauges');
    for (const g of described.gauges) expect(g.distance_miles).toBeCloseTo(g.distance_km / 1.609344, 2);
    expect(described.gauges.reduce((sum, g) => sum + g.weight, 0)).toBeCloseTo(1, 3);
  });

  it('names the separation of two gauges in miles, and the region of a regional fallback', () => {
    const [a, b] = [gaugeById('8725110')!, gaugeById('8725520')!];
    const two: GaugeSelection = { method: 'inverse_distance_two_gauges', gauges: [{ gauge: a, distance_km: 10, weight: 0.6 }, { gauge: b, distance_km: 15, weight: 0.4 }], separation_miles: 36.04, reason: 'r' };
    expect(describeGaugeSelection(two)).toMatchObject({ gauge_separation_miles: 36 });
    expect(describeGaugeSelection(two)).not.toHaveProperty('region');
    const regional = describeGaugeSelection(selectGauges({ lat: 31.6, lon: -84.2 }));
    expect(regional.method).toBe('regional_fallback');
    expect(regional).toHaveProperty('region_name');
    expect(['Southeast (Atlantic)', 'Eastern Gulf of Mexico']).toContain((regional as { region_name: string }).region_name);
    expect(regional).not.toHaveProperty('gauge_separation_miles');
  });
});

describe('years a scenario covers (NOAA 2022: decades 2020–2150)', () => {
  const decades = Array.from({ length: 14 }, (_, i) => i);
  it.each([2019, 2151, 2155, 2160, 1990])('refuses %i', (year) => {
    expect(() => valueForYear(decades, year)).toThrow(new RangeError(`Year ${year} is outside 2020–2150`));
  });

  it('answers both ends and interpolates between decades', () => {
    expect(valueForYear(decades, 2020)).toBe(0);
    expect(valueForYear(decades, 2150)).toBe(13);
    expect(valueForYear(decades, 2145)).toBeCloseTo(12.5, 12);
  });
});

describe('boxes', () => {
  const box: BBox = [0, 0, 10, 10];
  it.each([
    ['overlapping', [5, 5, 15, 15], true],
    ['touching on the east edge', [10, 0, 20, 10], true],
    ['touching on the west edge', [-10, 0, 0, 10], true],
    ['touching on the north edge', [0, 10, 10, 20], true],
    ['touching on the south edge', [0, -10, 10, 0], true],
    ['east of it', [10.1, 0, 20, 10], false],
    ['west of it', [-20, 0, -0.1, 10], false],
    ['north of it', [0, 10.1, 10, 20], false],
    ['south of it', [0, -20, 10, -0.1], false],
    ['north-east of it, overlapping in longitude only', [5, 11, 15, 20], false],
  ] as const)('a box %s intersects: %p', (_name, other, expected) => {
    expect(bboxesIntersect(box, [...other] as BBox)).toBe(expected);
    expect(bboxesIntersect([...other] as BBox, box)).toBe(expected);
  });

  describe('meeting a polygon', () => {
    // A diamond around (0, 0) with a square hole in its middle; its edges run at 45°.
    const diamond: Polygon = {
      type: 'Polygon',
      coordinates: [[[0, -4], [4, 0], [0, 4], [-4, 0], [0, -4]], [[-1, -1], [1, -1], [1, 1], [-1, 1], [-1, -1]]],
    };
    it.each([
      ['holding the whole diamond', [-5, -5, 5, 5], true],
      ['wholly inside the solid part', [2, -0.5, 2.5, 0.5], true],
      ['wholly inside the hole', [-0.5, -0.5, 0.5, 0.5], false],
      ['cut by one edge, its centre outside', [1.8, 1.8, 2.6, 2.6], true],
      ['in the corner the diagonal edge leaves empty', [3, 3, 4, 4], false],
      ['touching a vertex', [4, -1, 5, 1], true],
      ['beside it, in line with an edge', [5, -1, 6, 1], false],
      ['a sliver whose edge touches the hole\'s', [-1.5, -0.5, -1, 0.5], true],
    ] as const)('a box %s: %p', (_name, other, expected) => {
      expect(polygonIntersectsBBox(diamond, [...other] as BBox)).toBe(expected);
    });
  });

  it('of positions is their extent', () => {
    expect(bboxOfPositions([[3, -1], [-2, 4], [5, 2]])).toEqual([-2, -1, 5, 4]);
  });
});

describe('Florida\'s counties', () => {
  it('are built once and shared', () => {
    expect(floridaCountyBoundaries()).toBe(floridaCountyBoundaries());
    expect(floridaCountyBoundaries()).toHaveLength(67);
  });

  it('span the state: the Perdido River (87.63° W) to the Atlantic shore (80.03° W), the Keys (24.5° N) to the Alabama and Georgia line (31.0° N)', () => {
    const [west, south, east, north] = floridaBBox();
    expect(west).toBeGreaterThan(-87.7);
    expect(west).toBeLessThan(-87.55);
    expect(east).toBeGreaterThan(-80.1);
    expect(east).toBeLessThan(-79.95);
    expect(south).toBeGreaterThan(24.4);
    expect(south).toBeLessThan(24.65);
    expect(north).toBeGreaterThan(30.95);
    expect(north).toBeLessThan(31.05);
  });
});

describe('the scenario report', () => {
  it('covers the five NOAA 2022 scenarios and the 14 decades 2020–2150 unless asked for fewer', () => {
    const report = scenarioReport({ target: { gauge: gaugeById('8724580')! }, assessmentYear: 2026 });
    expect(report.scenarios.map((s) => s.scenario)).toEqual(['low', 'intermediate_low', 'intermediate', 'intermediate_high', 'high']);
    for (const s of report.scenarios) expect(s.projections.map((p) => p.year)).toEqual(Array.from({ length: 14 }, (_, i) => 2020 + 10 * i));
  });

  it('echoes a location asked by place, and has none for a gauge asked by id', () => {
    const byPlace = scenarioReport({ target: { point: { lat: 25.7617, lon: -80.1918 }, label: 'Miami, FL' }, years: [2050], scenarios: ['intermediate'], assessmentYear: 2026 });
    expect(byPlace.location).toEqual({ query: 'Miami, FL', lat: 25.7617, lon: -80.1918 });
    const byGauge = scenarioReport({ target: { gauge: gaugeById('8724580')! }, years: [2050], scenarios: ['intermediate'], assessmentYear: 2026 });
    expect(byGauge.location).toBeNull();
  });

  it('carries a gauge\'s data warnings with the rule that keeps such gauges out of interpolation, and none for a gauge without', () => {
    const mayport = gaugeById('8720218')!;
    expect(mayport.data_warnings.length).toBeGreaterThan(0);
    const warned = scenarioReport({ target: { gauge: mayport }, years: [2050], scenarios: ['intermediate'], assessmentYear: 2026 });
    expect(warned.data_warnings).toEqual(mayport.data_warnings.map((w) => `8720218 Mayport, FL: ${w} F.A.C. 62S-7.012(1)(b) leaves gauges with data warnings out of interpolation.`));
    const keyWest = scenarioReport({ target: { gauge: gaugeById('8724580')! }, years: [2050], scenarios: ['intermediate'], assessmentYear: 2026 });
    expect(keyWest).not.toHaveProperty('data_warnings');
  });

  it('names the regional series among its sources and datasets only when it falls back to them', () => {
    const ids = (report: ReturnType<typeof scenarioReport>) => [report.sources.map((s) => s.id), report.provenance.datasets.map((d) => d.id)];
    const regional = scenarioReport({ target: { point: { lat: 31.6, lon: -84.2 }, label: 'South Georgia' }, years: [2050], scenarios: ['intermediate'], assessmentYear: 2026 });
    expect(ids(regional)).toEqual([['noaa_tr2022', 'noaa_tr2022_regional'], ['noaa_tr2022', 'noaa_tr2022_regional']]);
    const atGauge = scenarioReport({ target: { gauge: gaugeById('8724580')! }, years: [2050], scenarios: ['intermediate'], assessmentYear: 2026 });
    expect(ids(atGauge)).toEqual([['noaa_tr2022'], ['noaa_tr2022']]);
    expect(atGauge.provenance.datasets[0]).toEqual({ id: 'noaa_tr2022', name: atGauge.sources[0]!.name, version: atGauge.sources[0]!.version });
    expect(atGauge.provenance.statute).toMatchObject({ rule: 's. 380.093(3)(d), F.S.' });
  });
});

describe('the surge fit a location may use', () => {
  /** Great-circle distance in statute miles, from the science tests' own reader. */
  const miles = (a: { lat: number; lon: number }, b: { lat: number; lon: number }) => distanceKm(a, b) / 1.609344;
  const pensacola = gaugeById('8729840')!;

  it('is the reliable fit of the location\'s own regime within 100 miles (Destin: Pensacola)', () => {
    const destin = { lat: 30.39, lon: -86.5 };
    expect(miles(destin, pensacola)).toBeLessThan(100);
    const basis = surgeBasis(destin, selectGauges(destin));
    expect(basis).toMatchObject({ ok: true, gauge: { noaa_id: '8729840' }, regime: 'panhandle' });
  });

  it('is none when the regime\'s only reliable fit lies beyond 100 miles (east of Panama City: Pensacola)', () => {
    const eastOfPanamaCity = { lat: 30.0, lon: -85.5 };
    expect(miles(eastOfPanamaCity, pensacola)).toBeGreaterThan(100);
    const basis = surgeBasis(eastOfPanamaCity, selectGauges(eastOfPanamaCity));
    expect(basis.ok).toBe(false);
    expect(basis.ok ? '' : basis.reason).toMatch(/^No reliable tide-gauge extreme value fit in this location's surge regime \(Panhandle and Mobile Bay entrance\)\./);
  });
});
