import type { Gauge } from './gauges';
import { mhhwAboveNavd88, mslAboveNavd88 } from './tidal';

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

/**
 * Days in the year whose highest predicted tide, raised by `riseM`, reaches `thresholdNavd88`.
 * Astronomical tide only: weather and seasonal anomalies are not in the prediction, so this is a
 * lower bound on observed flood days. Monotonic in the rise by construction.
 */
export function tidalFloodDays(dailyMaxima: readonly number[], gauge: Gauge, riseM: number, thresholdNavd88: number): number {
  const thresholdAboveMsl = thresholdNavd88 - mslAboveNavd88(gauge);
  let days = 0;
  for (const level of dailyMaxima) if (level + riseM >= thresholdAboveMsl) days++;
  return days;
}

/** Minor HTF threshold of a gauge, as the flood-day count uses it. */
export function minorThresholdNavd88(gauge: Gauge): number {
  return mhhwAboveNavd88(gauge) + gauge.htf_m_above_mhhw.minor;
}
