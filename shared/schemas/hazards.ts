import * as z from './zod';
import { onFirstUse } from '../on-first-use';
import { CursorParam, decimalParam, IsoDate, LimitParam } from './common';
import { BoundaryGeometry } from './boundary';
import {
  DEFAULT_IMPACT_RADIUS_KM, FIRST_YEAR, FLOOD_COMPONENTS, FLOOD_EVENT_TYPES, LAST_YEAR, MAX_IMPACT_RADIUS_KM, SCENARIOS,
} from '../domain/hazards/vocabulary';

const Year = onFirstUse(() => z.number().int().min(FIRST_YEAR).max(LAST_YEAR));
const ScenarioEnum = onFirstUse(() => z.enum(SCENARIOS).describe('NOAA 2022 scenario (wire name).'));

/** A comma-separated query list (repeated parameters arrive joined by commas), each value once. */
function commaList<T extends z.ZodType>(item: T, max: number) {
  return z.preprocess(
    (value) => (typeof value === 'string' ? [...new Set(value.split(',').map((v) => v.trim()).filter(Boolean))] : value),
    z.array(item).min(1).max(max),
  );
}

export const Length = onFirstUse(() => z.object({ m: z.number(), ft: z.number() }).openapi('Length', { description: 'A length in metres and feet (1 ft = 0.3048 m).' }));
const AreaSchema = onFirstUse(() => z.object({ acres: z.number(), km2: z.number() }));
const Loose = (description: string) => z.looseObject({}).describe(description);

/** The statute's single-gauge exception, only on request (s. 380.093(3)(d)); two-gauge interpolation otherwise. */
const gaugeChoiceFields = onFirstUse(() => ({
  gauge_method: z.enum(['two_gauge', 'single']).default('two_gauge')
    .describe('`two_gauge` (default): inverse-distance interpolation between the two closest gauges without data warnings (F.A.C. 62S-7.012(1)(b)). `single`: one gauge, allowed only when the two closest are more than 100 miles apart and that gauge is more representative — give `representative_gauge` and `gauge_choice_reason`.'),
  representative_gauge: z.string().max(7).regex(/^\d{7}$/, 'A 7-digit NOAA station id').optional().describe('With gauge_method=single: the NOAA id of the gauge judged more representative.'),
  gauge_choice_reason: z.string().trim().min(10).max(1000).optional().describe('With gauge_method=single: why that gauge is more representative (recorded in the answer).'),
}));

function requireSingleGaugeFields(q: { gauge_method?: string; representative_gauge?: string; gauge_choice_reason?: string }, ctx: z.RefinementCtx): void {
  if (q.gauge_method === 'single') {
    if (!q.representative_gauge) ctx.addIssue({ code: 'custom', path: ['representative_gauge'], message: 'gauge_method=single needs representative_gauge.' });
    if (!q.gauge_choice_reason) ctx.addIssue({ code: 'custom', path: ['gauge_choice_reason'], message: 'gauge_method=single needs gauge_choice_reason.' });
  } else if (q.representative_gauge || q.gauge_choice_reason) {
    ctx.addIssue({ code: 'custom', path: ['gauge_method'], message: 'representative_gauge and gauge_choice_reason go with gauge_method=single.' });
  }
}

export const SlrScenariosQuery = onFirstUse(() => z.object({
  gauge_id: z.string().regex(/^\d{7}$/, 'A 7-digit NOAA station id').optional().describe('NOAA CO-OPS station id of a Florida gauge with NOAA 2022 projections (e.g. 8724580 Key West).'),
  location: z.string().trim().min(2).max(200).optional().describe('"lat,lon" or a Florida county or municipality name; the two closest gauges are used.'),
  time_horizon: commaList(decimalParam(z.number().int().min(FIRST_YEAR).max(LAST_YEAR)), 20).optional()
    .describe(`Year or comma-separated years, ${FIRST_YEAR}–${LAST_YEAR}; default: every decade.`),
  scenario: commaList(ScenarioEnum(), 5).optional().describe('Scenarios to return; default: all five.'),
  assessment_year: decimalParam(z.number().int().min(2020).max(2100)).optional().describe('Flags the 2024 rule set horizons (assessment year + 20 and + 50); default: this year.'),
  ...gaugeChoiceFields(),
}).strict().refine((q) => (q.gauge_id === undefined) !== (q.location === undefined), { message: 'Give exactly one of gauge_id or location.', path: ['location'] })
  .refine((q) => q.gauge_method !== 'single' || q.location !== undefined, { message: 'gauge_method=single applies to a location; gauge_id already names one gauge.', path: ['gauge_method'] })
  .superRefine(requireSingleGaugeFields));

