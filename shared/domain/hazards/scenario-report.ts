import { epochRise, selectGauges, type GaugeSelection } from './gauges';
import { localSeaLevelRise } from './local-slr';
import { BASELINE_NOTE, provenance, sourcesOf } from './provenance';
import { describeGaugeSelection } from './responses';
import { DECADAL_YEARS, isDecadal, SCENARIO_BASELINE_YEAR, SCENARIO_LABELS, SCENARIOS, type ScenarioId } from './scenarios';
import { ruleSetsRequiringHorizon, ruleSetsRequiringScenario, STATUTE_RULE_SETS } from './statute';
import { length } from './units';
import type { LatLon } from './geo';

export interface ScenarioReportRequest {
  /** A gauge chosen by id, or a location whose gauges are selected by the statute's rule. */
  target: { gauge: GaugeSelection['gauges'][number]['gauge'] } | { point: LatLon; label: string; selection?: GaugeSelection };
  years?: number[];
  scenarios?: ScenarioId[];
  assessmentYear: number;
}

/** NOAA 2022 scenarios at a gauge or a location, each value in metres and feet, with the statute's flags. */
export function scenarioReport(request: ScenarioReportRequest) {
  const selection: GaugeSelection = 'gauge' in request.target
    ? { method: 'single_gauge', gauges: [{ gauge: request.target.gauge, distance_km: 0, weight: 1 }], reason: 'Gauge requested by id.' }
    : request.target.selection ?? selectGauges(request.target.point);
  const years = request.years ?? [...DECADAL_YEARS];
  const gaugeWarnings = selection.gauges.flatMap(({ gauge }) => gauge.data_warnings.map((w) => `${gauge.noaa_id} ${gauge.name}: ${w} F.A.C. 62S-7.012(1)(b) leaves gauges with data warnings out of interpolation.`));
  const scenarios = request.scenarios ?? [...SCENARIOS];
  return {
    location: 'point' in request.target ? { query: request.target.label, lat: request.target.point.lat, lon: request.target.point.lon } : null,
    gauge_selection: describeGaugeSelection(selection),
    baseline_year: SCENARIO_BASELINE_YEAR,
    quantity: 'Relative sea level change since 2000 (not an elevation; add a tidal datum such as MHHW in NAVD88 for water levels, see POST /hazards/slr-impact).',
    units: 'm and ft (1 ft = 0.3048 m)',
    interpolation: 'Years between the decadal values are interpolated linearly (`interpolated: true`).',
    baseline: BASELINE_NOTE,
    assessment_year: request.assessmentYear,
    statute_rule_sets: STATUTE_RULE_SETS,
    scenarios: scenarios.map((scenario) => ({
      scenario,
      name: SCENARIO_LABELS[scenario],
      statute_required_by: ruleSetsRequiringScenario(scenario),
      projections: years.map((year) => ({
        year,
        interpolated: !isDecadal(year),
        statute_horizon_for: ruleSetsRequiringHorizon(year, request.assessmentYear),
        p17: length(localSeaLevelRise(selection, scenario, '17', year)),
        p50: length(localSeaLevelRise(selection, scenario, '50', year)),
        p83: length(localSeaLevelRise(selection, scenario, '83', year)),
      })),
    })),
    sources: sourcesOf(selection.method === 'regional_fallback' ? ['noaa_tr2022', 'noaa_tr2022_regional'] : ['noaa_tr2022']),
    ...(gaugeWarnings.length > 0 ? { data_warnings: gaugeWarnings } : {}),
    // Scenario values are rises since 2000; the 1992→2000 rise is what a datum-based water level adds.
    provenance: provenance(selection.method === 'regional_fallback' ? ['noaa_tr2022', 'noaa_tr2022_regional'] : ['noaa_tr2022'], epochRise(selection)),
  };
}
