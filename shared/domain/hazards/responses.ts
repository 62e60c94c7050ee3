import { KM_PER_MILE } from './geo';
import type { GaugeSelection } from './gauges';
import { REGION_LABELS } from './scenarios';
import { roundTo } from './units';

/** The gauge choice as every hazard answer reports it: which gauges, how far, which weights, why. */
export function describeGaugeSelection(selection: GaugeSelection) {
  return {
    method: selection.method,
    reason: selection.reason,
    ...(selection.method === 'regional_fallback' ? { region: selection.region, region_name: REGION_LABELS[selection.region] } : {}),
    ...(selection.method === 'inverse_distance_two_gauges' ? { gauge_separation_miles: roundTo(selection.separation_miles, 1) } : {}),
    gauges: selection.gauges.map(({ gauge, distance_km, weight }) => ({
      noaa_id: gauge.noaa_id,
      name: gauge.name,
      lat: gauge.lat,
      lon: gauge.lon,
      distance_km: roundTo(distance_km, 2),
      distance_miles: roundTo(distance_km / KM_PER_MILE, 2),
      weight: roundTo(weight, 4),
    })),
    cautions: selection.cautions ?? [],
  };
}
