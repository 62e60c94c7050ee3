import { GAUGE_SCENARIOS, REGIONAL_SCENARIOS, valueForYear, type Percentile, type ScenarioId } from './scenarios';
import type { GaugeSelection } from './gauges';

/**
 * Relative sea level rise since 2000 (metres) at a location: the selected gauges' NOAA 2022
 * projections combined with their weights, or the regional series when the location is beyond
 * the gauges' reach.
 */
export function localSeaLevelRise(selection: GaugeSelection, scenario: ScenarioId, percentile: Percentile, year: number): number {
  if (selection.method === 'regional_fallback') {
    return valueForYear(REGIONAL_SCENARIOS.get(selection.region)![scenario][percentile], year);
  }
  return selection.gauges.reduce((sum, { gauge, weight }) => {
    const series = GAUGE_SCENARIOS.get(gauge.noaa_id)!.series[scenario][percentile];
    return sum + weight * valueForYear(series, year);
  }, 0);
}
