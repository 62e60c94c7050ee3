import { FLOOD_COMPONENTS, type FloodComponent } from './vocabulary';

/**
 * What a stored flood-analysis answer holds for the documents built from it (the deliverables):
 * the answer's own module reads its wire format, so no other context re-parses it. Evidence kept
 * by earlier versions lacks some fields; they read as empty or null, never as an error.
 */
export interface AnalysisSource {
  name: string;
  version?: string;
  url?: string;
}

export interface AnalysisGauge {
  noaa_id: string;
  name: string;
  weight: number | null;
}

/** One result row of a component: a scenario × horizon (× return period for surge and rainfall). */
export interface ComponentResultRecord {
  scenario: string;
  planning_horizon: number;
  return_period_years: number | null;
  sea_level_rise_ft: number | null;
  design_level_navd88_m: number | null;
  design_level_navd88_ft: number | null;
  exposed_area_km2: number | null;
  /** Tidal: projected minor high tide flood days per year at each gauge. */
  flood_days_by_gauge: { noaa_id: string; days: number }[];
}

export interface HeightSteps {
  step_m: number;
  lowest_land_levels_navd88_m: number[];
}

export interface FloodAnalysisRecord {
  sources: AnalysisSource[];
  gauges: AnalysisGauge[];
  /** The components with results, each its rows. */
  components: Partial<Record<FloodComponent, ComponentResultRecord[]>>;
  elevation: { cell_size_m: number | null; height_steps: HeightSteps | null };
}

export const EMPTY_ANALYSIS_RECORD: FloodAnalysisRecord = {
  sources: [],
  gauges: [],
  components: {},
  elevation: { cell_size_m: null, height_steps: null },
};

type Json = Record<string, unknown>;
const objectOf = (value: unknown): Json =>
  value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : {};
const arrayOf = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);
const numberOf = (value: unknown): number | null =>
  typeof value === 'number' && Number.isFinite(value) ? value : null;
const textOf = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

function resultRecord(value: unknown): ComponentResultRecord[] {
  const row = objectOf(value);
  const scenario = textOf(row.scenario);
  const year = numberOf(row.planning_horizon);
  if (scenario === undefined || year === null) return [];
  const level = objectOf(row.design_water_level_navd88);
  return [
    {
      scenario,
      planning_horizon: year,
      return_period_years: numberOf(row.return_period_years),
      sea_level_rise_ft: numberOf(objectOf(row.sea_level_rise).ft),
      design_level_navd88_m: numberOf(level.m),
      design_level_navd88_ft: numberOf(level.ft),
      exposed_area_km2: numberOf(objectOf(row.exposed_area).km2),
      flood_days_by_gauge: arrayOf(objectOf(row.tidal_flood_days_per_year).by_gauge).flatMap((entry) => {
        const { noaa_id, days } = objectOf(entry);
        return typeof noaa_id === 'string' && numberOf(days) !== null ? [{ noaa_id, days: days as number }] : [];
      }),
    },
  ];
}

/** The record of a stored flood-analysis answer (`POST /hazards/flood-analysis`, as evidence keeps it). */
export function floodAnalysisRecord(stored: unknown): FloodAnalysisRecord {
  const answer = objectOf(stored);
  const components: FloodAnalysisRecord['components'] = {};
  for (const component of FLOOD_COMPONENTS) {
    const rows = arrayOf(objectOf(objectOf(answer.components)[component]).results).flatMap(resultRecord);
    if (rows.length > 0) components[component] = rows;
  }
  const elevation = objectOf(answer.elevation);
  const steps = objectOf(elevation.height_steps);
  const stepM = numberOf(steps.step_m);
  return {
    sources: arrayOf(answer.sources).flatMap((value) => {
      const source = objectOf(value);
      const name = textOf(source.name);
      if (name === undefined) return [];
      const version = textOf(source.version);
      const url = textOf(source.url);
      return [{ name, ...(version ? { version } : {}), ...(url ? { url } : {}) }];
    }),
    gauges: arrayOf(objectOf(answer.gauge_selection).gauges).flatMap((value) => {
      const gauge = objectOf(value);
      const noaaId = textOf(gauge.noaa_id);
      return noaaId === undefined
        ? []
        : [{ noaa_id: noaaId, name: textOf(gauge.name) ?? '', weight: numberOf(gauge.weight) }];
    }),
    components,
    elevation: {
      cell_size_m: numberOf(elevation.cell_size_m),
      height_steps:
        stepM === null
          ? null
          : {
              step_m: stepM,
              lowest_land_levels_navd88_m: arrayOf(steps.lowest_land_levels_navd88_m).flatMap((h) =>
                numberOf(h) === null ? [] : [h as number],
              ),
            },
    },
  };
}
