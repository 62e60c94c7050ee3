import countyData from '../data/jurisdictions/fl-counties.json';
import { recordsOf } from '../data/record-table';
import { onFirstUse } from '../on-first-use';

/** Florida's 67 counties and the incorporated municipalities of the NFIP Community Status Book. */
export interface County {
  fips: string;
  name: string;
  lat: number;
  lon: number;
  population_2023: number;
  per_capita_income_2023: number;
  nfip_cid: string | null;
  nfip_crs_class: number | null;
}

export interface Municipality {
  /** The NFIP community id; for the incorporated places NFIP does not list, the 7-digit Census GEOID. */
  cid: string;
  name: string;
  type: 'city' | 'town' | 'village';
  county_fips: string;
  county_fips_all: string[];
  lat: number;
  lon: number;
  /** `county_centroid` where the place could not be geocoded (small towns); `census_place`: a point inside its Census boundary. */
  coordinates: 'geonames' | 'county_centroid' | 'census_place';
  nfip_crs_class: number | null;
  /** The Census place (2018 cartographic boundaries) this municipality is; null where none is. */
  census_place: CensusPlace | null;
}

/** An incorporated place of the Census files, with its estimates (`shared/data/jurisdictions/fl-places.json`). */
export interface CensusPlace {
  geoid: string;
  name: string;
  type: 'city' | 'town' | 'village';
  nfip_cid: string | null;
  county_fips: string;
  county_fips_all: string[];
  /** A point inside the place, for the places NFIP does not list (null for the others, which keep the NFIP list's coordinates). */
  lat: number | null;
  lon: number | null;
  /** Census Vintage 2019 estimate of July 1, 2019 (SUB-IP-EST2019-ANNRES-12); null for Hastings, dissolved in 2018. */
  population_2019: number | null;
  /**
   * Per-capita income (ACS 2014–2018 dollars): the mean of the intersecting tracts' CDC/ATSDR SVI
   * `E_PCI`, weighted by tract population × share of the tract's area inside the place. An
   * approximation, not a Census place-level figure.
   */
  per_capita_income_tract_weighted: number | null;
}

export type Jurisdiction =
  | { type: 'county'; name: string; display_name: string; county: County }
  | { type: 'municipality'; name: string; display_name: string; county: County; municipality: Municipality };

export type JurisdictionLookup =
  | { status: 'found'; jurisdiction: Jurisdiction }
  | { status: 'ambiguous'; candidates: Jurisdiction[] }
  | { status: 'not_found' };

export const FLORIDA_COUNTIES: readonly County[] = countyData.counties as County[];

/**
 * The places, the municipalities and the name indexes, built with the first name resolved or list
 * read: about 70 KB of data and a Unicode normalization of every name (the first `normalize` call
 * loads ICU's tables), which most requests of the functions that import this module never need.
 */
const tables = onFirstUse(() => {
  const placeData = require('../data/jurisdictions/fl-places.json') as typeof import('../data/jurisdictions/fl-places.json');
  const municipalityData = require('../data/jurisdictions/fl-municipalities.json') as typeof import('../data/jurisdictions/fl-municipalities.json');
  const places: readonly CensusPlace[] = recordsOf<CensusPlace>(placeData.places);
  const placeByCid = new Map(places.filter((p) => p.nfip_cid).map((p) => [p.nfip_cid!, p]));
  // The NFIP Community Status Book's municipalities with their Census places, then the
  // incorporated places it does not list (NFIP non-participants), known by their Census GEOID.
  const municipalities: readonly Municipality[] = [
    ...recordsOf<Omit<Municipality, 'census_place'>>(municipalityData.municipalities).map((m) => ({ ...m, census_place: placeByCid.get(m.cid) ?? null })),
    ...places.filter((p) => !p.nfip_cid).map((p): Municipality => ({
      cid: p.geoid, name: p.name, type: p.type, county_fips: p.county_fips, county_fips_all: p.county_fips_all,
      lat: p.lat!, lon: p.lon!, coordinates: 'census_place', nfip_crs_class: null, census_place: p,
    })),
  ];
  const countiesByName = new Map(FLORIDA_COUNTIES.map((c) => [normalizePlaceName(c.name), c]));
  const municipalitiesByName = new Map<string, Municipality[]>();
  for (const m of municipalities) {
    const key = normalizePlaceName(m.name);
    // "Bal Harbour Village" is also found as "Bal Harbour" (and "Village of Bal Harbour").
    const keys = namedWithItsKind(m) ? [key, key.slice(0, -(m.type.length + 1))] : [key];
    for (const k of keys) municipalitiesByName.set(k, [...(municipalitiesByName.get(k) ?? []), m]);
  }
  return { places, municipalities, countiesByName, municipalitiesByName, statePerCapitaIncome: placeData.state_per_capita_income_acs2014_2018 };
});

