import { NRI_HAZARD_CODES, NRI_RATINGS, type NriRating } from './nri-vocabulary';
import type { RecordTable } from '../../data/record-table';

/**
 * FEMA's National Risk Index for Florida's counties, as published (v1.19.0, March 2023). Values
 * are FEMA's: county hazard values are sums over census tracts, each with its own community risk
 * factor, so nothing here is recomputed from other fields.
 */

export { NRI_HAZARD_CODES, NRI_RATINGS, type NriRating } from './nri-vocabulary';

const SCORED_RATINGS: ReadonlySet<NriRating> = new Set(['Very High', 'Relatively High', 'Relatively Moderate', 'Relatively Low', 'Very Low']);

export function isScoredRating(rating: NriRating): boolean {
  return SCORED_RATINGS.has(rating);
}

export interface NriHazardInfo {
  code: string;
  name: string;
  period_of_record: string;
  frequency_model: string;
}

interface HazardColumns {
  EVNTS: number | null;
  AFREQ: number | null;
  EALT: number | null;
  EALS: number | null;
  RISKV: number | null;
  RISKS: number | null;
  EALR: NriRating;
  RISKR: NriRating;
}

export interface NriCounty {
  nri_id: string;
  fips: string;
  county: string;
  county_type: string;
  nri_ver: string;
  RISK_VALUE: number | null;
  RISK_SCORE: number | null;
  RISK_SPCTL: number | null;
  RISK_RATNG: NriRating;
  EAL_VALT: number | null;
  EAL_SCORE: number | null;
  EAL_RATNG: NriRating;
  SOVI_SCORE: number | null;
  SOVI_RATNG: NriRating;
  RESL_SCORE: number | null;
  RESL_RATNG: NriRating;
  CRF_VALUE: number | null;
  POPULATION: number | null;
  BUILDVALUE: number | null;
  hazards: Record<string, HazardColumns>;
}

export interface NriData {
  dataset: string;
  version: string;
  level: 'county';
  disclaimer: string;
  hazards: NriHazardInfo[];
  /** FEMA's county table: one column per county field and per hazard field (`CFLD_EALT`, as FEMA names them). */
  counties: RecordTable;
}

let loaded: NriData | undefined;

/** FEMA's table, read on first use: only the risk route needs it, and it is the largest data of its function. */
function nriData(): NriData {
  return (loaded ??= checkedNriData(require('../../data/v1/nri/fl-counties-nri.json') as NriData));
}

/** Columns holding a rating: the county's (`RISK_RATNG` …) and each hazard's (`CFLD_RISKR`, `CFLD_EALR`). */
const RATING_COLUMN = /_(RATNG|RISKR|EALR)$/;

/**
 * The data file as the answers may trust it, or an error naming what is wrong: its hazards are the
 * vocabulary's, in order (the request schemas take the codes from the vocabulary leaf, without this
 * file), and every rating cell is one of FEMA's ratings, so an answer never states an unknown one.
 */
export function checkedNriData(data: NriData): NriData {
  if (data.hazards.map((h) => h.code).join() !== NRI_HAZARD_CODES.join()) {
    throw new Error('NRI data hazards differ from NRI_HAZARD_CODES');
  }
  const { columns, rows } = data.counties;
  const ratingColumns = columns.flatMap((column, i) => (RATING_COLUMN.test(column) ? [i] : []));
  for (const row of rows) {
    for (const i of ratingColumns) {
      if (!(NRI_RATINGS as readonly unknown[]).includes(row[i])) throw new Error(`Unknown NRI rating "${String(row[i])}" in ${columns[i]} of ${String(row[columns.indexOf('fips')])}`);
    }
  }
  return data;
}

/** The dataset's name, version and use limitation, as every answer cites them. */
export function nriSource() {
  const data = nriData();
  return {
    dataset: data.dataset,
    version: data.version,
    level: data.level,
    disclaimer: data.disclaimer,
    url: 'https://hazards.fema.gov/nri/data-resources',
    note: 'County table for Florida as FEMA published it; served, never recomputed. Not a substitute for a localized risk assessment.',
  } as const;
}

const HAZARD_COLUMNS: readonly (keyof HazardColumns)[] = ['EVNTS', 'AFREQ', 'EALT', 'EALS', 'RISKV', 'RISKS', 'EALR', 'RISKR'];

/** Every hazard column FEMA names `<hazard>_<field>` (`CFLD_EALT`), with the hazard and field it holds. */
const HAZARD_COLUMN_NAMES: ReadonlyMap<string, { code: string; field: string }> = new Map(
  NRI_HAZARD_CODES.flatMap((code) => HAZARD_COLUMNS.map((field) => [`${code}_${field}`, { code, field }] as const)),
);

/** Each column of the table: a hazard's field, or else a county field. */
function columnTargets(columns: readonly string[]): ({ code: string; field: string } | string)[] {
  return columns.map((column) => HAZARD_COLUMN_NAMES.get(column) ?? column);
}

/** One county's row, its hazard columns grouped by hazard. Read per call: the table has 67 rows, and nothing derived is kept. */
export function nriCountyByFips(fips: string): NriCounty | undefined {
  const { counties } = nriData();
  const fipsColumn = counties.columns.indexOf('fips');
  const row = counties.rows.find((r) => r[fipsColumn] === fips);
  if (!row) return undefined;
  const targets = columnTargets(counties.columns);
  const county: Record<string, unknown> = { hazards: {} };
  const hazards = county.hazards as Record<string, Record<string, unknown>>;
  row.forEach((value, i) => {
    const target = targets[i]!;
    if (typeof target === 'string') county[target] = value;
    else (hazards[target.code] ??= {})[target.field] = value;
  });
  return county as unknown as NriCounty;
}

/** A score goes with a rating only when FEMA rated the county; the others are stated as such, score null. */
function scored(score: number | null, rating: NriRating): { score: number | null; rating: NriRating } {
  return { score: isScoredRating(rating) ? score : null, rating };
}

export function compositeRisk(county: NriCounty) {
  const risk = scored(county.RISK_SCORE, county.RISK_RATNG);
  const eal = scored(county.EAL_SCORE, county.EAL_RATNG);
  return {
    risk_value: county.RISK_VALUE,
    risk_score: risk.score,
    risk_rating: risk.rating,
    risk_state_percentile: county.RISK_SPCTL,
    expected_annual_loss_usd: county.EAL_VALT,
    expected_annual_loss: eal,
    social_vulnerability: scored(county.SOVI_SCORE, county.SOVI_RATNG),
    community_resilience: scored(county.RESL_SCORE, county.RESL_RATNG),
    community_risk_factor: county.CRF_VALUE,
  };
}

export function hazardRisk(county: NriCounty, info: NriHazardInfo) {
  const columns = county.hazards[info.code]!;
  const risk = scored(columns.RISKS, columns.RISKR);
  const eal = scored(columns.EALS, columns.EALR);
  return {
    code: info.code,
    name: info.name,
    annualized_frequency: columns.AFREQ,
    expected_annual_loss_usd: columns.EALT,
    expected_annual_loss_rating: eal.rating,
    risk_value: columns.RISKV,
    risk_score: risk.score,
    risk_rating: risk.rating,
    period_of_record: info.period_of_record,
  };
}

export type HazardRisk = ReturnType<typeof hazardRisk>;

/** The county's hazards in FEMA's order, or only the requested codes. */
export function hazardRisks(county: NriCounty, codes?: readonly string[]): HazardRisk[] {
  return nriData().hazards.filter((h) => !codes || codes.includes(h.code)).map((h) => hazardRisk(county, h));
}
