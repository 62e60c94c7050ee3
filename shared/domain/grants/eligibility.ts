import { describeJurisdiction, statePerCapitaIncomeAcs2014To2018, type Jurisdiction, type JurisdictionLookup } from '../jurisdictions';
import { usd } from './usd';
import { onFirstUse } from '../../on-first-use';

/**
 * Resilient Florida applicant eligibility and cost share (DOMAIN §5). Counties and
 * municipalities are eligible applicants; a "financially disadvantaged small community" — a
 * municipality of 10,000 or fewer or a county of 50,000 or fewer, with per capita income below the
 * state's — may receive up to 100 % state funding instead of the 50 % cost share. Planning grants
 * (vulnerability assessments included) are fully funded.
 */
export const SMALL_COMMUNITY_POPULATION = { county: 50_000, municipality: 10_000 } as const;

const STANDARD_COST_SHARE = 50;

export interface StateIncomeFigure {
  per_capita_personal_income_usd: number;
  year: number;
  source: string;
}

export interface EligibilityInput {
  jurisdiction: string;
  population?: number;
  per_capita_income?: number;
  project_type: 'planning' | 'implementation';
}

export interface EligibilityReason {
  test: string;
  passed: boolean | null;
  detail: string;
  threshold?: number | string;
  value?: number | string | null;
  source?: string;
}

export interface EligibilityDecision {
  eligible: boolean;
  tier: 'financially_disadvantaged_small_community' | 'standard' | null;
  cost_share_percentage: number | null;
  state_share_percentage: number | null;
  jurisdiction: { name: string; type: 'county' | 'municipality'; county: string; county_fips: string } | null;
  state_income: StateIncomeFigure;
  reasons: EligibilityReason[];
}

const POPULATION_SOURCE = {
  county: 'U.S. Bureau of Economic Analysis CAINC1, 2023 mid-year population (the statute names the most recent April 1 estimate of the Office of Economic and Demographic Research; send `population` to use it)',
  municipality: 'U.S. Census Bureau, Vintage 2019 estimate of July 1, 2019 (SUB-IP-EST2019-ANNRES-12, released May 2020; the statute names the most recent April 1 estimate of the Office of Economic and Demographic Research; send `population` to use it)',
  request: 'population given in the request',
};

// Formatted on first use: the first `toLocaleString` loads the number formatting data (tens of ms).
const municipalIncomeSource = onFirstUse(() => `Screening approximation, not an official place figure: the mean ACS 2014–2018 per-capita income (CDC/ATSDR SVI 2018 \`E_PCI\`) of the census tracts the place intersects, weighted by tract population × share of the tract's area inside the place, compared with Florida's per-capita income in the same measure (ACS 2014–2018, ${usd(statePerCapitaIncomeAcs2014To2018())}); send \`per_capita_income\` to use an official figure`);

export function decideEligibility(input: EligibilityInput, lookup: JurisdictionLookup, stateIncome: StateIncomeFigure): EligibilityDecision {
  if (lookup.status !== 'found') {
    return {
      eligible: false,
      tier: null,
      cost_share_percentage: null,
      state_share_percentage: null,
      jurisdiction: null,
      state_income: stateIncome,
      reasons: [{
        test: 'florida_local_government',
        passed: false,
        detail: `"${input.jurisdiction}" is not a Florida county or municipality known to this API. Resilient Florida grants under s. 380.093 go to Florida counties and municipalities (and, for projects, certain Florida special districts and water authorities).`,
        value: input.jurisdiction,
      }],
    };
  }

  const place = lookup.jurisdiction;
  const reasons: EligibilityReason[] = [{
    test: 'florida_local_government',
    passed: true,
    detail: `${describeJurisdiction(place)} is a Florida ${place.type}: an eligible applicant under s. 380.093.`,
    value: place.display_name,
  }];

  const population = populationTest(place, input.population);
  const income = incomeTest(place, input.per_capita_income, stateIncome);
  reasons.push(population, income);

  const disadvantaged = population.passed === true && income.passed === true;
  reasons.push({
    test: 'financially_disadvantaged_small_community',
    passed: population.passed === null || income.passed === null ? null : disadvantaged,
    detail: disadvantaged
      ? 'Both tests pass: the applicant is a financially disadvantaged small community and may receive up to 100 % state funding.'
      : population.passed === null || income.passed === null
        ? 'Not decided: supply the missing figures to apply both tests; until then the standard cost share applies.'
        : 'At least one test fails: the standard 50 % cost share applies to implementation projects.',
  });

  const tier = disadvantaged ? 'financially_disadvantaged_small_community' : 'standard';
  let costShare = disadvantaged ? 0 : STANDARD_COST_SHARE;
  if (input.project_type === 'planning') {
    costShare = 0;
    reasons.push({ test: 'planning_grant', passed: true, detail: 'Planning grants, including vulnerability assessments, are fully funded by the state: no cost share.' });
  }

  return {
    eligible: true,
    tier,
    cost_share_percentage: costShare,
    state_share_percentage: 100 - costShare,
    jurisdiction: { name: place.display_name, type: place.type, county: place.county.name, county_fips: place.county.fips },
    state_income: stateIncome,
    reasons,
  };
}