const GaugeSelectionSchema = onFirstUse(() => z.object({
  method: z.enum(['single_gauge', 'inverse_distance_two_gauges', 'regional_fallback']),
  reason: z.string(),
  region: z.enum(['SE', 'EGOM']).optional(),
  region_name: z.string().optional(),
  gauge_separation_miles: z.number().optional(),
  gauges: z.array(z.object({
    noaa_id: z.string(), name: z.string(), lat: z.number(), lon: z.number(), distance_km: z.number(), distance_miles: z.number(), weight: z.number(),
  })).max(2),
  cautions: z.array(z.string()).describe('What to weigh before signing the choice, empty when nothing: a gauge in another NOAA 2022 region than the gauge of the file closest to the location (another coast: its share of the rise and of the tidal datums), and two gauges more than 100 miles apart (the statute\'s single-gauge exception applies).'),
}).openapi('GaugeSelection'));

const SourceSchema = onFirstUse(() => z.object({ id: z.string(), name: z.string(), version: z.string(), url: z.string().nullable(), note: z.string() }).openapi('DataSource'));

const ProvenanceSchema = onFirstUse(() => z.object({
  datasets: z.array(z.object({ id: z.string(), name: z.string(), version: z.string() })),
  gauge_rule: Loose('F.A.C. 62S-7.012(1)(b): rule text, verification status, gauges used, excluded for data warnings, and named by the rule but without NOAA 2022 projections.'),
  statute: z.object({ rule: z.string(), verification: z.string(), note: z.string() }),
  datum_epoch: z.object({
    tidal_datum_epoch: z.string(), scenario_baseline_year: z.literal(2000), rise_1992_to_2000: Length(), method: z.string(),
  }).nullable(),
}).openapi('HazardProvenance', { description: 'Datasets and versions, the rules followed with their verification status, and the datum epoch.' }));

export const SlrScenariosResponse = onFirstUse(() => z.object({
  location: z.object({ query: z.string(), lat: z.number(), lon: z.number() }).nullable(),
  gauge_selection: GaugeSelectionSchema(),
  baseline_year: z.literal(2000),
  quantity: z.string(),
  units: z.string(),
  interpolation: z.string(),
  baseline: z.string(),
  assessment_year: z.number().int(),
  statute_rule_sets: z.array(Loose('A statute rule set: scenarios and horizons it requires, with its verification status.')),
  scenarios: z.array(z.object({
    scenario: ScenarioEnum(),
    name: z.string(),
    statute_required_by: z.array(z.enum(['2021', '2024'])),
    projections: z.array(z.object({
      year: z.number().int(),
      interpolated: z.boolean(),
      statute_horizon_for: z.array(z.enum(['2021', '2024'])),
      p17: Length(), p50: Length(), p83: Length(),
    })),
  })),
  sources: z.array(SourceSchema()),
  data_warnings: z.array(z.string()).optional().describe('Present when a requested gauge has NOAA 2022 data warnings.'),
  provenance: ProvenanceSchema(),
}).openapi('SlrScenarios'));

/** Shared by every request that computes a depth, an area or an exposure. */
const AllowSurfaceModel = onFirstUse(() => z.boolean().default(false).describe('Let a surface model (SRTM: roofs and canopy included) give the ground where no bare-earth model covers it. Without it such places answer `elevation.status: "no_bare_earth"` (assets: reason `no_bare_earth`) with what to do.'));

