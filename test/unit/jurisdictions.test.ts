import { readFileSync } from 'node:fs';
import path from 'node:path';
import { resolveJurisdiction, normalizePlaceName, FLORIDA_COUNTIES } from '../../shared/domain/jurisdictions';

const countiesCsv = readFileSync(path.join(__dirname, '../../shared/data/jurisdictions/fl-counties.json'), 'utf8');

describe('Florida jurisdictions', () => {
  it('holds the 67 counties', () => {
    expect(FLORIDA_COUNTIES).toHaveLength(67);
    expect(JSON.parse(countiesCsv).counties).toHaveLength(67);
  });

  it.each([
    ['Monroe County', 'county', 'Monroe'],
    ['miami dade county', 'county', 'Miami-Dade'],
    ['St. Johns County, FL', 'county', 'St. Johns'],
    ['De Soto County', 'county', 'DeSoto'],
    ['City of Key West', 'municipality', 'Key West'],
    ['Key West', 'municipality', 'Key West'],
    ['St. Petersburg', 'municipality', 'St. Petersburg'],
  ])('resolves %s', (text, type, name) => {
    const result = resolveJurisdiction(text);
    expect(result.status).toBe('found');
    if (result.status === 'found') {
      expect(result.jurisdiction.type).toBe(type);
      expect(result.jurisdiction.name).toBe(name);
    }
  });

  it('reports a name shared by a county and a city as ambiguous unless the kind is given', () => {
    expect(resolveJurisdiction('Alachua').status).toBe('ambiguous');
    const city = resolveJurisdiction('Alachua', { type: 'municipality' });
    expect(city.status === 'found' && city.jurisdiction.type).toBe('municipality');
  });

  it('does not find places outside Florida', () => {
    expect(resolveJurisdiction('Cook County').status).toBe('not_found');
    expect(resolveJurisdiction('Atlanta').status).toBe('not_found');
  });

  it('normalises punctuation and saints', () => {
    expect(normalizePlaceName('St. Lucie')).toBe('saint lucie');
    expect(normalizePlaceName('Miami-Dade')).toBe('miami dade');
  });
});
