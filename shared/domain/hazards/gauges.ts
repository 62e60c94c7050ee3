import gaugeData from '../../data/hazards/gauges.json';
import tideStationData from '../../data/hazards/tide-stations.json';
import gevData from '../../data/hazards/gev-return-levels.json';
import annualMaxima from '../../data/hazards/tide-gauge-annual-maxima.json';
import { fitGev, type GevParameters } from './gev-fit';
import gaugeRule from '../../data/hazards/fac-62s-7-gauges.json';
import regionalTrajectory from '../../data/hazards/slr-regional-trajectory-tr2022.json';
import { haversineKm, KM_PER_MILE, type LatLon } from './geo';
import { REGION_LABELS, type RegionId } from './scenarios';

export interface TideConstituent {
  name: string;
  amplitude: number;
  phase: number;
}

/** NOAA tidal datums in metres above the station datum (STND), 1983–2001 epoch. */
export interface StationDatums {
  MHHW: number;
  MHW: number;
  MSL: number;
  MLW: number;
  MLLW: number;
  NAVD88: number;
  GT: number;
}

export interface GevFit {
  site: string;
  first_year: number;
  last_year: number;
  n_annual_maxima: number;
  record_max_m: number;
  record_max_year: number;
  /** The project's own maximum-likelihood GEV fit of the annual maxima (μ and σ in metres above the annual mean sea level). */
  gev_m: GevParameters;
  /** Return period in years → metres above that year's mean sea level. */
  return_levels_m_above_annual_msl: Record<'2' | '10' | '50' | '100' | '500', number>;
  reliable: boolean;
  reliability: string;
}

export interface Gauge extends LatLon {
  noaa_id: string;
  name: string;
  region: RegionId;
  tr2022_obs_years: number;
  tr2022_trajectory_geq30yrs: boolean;
  tr2022_qc_flag: number;
  /** Why the gauge is not used for interpolation (NOAA 2022 QC flag, short trajectory); empty when usable. */
  data_warnings: string[];
  /** Relative sea level rise between 1992 (centre of the datum epoch) and 2000 (scenario baseline), metres, by trajectory percentile. */
  rise_1992_to_2000_m: Record<'17' | '50' | '83', number>;
  datums: StationDatums;
  datum_epoch: { start: string; end: string };
  constituents: TideConstituent[];
  gev: GevFit | undefined;
}

/** Atlantic-coast gauges (incl. Biscayne Bay and Georgia) use the Southeast region; the Keys and the Gulf coast the Eastern Gulf. */
const SOUTHEAST_GAUGES = new Set(['8670870', '8720030', '8720218', '8721604', '8723214']);

const stations = new Map(tideStationData.map((s) => [s.noaa_id, s]));
const maximaById = new Map(annualMaxima.map((m) => [m.noaa_id, m.years.map(([, level]) => level!)]));
const gevRows = new Map((gevData as (Omit<GevFit, 'gev_m'> & { noaa_id: string })[]).map((g) => [g.noaa_id, g]));
const gevFits = new Map<string, GevFit>();

/** The gauge's GEV fit, made on first use: the maximum-likelihood fits cost more than the rest of the module's load. */
function gevFitOf(noaaId: string): GevFit | undefined {
  const row = gevRows.get(noaaId);
  if (!row) return undefined;
  let fit = gevFits.get(noaaId);
  if (!fit) gevFits.set(noaaId, fit = { ...row, gev_m: fitGev(maximaById.get(noaaId)!) });
  return fit;
}

/** Every gauge of the rule's list that the NOAA 2022 file holds, with its datums. */
export const GAUGES: readonly Gauge[] = gaugeData.map((g) => {
  const station = stations.get(g.noaa_id)!;
  return {
    noaa_id: g.noaa_id,
    name: g.name,
    lat: g.lat,
    lon: g.lon,
    region: SOUTHEAST_GAUGES.has(g.noaa_id) ? 'SE' : 'EGOM',
    tr2022_obs_years: g.tr2022.obs_years_for_trajectory,
    tr2022_trajectory_geq30yrs: g.tr2022.trajectory_geq_30_years,
    tr2022_qc_flag: g.tr2022.qc_flag,
    data_warnings: g.data_warnings,
    rise_1992_to_2000_m: g.tr2022.rise_1992_to_2000_m as Gauge['rise_1992_to_2000_m'],
    datums: station.datums_m_above_station_datum,
    datum_epoch: station.epoch as { start: string; end: string },
    constituents: station.constituents,
    get gev() {
      return gevFitOf(g.noaa_id);
    },
  };
});

/** The gauges interpolation may use: those without data warnings (F.A.C. 62S-7.012(1)(b)). */
export const INTERPOLATION_GAUGES: readonly Gauge[] = GAUGES.filter((g) => g.data_warnings.length === 0);

const byId = new Map(GAUGES.map((g) => [g.noaa_id, g]));

export function gaugeById(id: string): Gauge | undefined {
  return byId.get(id);
}