export const SlrImpactBody = onFirstUse(() => z.object({
  lat: z.number().min(-90).max(90),
  lon: z.number().min(-180).max(180),
  scenario: ScenarioEnum(),
  planning_horizon: Year().describe('Year, e.g. 2070.'),
  percentile: z.union([z.literal(17), z.literal(50), z.literal(83)]).default(50),
  radius_km: z.number().min(0.1).max(MAX_IMPACT_RADIUS_KM).default(DEFAULT_IMPACT_RADIUS_KM).describe('Radius of the reported inundated area and assets around the point. Tidal connection is traced over the whole elevation model, so the depth at the point does not depend on it.'),
  include_geojson: z.boolean().default(false).describe('Return the inundated land (new and existing) as a GeoJSON Feature: a MultiPolygon traced on the elevation grid, with its area.'),
  allow_surface_model: AllowSurfaceModel(),
  ...gaugeChoiceFields(),
}).strict().superRefine(requireSingleGaugeFields).openapi('SlrImpactRequest'));

const DatumCheckStation = onFirstUse(() => z.object({
  noaa_id: z.string(),
  name: z.string(),
  lat: z.number(),
  lon: z.number(),
  distance_km: z.number().optional().describe('From the point (point check only).'),
  mhhw_navd88: Length(),
  difference: Length().describe("The station's MHHW minus the MHHW used."),
}));

export const LocalDatumCheck = onFirstUse(() => z.object({
  status: z.enum(['agrees', 'differs', 'no_station_nearby']),
  radius_km: z.number().optional().describe('Point check: stations within this distance, nearest first; the nearest decides.'),
  tolerance_m: z.number(),
  used_mhhw_navd88: Length().describe("The sea level gauges' MHHW, compared with the stations (the answer's own MHHW is mhhw_navd88, see mhhw_source)."),
  stations_in_bbox: z.number().int().optional().describe("Area check: NOAA reference stations in the boundary's bounding box."),
  range: z.object({ min: Length(), max: Length() }).nullable().optional().describe('Area check: lowest and highest station MHHW.'),
  differing: z.number().int().optional().describe('Area check: stations beyond the tolerance.'),
  stations: z.array(DatumCheckStation()).max(5),
  basis: z.string(),
  note: z.string(),
}).openapi('LocalDatumCheck', { description: "The sea level gauges' MHHW against the NOAA reference stations' own MHHW nearby. Where a station stands on the same water within 10 km its MHHW is used (mhhw_source)." }));

export const MhhwSource = onFirstUse(() => z.object({
  kind: z.enum(['noaa_station', 'sea_level_gauges']),
  mhhw_navd88: Length(),
  station: z.object({ noaa_id: z.string(), name: z.string(), lat: z.number(), lon: z.number(), distance_km: z.number(), epoch: z.string() }).optional(),
  note: z.string(),
}).openapi('MhhwSource', { description: 'Where the MHHW of a point answer comes from: the NOAA reference station on the same water within 10 km (id, name, distance, tidal epoch), else the sea level gauges.' }));

export const SlrImpactResponse = onFirstUse(() => z.looseObject({
  location: z.object({ lat: z.number(), lon: z.number() }),
  scenario: ScenarioEnum(),
  planning_horizon: z.number().int(),
  gauge_selection: GaugeSelectionSchema(),
  elevation_change: Length().extend({ percentiles: z.record(z.string(), Length()), baseline_year: z.number().int() }),
  mhhw_navd88: Length(),
  mhhw_source: MhhwSource(),
  local_datum_check: LocalDatumCheck(),
  projected_mhhw_navd88: Length(),
  vertical_datum: z.literal('NAVD88'),
  elevation: Loose('Elevation source, coverage and the vertical datum correction applied.'),
  ground_elevation_navd88: Length().nullable(),
  water_depth: Length().extend({ inundated: z.boolean(), note: z.string().optional() }).nullable(),
  inundation_area: AreaSchema().extend({ radius_km: z.number(), method: z.string(), geojson: Loose('GeoJSON Feature (MultiPolygon).').optional() }).nullable(),
  existing_water: Loose("Open water and land already below today's MHHW within the radius (areas, asset count): apart from newly exposed land.").nullable(),
  affected_assets: z.object({ count: z.number().int(), assets: z.array(Loose('An asset with its ground elevation and depth.')) }).nullable(),
  location_setting: z.object({ setting: z.enum(['coastal', 'inland', 'unknown']), note: z.string() }),
  screening_level: z.string(),
  sources: z.array(SourceSchema()),
  provenance: ProvenanceSchema(),
}).openapi('SlrImpact'));

