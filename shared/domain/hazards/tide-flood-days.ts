import htfDays from '../../data/hazards/htf-days-historical.json';
import peakRecords from '../../data/hazards/htf-daily-max-peaks.json';
import type { Gauge } from './gauges';
import { localSeaLevelRise } from './local-slr';
import type { Percentile, ScenarioId } from './scenarios';
import { htfThresholdsNavd88, mslAboveNavd88 } from './tidal';

export interface TidePeak {
  time: Date;
  /** Metres relative to the epoch mean sea level. */
  level: number;
}

/** The harmonic tide predictor (`@neaps/tide-predictor` in production), behind a port so the domain stays pure. */
export interface TidePredictor {
  /** High waters between two instants, metres relative to the epoch MSL. */
  highWaters(gauge: Gauge, start: Date, end: Date): Promise<TidePeak[]>;
  /** Predicted levels at the given instants, metres relative to the epoch MSL. */
  levelsAt(gauge: Gauge, times: readonly Date[]): Promise<number[]>;
}

const DAY_MS = 86_400_000;

/**
 * The highest predicted water level of each UTC day of a year (metres relative to epoch MSL).
 * Between extremes the tide is monotonic, so a day's maximum is one of its high waters or the
 * level at one of its ends: mixed and diurnal tides have days without any high water.
 */
export async function dailyHighestTides(tides: TidePredictor, gauge: Gauge, year: number): Promise<number[]> {
  const start = Date.UTC(year, 0, 1);
  const days = Math.round((Date.UTC(year + 1, 0, 1) - start) / DAY_MS);
  const boundaries = await tides.levelsAt(gauge, Array.from({ length: days + 1 }, (_, i) => new Date(start + i * DAY_MS)));
  const maxima = Array.from({ length: days }, (_, i) => Math.max(boundaries[i]!, boundaries[i + 1]!));
  for (const peak of await tides.highWaters(gauge, new Date(start), new Date(start + days * DAY_MS))) {
    const day = Math.floor((peak.time.getTime() - start) / DAY_MS);
    if (day >= 0 && day < days) maxima[day] = Math.max(maxima[day]!, peak.level);
  }
  return maxima;
}

/** Minor HTF threshold of a gauge, as the flood-day count uses it. */
export function minorThresholdNavd88(gauge: Gauge): number {
  return htfThresholdsNavd88(gauge).minor;
}

/** Observed NOAA minor flood days per year at a gauge (TR 086, 1920–2016), when the gauge has a record. */
export function observedFloodDays(gauge: Gauge): Map<number, number> | undefined {
  const record = htfDays.find((g) => g.noaa_id === gauge.noaa_id);
  return record ? new Map(record.years.map(([year, days]) => [year!, days!])) : undefined;
}

/** The recent observed period the projections never fall below and the fallback is calibrated on. */
export const RECENT_OBSERVED_YEARS = [2007, 2016] as const;
/** The tide year the nontidal spread is calibrated with (the recent period's middle). */
export const CALIBRATION_TIDE_YEAR = 2012;
/** Nontidal spread used where a gauge has neither a peak record nor observed flood days to calibrate on. */
export const DEFAULT_NONTIDAL_SD_M = 0.1;
/** The narrowest nontidal spread the calibration considers (metres). */
const MIN_NONTIDAL_SD_M = 0.005;

/** A gauge's daily-maximum water levels above the 99th percentile (UHSLC hourly data, declustered over 3 days). */
export interface DailyMaxPeaks {
  noaa_id: string;
  site: string;
  threshold_percentile: number;
  /** The percentile of the daily maxima, metres above that year's mean sea level. */
  threshold_m_above_annual_msl: number;
  decluster_days: number;
  first_year: number;
  last_year: number;
  days_of_data: number;
  /** Every declustered peak of the record, metres above its year's mean sea level, highest first. */
  peaks_m_above_annual_msl: number[];
}

export function recentObservedMean(gauge: Gauge): number | null {
  const observed = observedFloodDays(gauge);
  if (!observed) return null;
  const [from, to] = RECENT_OBSERVED_YEARS;
  let sum = 0;
  for (let year = from; year <= to; year++) sum += observed.get(year) ?? 0;
  return sum / (to - from + 1);
}

const peaksById = new Map((peakRecords as DailyMaxPeaks[]).map((r) => [r.noaa_id, r]));

export function dailyMaxPeaks(gauge: Gauge): DailyMaxPeaks | undefined {
  return peaksById.get(gauge.noaa_id);
}

/** Share of a record's declustered peaks at or above a level (peaks sorted highest first). */
export function peakShareAtOrAbove(record: DailyMaxPeaks, level: number): number {
  const peaks = record.peaks_m_above_annual_msl;
  let low = 0;
  let high = peaks.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if (peaks[mid]! >= level) low = mid + 1;
    else high = mid;
  }
  return low / peaks.length;
}

