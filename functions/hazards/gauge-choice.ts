import { HttpError } from '../../shared/http/problem';
import { chooseSingleGauge, type GaugeSelection } from '../../shared/domain/hazards/gauges';
import type { LatLon } from '../../shared/domain/hazards/geo';

interface GaugeChoiceInput {
  gauge_method?: 'two_gauge' | 'single';
  representative_gauge?: string;
  gauge_choice_reason?: string;
}

/**
 * The caller's single-gauge choice as a selection, or undefined for the default two-gauge rule;
 * a choice the statute does not allow is a 400 naming the parameter.
 */
export function gaugeChoiceParam(point: LatLon, input: GaugeChoiceInput, where: 'query' | 'body'): GaugeSelection | undefined {
  if (input.gauge_method !== 'single') return undefined;
  const result = chooseSingleGauge(point, { gauge_id: input.representative_gauge!, reason: input.gauge_choice_reason! });
  if (!result.ok) throw new HttpError('invalid_request', result.message, { errors: [{ field: 'representative_gauge', in: where, message: result.message }] });
  return result.selection;
}
