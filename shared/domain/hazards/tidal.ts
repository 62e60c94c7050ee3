import type { Gauge, GaugeSelection } from './gauges';
import { weightedByGauges } from './gauges';

/** MHHW above NAVD88 (metres): both datums are heights above the station datum. */
export function mhhwAboveNavd88(gauge: Gauge): number {
  return gauge.datums.MHHW - gauge.datums.NAVD88;
}

/** Epoch mean sea level above NAVD88 (metres; negative when MSL lies below NAVD88 zero). */
export function mslAboveNavd88(gauge: Gauge): number {
  return gauge.datums.MSL - gauge.datums.NAVD88;
}

export type HtfSeverity = 'minor' | 'moderate' | 'major';

/** NOAA high tide flood thresholds (Sweet et al. 2018) as NAVD88 heights. */
export function htfThresholdsNavd88(gauge: Gauge): Record<HtfSeverity, number> {
  const mhhw = mhhwAboveNavd88(gauge);
  return {
    minor: mhhw + gauge.htf_m_above_mhhw.minor,
    moderate: mhhw + gauge.htf_m_above_mhhw.moderate,
    major: mhhw + gauge.htf_m_above_mhhw.major,
  };
}

export function weightedMhhwNavd88(selection: GaugeSelection): number {
  return weightedByGauges(selection, mhhwAboveNavd88);
}

export function weightedMslNavd88(selection: GaugeSelection): number {
  return weightedByGauges(selection, mslAboveNavd88);
}

export function weightedHtfThresholdsNavd88(selection: GaugeSelection): Record<HtfSeverity, number> {
  return {
    minor: weightedByGauges(selection, (g) => htfThresholdsNavd88(g).minor),
    moderate: weightedByGauges(selection, (g) => htfThresholdsNavd88(g).moderate),
    major: weightedByGauges(selection, (g) => htfThresholdsNavd88(g).major),
  };
}
