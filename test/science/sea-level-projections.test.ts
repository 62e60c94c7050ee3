import { gaugeById, GAUGES, selectGauges, epochRise } from '../../shared/domain/hazards/gauges';
import { localSeaLevelRise } from '../../shared/domain/hazards/local-slr';
import { scenarioReport } from '../../shared/domain/hazards/scenario-report';
import { assessSlrImpact } from '../../shared/domain/hazards/slr-impact';
import { describeGaugeSelection } from '../../shared/domain/hazards/responses';
import { htfThresholdsNavd88, mhhwAboveNavd88, mslAboveNavd88, weightedMhhwNavd88 } from '../../shared/domain/hazards/tidal';
import type { ElevationSource } from '../../shared/domain/hazards/elevation';
import { distanceKm, NC_SCENARIOS, ncGauges, packageDatums, packageFloridaStations, regionalTrajectoryRise, RULE_GAUGE_IDS, sameWaterStation, twoClosestUsable, usableGauges } from './readers/raw';

const DECADES = Array.from({ length: 14 }, (_, i) => 2020 + 10 * i);
const PERCENTILES = ['17', '50', '83'] as const;
const SCENARIOS = Object.keys(NC_SCENARIOS) as (keyof typeof NC_SCENARIOS)[];
/** Answers are rounded to 0.1 mm; the data keep the file's value to 0.01 mm. */
const TOL = 0.00006;

const nc = ncGauges();
const usable = usableGauges();
const datums = packageDatums(nc.map((g) => g.id));

/** Points along the whole coast, Perdido Key to Fernandina Beach, with the Keys and the bays. */
const COAST = [
  [30.28, -87.55], [30.33, -87.14], [30.39, -86.5], [30.37, -86.2], [30.23, -85.9], [30.15, -85.66], [29.95, -85.4], [29.68, -85.1],
  [29.9, -84.5], [30.08, -84.18], [29.99, -83.75], [29.63, -83.4], [29.15, -83.03], [28.92, -82.7], [28.55, -82.65], [28.2, -82.77],
  [27.97, -82.8], [27.77, -82.63], [27.5, -82.7], [27.1, -82.45], [26.7, -82.25], [26.45, -81.95], [26.14, -81.8], [25.85, -81.4],
  [25.15, -80.9], [24.55, -81.78], [24.67, -81.35], [24.72, -81.05], [24.93, -80.6], [25.3, -80.3], [25.77, -80.13], [26.12, -80.1],
  [26.7, -80.03], [27.2, -80.16], [27.6, -80.35], [28.4, -80.6], [28.9, -80.82], [29.2, -81.0], [29.9, -81.3], [30.33, -81.4], [30.67, -81.44],
];

