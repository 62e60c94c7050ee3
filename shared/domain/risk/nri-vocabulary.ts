/**
 * FEMA National Risk Index vocabulary, without the county data: the request schemas (loaded by
 * every function through the route table) need the words, not the 240 KB of values.
 */

/** FEMA's rating vocabulary; the last four carry no score. */
export const NRI_RATINGS = [
  'Very High', 'Relatively High', 'Relatively Moderate', 'Relatively Low', 'Very Low',
  'No Rating', 'Not Applicable', 'Insufficient Data', 'No Expected Annual Losses',
] as const;
export type NriRating = (typeof NRI_RATINGS)[number];

/** FEMA's 18 hazard codes in the order of the NRI data file (checked against it when it loads). */
export const NRI_HAZARD_CODES: readonly string[] = [
  'AVLN', 'CFLD', 'CWAV', 'DRGT', 'ERQK', 'HAIL', 'HWAV', 'HRCN', 'ISTM',
  'LNDS', 'LTNG', 'RFLD', 'SWND', 'TRND', 'TSUN', 'VLCN', 'WFIR', 'WNTW',
];
