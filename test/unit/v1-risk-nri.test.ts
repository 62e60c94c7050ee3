import path from 'node:path';
import { readCsvRows } from '../helpers/v1-risk-csv';
import { calculateRisk, hazardsAtLocation } from '../../shared/domain/risk/answers';
import { resolvePlace } from '../../shared/domain/risk/place';
import { checkedNriData, NRI_RATINGS, type NriData } from '../../shared/domain/risk/nri';
import { readFileSync } from 'node:fs';
import type { TidePredictor } from '../../shared/domain/hazards/tide-flood-days';

const DATA = path.join(__dirname, '../../shared/data/v1/nri');
const rows = readCsvRows(path.join(DATA, 'NRI_Table_Counties_Florida_v1.19.0.csv'));
const dictionary = readCsvRows(path.join(DATA, 'NRIDataDictionary_v1.19.0.csv'));

/** The NRI values are compared here, not the tide figures: a flat sea keeps the test fast. */
const flatSea: TidePredictor = {
  highWaters: async () => [],
  levelsAt: async (_gauge, times) => times.map(() => 0),
};

const NUMERIC = new Set(['Very High', 'Relatively High', 'Relatively Moderate', 'Relatively Low', 'Very Low']);
/** The published cell as a number; blank cells are absent values. */
const published = (cell: string) => (cell.trim() === '' ? null : Number(cell));
const scoreFor = (score: string, rating: string) => (NUMERIC.has(rating) ? published(score) : null);

async function riskOf(fips: string) {
  const place = resolvePlace({ county_fips: fips });
  if (!place.ok) throw new Error(place.message);
  return calculateRisk(place.place, { assessmentYear: 2026, tides: flatSea });
}

describe('FEMA National Risk Index served as published', () => {
  it('has all 67 Florida counties in the published table', () => {
    expect(rows).toHaveLength(67);
    expect(new Set(rows.map((r) => r.STCOFIPS)).size).toBe(67);
  });

  it.each(rows.map((r) => [r.COUNTY, r] as const))('%s: composite values, scores and ratings equal the CSV', async (_name, row) => {
    const answer = await riskOf(row.STCOFIPS!);
    expect(answer.location.county_fips).toBe(row.STCOFIPS);
    expect(answer.location.nri_id).toBe(row.NRI_ID);
    expect(answer.composite).toMatchObject({
      risk_value: published(row.RISK_VALUE!),
      risk_score: scoreFor(row.RISK_SCORE!, row.RISK_RATNG!),
      risk_rating: row.RISK_RATNG,
      expected_annual_loss_usd: published(row.EAL_VALT!),
      expected_annual_loss: { score: scoreFor(row.EAL_SCORE!, row.EAL_RATNG!), rating: row.EAL_RATNG },
      social_vulnerability: { score: scoreFor(row.SOVI_SCORE!, row.SOVI_RATNG!), rating: row.SOVI_RATNG },
      community_resilience: { score: scoreFor(row.RESL_SCORE!, row.RESL_RATNG!), rating: row.RESL_RATNG },
      community_risk_factor: published(row.CRF_VALUE!),
    });
  });

  it.each(rows.map((r) => [r.COUNTY, r] as const))('%s: coastal flooding values equal the CSV, null scores for non-numeric ratings', async (_name, row) => {
    const answer = await riskOf(row.STCOFIPS!);
    const cfld = answer.hazards.find((h) => h.code === 'CFLD')!;
    expect(cfld).toMatchObject({
      name: 'Coastal Flooding',
      annualized_frequency: published(row.CFLD_AFREQ!),
      expected_annual_loss_usd: published(row.CFLD_EALT!),
      expected_annual_loss_rating: row.CFLD_EALR,
      risk_value: published(row.CFLD_RISKV!),
      risk_score: scoreFor(row.CFLD_RISKS!, row.CFLD_RISKR!),
      risk_rating: row.CFLD_RISKR,
    });
    if (!NUMERIC.has(row.CFLD_RISKR!)) expect(cfld.risk_score).toBeNull();
  });

  it('serves every hazard rating of every county from the NRI vocabulary, with a score exactly when rated', async () => {
    const seen = new Set<string>();
    for (const row of rows) {
      const answer = await riskOf(row.STCOFIPS!);
      expect(answer.hazards).toHaveLength(18);
      for (const hazard of answer.hazards) {
        expect(hazard.risk_rating).toBe(row[`${hazard.code}_RISKR`]);
        expect(hazard.risk_score).toBe(scoreFor(row[`${hazard.code}_RISKS`]!, row[`${hazard.code}_RISKR`]!));
        expect(hazard.expected_annual_loss_usd).toBe(published(row[`${hazard.code}_EALT`]!));
        seen.add(hazard.risk_rating);
        seen.add(hazard.expected_annual_loss_rating);
      }
    }
    expect([...seen].every((r) => (NRI_RATINGS as readonly string[]).includes(r))).toBe(true);
    for (const rating of ['No Rating', 'Not Applicable', 'Insufficient Data', 'No Expected Annual Losses']) expect(seen).toContain(rating);
  });

  it('names the NRI version of the table and its data dictionary, and FEMA\'s planning-only use limitation', async () => {
    const answer = await riskOf('12087');
    const versions = new Set(dictionary.map((d) => d.Version));
    expect(versions).toEqual(new Set(['1.19.0']));
    expect(answer.source.version).toContain('1.19.0');
    expect(answer.source.release).toBe(rows[0]!.NRI_VER);
    expect(answer.source.disclaimer).toMatch(/meant for planning purposes only/);
    expect(answer.source.disclaimer).toMatch(/not a substitute for localized risk assessment/);
  });

  it('restricts the hazards to the requested NRI codes', async () => {
    const place = resolvePlace({ county: 'Monroe County' });
    if (!place.ok) throw new Error(place.message);
    const answer = await calculateRisk(place.place, { hazards: ['HRCN', 'CFLD'], assessmentYear: 2026, tides: flatSea });
    expect(answer.hazards.map((h) => h.code)).toEqual(['CFLD', 'HRCN']);
  });
});

