import { floridaBBox } from '../../shared/domain/hazards/florida-counties';
import { isNearFlorida, resolveLocation } from '../../shared/domain/hazards/location';
import { requiredHorizons2024, ruleSetsRequiringHorizon, ruleSetsRequiringScenario, statuteDefaults } from '../../shared/domain/hazards/statute';

/** Where a hazard question is asked, and which rule set asks for a scenario or horizon. */

describe('a location as text', () => {
  it('reads "lat,lon" with spaces and decimals, latitude first', () => {
    expect(resolveLocation(' 24.5551 , -81.78 ')).toEqual({ ok: true, point: { lat: 24.5551, lon: -81.78 }, label: '24.5551 , -81.78', jurisdiction: null });
    expect(resolveLocation('25,-80')).toMatchObject({ ok: true, point: { lat: 25, lon: -80 } });
  });

  it('refuses out-of-range coordinates and places away from Florida, with the reason', () => {
    expect(resolveLocation('95,-81')).toEqual({ ok: false, message: 'Latitude must be within ±90 and longitude within ±180.' });
    expect(resolveLocation('25,-181')).toEqual({ ok: false, message: 'Latitude must be within ±90 and longitude within ±180.' });
    expect(resolveLocation('-81.78,24.55')).toEqual({ ok: false, message: '-81.78,24.55 is not in or near Florida; send "lat,lon" (latitude first) of a Florida location.' });
    expect(resolveLocation('40.7,-74.0')).toMatchObject({ ok: false });
    // ±90 and ±180 themselves are coordinates (then far from Florida).
    expect(resolveLocation('90,-81')).toEqual({ ok: false, message: '90,-81 is not in or near Florida; send "lat,lon" (latitude first) of a Florida location.' });
    expect(resolveLocation('25,180')).toEqual({ ok: false, message: '25,180 is not in or near Florida; send "lat,lon" (latitude first) of a Florida location.' });
  });

  it('takes a county or municipality name at its own coordinates, and says when a name is ambiguous or unknown', () => {
    expect(resolveLocation('Monroe County')).toMatchObject({ ok: true, label: 'Monroe County', jurisdiction: { type: 'county', county_fips: '12087' } });
    expect(resolveLocation('City of Key West')).toMatchObject({ ok: true, jurisdiction: { type: 'municipality', county_fips: '12087' } });
    // Sarasota is a county and a city.
    expect(resolveLocation('Sarasota')).toEqual({ ok: false, message: '"Sarasota" is ambiguous: Sarasota County; City of Sarasota (Sarasota County). Add "County" or "City of".' });
    expect(resolveLocation('Gotham')).toEqual({ ok: false, message: '"Gotham" is neither "lat,lon" nor a Florida county or municipality name.' });
  });

  it('counts up to one degree beyond the state\'s box as near Florida, and no more', () => {
    const [west, south, east, north] = floridaBBox();
    const mid = { lat: (south + north) / 2, lon: (west + east) / 2 };
    expect(isNearFlorida({ lat: mid.lat, lon: west - 1 })).toBe(true);
    expect(isNearFlorida({ lat: mid.lat, lon: west - 1.001 })).toBe(false);
    expect(isNearFlorida({ lat: mid.lat, lon: east + 1 })).toBe(true);
    expect(isNearFlorida({ lat: mid.lat, lon: east + 1.001 })).toBe(false);
    expect(isNearFlorida({ lat: south - 1, lon: mid.lon })).toBe(true);
    expect(isNearFlorida({ lat: south - 1.001, lon: mid.lon })).toBe(false);
    expect(isNearFlorida({ lat: north + 1, lon: mid.lon })).toBe(true);
    expect(isNearFlorida({ lat: north + 1.001, lon: mid.lon })).toBe(false);
  });
});

describe('statute rule sets', () => {
  it('asks 20 and 50 years after the assessment year under the 2024 rule set, 2040 and 2070 under 2021', () => {
    expect(requiredHorizons2024(2026)).toEqual([2046, 2076]);
    expect(statuteDefaults(2026)).toEqual({ scenarios: ['intermediate_low', 'intermediate'], horizons: [2046, 2076] });
    expect(ruleSetsRequiringHorizon(2040, 2026)).toEqual(['2021']);
    expect(ruleSetsRequiringHorizon(2070, 2020)).toEqual(['2021', '2024']);
    expect(ruleSetsRequiringHorizon(2076, 2026)).toEqual(['2024']);
    expect(ruleSetsRequiringHorizon(2050, 2026)).toEqual([]);
  });

  it('names the rule sets that ask for each scenario', () => {
    expect(ruleSetsRequiringScenario('intermediate_low')).toEqual(['2021', '2024']);
    expect(ruleSetsRequiringScenario('intermediate')).toEqual(['2024']);
    expect(ruleSetsRequiringScenario('intermediate_high')).toEqual(['2021']);
    expect(ruleSetsRequiringScenario('high')).toEqual([]);
  });
});
