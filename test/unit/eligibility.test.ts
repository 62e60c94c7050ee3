import { readFileSync } from 'node:fs';
import path from 'node:path';
import { decideEligibility } from '../../shared/domain/grants/eligibility';
import { resolveJurisdiction } from '../../shared/domain/jurisdictions';

// State figure and county figures as published by BEA (CAINC1, 2023), read from the shipped data file.
const counties = JSON.parse(readFileSync(path.join(__dirname, '../../shared/data/jurisdictions/fl-counties.json'), 'utf8')).counties as Array<{ name: string; population_2023: number; per_capita_income_2023: number }>;
const STATE = { per_capita_personal_income_usd: 68703, year: 2023, source: 'BEA CAINC1 2023' };

const decide = (jurisdiction: string, extra: { population?: number; per_capita_income?: number; project_type?: 'planning' | 'implementation' } = {}) =>
  decideEligibility({ jurisdiction, project_type: 'implementation', ...extra }, resolveJurisdiction(jurisdiction), STATE);

describe('grant eligibility', () => {
  it('Liberty County (7,706 people, $35,661) is a financially disadvantaged small community', () => {
    const liberty = counties.find((c) => c.name === 'Liberty')!;
    expect([liberty.population_2023, liberty.per_capita_income_2023]).toEqual([7706, 35661]);
    const result = decide('Liberty County');
    expect(result).toMatchObject({ eligible: true, tier: 'financially_disadvantaged_small_community', cost_share_percentage: 0, state_share_percentage: 100 });
    expect(result.reasons.find((r) => r.test === 'small_community_population')).toMatchObject({ passed: true, value: 7706, threshold: 50000 });
    expect(result.reasons.find((r) => r.test === 'per_capita_income_below_state')).toMatchObject({ passed: true, value: 35661, threshold: 68703 });
    expect(result.state_income).toEqual(STATE);
  });

  it('names the county a municipality lies in, and a county once', () => {
    expect(decide('Liberty County').reasons[0]!.detail).toBe('Liberty County is a Florida county: an eligible applicant under s. 380.093.');
    expect(decide('Bristol').reasons[0]!.detail).toBe('City of Bristol (Liberty County) is a Florida municipality: an eligible applicant under s. 380.093.');
  });

  it('Monroe County (80,614 people) is too large: standard 50 % cost share', () => {
    const result = decide('Monroe County');
    expect(result).toMatchObject({ eligible: true, tier: 'standard', cost_share_percentage: 50, state_share_percentage: 50 });
    expect(result.reasons.find((r) => r.test === 'small_community_population')).toMatchObject({ passed: false, value: 80614 });
  });

  it('applies the 10,000 threshold to municipalities with the figures the applicant sends', () => {
    expect(decide('City of Cedar Key', { population: 700, per_capita_income: 40000 }).tier).toBe('financially_disadvantaged_small_community');
    expect(decide('Key West', { population: 26000, per_capita_income: 40000 }).tier).toBe('standard');
    // Income equal to the state's is not below it.
    expect(decide('Key West', { population: 9000, per_capita_income: 68703 }).tier).toBe('standard');
    // Cents are printed when sent: rounded, this income would read as the state's figure.
    const justBelow = decide('Key West', { population: 9000, per_capita_income: 68702.6 });
    expect(justBelow.tier).toBe('financially_disadvantaged_small_community');
    expect(justBelow.reasons.find((r) => r.test === 'per_capita_income_below_state')!.detail).toBe("Per capita income $68,702.60 is below Florida's $68,703 (2023).");
  });

  it('leaves the test undecided for a municipality without figures or a Census estimate, and says what to send', () => {
    const result = decide('Town of Hastings');
    expect(result.tier).toBe('standard');
    expect(result.reasons.find((r) => r.test === 'small_community_population')).toMatchObject({ passed: null });
    expect(result.reasons.find((r) => r.test === 'financially_disadvantaged_small_community')!.passed).toBeNull();
  });

  it('funds planning grants fully', () => {
    expect(decide('Monroe County', { project_type: 'planning' })).toMatchObject({ cost_share_percentage: 0, state_share_percentage: 100, tier: 'standard' });
  });

  it('answers eligible false with the reason for a place outside Florida', () => {
    const result = decide('Fulton County');
    expect(result).toMatchObject({ eligible: false, tier: null, cost_share_percentage: null });
    expect(result.reasons[0]).toMatchObject({ test: 'florida_local_government', passed: false });
  });
});
