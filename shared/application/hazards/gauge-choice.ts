import { invalidField } from '../../domain/errors';
import { chooseSingleGauge, type GaugeSelection } from '../../domain/hazards/gauges';
import type { LatLon } from '../../domain/hazards/geo';

interface GaugeChoiceInput {
  gauge_method?: 'two_gauge' | 'single';
  representative_gauge?: string;
  gauge_choice_reason?: string;
}

/**
 * The caller's single-gauge choice as a selection, or undefined for the default two-gauge rule;
 * a choice the statute does not allow is refused naming the parameter.
 */
export function gaugeChoiceParam(point: LatLon, input: GaugeChoiceInput, where: 'query' | 'body'): GaugeSelection | undefined {
  if (input.gauge_method !== 'single') return undefined;
  const result = chooseSingleGauge(point, { gauge_id: input.representative_gauge!, reason: input.gauge_choice_reason! });
  if (!result.ok) throw invalidField('representative_gauge', where, result.message);
  return result.selection;
}