describe('NOAA 2022 projections, recomputed from TR_local_projections.nc', () => {
  it('holds every gauge of the rule that the file has, Dauphin Island AL and Fort Pulaski GA included', () => {
    expect(nc.map((g) => g.id)).toEqual(expect.arrayContaining(['8735180', '8670870']));
    expect(GAUGES.map((g) => g.noaa_id).sort()).toEqual(nc.map((g) => g.id).sort());
    // Lake Worth Pier and Port Manatee are in the rule but not in the file.
    expect(nc.map((g) => g.id)).not.toContain('8722670');
    expect(nc.map((g) => g.id)).not.toContain('8726384');
    expect(RULE_GAUGE_IDS.length + 1).toBe(20); // + East Bay, which has no NOAA id here
  });

  it('leaves exactly the gauges with a QC flag or a trajectory from fewer than 30 years out of interpolation', () => {
    for (const g of nc) expect(gaugeById(g.id)!.data_warnings.length > 0).toBe(g.qc !== 0 || g.geq30 !== 1);
  });

  it('serves every gauge, scenario, percentile and decade as the file has it (mm → m)', () => {
    for (const g of nc) {
      const report = scenarioReport({ target: { gauge: gaugeById(g.id)! }, years: DECADES, scenarios: SCENARIOS, assessmentYear: 2026 });
      for (const s of report.scenarios) {
        for (const projection of s.projections) {
          PERCENTILES.forEach((p, pi) => {
            const expected = g.total(s.scenario, pi, projection.year) / 1000;
            const served = projection[`p${p}` as 'p17' | 'p50' | 'p83'];
            if (Math.abs(served.m - expected) > TOL) throw new Error(`${g.id} ${s.scenario} p${p} ${projection.year}: ${served.m} ≠ ${expected}`);
            expect(served.ft).toBeCloseTo(expected / 0.3048, 3);
          });
        }
      }
    }
  });

  it.each(COAST.map(([lat, lon]) => ({ lat: lat!, lon: lon! })))('interpolates at $lat,$lon between the two closest usable gauges by inverse distance', (point) => {
    const [a, b] = twoClosestUsable(point);
    const selection = selectGauges(point);
    if (a.d > 100 * 1.609344) {
      expect(selection.method).toBe('regional_fallback');
      return;
    }
    expect(selection.method).toBe('inverse_distance_two_gauges');
    expect(selection.gauges.map((w) => w.gauge.noaa_id)).toEqual([a.g.id, b.g.id]);
    const [wa, wb] = [a.w, b.w];
    for (const scenario of SCENARIOS) {
      for (const year of [2030, 2050, 2080, 2100]) {
        PERCENTILES.forEach((p, pi) => {
          const expected = (wa * a!.g.total(scenario, pi, year) + wb * b!.g.total(scenario, pi, year)) / 1000;
          expect(Math.abs(localSeaLevelRise(selection, scenario, p, year) - expected)).toBeLessThanOrEqual(TOL);
        });
      }
    }
    const epoch = (wa * (a!.g.trajectory(1, 2000) - a!.g.trajectory(1, 1992)) + wb * (b!.g.trajectory(1, 2000) - b!.g.trajectory(1, 1992))) / 1000;
    expect(Math.abs(epochRise(selection) - epoch)).toBeLessThanOrEqual(TOL);
    expect(epoch).toBeGreaterThan(0.015);
    expect(epoch).toBeLessThan(0.04);
  });
});

describe('beyond 100 miles of every usable gauge', () => {
  // Florida's Atlantic shore between Fernandina Beach and Virginia Key: Trident Pier and Virginia Key
  // are left out of interpolation for their short trajectories, and the nearest usable gauge of most
  // of these places is on the Gulf.
  it.each([
    ['Daytona Beach', 29.21, -81.02], ['Cape Canaveral', 28.4, -80.6], ['Vero Beach', 27.64, -80.4],
    ['West Palm Beach', 26.72, -80.05], ['Fort Lauderdale', 26.12, -80.14],
  ])('%s: the Southeast (Atlantic) series, with the datums of the closest gauge of the file, and the 1992→2000 rise of the regional trajectory where that gauge has a data warning', (_name, lat, lon) => {
    const point = { lat, lon };
    expect(usable.every((g) => distanceKm(point, g) > 100 * 1.609344)).toBe(true);
    const closest = nc.map((g) => ({ g, d: distanceKm(point, g) })).sort((a, b) => a.d - b.d)[0]!.g;
    expect(['8721604', '8723214']).toContain(closest.id); // Trident Pier or Virginia Key
    const selection = selectGauges(point);
    expect(selection).toMatchObject({ method: 'regional_fallback', region: 'SE' });
    expect(selection.gauges.map((w) => w.gauge.noaa_id)).toEqual([closest.id]);
    expect(weightedMhhwNavd88(selection)).toBeCloseTo(datums[closest.id]!.MHHW! - datums[closest.id]!.NAVD88!, 3);
    // Both have a trajectory from fewer than 30 years, which runs negative here; the region's does not.
    expect(closest.geq30).toBe(0);
    expect(closest.trajectory(1, 2000) - closest.trajectory(1, 1992)).toBeLessThan(0);
    expect(Math.abs(epochRise(selection) - regionalTrajectoryRise('SE'))).toBeLessThanOrEqual(TOL);
    expect(regionalTrajectoryRise('SE')).toBeCloseTo(0.0285, 4);
  });
});

