import scenarioData from '../../data/hazards/slr-scenarios-tr2022.json';
import regionalData from '../../data/hazards/slr-regional-tr2022.json';

import type { ScenarioId } from './vocabulary';

/** NOAA 2022 Technical Report (Sweet et al. 2022) scenarios, wire names per the contract. */
export { SCENARIOS, FIRST_YEAR, LAST_YEAR, type ScenarioId } from './vocabulary';

export const SCENARIO_LABELS: Record<ScenarioId, string> = {
  low: 'Low', intermediate_low: 'Intermediate-Low', intermediate: 'Intermediate', intermediate_high: 'Intermediate-High', high: 'High',
};

export const PERCENTILES = ['17', '50', '83'] as const;
export type Percentile = (typeof PERCENTILES)[number];

export const SCENARIO_BASELINE_YEAR = 2000;

type Series = Record<ScenarioId, Record<Percentile, number[]>>;

export interface GaugeScenarios {
  noaa_id: string;
  name: string;
  series: Series;
}

const YEARS: readonly number[] = scenarioData.years;
export const DECADAL_YEARS = YEARS;

export const GAUGE_SCENARIOS: ReadonlyMap<string, GaugeScenarios> = new Map(
  (scenarioData.gauges as GaugeScenarios[]).map((g) => [g.noaa_id, g]),
);

export type RegionId = 'SE' | 'EGOM';
export const REGION_LABELS: Record<RegionId, string> = { SE: 'Southeast (Atlantic)', EGOM: 'Eastern Gulf of Mexico' };
export const REGIONAL_SCENARIOS: ReadonlyMap<RegionId, Series> = new Map(
  (regionalData.regions as { region: RegionId; series: Series }[]).map((r) => [r.region, r.series]),
);

/**
 * Metres of rise since 2000 in a year, linear between the report's decadal values (exact on the
 * decades). Years outside 2020–2150 are rejected by the callers' schemas.
 */
export function valueForYear(values: readonly number[], year: number): number {
  const index = (year - YEARS[0]!) / 10;
  const lower = Math.floor(index);
  if (lower < 0 || lower >= YEARS.length || (lower === YEARS.length - 1 && index > lower)) {
    throw new RangeError(`Year ${year} is outside ${YEARS[0]}–${YEARS[YEARS.length - 1]}`);
  }
  if (index === lower) return values[lower]!;
  const fraction = index - lower;
  return values[lower]! + (values[lower + 1]! - values[lower]!) * fraction;
}

export function isDecadal(year: number): boolean {
  return YEARS.includes(year);
}