describe('the bundled data file, checked when it loads', () => {
  const bundled = () => JSON.parse(readFileSync(path.join(__dirname, '../../shared/data/v1/nri/fl-counties-nri.json'), 'utf8')) as NriData;

  it('passes as bundled', () => {
    const data = bundled();
    expect(checkedNriData(data)).toBe(data);
  });

  it('refuses hazards other than the vocabulary\'s, or in another order', () => {
    const missing = bundled();
    missing.hazards = missing.hazards.slice(1);
    expect(() => checkedNriData(missing)).toThrow('NRI data hazards differ from NRI_HAZARD_CODES');
    const swapped = bundled();
    swapped.hazards = [swapped.hazards[1]!, swapped.hazards[0]!, ...swapped.hazards.slice(2)];
    expect(() => checkedNriData(swapped)).toThrow('NRI data hazards differ from NRI_HAZARD_CODES');
  });

  // A rating cell of each kind, in the last county: FEMA's county ratings and each hazard's two.
  it.each(['RISK_RATNG', 'SOVI_RATNG', 'CFLD_RISKR', 'WFIR_EALR'])('refuses a rating FEMA does not use, in %s', (column) => {
    const data = bundled();
    const { columns, rows } = data.counties;
    const i = columns.indexOf(column);
    expect(i).toBeGreaterThan(-1);
    const last = rows.at(-1)!;
    last[i] = 'Relatively Hgh';
    expect(() => checkedNriData(data)).toThrow(`Unknown NRI rating "Relatively Hgh" in ${column} of ${String(last[columns.indexOf('fips')])}`);
  });

  it('leaves other text columns alone', () => {
    const data = bundled();
    data.counties.rows[0]![data.counties.columns.indexOf('county')] = 'Not a rating';
    expect(() => checkedNriData(data)).not.toThrow();
  });
});