describe('cautions on the gauge choice, recomputed from the gauges\' positions', () => {
  // The shore of a gauge told by geography alone: the Atlantic is east of 81.6°W and north of the
  // Keys (25.5°N), Georgia included; the Keys and the Gulf are the other shore.
  const atlantic = (g: { lat: number; lon: number }) => g.lon > -81.6 && g.lat > 25.5;
  const PLACES = [
    ...COAST.map(([lat, lon]) => [`${lat},${lon}`, lat!, lon!] as const),
    ['Downtown Jacksonville', 30.3257, -81.6594], ['St. Augustine', 29.8921, -81.311], ['Palatka', 29.648, -81.637],
    ['Gainesville', 29.6516, -82.3248], ['Homestead', 25.4687, -80.4776], ['Miami Beach', 25.7907, -80.13],
  ] as const;

  it.each(PLACES)('%s: a gauge on the other shore than the closest gauge of the file is named with its share; two gauges beyond 100 miles open the exception', (_name, lat, lon) => {
    const point = { lat, lon };
    const selection = selectGauges(point);
    const cautions = describeGaugeSelection(selection).cautions;
    if (usable.every((g) => distanceKm(point, g) > 100 * 1.609344)) {
      expect(cautions).toEqual([]); // the regional series of the location's own coast
      return;
    }
    const closestOfFile = nc.map((g) => ({ g, d: distanceKm(point, g) })).sort((a, b) => a.d - b.d)[0]!.g;
    const pair = twoClosestUsable(point);
    const otherShore = pair.filter(({ g }) => atlantic(g) !== atlantic(closestOfFile));
    const separationMiles = distanceKm(pair[0].g, pair[1].g) / 1.609344;
    expect(cautions).toHaveLength(otherShore.length + (separationMiles > 100 ? 1 : 0));
    otherShore.forEach(({ g, w }, i) => {
      expect(cautions[i]).toContain(`${g.name} is in the NOAA 2022`);
      expect(cautions[i]).toContain(`${Math.round(w * 100)} % of the location's sea level rise and tidal datums come from another coast`);
    });
    if (separationMiles > 100) expect(cautions.at(-1)).toMatch(/^The two gauges are more than 100 miles apart/);
  });

  it('St. Augustine takes a third of its figures from Cedar Key, across the peninsula; Tampa and Key West nothing to weigh', () => {
    const cautions = (lat: number, lon: number) => describeGaugeSelection(selectGauges({ lat, lon })).cautions;
    const [fernandina, cedarKey] = twoClosestUsable({ lat: 29.8921, lon: -81.311 });
    expect([fernandina.g.id, cedarKey.g.id]).toEqual(['8720030', '8727520']);
    expect(Math.round(cedarKey.w * 100)).toBe(32);
    expect(cautions(29.8921, -81.311)).toEqual([expect.stringMatching(/^Cedar Key, FL is in .* 32 % of the location/), expect.stringMatching(/^The two gauges are more than 100 miles apart \(gauge_separation_miles\): s\. 380\.093\(3\)\(d\) allows one of them alone/)]);
    expect(cautions(27.95, -82.46)).toEqual([]);
    expect(cautions(24.5551, -81.78)).toEqual([]);
  });
});