/** The rule's gauge list and what this data set does with each entry, for every answer's provenance. */
export function gaugeRuleProvenance() {
  return {
    rule: gaugeRule.rule,
    url: gaugeRule.url,
    verification: gaugeRule.verification,
    text: gaugeRule.text,
    gauge_list_verification: gaugeRule.list_verification,
    gauge_list_note: gaugeRule.list_note,
    gauges_used: INTERPOLATION_GAUGES.map((g) => `${g.noaa_id} ${g.name}`),
    gauges_excluded_for_data_warnings: GAUGES.filter((g) => g.data_warnings.length > 0).map((g) => ({ noaa_id: g.noaa_id, name: g.name, warnings: g.data_warnings })),
    gauges_without_noaa_2022_projections: gaugeRule.gauges.filter((g) => g.noaa_id === null || !byId.has(g.noaa_id)).map((g) => g.name),
  };
}

/** Statute (s. 380.093(3)(d)): one gauge may be used only when the two closest are more than 100 miles apart. */
export const GAUGE_SEPARATION_LIMIT_MILES = 100;
/** Beyond this from every usable gauge a location takes the regional series instead. */
export const GAUGE_REACH_MILES = 100;

export interface WeightedGauge {
  gauge: Gauge;
  distance_km: number;
  weight: number;
}

/** `cautions`: what to weigh before signing the choice (`selectionCautions`); none where absent. */
export type GaugeSelection = { gauges: WeightedGauge[]; reason: string; cautions?: string[] } & (
  | { method: 'single_gauge' }
  | { method: 'inverse_distance_two_gauges'; separation_miles: number }
  | { method: 'regional_fallback'; region: RegionId });

/** The caller's explicit single-gauge choice (the statute's exception: a recorded judgement, never a default). */
export interface SingleGaugeChoice {
  gauge_id: string;
  reason: string;
}

export type GaugeChoiceResult = { ok: true; selection: GaugeSelection } | { ok: false; message: string };

/**
 * Every gauge of the rule's list that the NOAA 2022 file holds, data warnings or not, by distance
 * from `point`, nearest first. The first, the location's coast gauge, tells which coast and which
 * stretch of it the location is on (the regional series, the surge regime, the cautions) and gives
 * tidal datums where no usable gauge is within reach. The nearest usable gauge can lie across the
 * peninsula or down the Keys: from Brevard County to Broward County it is a Gulf gauge, from Miami
 * Beach Vaca Key, while Trident Pier and Virginia Key, left out of interpolation only for their short
 * sea level trajectories, stand on the same Atlantic shore.
 */
export function gaugesByDistance(point: LatLon): { gauge: Gauge; distance_km: number }[] {
  return GAUGES.map((gauge) => ({ gauge, distance_km: haversineKm(point, gauge) })).sort((a, b) => a.distance_km - b.distance_km);
}

const USABLE = new Set(INTERPOLATION_GAUGES);

/** Every gauge by distance, sorted once: the coast gauge and the usable ones in order. */
function rankedGauges(point: LatLon) {
  const all = gaugesByDistance(point);
  return { coast: all[0]!, usable: all.filter(({ gauge }) => USABLE.has(gauge)) };
}

/**
 * F.A.C. 62S-7.012(1)(b): the two closest gauges without data warnings, weighted by inverse
 * distance, whatever their separation (a single gauge is the caller's recorded choice, see
 * `chooseSingleGauge`). A location farther than 100 miles from every usable gauge takes the
 * regional series of its own coast, with the datums of its coast gauge (`gaugesByDistance`).
 */
export function selectGauges(point: LatLon): GaugeSelection {
  const { coast, usable: [first, second] } = rankedGauges(point);
  const nearest = first!;
  const firstMiles = nearest.distance_km / KM_PER_MILE;
  if (firstMiles > GAUGE_REACH_MILES) {
    const coastMiles = coast.distance_km / KM_PER_MILE;
    const warned = coast.gauge.data_warnings.length > 0 ? ' (its data warning concerns the length of its sea level trajectory, not its tidal datums)' : '';
    return {
      method: 'regional_fallback',
      region: coast.gauge.region,
      gauges: [{ ...coast, weight: 0 }],
      reason: `The nearest usable gauge (${nearest.gauge.name}) is ${firstMiles.toFixed(1)} miles away, beyond ${GAUGE_REACH_MILES} miles: the NOAA 2022 regional series of the location's coast, ${REGION_LABELS[coast.gauge.region]}, is used, with the tidal datums of the closest gauge on that coast, ${coast.gauge.name}, ${coastMiles.toFixed(1)} miles away${warned}.`,
    };
  }
  if (nearest.distance_km === 0) {
    return { method: 'single_gauge', gauges: [{ ...nearest, weight: 1 }], reason: 'The location is at the gauge.' };
  }
  const separationMiles = haversineKm(nearest.gauge, second!.gauge) / KM_PER_MILE;
  const inverse = [1 / nearest.distance_km, 1 / second!.distance_km];
  const total = inverse[0]! + inverse[1]!;
  const gauges = [{ ...nearest, weight: inverse[0]! / total }, { ...second!, weight: inverse[1]! / total }];
  return {
    method: 'inverse_distance_two_gauges',
    gauges,
    separation_miles: separationMiles,
    reason: `Interpolated between the two closest gauges without data warnings (${separationMiles.toFixed(1)} miles apart) by inverse distance (F.A.C. 62S-7.012(1)(b)).`,
    cautions: selectionCautions(coast, gauges, separationMiles),
  };
}

