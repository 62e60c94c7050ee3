import coastalData from '../../data/v1/fl-coastal-counties.json';
import { bundledFloodEvents } from '../hazards/flood-events';
import type { LatLon } from '../hazards/geo';
import { selectGauges, type Gauge } from '../hazards/gauges';
import { localSeaLevelRise } from '../hazards/local-slr';
import { sourcesOf } from '../hazards/provenance';
import { describeGaugeSelection } from '../hazards/responses';
import { scenarioReport } from '../hazards/scenario-report';
import { statuteDefaults } from '../hazards/statute';
import { htfThresholdsNavd88, mhhwAboveNavd88 } from '../hazards/tidal';
import { dailyHighestTides, tidalFloodDays, type TidePredictor } from '../hazards/tide-flood-days';
import { length } from '../hazards/units';

const COASTAL_FIPS: ReadonlySet<string> = new Set(coastalData.counties.map((c) => c.fips));

export const COASTAL_BASIS = 'County level: one of Florida\'s 35 counties whose boundary reaches the open coast (Census cartographic boundaries, us-atlas); a point inland in such a county is still reported coastal.';

export function isCoastalCounty(fips: string): boolean {
  return COASTAL_FIPS.has(fips);
}

/** Observed high tide flood days are listed for this many of the gauge's latest years. */
const OBSERVED_YEARS = 5;
const PROJECTION_PERCENTILE = '50';

/** A year of predicted daily maxima is the expensive part; a warm function keeps the few it has used. */
const maximaCache = new Map<string, Promise<number[]>>();
const MAX_CACHED_YEARS = 64;

function dailyMaxima(tides: TidePredictor, gauge: Gauge, year: number): Promise<number[]> {
  const key = `${gauge.noaa_id}|${year}`;
  let maxima = maximaCache.get(key);
  if (!maxima) {
    if (maximaCache.size >= MAX_CACHED_YEARS) maximaCache.clear();
    maxima = dailyHighestTides(tides, gauge, year);
    maximaCache.set(key, maxima);
    maxima.catch(() => maximaCache.delete(key));
  }
  return maxima;
}

function observedFloodDays(gauge: Gauge) {
  const prefix = `htf:${gauge.noaa_id}:`;
  return bundledFloodEvents()
    .filter((e) => e.source === 'noaa_htf' && e.event_id.startsWith(prefix))
    .map((e) => ({ year: Number(e.date.slice(0, 4)), days: e.magnitude.flood_days! }))
    .sort((a, b) => b.year - a.year)
    .slice(0, OBSERVED_YEARS);
}

/**
 * This API's own sea level rise and high tide flooding figures at a coastal point: the statute's
 * scenario pair and planning horizons (2024 rule set) at the gauges the statute's rule selects,
 * NOAA's flood thresholds at each gauge, the latest observed flood-day counts, and projected minor
 * flood days (astronomical tide plus the median projected rise).
 */
export async function coastalFigures(point: LatLon, label: string, assessmentYear: number, tides: TidePredictor) {
  const statute = statuteDefaults(assessmentYear);
  const selection = selectGauges(point);
  const slr = scenarioReport({ target: { point, label }, years: statute.horizons, scenarios: statute.scenarios, assessmentYear });
  const gauges = selection.gauges.filter((g) => g.weight > 0 || selection.method === 'regional_fallback');
  const byGauge = [];
  for (const { gauge, weight, distance_km } of gauges) {
    const thresholds = htfThresholdsNavd88(gauge);
    const single = { method: 'single_gauge' as const, gauges: [{ gauge, distance_km: 0, weight: 1 }], reason: '' };
    const projected = [];
    for (const scenario of statute.scenarios) {
      for (const year of statute.horizons) {
        const rise = localSeaLevelRise(single, scenario, PROJECTION_PERCENTILE, year);
        projected.push({ scenario, year, sea_level_rise: length(rise), minor_flood_days: tidalFloodDays(await dailyMaxima(tides, gauge, year), gauge, rise, thresholds.minor) });
      }
    }
    byGauge.push({
      noaa_id: gauge.noaa_id,
      name: gauge.name,
      distance_km: Math.round(distance_km * 100) / 100,
      weight: Math.round(weight * 10_000) / 10_000,
      mhhw_navd88: length(mhhwAboveNavd88(gauge)),
      thresholds_navd88: { minor: length(thresholds.minor), moderate: length(thresholds.moderate), major: length(thresholds.major) },
      observed_flood_days: observedFloodDays(gauge),
      projected: projected,
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
      method: 'Minor/moderate/major thresholds: NOAA (Sweet et al. 2018) above each gauge\'s MHHW, as NAVD88 heights. Observed days: NOAA annual counts at the gauge. Projected days: days whose highest predicted astronomical tide (NOAA harmonic constituents) plus the gauge\'s median projected rise reaches the minor threshold; weather is not predicted, so observed counts run higher.',
      sources: sourcesOf(['noaa_htf', 'noaa_datums', 'noaa_tr2022']),
    },
  };
}
