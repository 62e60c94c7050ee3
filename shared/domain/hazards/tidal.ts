import type { Gauge, GaugeSelection } from './gauges';
import { selectGauges, weightedByGauges } from './gauges';
import type { BBox } from './geo';

/** MHHW above NAVD88 (metres): both datums are heights above the station datum. */
export function mhhwAboveNavd88(gauge: Gauge): number {
  return gauge.datums.MHHW - gauge.datums.NAVD88;
}

/** Epoch mean sea level above NAVD88 (metres; negative when MSL lies below NAVD88 zero). */
export function mslAboveNavd88(gauge: Gauge): number {
  return gauge.datums.MSL - gauge.datums.NAVD88;
}

export type HtfSeverity = 'minor' | 'moderate' | 'major';

/**
 * NOAA high tide flood thresholds above MHHW (Sweet et al. 2018, NOAA TR NOS CO-OPS 086), from the
 * station's great diurnal range GT: minor 0.04·GT + 0.50 m, moderate 0.03·GT + 0.80 m, major
 * 0.04·GT + 1.17 m.
 */
export function htfThresholdsAboveMhhw(gauge: Gauge): Record<HtfSeverity, number> {
  const gt = gauge.datums.GT;
  return { minor: 0.04 * gt + 0.5, moderate: 0.03 * gt + 0.8, major: 0.04 * gt + 1.17 };
}

/** The thresholds as NAVD88 heights (MHHW of the 1983–2001 epoch + the height above it). */
export function htfThresholdsNavd88(gauge: Gauge): Record<HtfSeverity, number> {
  const mhhw = mhhwAboveNavd88(gauge);
  const above = htfThresholdsAboveMhhw(gauge);
  return { minor: mhhw + above.minor, moderate: mhhw + above.moderate, major: mhhw + above.major };
}

export function weightedMhhwNavd88(selection: GaugeSelection): number {
  return weightedByGauges(selection, mhhwAboveNavd88);
}

export function weightedMslNavd88(selection: GaugeSelection): number {
  return weightedByGauges(selection, mslAboveNavd88);
}

/** Points a side of the lattice over a box that `lowestMslNavd88Within` selects gauges at. */
const SEA_SURFACE_LATTICE = 9;

/**
 * The lowest mean sea level (m NAVD88, to the millimetre below) of the gauges selected anywhere on
 * a 9 × 9 lattice over `box`, its corners included: a location's level is a weighted mean of its
 * selected gauges' (or its coast gauge's), so no answer in the box sits lower unless its gauges
 * differ from every lattice point's (a gauge chosen by hand, a selection boundary between points).
 */
export function lowestMslNavd88Within([west, south, east, north]: BBox): number {
  let lowest = Infinity;
  for (let i = 0; i < SEA_SURFACE_LATTICE; i++) {
    for (let j = 0; j < SEA_SURFACE_LATTICE; j++) {
      const point = { lon: west + ((east - west) * i) / (SEA_SURFACE_LATTICE - 1), lat: south + ((north - south) * j) / (SEA_SURFACE_LATTICE - 1) };
      for (const { gauge } of selectGauges(point).gauges) lowest = Math.min(lowest, mslAboveNavd88(gauge));
    }
  }
  // The nudge keeps a level that is a whole number of millimetres up to float error at that number.
  return Math.floor(lowest * 1000 + 1e-6) / 1000;
}

export function weightedHtfThresholdsNavd88(selection: GaugeSelection): Record<HtfSeverity, number> {
  return {
    minor: weightedByGauges(selection, (g) => htfThresholdsNavd88(g).minor),
    moderate: weightedByGauges(selection, (g) => htfThresholdsNavd88(g).moderate),
    major: weightedByGauges(selection, (g) => htfThresholdsNavd88(g).major),
  };
}
