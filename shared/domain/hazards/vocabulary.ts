/**
 * The hazard API's vocabulary, free of data and library imports so the route table (loaded by
 * every function) can use it without bundling the hazard modules.
 */
export const SCENARIOS = ['low', 'intermediate_low', 'intermediate', 'intermediate_high', 'high'] as const;
export type ScenarioId = (typeof SCENARIOS)[number];

export const FIRST_YEAR = 2020;
export const LAST_YEAR = 2150;

export const FLOOD_COMPONENTS = ['tidal', 'surge', 'rainfall', 'compound'] as const;
export type FloodComponent = (typeof FLOOD_COMPONENTS)[number];
/** The design event of surge and rainfall: the 100-year storm (the statute's initial event), on which the assets' depths and the maps stand. */
export const DESIGN_RETURN_PERIOD_YEARS = 100;

export const FLOOD_EVENT_TYPES = [
  'hurricane', 'tropical_storm', 'flood', 'flash_flood', 'coastal_flood', 'storm_surge', 'heavy_rain', 'disaster_declaration', 'high_tide_flooding',
] as const;
export type FloodEventType = (typeof FLOOD_EVENT_TYPES)[number];

export const DEFAULT_IMPACT_RADIUS_KM = 2;
export const MAX_IMPACT_RADIUS_KM = 5;

/** An asset's exposure outcome (`existing_water`: the model marks its cell as open water). */
export const EXPOSURE_STATUSES = ['exposed', 'not_exposed', 'unknown_elevation', 'existing_water'] as const;
/** Why an exposed asset has no depth (see `NoDepthReason` in asset-exposure.ts). */
export const NO_DEPTH_REASONS = ['not_connected', 'open_water', 'no_bare_earth', 'outside_model', 'above_water_level'] as const;
