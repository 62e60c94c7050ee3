import { decideEligibility, type EligibilityDecision, type StateIncomeFigure } from '../../../shared/domain/grants/eligibility';
import { countyByName, resolveJurisdiction } from '../../../shared/domain/jurisdictions';
import { appConfig, resetConfigForTests } from '../../../shared/config';
import { readDataCsv } from './read-csv';

/**
 * Financially disadvantaged small community (s. 380.093, DOMAIN §5): a municipality of 10,000 or
 * fewer or a county of 50,000 or fewer, and per capita income below the state's (latest BEA
 * release). Implementation projects: 50 % cost share (state 50 %), or 0 % (state 100 %) for such a
 * community; planning grants are fully funded. Every figure below comes from the statute or from
 * the raw BEA / county / municipality CSVs, read here with the test's own reader.
 */
const MUNICIPALITY_MAX = 10_000;
const COUNTY_MAX = 50_000;

const bea = readDataCsv('jurisdictions/source/fl_bea_cainc1_income_population.csv');
const latestYear = Math.max(...bea.map((r) => Number(r.year)));
const beaLatest = bea.filter((r) => Number(r.year) === latestYear);
const florida = beaLatest.find((r) => r.geofips === '12000')!;
const STATE: StateIncomeFigure = { per_capita_personal_income_usd: Number(florida.per_capita_personal_income_usd), year: latestYear, source: 'BEA CAINC1' };
const beaCounties = beaLatest.filter((r) => r.geofips !== '12000');
const countiesCsv = readDataCsv('jurisdictions/source/fl_counties.csv');
const municipalitiesCsv = readDataCsv('jurisdictions/source/fl_municipalities.csv');

const decide = (jurisdiction: string, extra: { population?: number; per_capita_income?: number; project_type?: 'planning' | 'implementation' } = {}, hint: { type?: 'county' | 'municipality'; county?: string } = {}) =>
  decideEligibility({ jurisdiction, project_type: 'implementation', ...extra }, resolveJurisdiction(jurisdiction, { type: hint.type, county: hint.county === undefined ? undefined : countyByName(hint.county) }), STATE);
const reason = (decision: EligibilityDecision, test: string) => decision.reasons.find((r) => r.test === test)!;
const shares = (d: EligibilityDecision) => [d.tier, d.cost_share_percentage, d.state_share_percentage];
const DISADVANTAGED = ['financially_disadvantaged_small_community', 0, 100];
const STANDARD = ['standard', 50, 50];

describe('pins: the state income figure', () => {
  it('is Florida\'s per capita personal income of the latest BEA year in the raw CAINC1 file (2023: $68,703)', () => {
    expect([latestYear, STATE.per_capita_personal_income_usd]).toEqual([2023, 68703]);
    expect(Number(florida.population_persons)).toBe(22610726);
    // per capita = personal income (thousands) / population, as BEA defines it
    expect(Math.round((Number(florida.personal_income_thousands_usd) * 1000) / Number(florida.population_persons))).toBe(STATE.per_capita_personal_income_usd);
  });

  it('is what the API uses when the operator sets nothing', () => {
    const saved = { ...process.env };
    for (const name of ['STATE_PER_CAPITA_INCOME_USD', 'STATE_PER_CAPITA_INCOME_YEAR', 'STATE_PER_CAPITA_INCOME_SOURCE']) delete process.env[name];
    resetConfigForTests();
    try {
      const config = appConfig();
      expect(config.STATE_PER_CAPITA_INCOME_USD).toBe(STATE.per_capita_personal_income_usd);
      expect(config.STATE_PER_CAPITA_INCOME_YEAR).toBe(latestYear);
    } finally {
      process.env = saved;
      resetConfigForTests();
    }
  });
});

describe('pins: population thresholds on both sides of the edge', () => {
  const below = STATE.per_capita_personal_income_usd - 1;
  it.each([
    ['municipality', 'City of Cedar Key', MUNICIPALITY_MAX, DISADVANTAGED],
    ['municipality', 'City of Cedar Key', MUNICIPALITY_MAX + 1, STANDARD],
    ['municipality', 'City of Cedar Key', 1, DISADVANTAGED],
    ['county', 'Liberty County', COUNTY_MAX, DISADVANTAGED],
    ['county', 'Liberty County', COUNTY_MAX + 1, STANDARD],
    ['county', 'Liberty County', 1, DISADVANTAGED],
  ])('a %s (%s) of %i people with income one dollar below the state\'s', (type, name, population, expected) => {
    const decision = decide(name, { population, per_capita_income: below });
    expect(decision.jurisdiction!.type).toBe(type);
    expect(shares(decision)).toEqual(expected);
    expect(reason(decision, 'small_community_population')).toMatchObject({
      passed: population <= (type === 'county' ? COUNTY_MAX : MUNICIPALITY_MAX),
      threshold: type === 'county' ? COUNTY_MAX : MUNICIPALITY_MAX,
      value: population,
    });
  });
});

