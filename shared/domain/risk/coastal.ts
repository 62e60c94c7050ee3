import type { LatLon } from '../hazards/geo';
import { selectGauges, type Gauge } from '../hazards/gauges';
import { localSeaLevelRise } from '../hazards/local-slr';
import { sourcesOf } from '../hazards/provenance';
import { describeGaugeSelection } from '../hazards/responses';
import { scenarioReport } from '../hazards/scenario-report';
import { statuteDefaults } from '../hazards/statute';
import { htfThresholdsNavd88, mhhwAboveNavd88 } from '../hazards/tidal';
import { FLOOD_DAY_METHOD, observedFloodDays, projectFloodDays, recentObservedMean, type TidePredictor } from '../hazards/tide-flood-days';
import { length, roundTo } from '../hazards/units';

export const COASTAL_BASIS = 'County level: one of Florida\'s 35 counties whose boundary reaches the open coast (Census cartographic boundaries, us-atlas); a point inland in such a county is still reported coastal.';

/** Observed high tide flood days are listed for this many of the record's latest years. */
const OBSERVED_YEARS = 5;
const PROJECTION_PERCENTILE = '50';

function observedRecord(gauge: Gauge) {
  const record = observedFloodDays(gauge);
  if (!record) return null;
  const years = [...record.keys()].sort((a, b) => a - b);
  return {
    period: `${years[0]}–${years.at(-1)}`,
    mean_days_2007_2016: recentObservedMean(gauge),
    latest_years: years.slice(-OBSERVED_YEARS).reverse().map((year) => ({ year, days: record.get(year)! })),
  };
}

/**
 * This API's own sea level rise and high tide flooding figures at a coastal point: the statute's
 * scenario pair and planning horizons (2024 rule set) at the gauges the statute's rule selects,
 * NOAA's flood thresholds at each gauge, the latest observed flood-day counts, and projected minor
 * flood days under the median projected rise (the hazards domain's method).
 */
export async function coastalFigures(point: LatLon, label: string, assessmentYear: number, tides: TidePredictor) {
  const statute = statuteDefaults(assessmentYear);
  const selection = selectGauges(point);
  const slr = scenarioReport({ target: { point, label }, years: statute.horizons, scenarios: statute.scenarios, assessmentYear });
  const byGauge = [];
  for (const { gauge, weight, distance_km } of selection.gauges) {
    const thresholds = htfThresholdsNavd88(gauge);
    const single = { method: 'single_gauge' as const, gauges: [{ gauge, distance_km: 0, weight: 1 }], reason: '' };
    const projected = [];
    for (const scenario of statute.scenarios) {
      for (const year of statute.horizons) {
        const days = await projectFloodDays(tides, gauge, scenario, PROJECTION_PERCENTILE, year);
        projected.push({
          scenario,
          year,
          sea_level_rise: length(localSeaLevelRise(single, scenario, PROJECTION_PERCENTILE, year)),
          minor_flood_days: roundTo(days.days, 1),
          floored_at_observed_mean: days.floored_at_observed_mean,
        });
      }
    }
    byGauge.push({
      noaa_id: gauge.noaa_id,
      name: gauge.name,
      distance_km: Math.round(distance_km * 100) / 100,
      weight: Math.round(weight * 10_000) / 10_000,
      mhhw_navd88: length(mhhwAboveNavd88(gauge)),
      thresholds_navd88: { minor: length(thresholds.minor), moderate: length(thresholds.moderate), major: length(thresholds.major) },
      observed_flood_days: observedRecord(gauge),
      projected,
    });
  }
  return {
    sea_level_rise: {
      scenarios: slr.scenarios,
      gauge_selection: slr.gauge_selection,
      baseline_year: slr.baseline_year,
      quantity: slr.quantity,
      baseline: slr.baseline,
      assessment_year: assessmentYear,
      statute_rule_set: '2024',
      sources: slr.sources,
    },
    high_tide_flooding: {
      gauge_selection: describeGaugeSelection(selection),
      gauges: byGauge,
      projection_percentile: Number(PROJECTION_PERCENTILE),
      method: `Thresholds: NOAA minor/moderate/major high tide flood levels above each gauge's MHHW (Sweet et al. 2018), as NAVD88 heights. Observed: NOAA TR 086 annual minor flood days at the gauge. Projected, median rise: ${FLOOD_DAY_METHOD}`,
      sources: sourcesOf(['noaa_htf', 'noaa_datums', 'noaa_tr2022', 'uhslc_daily_max_peaks']),
    },
  };
}
