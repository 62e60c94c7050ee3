import type { z } from 'zod';
import { invalidField } from '../../domain/errors';
import { GAUGES, gaugeById } from '../../domain/hazards/gauges';
import { scenarioReport } from '../../domain/hazards/scenario-report';
import type { SlrScenariosQuery } from '../../schemas/hazards';
import { locationParam } from './location-param';
import { gaugeChoiceParam } from './gauge-choice';

/** `GET /hazards/slr-scenarios`: the projections for a gauge or a location. */
export function slrScenarios(query: z.output<ReturnType<typeof SlrScenariosQuery>>, now: Date) {
  const { gauge_id, location, time_horizon, scenario, assessment_year } = query;
  let target: Parameters<typeof scenarioReport>[0]['target'];
  if (gauge_id) {
    const gauge = gaugeById(gauge_id);
    if (!gauge) {
      const message = `No NOAA 2022 projections for gauge ${gauge_id}; gauges of F.A.C. 62S-7.012(1)(b) with projections: ${GAUGES.map((g) => `${g.noaa_id} ${g.name}`).join(', ')}.`;
      throw invalidField('gauge_id', 'query', message);
    }
    target = { gauge };
  } else {
    const resolved = locationParam(location!);
    target = { point: resolved.point, label: resolved.label, selection: gaugeChoiceParam(resolved.point, query, 'query') };
  }
  const years = time_horizon ? [...new Set(time_horizon)].sort((a, b) => a - b) : undefined;
  return scenarioReport({ target, years, scenarios: scenario, assessmentYear: assessment_year ?? now.getUTCFullYear() });
}