describe('pins: per capita income one dollar below and equal to the state\'s', () => {
  it.each([
    ['City of Cedar Key', MUNICIPALITY_MAX, -1, true],
    ['City of Cedar Key', MUNICIPALITY_MAX, 0, false],
    ['City of Cedar Key', MUNICIPALITY_MAX, 1, false],
    ['Liberty County', COUNTY_MAX, -1, true],
    ['Liberty County', COUNTY_MAX, 0, false],
    ['Liberty County', COUNTY_MAX, 1, false],
  ])('%s at %i people, income state %+i dollars', (name, population, offset, passes) => {
    const decision = decide(name, { population, per_capita_income: STATE.per_capita_personal_income_usd + offset });
    expect(reason(decision, 'per_capita_income_below_state')).toMatchObject({ passed: passes, threshold: STATE.per_capita_personal_income_usd });
    expect(shares(decision)).toEqual(passes ? DISADVANTAGED : STANDARD);
  });
});

describe('pins: every Florida county decided from its own BEA figures', () => {
  it('the raw files agree: 67 counties, same population and income in the BEA file and the county file', () => {
    expect(beaCounties).toHaveLength(67);
    expect(countiesCsv).toHaveLength(67);
    for (const county of countiesCsv) {
      const row = beaCounties.find((r) => r.geofips === county.county_fips)!;
      expect([county.county_fips, Number(row.population_persons), Number(row.per_capita_personal_income_usd)])
        .toEqual([county.county_fips, Number(county.bea_2023_population), Number(county.bea_2023_per_capita_personal_income_usd)]);
    }
  });

  it.each(beaCounties.map((r) => [r.geoname.replace(/, FL$/, ''), Number(r.population_persons), Number(r.per_capita_personal_income_usd)] as const))(
    '%s County (%i people, $%i)',
    (name, population, income) => {
      const decision = decide(`${name} County`);
      const qualifies = population <= COUNTY_MAX && income < STATE.per_capita_personal_income_usd;
      expect(decision.eligible).toBe(true);
      expect(shares(decision)).toEqual(qualifies ? DISADVANTAGED : STANDARD);
      expect(reason(decision, 'small_community_population')).toMatchObject({ value: population, threshold: COUNTY_MAX, passed: population <= COUNTY_MAX });
      expect(reason(decision, 'per_capita_income_below_state')).toMatchObject({ value: income, passed: income < STATE.per_capita_personal_income_usd });
    },
  );

  it('Liberty County qualifies and Monroe County does not (DOMAIN §5 examples)', () => {
    expect(shares(decide('Liberty County'))).toEqual(DISADVANTAGED);
    expect(shares(decide('Monroe County'))).toEqual(STANDARD);
  });
});

describe('pins: every municipality gets the municipal threshold', () => {
  const countyName = new Map(countiesCsv.map((c) => [c.county_fips, c.county_name]));
  it.each(municipalitiesCsv.map((m) => [m.municipality, m.type, countyName.get(m.county_fips)!] as const))('%s (%s, %s County)', (name, _type, county) => {
    const atEdge = decide(name, { population: MUNICIPALITY_MAX, per_capita_income: 1 }, { type: 'municipality', county });
    expect(atEdge.jurisdiction).toMatchObject({ type: 'municipality', county });
    expect(reason(atEdge, 'small_community_population')).toMatchObject({ threshold: MUNICIPALITY_MAX, passed: true });
    expect(shares(atEdge)).toEqual(DISADVANTAGED);
    const over = decide(name, { population: MUNICIPALITY_MAX + 1, per_capita_income: 1 }, { type: 'municipality', county });
    expect(shares(over)).toEqual(STANDARD);
  });
});

describe('pins: cost share and state share', () => {
  it.each([
    ['implementation', 'Liberty County', DISADVANTAGED],
    ['implementation', 'Monroe County', STANDARD],
    ['planning', 'Liberty County', ['financially_disadvantaged_small_community', 0, 100]],
    ['planning', 'Monroe County', ['standard', 0, 100]],
  ] as const)('%s project of %s', (projectType, name, expected) => {
    expect(shares(decide(name, { project_type: projectType }))).toEqual(expected);
  });

  it('an undecided municipality (no figures sent, no Census estimate) pays the standard 50 % until both tests can be applied', () => {
    // Hastings (dissolved in 2018) has no Census population estimate.
    const decision = decide('Town of Hastings');
    expect(shares(decision)).toEqual(STANDARD);
    expect(reason(decision, 'financially_disadvantaged_small_community').passed).toBeNull();
  });

  it('a place outside Florida is not eligible and has no shares', () => {
    const decision = decide('Fulton County, Georgia');
    expect([decision.eligible, ...shares(decision)]).toEqual([false, null, null, null]);
  });
});
