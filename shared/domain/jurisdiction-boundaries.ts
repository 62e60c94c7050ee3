import type { MultiPolygon, Polygon } from 'geojson';
import { countyBoundaryByFips, positionsOf } from './hazards/florida-counties';
import { placeBoundaryByGeoid } from './hazards/florida-places';
import { bboxOfPositions, type BBox } from './hazards/geo';
import { jurisdictionById, jurisdictionId, type Jurisdiction } from './jurisdictions';
import { validateBoundary } from './hazards/boundary';
import { invalidField, InvalidInputError } from './errors';

/** Where a boundary came from: the account's own official one, the Census place, or the county dissolved from Census tracts. */
export type BoundarySource = 'account' | 'census_place' | 'census_tracts';

/** A boundary an account stored as its official one for a jurisdiction; it wins over the Census boundary for that account. */
export interface OfficialBoundary {
  jurisdiction_id: string;
  geometry: Polygon | MultiPolygon;
  /** What the boundary is, as the account names it ("City of Naples GIS, annexations to 2025-06"). */
  source_note: string | null;
  updated_at: string;
}

export interface HeldBoundary {
  jurisdiction: Jurisdiction;
  geometry: Polygon | MultiPolygon;
  bbox: BBox;
  source: BoundarySource;
  /** The jurisdiction as messages name it ("City of Key West"; "… (the account's official boundary)"). */
  description: string;
}

/** The Census boundary of a jurisdiction: its county dissolved from tracts, or its incorporated place. */
function censusBoundary(jurisdiction: Jurisdiction): HeldBoundary | undefined {
  if (jurisdiction.type === 'county') {
    const county = countyBoundaryByFips(jurisdiction.county.fips)!;
    return { jurisdiction, geometry: county.geometry, bbox: county.bbox, source: 'census_tracts', description: jurisdiction.display_name };
  }
  const place = jurisdiction.municipality.census_place ? placeBoundaryByGeoid(jurisdiction.municipality.census_place.geoid) : undefined;
  return place && { jurisdiction, geometry: place.geometry, bbox: place.bbox, source: 'census_place', description: jurisdiction.display_name };
}

/**
 * The boundary used for a jurisdiction id: the account's official one when it stored one, else
 * the Census boundary; undefined for an id no jurisdiction has.
 */
export function heldBoundary(id: string, official?: OfficialBoundary): HeldBoundary | undefined {
  const jurisdiction = jurisdictionById(id);
  if (!jurisdiction) return undefined;
  if (official && official.jurisdiction_id === jurisdictionId(jurisdiction)) {
    return {
      jurisdiction,
      geometry: official.geometry,
      bbox: bboxOfPositions(positionsOf(official.geometry)),
      source: 'account',
      description: `${jurisdiction.display_name} (the account's official boundary)`,
    };
  }
  return censusBoundary(jurisdiction);
}

/** Where accounts keep their official boundaries (one per account and jurisdiction). */
export interface OfficialBoundaryStore {
  get(accountId: string, jurisdictionId: string): Promise<OfficialBoundary | undefined>;
  put(accountId: string, boundary: OfficialBoundary): Promise<void>;
  /** False when the account held none for the jurisdiction. */
  delete(accountId: string, jurisdictionId: string): Promise<boolean>;
}

/** Stored coordinates keep 7 decimals (about 1 cm): 10,000 vertices then stay well inside one 400 KB item. */
const STORED_DECIMALS = 1e7;

/**
 * An account's boundary for a jurisdiction, checked as an analysis boundary is (closed rings,
 * WGS 84, at most 10,000 vertices and 25,000 km²) and required to overlap a county the
 * jurisdiction lies in, so a boundary sent for the wrong place is refused.
 */
export function officialBoundary(jurisdiction: Jurisdiction, geometry: Polygon | MultiPolygon, sourceNote: string | null, now: Date): OfficialBoundary {
  const validation = validateBoundary(geometry);
  if (!validation.ok) throw new InvalidInputError(validation.errors.map((e) => e.message).join(' '), validation.errors);
  const counties = jurisdiction.type === 'county' ? [jurisdiction.county.fips] : jurisdiction.municipality.county_fips_all;
  if (!validation.boundary.counties.some((c) => counties.includes(c.fips))) {
    const message = `The boundary lies in ${validation.boundary.counties.map((c) => `${c.name} County`).join(', ') || 'no Florida county'}, not where ${jurisdiction.display_name} is: check the jurisdiction and the coordinates (WGS 84 longitude, latitude).`;
    throw invalidField('boundary_geojson', 'body', message);
  }
  const round = (v: number) => Math.round(v * STORED_DECIMALS) / STORED_DECIMALS;
  const normalised = validation.boundary.geometry;
  const stored: Polygon | MultiPolygon = normalised.type === 'Polygon'
    ? { type: 'Polygon', coordinates: normalised.coordinates.map((ring) => ring.map((p) => [round(p[0]!), round(p[1]!)])) }
    : { type: 'MultiPolygon', coordinates: normalised.coordinates.map((polygon) => polygon.map((ring) => ring.map((p) => [round(p[0]!), round(p[1]!)]))) };
  return { jurisdiction_id: jurisdictionId(jurisdiction), geometry: stored, source_note: sourceNote, updated_at: now.toISOString() };
}
