import { gaugesByDistance, type Gauge, type GaugeSelection } from './gauges';
import { KM_PER_MILE, type LatLon } from './geo';
import { mhhwAboveNavd88, weightedMslNavd88 } from './tidal';
import { length } from './units';

/**
 * Coastal segments with a common storm-surge character (shelf width, exposure, tide range). A GEV
 * fit is carried only within its segment: the wide, shallow Big Bend shelf (Cedar Key) surges
 * unlike Tampa Bay (St. Petersburg). The grouping is this API's judgement from the gauges'
 * positions, not a published classification.
 */
export const SURGE_REGIMES: Record<string, { name: string; gauges: string[] }> = {
  atlantic_north: { name: 'Atlantic coast, Georgia to St. Augustine', gauges: ['8670870', '8720030', '8720218'] },
  atlantic_central_south: { name: 'Atlantic coast, Cape Canaveral to Biscayne Bay', gauges: ['8721604', '8723214'] },
  keys: { name: 'Florida Keys', gauges: ['8723970', '8724580'] },
  southwest_gulf: { name: 'Southwest Gulf coast (Naples, Fort Myers)', gauges: ['8725110', '8725520'] },
  tampa_bay: { name: 'Tampa Bay and Pinellas Gulf beaches', gauges: ['8726520', '8726724'] },
  big_bend: { name: 'Big Bend and Apalachee Bay (wide, shallow shelf)', gauges: ['8727520', '8728690'] },
  panhandle: { name: 'Panhandle and Mobile Bay entrance', gauges: ['8729108', '8729210', '8729840', '8735180'] },
};

export function surgeRegimeOf(gauge: Gauge): string {
  return Object.entries(SURGE_REGIMES).find(([, r]) => r.gauges.includes(gauge.noaa_id))![0];
}

/** NOAA's official extreme water levels known here (1 % annual chance, metres above MHHW). */
export const NOAA_OFFICIAL_EWL: Record<string, { aep_1pct_m_above_mhhw: number; source: string }> = {
  '8724580': { aep_1pct_m_above_mhhw: 0.74, source: 'NOAA CO-OPS extreme water levels, Key West 8724580 (1 % annual exceedance probability level above MHHW)' },
};

/** GEV return level (metres above the annual mean sea level) for a return period, from μ, σ, ξ. */
export function gevReturnLevel(mu: number, sigma: number, xi: number, returnPeriodYears: number): number {
  const y = -Math.log(1 - 1 / returnPeriodYears);
  return Math.abs(xi) < 1e-9 ? mu - sigma * Math.log(y) : mu + (sigma / xi) * (y ** -xi - 1);
}

export const GEV_LABEL = 'Research product: a stationary GEV distribution fitted by this API (maximum likelihood) to the annual maximum hourly water levels of a tide gauge (University of Hawaii Sea Level Center data to 2018, annual maxima compiled by T. Wong), not a NOAA or FEMA storm surge model and not a base flood elevation; wave setup and run-up are not included.';

export type SurgeBasis =
  | { ok: true; gauge: Gauge; distance_km: number; regime: string; mslNavd88: number }
  | { ok: false; reason: string };

/**
 * Which GEV fit may stand for a location: the nearest gauge with a reliable fit within 100 miles
 * and in the location's own surge regime (that of its coast gauge, the first of `gaugesByDistance`). Levels are converted
 * with the location's own MSL − NAVD88 (the selected gauges' datums), never the fitted gauge's.
 */
export function surgeBasis(point: LatLon, selection: GaugeSelection): SurgeBasis {
  const byDistance = gaugesByDistance(point);
  const regime = surgeRegimeOf(byDistance[0]!.gauge);
  const candidates = byDistance.filter((g) => g.gauge.gev?.reliable && g.distance_km / KM_PER_MILE <= 100);
  const same = candidates.find((g) => surgeRegimeOf(g.gauge) === regime);
  if (!same) {
    const other = candidates[0];
    return {
      ok: false,
      reason: `No reliable tide-gauge extreme value fit in this location's surge regime (${SURGE_REGIMES[regime]!.name}).${other ? ` The nearest reliable fit, ${other.gauge.name}, lies in a different regime (${SURGE_REGIMES[surgeRegimeOf(other.gauge)]!.name}) and is not carried over.` : ''}`,
    };
  }
  return { ok: true, gauge: same.gauge, distance_km: same.distance_km, regime, mslNavd88: weightedMslNavd88(selection) };
}

/** NOAA's official 1 % level at a gauge in NAVD88 (epoch MHHW + the published height), when one is known. */
export function officialOnePercent(gauge: Gauge) {
  const official = NOAA_OFFICIAL_EWL[gauge.noaa_id];
  if (!official) return null;
  return {
    source: official.source,
    above_mhhw: length(official.aep_1pct_m_above_mhhw),
    navd88: length(mhhwAboveNavd88(gauge) + official.aep_1pct_m_above_mhhw),
    note: 'NOAA\'s published level, shown beside the GEV estimate; MHHW of the 1983–2001 epoch.',
  };
}

