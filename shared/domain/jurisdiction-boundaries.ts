import type { MultiPolygon, Polygon } from 'geojson';
import { countyBoundaryByFips, positionsOf } from './hazards/florida-counties';
import { placeBoundaryByGeoid } from './hazards/florida-places';
import { bboxOfPositions, type BBox } from './hazards/geo';
import { jurisdictionById, jurisdictionId, type Jurisdiction } from './jurisdictions';

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