/** Standard normal upper tail P(Z ≥ z) (Abramowitz & Stegun 7.1.26 on erfc, |error| < 1.5e-7). */
export function normalUpperTail(z: number): number {
  const x = Math.abs(z) / Math.SQRT2;
  const t = 1 / (1 + 0.3275911 * x);
  const erfc = t * (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429)))) * Math.exp(-x * x);
  return z >= 0 ? erfc / 2 : 1 - erfc / 2;
}

/**
 * Expected days a year whose highest water level reaches `thresholdAboveMsl`: each day's highest
 * astronomical tide (metres above epoch MSL) raised by `shiftM`, plus a normal nontidal anomaly of
 * spread `sdM`.
 */
export function expectedFloodDays(dailyMaxima: readonly number[], shiftM: number, thresholdAboveMsl: number, sdM: number): number {
  let days = 0;
  for (const level of dailyMaxima) days += normalUpperTail((thresholdAboveMsl - level - shiftM) / sdM);
  return days;
}

/**
 * The nontidal spread that reproduces the gauge's observed 2007–2016 mean of minor flood days at
 * that period's sea level (bisection; the count grows with the spread while the threshold lies above
 * the tides). Undefined when nothing was observed to calibrate on.
 */
export function calibrateNontidalSpread(dailyMaxima: readonly number[], shiftM: number, thresholdAboveMsl: number, observedMean: number): number | undefined {
  if (!(observedMean > 0)) return undefined;
  let low = MIN_NONTIDAL_SD_M;
  let high = 0.6;
  if (expectedFloodDays(dailyMaxima, shiftM, thresholdAboveMsl, high) < observedMean) return high;
  for (let i = 0; i < 60; i++) {
    const mid = (low + high) / 2;
    if (expectedFloodDays(dailyMaxima, shiftM, thresholdAboveMsl, mid) < observedMean) low = mid;
    else high = mid;
  }
  return (low + high) / 2;
}

/** A year of predicted daily maxima is the expensive part; a warm function keeps the ones it used. */
const maximaCache = new Map<string, Promise<number[]>>();
const MAX_CACHED_YEARS = 64;

function cachedDailyHighestTides(tides: TidePredictor, gauge: Gauge, year: number): Promise<number[]> {
  const key = `${gauge.noaa_id}|${year}`;
  let maxima = maximaCache.get(key);
  if (!maxima) {
    if (maximaCache.size >= MAX_CACHED_YEARS) maximaCache.clear();
    maxima = dailyHighestTides(tides, gauge, year);
    maximaCache.set(key, maxima);
    maxima.catch(() => maximaCache.delete(key));
  }
  return maxima;
}

/** Where a gauge's flood-day distribution comes from. */
export type FloodDayBasis = 'observed_daily_max_peaks' | 'calibrated_on_observed_days' | 'default_nontidal_spread';

export interface FloodDayProjection {
  days: number;
  expected_days: number;
  observed_mean_2007_2016: number | null;
  floored_at_observed_mean: boolean;
  nontidal_sd_m: number;
  /** True when the spread reproduces the gauge's observed 2007–2016 flood days (the fallback). */
  calibrated: boolean;
  basis: FloodDayBasis;
  /** With a peak record: the year's expected days above the record's 99th percentile and the share of peaks at or above the flood level. */
  peaks?: { threshold_m_above_annual_msl: number; days_at_threshold: number; share_at_or_above: number; flood_level_m_above_annual_msl: number };
}

/**
 * The nontidal spread with which the daily highest tides put the record's percentile share of days
 * above its threshold (1 % above the 99th percentile). Undefined when the predicted tides alone
 * already pass it that often: the record then does not match the station's harmonic constants.
 */
function spreadFromPeaks(calibrationMaxima: readonly number[], record: DailyMaxPeaks): number | undefined {
  const target = (1 - record.threshold_percentile) * calibrationMaxima.length;
  if (expectedFloodDays(calibrationMaxima, 0, record.threshold_m_above_annual_msl, MIN_NONTIDAL_SD_M) >= target) return undefined;
  return calibrateNontidalSpread(calibrationMaxima, 0, record.threshold_m_above_annual_msl, target);
}

/**
 * Expected days a year whose highest water level, above that year's mean sea level, reaches
 * `levelAboveAnnualMsl`. Above the record's 99th percentile: the year's days at the percentile
 * (tides + calibrated anomaly) times the share of the observed declustered peaks at or above the
 * level — the observed tail, assuming a storm's days above the percentile do not depend on its
 * height. Below it: the daily highest tides plus the anomaly. Both agree at the percentile, so the
 * count is continuous and grows as the level falls (as the sea rises).
 */