/** A design storm as the caller states it (NOAA Atlas 14 or the district's); the service never invents one. */
export const DesignStormSchema = onFirstUse(() => z.object({
  depth_mm: z.number().positive().max(2000).optional().describe('Rain depth of the storm in millimetres (or `depth_in`).'),
  depth_in: z.number().positive().max(80).optional().describe('Rain depth of the storm in inches (or `depth_mm`).'),
  duration_h: z.number().positive().max(720).describe('Duration of the storm in hours (24 for the usual design storm).'),
  return_period_years: z.number().min(1).max(10_000).describe('Return period of the depth in years (e.g. 100).'),
  source: z.string().trim().min(3).max(500).describe('Where the depth comes from, e.g. "NOAA Atlas 14 Volume 9 (Version 2), PFDS point estimate at the site, 100-year 24-hour".'),
  runoff_coefficient: z.number().min(0).max(1).optional().describe('Rational-method coefficient: runoff = C × rain. Default (neither this nor `curve_number`): all rain runs off.'),
  curve_number: z.number().min(30).max(100).optional().describe('NRCS curve number (TR-55): S = 25400/CN − 254 mm, Ia = 0.2 S, Q = (P − Ia)² / (P + 0.8 S).'),
}).strict().superRefine((storm, ctx) => {
  if ((storm.depth_mm === undefined) === (storm.depth_in === undefined)) {
    ctx.addIssue({ code: 'custom', path: ['depth_mm'], message: 'Give the rain depth once: depth_mm or depth_in.' });
  }
  if (storm.runoff_coefficient !== undefined && storm.curve_number !== undefined) {
    ctx.addIssue({ code: 'custom', path: ['curve_number'], message: 'Give at most one runoff model: runoff_coefficient or curve_number.' });
  }
}).openapi('DesignStorm', {
  example: { depth_in: 13, duration_h: 24, return_period_years: 100, source: 'NOAA Atlas 14 Volume 9 (Version 2), PFDS point estimate at the site, 100-year 24-hour (example value: read yours from PFDS)', curve_number: 85 },
}));

export const DesignStormParams = onFirstUse(() => z.object({
  jurisdiction: z.string().trim().min(2).max(120).describe('A Florida county or municipality, by name ("Monroe County", "Key West") or jurisdiction id.'),
}));

export const StoredDesignStormResponse = onFirstUse(() => z.object({
  jurisdiction_id: z.string(),
  jurisdiction_name: z.string(),
  design_storm: Loose('The storm as stored: depth_mm (and depth_in when given in inches), duration_h, return_period_years, source, runoff.'),
  updated_at: z.string(),
  used_by: z.string(),
}).openapi('StoredDesignStorm'));

