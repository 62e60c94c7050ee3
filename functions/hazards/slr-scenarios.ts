import type { getSlrScenariosRoute } from '../../shared/routes/hazards';
import type { RouteRequest, RouteResult } from '../../shared/http/types';
import { HttpError } from '../../shared/http/problem';
import { GAUGES, gaugeById } from '../../shared/domain/hazards/gauges';
import { scenarioReport } from '../../shared/domain/hazards/scenario-report';
import { locationParam } from './location-param';
import { gaugeChoiceParam } from './gauge-choice';

export async function getSlrScenarios(request: RouteRequest<typeof getSlrScenariosRoute>): Promise<RouteResult> {
  const { gauge_id, location, time_horizon, scenario, assessment_year } = request.query;
  let target: Parameters<typeof scenarioReport>[0]['target'];
  if (gauge_id) {
    const gauge = gaugeById(gauge_id);
    if (!gauge) {
      const message = `No NOAA 2022 projections for gauge ${gauge_id}; gauges of F.A.C. 62S-7.012(1)(b) with projections: ${GAUGES.map((g) => `${g.noaa_id} ${g.name}`).join(', ')}.`;
      throw new HttpError('invalid_request', message, { errors: [{ field: 'gauge_id', in: 'query', message }] });
    }
    target = { gauge };
  } else {
    const resolved = locationParam(location!);
    target = { point: resolved.point, label: resolved.label, selection: gaugeChoiceParam(resolved.point, request.query, 'query') };
  }
  const years = time_horizon ? [...new Set(time_horizon)].sort((a, b) => a - b) : undefined;
  return {
    status: 200,
    body: scenarioReport({ target, years, scenarios: scenario, assessmentYear: assessment_year ?? request.now.getUTCFullYear() }),
  };
}
