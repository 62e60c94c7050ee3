import counties from '../../shared/data/jurisdictions/fl-counties.json';
import { settingOf } from '../../shared/domain/compliance/setting';

/** Florida's 35 coastal counties, as the state lists them (transcribed here, not read from the product's data). */
const COASTAL = new Set([
  'Bay', 'Brevard', 'Broward', 'Charlotte', 'Citrus', 'Collier', 'Dixie', 'Duval', 'Escambia', 'Flagler', 'Franklin', 'Gulf',
  'Hernando', 'Hillsborough', 'Indian River', 'Jefferson', 'Lee', 'Levy', 'Manatee', 'Martin', 'Miami-Dade', 'Monroe', 'Nassau',
  'Okaloosa', 'Palm Beach', 'Pasco', 'Pinellas', 'St. Johns', 'St. Lucie', 'Santa Rosa', 'Sarasota', 'Taylor', 'Volusia', 'Wakulla', 'Walton',
]);

describe('coastal setting of a jurisdiction (2022 amendment)', () => {
  it('is coastal for the 35 coastal counties and noncoastal for the other 32', () => {
    expect(counties.counties).toHaveLength(67);
    for (const county of counties.counties) {
      const decision = settingOf({ county_fips: county.fips, display_name: `${county.name} County` });
      expect({ county: county.name, setting: decision.setting }).toEqual({ county: county.name, setting: COASTAL.has(county.name) ? 'coastal' : 'noncoastal' });
      expect(decision.basis).toContain(`${county.name} County`);
    }
  });

  it('places a municipality by its county, and gives the full checklist without a jurisdiction', () => {
    expect(settingOf({ county_fips: '12087', display_name: 'City of Key West' }).setting).toBe('coastal');
    expect(settingOf({ county_fips: '12105', display_name: 'City of Lakeland' }).setting).toBe('noncoastal');
    const none = settingOf(undefined);
    expect(none.setting).toBe('coastal');
    expect(none.basis).toMatch(/No jurisdiction/);
  });
});