export const FloodAnalysisBody = onFirstUse(() => z.object({
  boundary_geojson: BoundaryGeometry().optional().describe('The area to analyse; or send `jurisdiction` instead.'),
  jurisdiction: z.string().trim().min(2).max(120).optional()
    .describe('A Florida county or municipality ("Monroe County", "City of Key West", `municipality:120168`) whose boundary is analysed, instead of `boundary_geojson`: the account\'s official boundary when it stored one (`PUT /jurisdictions/{jurisdiction}/boundary`), else the county dissolved from Census tracts or the Census 2018 incorporated place.'),
  assessment_id: z.string().max(29).regex(/^va_[0-9A-Z]{26}$/, 'Not an assessment id').optional()
    .describe('Links the analysis to this assessment: what it ran (components, scenarios, horizons, elevation) becomes the evidence its checklist is checked against.'),
  apply_to_assets: z.boolean().default(false)
    .describe('Write each analysed asset\'s exposure (depth per scenario × horizon, first exposed year) and the vulnerability it gives onto the asset, all in one go.'),
  components: z.array(z.enum(FLOOD_COMPONENTS)).min(1).max(4).default([...FLOOD_COMPONENTS])
    .refine((c) => new Set(c).size === c.length, 'Components must not repeat.'),
  scenarios: z.array(ScenarioEnum()).min(1).max(5).optional().refine((s) => !s || new Set(s).size === s.length, 'Scenarios must not repeat.')
    .describe('Default: the statute pair of the 2024 rule set (intermediate_low, intermediate).'),
  planning_horizons: z.array(Year()).min(1).max(5).optional().refine((h) => !h || new Set(h).size === h.length, 'Horizons must not repeat.')
    .describe('Default: assessment year + 20 and + 50.'),
  assessment_year: z.number().int().min(2020).max(2100).optional().describe('Default: this year.'),
  rainfall: DesignStormSchema().optional()
    .describe('The design storm for rainfall-induced and compound flooding: its runoff fills the depressions of the elevation grid (fill–spill–merge). Without it (and without loaded rainfall layers) the rainfall component answers `needs_design_storm` with the depressions.'),
  include_extents: z.boolean().default(false)
    .describe('Return `inundation_extents`: per scenario × horizon, the inundated land (envelope of the components analysed) as a GeoJSON Feature of polygons traced on the elevation grid, with its area; and `component_extents`: each component\'s own wet land (tidal, surge and compound per scenario × horizon, rainfall ponding per design storm).'),
  allow_surface_model: AllowSurfaceModel(),
  ...gaugeChoiceFields(),
}).strict().refine((body) => (body.boundary_geojson === undefined) !== (body.jurisdiction === undefined), {
  message: 'Send either boundary_geojson or jurisdiction', path: ['boundary_geojson'],
}).superRefine(requireSingleGaugeFields).openapi('FloodAnalysisRequest'));

export const ComponentExtentSchema = onFirstUse(() => z.strictObject({
  component: z.enum(FLOOD_COMPONENTS),
  scenario: ScenarioEnum().nullable().describe('Null for rainfall ponding (the storm alone, no sea level).'),
  planning_horizon: z.number().int().nullable().describe('Null for rainfall ponding.'),
  storm: z.strictObject({ return_period_years: z.number(), depth_mm: z.number(), duration_h: z.number() }).nullable()
    .describe('The design storm of rainfall and compound extents; null for tidal and surge.'),
  area_km2: z.number().describe('area_m2 in km², 4 decimals.'),
  area_m2: z.number().describe('Sum of the wet cells\' areas: for rainfall the rainfall component\'s `ponded_area`, for compound its result\'s `combined.extent` (the same cells).'),
  max_depth_m: z.number().describe('The deepest water on the extent, m (to the mm).'),
  geometry: z.object({ type: z.literal('MultiPolygon'), coordinates: z.array(z.array(z.array(z.array(z.number())))) })
    .describe('GeoJSON MultiPolygon (WGS 84 lon/lat) traced around the wet cells of the elevation grid.'),
}).describe('One component\'s wet land. Tidal: land of the boundary below the projected MHHW and connected to open water; surge: below the 100-year still-water level; both include land already below today\'s MHHW. Rainfall: cells with ponded depth > 0 on the analysis grid (the boundary\'s bounding box); compound: cells with compound depth > 0 there (the deeper of its tidal and surge cases).')
  .openapi('ComponentExtent'));

export const FloodAnalysisResponse = onFirstUse(() => z.looseObject({
  boundary: Loose('Validated boundary: area, bbox, counties, warnings.'),
  scenarios: z.array(ScenarioEnum()),
  planning_horizons: z.array(z.number().int()),
  gauge_selection: GaugeSelectionSchema(),
  elevation: Loose('Elevation coverage, cell size and datum correction.'),
  assets: z.object({ inside_boundary: z.number().int(), source: z.string() }),
  components: z.record(z.string(), Loose("Per component: `status` (ok, partial, no_data), method, sources and `results` per scenario and horizon; the tidal component adds `local_datum_check` (see LocalDatumCheck) over the boundary's bounding box.")),
  inundation_extents: z.array(Loose('GeoJSON Feature: inundated land of one scenario × horizon, with its area.')).optional(),
  component_extents: z.array(ComponentExtentSchema()).optional().describe('With `include_extents`: each component\'s extent (tidal, surge, compound per scenario × horizon; rainfall per design storm), ordered tidal, surge, rainfall, compound, then by horizon and scenario.'),
  vertical_datum: z.literal('NAVD88'),
  units: z.string(),
  baseline: z.string(),
  screening_level: z.string(),
  sources: z.array(SourceSchema()),
  provenance: ProvenanceSchema(),
}).openapi('FloodAnalysis'));

