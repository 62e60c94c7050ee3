import { readFileSync } from 'node:fs';
import path from 'node:path';
import ExcelJS from 'exceljs';
import { parse } from 'csv-parse/sync';
import { decideEligibility, type EligibilityDecision } from '../../shared/domain/grants/eligibility';
import { floridaMunicipalities, jurisdictionById, resolveJurisdiction } from '../../shared/domain/jurisdictions';

/**
 * The municipal figures eligibility falls back on, recomputed from the Census Bureau's own XLSX
 * (SUB-IP-EST2019-ANNRES-12) and the tract-weighted income CSV, both kept verbatim in
 * `shared/data/jurisdictions/source/`.
 */
const SOURCE = path.join(__dirname, '../../shared/data/jurisdictions/source');
const STATE = { per_capita_personal_income_usd: 68703, year: 2023, source: 'BEA CAINC1 2023' };
const decide = (jurisdiction: string, extra: { population?: number; per_capita_income?: number } = {}) =>
  decideEligibility({ jurisdiction, project_type: 'implementation', ...extra }, resolveJurisdiction(jurisdiction), STATE);
const reason = (decision: EligibilityDecision, test: string) => decision.reasons.find((r) => r.test === test)!;

/** "Key West city, Florida" → its July 1, 2019 estimate (the last column). */
async function estimates2019(): Promise<Map<string, number>> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.readFile(path.join(SOURCE, 'SUB-IP-EST2019-ANNRES-12-FL.xlsx'));
  const sheet = workbook.worksheets[0]!;
  const byName = new Map<string, number>();
  sheet.eachRow((row) => {
    const values = row.values as unknown[];
    const name = values[1];
    if (typeof name === 'string' && name.endsWith(', Florida') && typeof values[13] === 'number') byName.set(name, values[13]);
  });
  return byName;
}

const incomes = parse(readFileSync(path.join(SOURCE, 'fl_incorporated_places_pci_tract_weighted_svi2018.csv')), { columns: true }) as Array<{ geoid: string; name: string; pci_usd_acs2014_2018_tract_weighted: string }>;

describe('municipal population and income from the Census files', () => {
  let census: Map<string, number>;
  beforeAll(async () => {
    census = await estimates2019();
  });

  it('the Census file has 412 places, and every one is a municipality here with its 2019 estimate', () => {
    expect(census.size).toBe(412);
    const held = new Map(floridaMunicipalities().filter((m) => m.census_place?.population_2019 != null).map((m) => [`${m.name}|${m.census_place!.population_2019}`, m]));
    for (const [label, population] of census) {
      const name = label.replace(/ (city|town|village), Florida$/, '');
      const found = floridaMunicipalities().filter((m) => m.census_place && m.census_place.name === name && m.census_place.population_2019 === population);
      expect([label, found.length]).toEqual([label, 1]);
    }
    expect(held.size).toBe(412);
  });

  it.each([
    ['City of Key West', 'Key West city, Florida', false],
    ['City of Cedar Key', 'Cedar Key city, Florida', true],
    ['Town of Bell', 'Bell town, Florida', true],
  ])('%s without a population: the Census estimate of July 1, 2019, labelled with its vintage', async (jurisdiction, censusName, small) => {
    const expected = census.get(censusName)!;
    const population = reason(decide(jurisdiction), 'small_community_population');
    expect(population).toMatchObject({ value: expected, passed: small, threshold: 10000 });
    expect(population.source).toMatch(/^U\.S\. Census Bureau, Vintage 2019 estimate of July 1, 2019 \(SUB-IP-EST2019-ANNRES-12/);
    // The caller's figure wins.
    expect(reason(decide(jurisdiction, { population: 123_456 }), 'small_community_population')).toMatchObject({ value: 123_456, passed: false, source: 'population given in the request' });
  });

  it('without an income: the tract-weighted ACS figure against Florida\'s in the same measure, labelled an approximation', () => {
    const keyWest = incomes.find((r) => r.name === 'Key West')!;
    const income = reason(decide('City of Key West'), 'per_capita_income_below_state');
    expect(income).toMatchObject({ value: Number(keyWest.pci_usd_acs2014_2018_tract_weighted), threshold: 30197 });
    expect(income.passed).toBe(Number(keyWest.pci_usd_acs2014_2018_tract_weighted) < 30197);
    expect(income.source).toMatch(/^Screening approximation, not an official place figure/);
    expect(income.detail).toMatch(/\(ACS 2014–2018\)\.$/);
    expect(reason(decide('City of Key West', { per_capita_income: 20000 }), 'per_capita_income_below_state')).toMatchObject({ value: 20000, threshold: 68703, passed: true });
  });

  it('a Gulf-coast town of about 700 people is a financially disadvantaged small community, not a 50 % cost share', () => {
    const decision = decide('City of Cedar Key');
    expect(census.get('Cedar Key city, Florida')).toBe(720);
    expect(Number(incomes.find((r) => r.name === 'Cedar Key')!.pci_usd_acs2014_2018_tract_weighted)).toBeLessThan(30197);
    expect(decision).toMatchObject({ tier: 'financially_disadvantaged_small_community', cost_share_percentage: 0 });
  });

  it('Hastings (dissolved in 2018) has no estimate: the population test stays undecided and says what to send', () => {
    const decision = decide('Town of Hastings');
    expect(reason(decision, 'small_community_population')).toMatchObject({ passed: null, value: null, detail: expect.stringMatching(/send `population`/) });
    expect(reason(decision, 'financially_disadvantaged_small_community').passed).toBeNull();
  });

  it('the places NFIP does not list are municipalities by their Census GEOID', () => {
    for (const geoid of ['1204975', '1226075', '1229100', '1259675', '1275625']) {
      expect(jurisdictionById(`municipality:${geoid}`)).toMatchObject({ type: 'municipality', municipality: { census_place: { geoid } } });
    }
    expect(floridaMunicipalities()).toHaveLength(413);
    expect(floridaMunicipalities().every((m) => m.census_place !== null)).toBe(true);
  });
});
