/** The compliance vocabulary, free of data imports: the route table, loaded by every function, reads it. */

/** Wire names of sea level rise scenarios (NOAA names in labels); `extreme` exists in the 2017 family only. */
export const SLR_SCENARIOS = ['low', 'intermediate_low', 'intermediate', 'intermediate_high', 'high', 'extreme'] as const;
export const SCENARIO_FAMILIES = ['noaa_2017', 'noaa_2022'] as const;
export const RULE_SET_IDS = ['2021', '2024'] as const;
export const VERIFICATION_STATUSES = ['verified', 'reconstructed', 'unverified'] as const;
export const CHECK_STATUSES = ['pass', 'fail', 'conditional'] as const;

export const SURGE_DATA_SOURCES = ['noaa', 'fema', 'tide_gauge_gev', 'other'] as const;

/** `noncoastal`: a jurisdiction without tidal exposure (2022 amendment); `coastal` otherwise. */
export const COASTAL_SETTINGS = ['coastal', 'noncoastal'] as const;