/** Florida's incorporated places of the Census files, with their estimates. */
export const floridaPlaces = (): readonly CensusPlace[] => tables().places;

/**
 * The NFIP Community Status Book's municipalities with their Census places, then the incorporated
 * places it does not list (NFIP non-participants), known by their Census GEOID.
 */
export const floridaMunicipalities = (): readonly Municipality[] => tables().municipalities;

/** Florida's per-capita income in the measure of `per_capita_income_tract_weighted` (ACS 2014–2018, aggregate of the tracts). */
export const statePerCapitaIncomeAcs2014To2018 = (): number => tables().statePerCapitaIncome;

const countyByFips = new Map(FLORIDA_COUNTIES.map((c) => [c.fips, c]));

/** Lower-case, unaccented, `st.` → `saint`, punctuation and spacing folded ("Miami-Dade" = "miami dade"). */
export function normalizePlaceName(value: string): string {
  return value
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/\bst\.?\s/g, 'saint ')
    .replace(/\bft\.?\s/g, 'fort ')
    .replace(/[^a-z0-9]+/g, ' ')
    .replace(/\bde soto\b/g, 'desoto')
    .trim();
}

const COUNTY_WORDS = /\b(county|co)\b/;
const MUNICIPAL_PREFIX = /^(city|town|village) of /;
const STATE_SUFFIX = /\s*(fl|florida)$/;
// Only Islamorada's own name ("Islamorada, Village of Islands") goes on after "of".
const INVERTED_KIND = /^(.+?),\s*(city|town|village|county)\s+of(?:\s+islands)?(?:,\s*(?:fl|florida)\.?)?\s*$/i;

function countyJurisdiction(county: County): Jurisdiction {
  return { type: 'county', name: county.name, display_name: `${county.name} County`, county };
}

/**
 * A village whose own name ends in "Village" ("Bal Harbour Village"). Cities so named keep their
 * prefix, as they call themselves ("City of Dade City"), and are not found without "City".
 */
function namedWithItsKind(municipality: Municipality): boolean {
  return municipality.type === 'village' && normalizePlaceName(municipality.name).endsWith(' village');
}

function municipalityJurisdiction(municipality: Municipality): Jurisdiction {
  const county = countyByFips.get(municipality.county_fips)!;
  const kind = municipality.type.charAt(0).toUpperCase() + municipality.type.slice(1);
  // "Bal Harbour Village", not "Village of Bal Harbour Village".
  const displayName = namedWithItsKind(municipality) ? municipality.name : `${kind} of ${municipality.name}`;
  return { type: 'municipality', name: municipality.name, display_name: displayName, county, municipality };
}

/**
 * How a message names a place: a county by its name, a municipality with its county
 * ("Town of Palm Beach (Palm Beach County)"), and `also` (an id) inside the same parentheses.
 */
export function describeJurisdiction(jurisdiction: Jurisdiction, also?: string): string {
  const notes = [jurisdiction.type === 'municipality' ? `${jurisdiction.county.name} County` : undefined, also].filter(Boolean);
  return notes.length ? `${jurisdiction.display_name} (${notes.join(', ')})` : jurisdiction.display_name;
}