describe('hazards at a location', () => {
  it('applies a hazard FEMA rates, not one it does not, and leaves insufficient data open', async () => {
    const place = resolvePlace({ lat: 28.5383, lon: -81.3792 });
    if (!place.ok) throw new Error(place.message);
    const answer = await hazardsAtLocation(place.place, { assessmentYear: 2026, tides: flatSea });
    const orange = rows.find((r) => r.STCOFIPS === '12095')!;
    for (const hazard of answer.hazards) {
      const rating = orange[`${hazard.code}_RISKR`]!;
      expect(hazard.rating).toBe(rating);
      expect(hazard.applies).toBe(NUMERIC.has(rating) ? true : rating === 'Insufficient Data' ? null : false);
    }
    expect(answer.hazards.find((h) => h.code === 'TSUN')!.applies).toBeNull();
    expect(answer.flood_zone.status).toBe('unknown');
    expect(answer.sea_level_rise).toBeNull();
  });
});

describe('a place for the risk question', () => {
  // Florida's coastal counties, as the state lists them (35).
  const COASTAL = ['Bay', 'Brevard', 'Broward', 'Charlotte', 'Citrus', 'Collier', 'Dixie', 'Duval', 'Escambia', 'Flagler', 'Franklin', 'Gulf',
    'Hernando', 'Hillsborough', 'Indian River', 'Jefferson', 'Lee', 'Levy', 'Manatee', 'Martin', 'Miami-Dade', 'Monroe', 'Nassau', 'Okaloosa',
    'Palm Beach', 'Pasco', 'Pinellas', 'St. Johns', 'St. Lucie', 'Santa Rosa', 'Sarasota', 'Taylor', 'Volusia', 'Wakulla', 'Walton'];

  it.each(rows.map((r) => [r.COUNTY!, r.STCOFIPS!] as const))('%s is coastal exactly when the state lists it', (name, fips) => {
    const place = resolvePlace({ county_fips: fips });
    expect(place.ok && place.place.coastal).toBe(COASTAL.includes(name));
  });

  it.each([
    ['Key West', 24.5551, -81.78, '12087', true],
    ['Miami Beach', 25.7907, -80.13, '12086', true],
    ['Orlando', 28.5383, -81.3792, '12095', false],
    ['Tallahassee', 30.4383, -84.2807, '12073', false],
    ['St. Petersburg', 27.7676, -82.6403, '12103', true],
  ] as const)('%s (%f, %f) lies in county %s', (_name, lat, lon, fips, coastal) => {
    const place = resolvePlace({ lat, lon });
    expect(place).toMatchObject({ ok: true, place: { county_fips: fips, coastal, point_basis: 'requested_point', matched_by: 'point_in_boundary' } });
    expect(place.ok && place.place).not.toHaveProperty('distance_to_boundary_km');
  });

  it.each([
    ['Atlanta, Georgia', 33.749, -84.388],
    ['the middle of the Gulf', 26.0, -84.0],
    ['Mobile, Alabama', 30.6954, -88.0399],
  ] as const)('%s is outside Florida', (_name, lat, lon) => {
    expect(resolvePlace({ lat, lon })).toMatchObject({ ok: false, reason: 'outside_florida' });
  });

  it('answers by FIPS code or name, and refuses other states and unknown names', () => {
    expect(resolvePlace({ county: 'miami dade' })).toMatchObject({ ok: true, place: { county_fips: '12086', point_basis: 'county_centroid' } });
    expect(resolvePlace({ county_fips: '13121' })).toMatchObject({ ok: false, reason: 'outside_florida' });
    expect(resolvePlace({ county_fips: '12999' })).toMatchObject({ ok: false, reason: 'unknown_county' });
    expect(resolvePlace({ county: 'Atlantis' })).toMatchObject({ ok: false, reason: 'unknown_county' });
    // The county names the rest of the API reads: the old Dade County, FEMA's inverted form.
    expect(resolvePlace({ county: 'Dade County' })).toMatchObject({ ok: true, place: { county_fips: '12086' } });
    expect(resolvePlace({ county: 'Monroe, County of' })).toMatchObject({ ok: true, place: { county_fips: '12087' } });
    expect(resolvePlace({ county: 'Dade City' })).toMatchObject({ ok: false, reason: 'unknown_county' });
  });
});