export function daysFromPeaks(dailyMaxima: readonly number[], record: DailyMaxPeaks, levelAboveAnnualMsl: number, sdM: number) {
  const threshold = record.threshold_m_above_annual_msl;
  const atThreshold = expectedFloodDays(dailyMaxima, 0, threshold, sdM);
  if (levelAboveAnnualMsl < threshold) return { days: expectedFloodDays(dailyMaxima, 0, levelAboveAnnualMsl, sdM), atThreshold, share: 1 };
  const share = peakShareAtOrAbove(record, levelAboveAnnualMsl);
  return { days: atThreshold * share, atThreshold, share };
}

/**
 * Projected minor high tide flood days at a gauge in a year, after Sweet et al. (2018, 2022): the
 * distribution of daily highest water levels shifted by sea level rise. Where a peak record covers
 * the gauge, that distribution is the observed one above its 99th percentile (`daysFromPeaks`);
 * elsewhere the year's daily highest astronomical tides plus a normal nontidal anomaly whose spread
 * reproduces the gauge's observed 2007–2016 flood days at that period's sea level. The shift is the
 * rise from the datum epoch (1992) to 2000 plus the projected rise since 2000. A projection never
 * falls below the recent observed mean.
 */
export async function projectFloodDays(tides: TidePredictor, gauge: Gauge, scenario: ScenarioId, percentile: Percentile, year: number): Promise<FloodDayProjection> {
  const atGauge = { method: 'single_gauge' as const, gauges: [{ gauge, distance_km: 0, weight: 1 }], reason: '' };
  const epoch = gauge.rise_1992_to_2000_m['50'];
  const shift = epoch + localSeaLevelRise(atGauge, scenario, percentile, year);
  const thresholdAboveMsl = minorThresholdNavd88(gauge) - mslAboveNavd88(gauge);
  const observedMean = recentObservedMean(gauge);
  const floor = observedMean ?? 0;
  const calibrationMaxima = await cachedDailyHighestTides(tides, gauge, CALIBRATION_TIDE_YEAR);
  const maxima = await cachedDailyHighestTides(tides, gauge, year);
  const result = (expected: number, spread: number, basis: FloodDayBasis, peaks?: FloodDayProjection['peaks']): FloodDayProjection => ({
    days: Math.max(expected, floor),
    expected_days: expected,
    observed_mean_2007_2016: observedMean,
    floored_at_observed_mean: expected < floor,
    nontidal_sd_m: spread,
    calibrated: basis === 'calibrated_on_observed_days',
    basis,
    ...(peaks ? { peaks } : {}),
  });

  const record = dailyMaxPeaks(gauge);
  const peakSpread = record && spreadFromPeaks(calibrationMaxima, record);
  if (record && peakSpread !== undefined) {
    // The flood level above the year's mean sea level: the threshold above the epoch MSL less the rise since.
    const level = thresholdAboveMsl - shift;
    const { days, atThreshold, share } = daysFromPeaks(maxima, record, level, peakSpread);
    return result(days, peakSpread, 'observed_daily_max_peaks', {
      threshold_m_above_annual_msl: record.threshold_m_above_annual_msl, days_at_threshold: atThreshold, share_at_or_above: share, flood_level_m_above_annual_msl: level,
    });
  }
  // 2012 lies between the baseline (0 in 2000) and the first projected decade.
  const riseSince2000In2012 = 0.6 * localSeaLevelRise(atGauge, 'intermediate', '50', 2020);
  const sd = calibrateNontidalSpread(calibrationMaxima, epoch + riseSince2000In2012, thresholdAboveMsl, floor);
  const spread = sd ?? DEFAULT_NONTIDAL_SD_M;
  return result(expectedFloodDays(maxima, shift, thresholdAboveMsl, spread), spread, sd === undefined ? 'default_nontidal_spread' : 'calibrated_on_observed_days');
}

export const FLOOD_DAY_METHOD = 'Sweet et al. (2018, NOAA TR NOS CO-OPS 086; 2022): the distribution of daily highest water levels shifted by sea level rise, counted against the NOAA minor threshold (0.04·GT + 0.50 m above MHHW) less the rise 1992→2000 and the projected rise since 2000. Where a UHSLC peak record covers the gauge (basis observed_daily_max_peaks: 11 Florida gauges, daily maxima above their 99th percentile, 3-day declustering, levels above each year\'s mean sea level): above the 99th percentile the observed peaks give the share of those days reaching the flood level; below it, the year\'s daily highest astronomical tides (NOAA harmonic constants) plus a normal nontidal anomaly whose spread puts 1 % of the 2012 days above the percentile. A record whose percentile the predicted tides alone pass more often than 1 % of days does not match the station and is not used. Elsewhere (basis calibrated_on_observed_days): the daily highest tides plus a normal anomaly whose spread reproduces the gauge\'s observed 2007–2016 mean of minor flood days (TR 086) at that period\'s sea level; 0.10 m where nothing was observed (default_nontidal_spread). Never below the 2007–2016 observed mean. Expected days per year, not a forecast of a given year.';
