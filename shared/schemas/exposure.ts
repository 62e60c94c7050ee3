import * as z from './zod';
import { onFirstUse } from '../on-first-use';
import { EXPOSURE_STATUSES, FLOOD_COMPONENTS, NO_DEPTH_REASONS, SCENARIOS } from '../domain/hazards/vocabulary';

const NoDepthReasonSchema = onFirstUse(() => z.enum(NO_DEPTH_REASONS)
  .describe('Why no depth: `not_connected` (no design water surface reaches the asset: no tidal connection below the level, or outside the loaded layers), `open_water` (the elevation model shows water at it), `no_bare_earth` (only a surface model covers the asset and the analysis did not send `allow_surface_model: true`), `outside_model` (no elevation data at it and none surveyed), `above_water_level` (reached, ground at or above the level).'));

const componentDepth = (description: string) => z.number().nullable().describe(description);
const ComponentDepthsSchema = onFirstUse(() => z.object({
  tidal: componentDepth('Projected MHHW of the scenario and horizon above the ground; null when tidal was not analysed or the ground is unknown.'),
  surge: componentDepth('The 100-year surge still-water level above the ground; null when surge was not analysed or the ground is unknown.'),
  rainfall: componentDepth('The design storm\'s ponded water surface (fill–spill–merge on the ground grid, or the 100-year rainfall layer) above the ground; null when rainfall was not analysed or the ground is unknown.'),
  compound: componentDepth('The storm\'s runoff held against the coastal tailwater (MHHW or 100-year surge), never below the deepest component alone; without a storm on the grid, the envelope of two components or more. Null when compound was not analysed.'),
}));

/** An asset's exposure as the last flood analysis applied to it (`apply_to_assets`) wrote it. */
export const AssetExposureSchema = onFirstUse(() => z.object({
  analysis_id: z.string().max(40),
  assessment_id: z.string().max(40).nullable(),
  analysed_at: z.string().max(40),
  status: z.enum(EXPOSURE_STATUSES).describe('`unknown_elevation`: no elevation data at the asset; `existing_water`: the elevation model shows open water at the asset (e.g. an SRTM sea cell), so its ground is unknown. In both cases no depth is given and the vulnerability is left as it was: survey the ground or first-floor elevation.'),
  ground_elevation_navd88_m: z.number().nullable(),
  ground_source: z.string().max(200).nullable().optional().describe('The ground used: `surveyed` (the asset file\'s elevation column) or the id of the elevation model; null without ground. Absent on exposures written before it was recorded.'),
  components: z.array(z.enum(['tidal', 'surge', 'rainfall'])).max(3).describe('Components whose design levels were enveloped (surge and rainfall: the 100-year event).'),
  depths: z.array(z.object({
    scenario: z.enum(SCENARIOS),
    planning_horizon: z.number().int(),
    water_level_navd88_m: z.number().nullable().describe('Highest design water level over the components (a ponded water surface counts as one); null when none reaches the asset.'),
    depth_m: z.number().nullable(),
    depth_ft: z.number().nullable(),
    governing_component: z.enum(FLOOD_COMPONENTS).nullable().describe('The component whose level or ponding is highest at the asset; null when none reaches it.'),
    reason: NoDepthReasonSchema().optional(),
  })).max(25).describe('Depth per scenario × planning horizon.'),
  by_component: z.array(z.object({
    scenario: z.enum(SCENARIOS),
    planning_horizon: z.number().int(),
    storm: z.object({
      return_period_years: z.number(),
      depth_mm: z.number().nullable(),
      duration_h: z.number().nullable(),
      source: z.string().max(500),
    }).nullable().describe('The design storm behind the rainfall and compound depths (rainfall flood layers: their 100-year event, without depth or duration); null without rainfall.'),
    depth_m: ComponentDepthsSchema().describe('Depth at the asset per component, metres.'),
    depth_ft: ComponentDepthsSchema().describe('The same depths in feet.'),
    governing_component: z.enum(FLOOD_COMPONENTS).nullable().describe('The component with the largest depth above 0; null when none gives a depth. Ties go to a single component before `compound` (compound governs only where runoff held against the sea is deeper than every component alone), and among single components to tidal, then surge, then rainfall.'),
  })).max(25).optional().describe('Each of the four s. 380.093(3)(d) components\' depth at the asset per scenario × planning horizon, with the component that governs. Absent on exposures written before it was recorded.'),
  first_exposed_year: z.number().int().nullable().describe('Earliest planning horizon with a depth above 0; null when never exposed.'),
  max_depth_ft: z.number().nullable(),
  reason: NoDepthReasonSchema().optional().describe('Why no depth in any scenario or horizon; absent when exposed.'),
  tidal_datum_check: z.object({
    status: z.enum(['agrees', 'differs', 'no_station_nearby']),
    mhhw_used_navd88_m: z.number().describe('The MHHW (NAVD88) the tidal levels at the asset stand on: that of a NOAA station on the same water within 10 km, else of its sea level gauges.'),
    station: z.object({ noaa_id: z.string().max(7), name: z.string().max(200), distance_km: z.number(), mhhw_navd88_m: z.number() }).nullable()
      .describe('The nearest NOAA reference station within 10 km, with its own MHHW (1983–2001 epoch); null when none.'),
    difference_m: z.number().nullable().describe('Station MHHW minus the MHHW used: below −0.1 m the tidal depths at the asset may be too deep by about that much, above 0.1 m too shallow.'),
  }).optional().describe('With a tidal component: the local datum check at the asset (as `local_datum_check` of `POST /hazards/slr-impact`). Absent without tidal levels and on exposures written before it was recorded.'),
}).openapi('AssetExposure'));