export const HazardJobAccepted = onFirstUse(() => z.object({
  job_id: z.string(),
  status: z.enum(['queued', 'running', 'succeeded', 'failed']),
  job_url: z.string(),
  reason: z.string(),
}).openapi('HazardJobAccepted'));

export const HazardJobParams = onFirstUse(() => z.object({ job_id: z.string().regex(/^hjob_[A-Za-z0-9_-]{10,40}$/, 'Not a job id') }));

export const HazardJobResponse = onFirstUse(() => z.object({
  job_id: z.string(),
  kind: z.literal('flood_analysis'),
  status: z.enum(['queued', 'running', 'succeeded', 'failed']),
  progress: z.number().min(0).max(1),
  created_at: z.string(),
  updated_at: z.string(),
  error: z.object({ code: z.string(), detail: z.string() }).nullable(),
  result: FloodAnalysisResponse().nullable(),
}).openapi('HazardJob'));

const DateRange = onFirstUse(() => z.string().max(23).regex(/^(\d{4}-\d{2}-\d{2})?\.\.(\d{4}-\d{2}-\d{2})?$/, 'Use YYYY-MM-DD..YYYY-MM-DD (either side may be open)')
  .transform((value) => value.split('..') as [string, string])
  .refine(([from, to]) => (!from || IsoDate().safeParse(from).success) && (!to || IsoDate().safeParse(to).success), 'Not a calendar date')
  .refine(([from, to]) => !from || !to || from <= to, 'The range ends before it starts'));

export const FloodEventsQuery = onFirstUse(() => z.object({
  location: z.string().trim().min(2).max(200).describe('"lat,lon" or a Florida county or municipality name.'),
  radius_km: decimalParam(z.number().min(1).max(500)).default(100).describe('Radius around the location (default 100 km). Statewide records (FEMA declarations) have no position and always match.'),
  date_range: DateRange().optional(),
  event_type: commaList(z.enum(FLOOD_EVENT_TYPES), FLOOD_EVENT_TYPES.length).optional(),
  limit: LimitParam(),
  cursor: CursorParam(),
}).strict());

export const FloodEventSchema = onFirstUse(() => z.object({
  event_id: z.string(),
  source: z.enum(['hurdat2', 'ncei_storm_events', 'fema_declarations', 'noaa_htf']),
  date: z.string(),
  end_date: z.string().nullable(),
  type: z.enum(FLOOD_EVENT_TYPES),
  name: z.string(),
  location: z.object({
    lat: z.number().nullable(), lon: z.number().nullable(), county: z.string().nullable(), county_fips: z.string().nullable(),
    scope: z.enum(['point', 'county', 'gauge', 'state']),
    counties_within_precision: z.array(z.string()).optional()
      .describe('HURDAT2 landfalls: positions are given to 0.1°, so every county the true position may lie in, the tagged `county` first.'),
  }),
  time_utc: z.string().optional().describe('Exact time (UTC) where the source gives one: HURDAT2 landfall records.'),
  magnitude: z.object({
    wind_kt: z.number().optional(), pressure_mb: z.number().optional(), damage_usd: z.number().nullable().optional(), flood_days: z.number().optional(), deaths: z.number().optional(),
    incident_type: z.string().optional(), declaration_type: z.string().optional(), flood_cause: z.string().optional(),
  }),
  distance_km: z.number().nullable(),
}).openapi('FloodEvent'));

export const FloodEventsResponse = onFirstUse(() => z.object({
  data: z.array(FloodEventSchema()).max(100),
  next_cursor: z.string().nullable(),
  location: z.object({
    query: z.string(), lat: z.number(), lon: z.number(),
    distance_from: z.enum(['point', 'county_boundary']).describe("`county_boundary`: a county was named, so the radius and each event's distance_km are measured from its polygon (0 inside it); `point`: from lat, lon."),
  }),
  radius_km: z.number(),
  sources: z.array(SourceSchema()),
  provenance: ProvenanceSchema(),
}).openapi('FloodEvents'));