/** A Florida county by any name the resolver reads as one ("Monroe", "Miami Dade Co", "Dade County", "Monroe, County of"). */
export function countyByName(name: string): County | undefined {
  const lookup = resolveJurisdiction(name, { type: 'county' });
  return lookup.status === 'found' ? lookup.jurisdiction.county : undefined;
}

export function countyByFipsCode(fips: string): County | undefined {
  return countyByFips.get(fips);
}

/**
 * Resolves free text ("Monroe County", "City of Key West", "st. petersburg, FL") to a Florida
 * county or municipality. "County" or a "City/Town/Village of" prefix decides the kind; otherwise
 * `type` does, and a name used by both a county and a city is ambiguous.
 */
export function resolveJurisdiction(text: string, hint: { type?: 'county' | 'municipality'; county?: County } = {}): JurisdictionLookup {
  let type = hint.type;
  // The inverted form of lists such as FEMA's Community Status Book: "Key West, City of",
  // "Islamorada, Village of Islands", "Monroe, County of".
  const inverted = INVERTED_KIND.exec(text);
  if (inverted) {
    type ??= inverted[2]!.toLowerCase() === 'county' ? 'county' : 'municipality';
    text = inverted[1]!;
  }
  let name = normalizePlaceName(text).replace(STATE_SUFFIX, '').trim();
  if (COUNTY_WORDS.test(name)) {
    type ??= 'county';
    name = name.replace(COUNTY_WORDS, '').replace(/\s+/g, ' ').trim();
  }
  if (MUNICIPAL_PREFIX.test(name)) {
    type ??= 'municipality';
    name = name.replace(MUNICIPAL_PREFIX, '');
  }
  // Dade County became Miami-Dade County in 1997 ("Dade City" is a city in Pasco County).
  if (type === 'county' && name === 'dade') name = 'miami dade';
  const candidates: Jurisdiction[] = [];
  const { countiesByName, municipalitiesByName } = tables();
  const county = countiesByName.get(name);
  if (county && type !== 'municipality') candidates.push(countyJurisdiction(county));
  if (type !== 'county') {
    for (const m of municipalitiesByName.get(name) ?? []) {
      if (!hint.county || m.county_fips_all.includes(hint.county.fips)) candidates.push(municipalityJurisdiction(m));
    }
  }
  if (candidates.length === 0) return { status: 'not_found' };
  if (candidates.length === 1) return { status: 'found', jurisdiction: candidates[0]! };
  return { status: 'ambiguous', candidates };
}

/** A stable identifier for storage and filtering: `county:12087`, `municipality:120168` (NFIP id) or `municipality:1204975` (Census GEOID of a place NFIP does not list). */
export function jurisdictionId(jurisdiction: Jurisdiction): string {
  return jurisdiction.type === 'county' ? `county:${jurisdiction.county.fips}` : `municipality:${jurisdiction.municipality.cid}`;
}

/** The form of a jurisdiction id: `county:<5-digit FIPS>` or `municipality:<6-digit NFIP id | 7-digit Census GEOID>`. */
export const JURISDICTION_ID_PATTERN = /^(county|municipality):\w+$/;

/** A Florida county or municipality by its id, or undefined when no jurisdiction has it. */
export function jurisdictionById(id: string): Jurisdiction | undefined {
  const [type, code = ''] = id.split(':');
  const municipality = type === 'municipality' ? floridaMunicipalities().find((m) => m.cid === code) : undefined;
  const county = type === 'county' ? countyByFipsCode(code) : undefined;
  const lookup = county
    ? resolveJurisdiction(county.name, { type: 'county' })
    : municipality
      ? resolveJurisdiction(municipality.name, { type: 'municipality', county: countyByFipsCode(municipality.county_fips) })
      : undefined;
  return lookup?.status === 'found' && jurisdictionId(lookup.jurisdiction) === id ? lookup.jurisdiction : undefined;
}
