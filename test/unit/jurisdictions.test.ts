import { readFileSync } from 'node:fs';
import path from 'node:path';
import { freshModule } from '../helpers/fresh-module';

/** Loaded afresh in each test: its name tables and patterns are built when the module loads. */
const load = () => freshModule<typeof import('../../shared/domain/jurisdictions')>(require.resolve('../../shared/domain/jurisdictions'));

const countiesCsv = readFileSync(path.join(__dirname, '../../shared/data/jurisdictions/fl-counties.json'), 'utf8');

describe('Florida jurisdictions', () => {
  it('holds the 67 counties', () => {
    const { FLORIDA_COUNTIES } = load();
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
    const { resolveJurisdiction } = load();
    const result = resolveJurisdiction(text);
    expect(result.status).toBe('found');
    if (result.status === 'found') {
      expect(result.jurisdiction.type).toBe(type);
      expect(result.jurisdiction.name).toBe(name);
    }
  });

  it('reports a name shared by a county and a city as ambiguous unless the kind is given', () => {
    const { resolveJurisdiction } = load();
    expect(resolveJurisdiction('Alachua').status).toBe('ambiguous');
    const city = resolveJurisdiction('Alachua', { type: 'municipality' });
    expect(city.status === 'found' && city.jurisdiction.type).toBe('municipality');
  });

  it.each([
    ['Key West, City of', 'City of Key West'],
    ['KEY WEST, CITY OF, FL', 'City of Key West'],
    ['Key West,City  of', 'City of Key West'],
    ['Islamorada, Village of Islands,FL', 'Village of Islamorada'],
    ['ISLAMORADA, VILLAGE OF  ISLANDS', 'Village of Islamorada'],
    ['MIAMI SHORES VILLAGE,  VILLAGE OF', 'Miami Shores Village'],
    ['BAL HARBOUR VILLAGE, VILLAGE OF', 'Bal Harbour Village'],
    ['Islamorada, Village of Islands', 'Village of Islamorada'],
    ['Bal Harbour', 'Bal Harbour Village'],
    ['Village of Bal Harbour', 'Bal Harbour Village'],
    ['Bal Harbour Village', 'Bal Harbour Village'],
    ['Miami Shores', 'Miami Shores Village'],
    ['North Bay Village', 'City of North Bay Village'],
    ['Town of St. Lucie Village', 'Town of St. Lucie Village'],
    ['Dade County', 'Miami-Dade County'],
    ['Monroe, County of', 'Monroe County'],
    ['Dade City', 'City of Dade City'],
  ])('resolves %s, as lists and people write it, to %s', (text, displayName) => {
    const { resolveJurisdiction } = load();
    const result = resolveJurisdiction(text);
    expect(result.status === 'found' && result.jurisdiction.display_name).toBe(displayName);
  });

  it('names a county once and a municipality with its county', () => {
    const { countyByName, describeJurisdiction, resolveJurisdiction } = load();
    const found = (text: string) => {
      const result = resolveJurisdiction(text);
      if (result.status !== 'found') throw new Error(text);
      return result.jurisdiction;
    };
    expect(describeJurisdiction(found('Monroe County'))).toBe('Monroe County');
    expect(describeJurisdiction(found('Monroe County'), 'county:12087')).toBe('Monroe County (county:12087)');
    expect(describeJurisdiction(found('Key West'), 'municipality:120168')).toBe('City of Key West (Monroe County, municipality:120168)');
    expect(resolveJurisdiction('Dade').status).toBe('not_found');
    // Asked for a county, Dade is Miami-Dade; "Dade City" names no county.
    const dade = resolveJurisdiction('Dade', { type: 'county' });
    expect(dade.status === 'found' && dade.jurisdiction.display_name).toBe('Miami-Dade County');
    expect(['Dade', 'Miami Dade Co', 'Monroe, County of', 'St. Johns County, FL', 'Dade City', 'City of Key West'].map((name) => countyByName(name)?.name)).toEqual(['Miami-Dade', 'Miami-Dade', 'Monroe', 'St. Johns', undefined, undefined]);
    expect(resolveJurisdiction('Key West, County of').status).toBe('not_found');
    expect(resolveJurisdiction('Panama').status).toBe('not_found');
    // The county of a municipality is read with or without the word County.
    for (const county of ['Monroe', 'Monroe County']) {
      const keyWest = resolveJurisdiction('Key West', { county: countyByName(county) });
      expect(keyWest.status === 'found' && keyWest.jurisdiction.display_name).toBe('City of Key West');
    }
    expect(resolveJurisdiction('Key West', { county: countyByName('Duval County') }).status).toBe('not_found');
    // The inverted form ends there: what follows it is not a Florida place.
    expect(resolveJurisdiction('Key West, City of, Georgia').status).toBe('not_found');
    expect(resolveJurisdiction('Key West, City of Miami').status).toBe('not_found');
    expect(resolveJurisdiction('Key West, City of  ').status).toBe('found');
    expect(resolveJurisdiction('Islamorada, Village of Islands, Florida').status).toBe('found');
    // "Florida" is dropped only as a last word: Florida City keeps its name.
    expect(resolveJurisdiction('Florida City').status).toBe('found');
    expect(resolveJurisdiction('Florida City, FL').status).toBe('found');
  });

  it('does not find places outside Florida', () => {
    const { resolveJurisdiction } = load();
    expect(resolveJurisdiction('Cook County').status).toBe('not_found');
    expect(resolveJurisdiction('Atlanta').status).toBe('not_found');
  });

  it('normalises punctuation and saints', () => {
    const { normalizePlaceName } = load();
    expect(normalizePlaceName('St. Lucie')).toBe('saint lucie');
    expect(normalizePlaceName('Miami-Dade')).toBe('miami dade');
  });
});