/**
 * What the engineer should weigh before signing a gauge choice. The rule takes the two closest
 * gauges whatever the water between: a gauge in another NOAA 2022 region than the gauge of the file
 * closest to the location lies on another coast (St. Augustine takes a third of its figures from
 * Cedar Key, across the peninsula), so its share of the rise and of the tidal datums is another
 * sea's. Two gauges more than 100 miles apart open the statute's single-gauge exception.
 */
function selectionCautions(coast: { gauge: Gauge; distance_km: number }, gauges: readonly WeightedGauge[], separationMiles?: number): string[] {
  const cautions = gauges.filter(({ gauge }) => gauge.region !== coast.gauge.region).map(({ gauge, weight }) =>
    `${gauge.name} is in the NOAA 2022 ${REGION_LABELS[gauge.region]} region, while the gauge of the file closest to the location, ${coast.gauge.name} (${(coast.distance_km / KM_PER_MILE).toFixed(1)} miles), is in the ${REGION_LABELS[coast.gauge.region]} region: ${Math.round(weight * 100)} % of the location's sea level rise and tidal datums come from another coast. Compare MHHW with a NOAA station at the location (local_datum_check of slr-impact and flood-analysis) before signing a tidal figure.`);
  if (separationMiles !== undefined && separationMiles > GAUGE_SEPARATION_LIMIT_MILES) {
    cautions.push(`The two gauges are more than ${GAUGE_SEPARATION_LIMIT_MILES} miles apart (gauge_separation_miles): s. 380.093(3)(d) allows one of them alone where it is judged more representative of the location (gauge_method=single, with representative_gauge and gauge_choice_reason).`);
  }
  return cautions;
}

/**
 * The statute's single-gauge exception, on request: allowed only when the two closest usable
 * gauges are more than 100 miles apart and the chosen gauge is one of them; the reason is kept.
 */
export function chooseSingleGauge(point: LatLon, choice: SingleGaugeChoice): GaugeChoiceResult {
  const { coast, usable: [first, second] } = rankedGauges(point);
  const separationMiles = haversineKm(first!.gauge, second!.gauge) / KM_PER_MILE;
  const names = `${first!.gauge.noaa_id} ${first!.gauge.name} and ${second!.gauge.noaa_id} ${second!.gauge.name}`;
  if (separationMiles <= GAUGE_SEPARATION_LIMIT_MILES) {
    return { ok: false, message: `The two closest gauges (${names}) are ${separationMiles.toFixed(1)} miles apart; s. 380.093(3)(d) allows a single gauge only when they are more than ${GAUGE_SEPARATION_LIMIT_MILES} miles apart.` };
  }
  const chosen = [first!, second!].find((g) => g.gauge.noaa_id === choice.gauge_id);
  if (!chosen) {
    const warned = gaugeById(choice.gauge_id);
    const why = warned && warned.data_warnings.length > 0 ? ` Gauge ${choice.gauge_id} has data warnings: ${warned.data_warnings.join(' ')}` : '';
    return { ok: false, message: `representative_gauge must be one of the two closest usable gauges: ${names}.${why}` };
  }
  return {
    ok: true,
    selection: {
      method: 'single_gauge',
      gauges: [{ ...chosen, weight: 1 }],
      reason: `Single gauge chosen by the caller (the two closest usable gauges are ${separationMiles.toFixed(1)} miles apart): ${choice.reason}`,
      cautions: selectionCautions(coast, [{ ...chosen, weight: 1 }]),
    },
  };
}

/** A datum-derived quantity combined over the selected gauges with their weights. */
export function weightedByGauges(selection: GaugeSelection, value: (gauge: Gauge) => number): number {
  if (selection.method === 'regional_fallback') return value(selection.gauges[0]!.gauge);
  return selection.gauges.reduce((sum, g) => sum + g.weight * value(g.gauge), 0);
}

const REGIONAL_EPOCH_RISE = new Map(regionalTrajectory.regions.map((r) => [r.region as RegionId, r.rise_1992_to_2000_m['50']]));

/**
 * A gauge's rise from the tidal datum epoch's centre (1992) to the scenarios' baseline (2000): its
 * NOAA 2022 observed trajectory (median), or, where the gauge carries a data warning (a trajectory of
 * fewer than 30 years: Mayport, Trident Pier, Virginia Key, Panama City Beach, whose short records
 * give −3 to −28 mm), its region's trajectory (+27 to +28 mm).
 */
export function gaugeEpochRise(gauge: Gauge): number {
  return gauge.data_warnings.length > 0 ? REGIONAL_EPOCH_RISE.get(gauge.region)! : gauge.rise_1992_to_2000_m['50'];
}

/** Rise 1992→2000 at a location: that of the selected gauges (`gaugeEpochRise`), weighted as they are. */
export function epochRise(selection: GaugeSelection): number {
  return weightedByGauges(selection, gaugeEpochRise);
}