/** The population the test uses: the caller's, else the county's BEA figure or the municipality's Census estimate. */
function populationOf(place: Jurisdiction, given: number | undefined): { value: number; source: string } | undefined {
  if (given !== undefined) return { value: given, source: POPULATION_SOURCE.request };
  if (place.type === 'county') return { value: place.county.population_2023, source: POPULATION_SOURCE.county };
  const estimate = place.municipality.census_place?.population_2019;
  return estimate == null ? undefined : { value: estimate, source: POPULATION_SOURCE.municipality };
}

function populationTest(place: Jurisdiction, given: number | undefined): EligibilityReason {
  const threshold = SMALL_COMMUNITY_POPULATION[place.type];
  const population = populationOf(place, given);
  if (population === undefined) {
    return {
      test: 'small_community_population',
      passed: null,
      detail: `The API holds no population estimate for ${place.display_name}: send \`population\` (most recent April 1 estimate) to test the ${threshold.toLocaleString('en-US')}-person threshold for a ${place.type}.`,
      threshold,
      value: null,
    };
  }
  const { value, source } = population;
  const passed = value <= threshold;
  return {
    test: 'small_community_population',
    passed,
    detail: `Population ${value.toLocaleString('en-US')} is ${passed ? 'at or below' : 'above'} the ${threshold.toLocaleString('en-US')} threshold for a ${place.type}.`,
    threshold,
    value,
    source,
  };
}

/**
 * The income the test uses and the state figure it is compared with, in the same measure: the
 * caller's figure or the county's BEA 2023 figure against BEA's state figure; a municipality's
 * tract-weighted ACS 2014–2018 figure against Florida's ACS 2014–2018 figure.
 */
function incomeOf(place: Jurisdiction, given: number | undefined, state: StateIncomeFigure): { value: number; threshold: number; year: string; source: string } | undefined {
  const bea = { threshold: state.per_capita_personal_income_usd, year: String(state.year) };
  if (given !== undefined) return { value: given, ...bea, source: `per_capita_income given in the request; state figure: ${state.source}` };
  if (place.type === 'county') return { value: place.county.per_capita_income_2023, ...bea, source: `U.S. Bureau of Economic Analysis CAINC1, ${place.county.name} County 2023; state figure: ${state.source}` };
  const estimate = place.municipality.census_place?.per_capita_income_tract_weighted;
  return estimate == null ? undefined : { value: estimate, threshold: statePerCapitaIncomeAcs2014To2018(), year: 'ACS 2014–2018', source: municipalIncomeSource() };
}

function incomeTest(place: Jurisdiction, given: number | undefined, state: StateIncomeFigure): EligibilityReason {
  const income = incomeOf(place, given, state);
  if (income === undefined) {
    const threshold = state.per_capita_personal_income_usd;
    return {
      test: 'per_capita_income_below_state',
      passed: null,
      detail: `The API holds no income figure for ${place.display_name}: send \`per_capita_income\` to compare with Florida's ${usd(threshold)} (${state.year}).`,
      threshold,
      value: null,
      source: state.source,
    };
  }
  const { value, threshold, year, source } = income;
  const passed = value < threshold;
  return {
    test: 'per_capita_income_below_state',
    passed,
    detail: `Per capita income ${usd(value)} is ${passed ? 'below' : 'not below'} Florida's ${usd(threshold)} (${year}).`,
    threshold,
    value,
    source,
  };
}