describe('datums and thresholds, recomputed from the NOAA datums (@neaps/tide-database)', () => {
  it.each(nc.map((g) => g.id))('gauge %s: MHHW − NAVD88, MSL − NAVD88 and the TR 086 minor/moderate/major formulas from GT', (id) => {
    const d = datums[id]!;
    const gauge = gaugeById(id)!;
    const mhhw = d.MHHW! - d.NAVD88!;
    expect(mhhwAboveNavd88(gauge)).toBeCloseTo(mhhw, 3);
    expect(mslAboveNavd88(gauge)).toBeCloseTo(d.MSL! - d.NAVD88!, 3);
    const t = htfThresholdsNavd88(gauge);
    expect(t.minor).toBeCloseTo(mhhw + 0.04 * d.GT! + 0.5, 3);
    expect(t.moderate).toBeCloseTo(mhhw + 0.03 * d.GT! + 0.8, 3);
    expect(t.major).toBeCloseTo(mhhw + 0.04 * d.GT! + 1.17, 3);
  });

  it('Key West and Pensacola MHHW above NAVD88 are +0.013 m and +0.285 m', () => {
    expect(mhhwAboveNavd88(gaugeById('8724580')!)).toBeCloseTo(0.013, 3);
    expect(mhhwAboveNavd88(gaugeById('8729840')!)).toBeCloseTo(0.285, 3);
  });
});

describe('projected MHHW at sampled coastal points', () => {
  const reference = packageFloridaStations().filter((s) => s.type === 'reference');
  const noElevation: ElevationSource = { info: () => ({ name: 'none', vertical_datum: 'NAVD88', native_resolution: 'none' }), grid: async () => undefined };

  it.each(COAST.filter((_, i) => i % 3 === 0).map(([lat, lon]) => ({ lat: lat!, lon: lon! })))('$lat,$lon: MHHW (NAVD88) + rise 1992→2000 + projected rise', async (point) => {
    const [a, b] = twoClosestUsable(point);
    if (a.d > 100 * 1.609344) return;
    const [wa, wb] = [a.w, b.w];
    const mhhw = (g: typeof a) => datums[g!.g.id]!.MHHW! - datums[g!.g.id]!.NAVD88!;
    const epoch = (g: typeof a) => (g!.g.trajectory(1, 2000) - g!.g.trajectory(1, 1992)) / 1000;
    // A NOAA station on the same water within 10 km supplies MHHW; elsewhere the gauges' weighted MHHW.
    const local = sameWaterStation(point, reference);
    const mhhwHere = local ? local.s.mhhwNavd88 : wa * mhhw(a) + wb * mhhw(b);
    for (const [scenario, year] of [['intermediate_low', 2050], ['intermediate', 2074], ['high', 2100]] as const) {
      const rise = (wa * a!.g.total(scenario, 1, year) + wb * b!.g.total(scenario, 1, year)) / 1000;
      const expected = mhhwHere + wa * epoch(a) + wb * epoch(b) + rise;
      const answer = await assessSlrImpact({ point, scenario, planningHorizon: year, percentile: '50', radiusKm: 1, includeGeoJson: false }, { elevation: noElevation, assets: [] });
      expect(Math.abs(answer.projected_mhhw_navd88.m - expected)).toBeLessThanOrEqual(0.0011);
      expect(answer.location).toEqual(point);
      // The rise since 2000 at each percentile the file gives (its percentiles dimension: 17, 50, 83), rounded to the mm.
      expect(answer.elevation_change.baseline_year).toBe(2000);
      expect(Math.abs(answer.elevation_change.m - rise)).toBeLessThanOrEqual(0.0006);
      [17, 50, 83].forEach((percentile, index) => {
        const atPercentile = (wa * a!.g.total(scenario, index, year) + wb * b!.g.total(scenario, index, year)) / 1000;
        expect(Math.abs(answer.elevation_change.percentiles[`p${percentile}`]!.m - atPercentile)).toBeLessThanOrEqual(0.0006);
      });
      expect(Math.abs(answer.datum_epoch.rise_1992_to_2000.m - (wa * epoch(a) + wb * epoch(b)))).toBeLessThanOrEqual(TOL);
    }
  });
});
