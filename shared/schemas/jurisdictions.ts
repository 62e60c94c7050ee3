import * as z from './zod';
import { onFirstUse } from '../on-first-use';
import { BoundaryGeometry } from './boundary';

export const OfficialBoundaryBody = onFirstUse(() => z.object({
  boundary_geojson: BoundaryGeometry().describe('The jurisdiction\'s official boundary: GeoJSON Polygon or MultiPolygon, WGS 84 lon/lat, at most 10,000 vertices.'),
  source_note: z.string().trim().min(1).max(300).optional()
    .describe('What the boundary is and where it comes from ("City of Naples GIS, annexations to 2025-06").'),
}).strict().openapi('OfficialBoundaryBody'));

export const OfficialBoundarySchema = onFirstUse(() => z.object({
  jurisdiction_id: z.string().describe('`county:<FIPS>` or `municipality:<id>`.'),
  display_name: z.string(),
  source: z.enum(['account', 'census_place', 'census_tracts'])
    .describe('`account`: the account\'s stored official boundary; `census_place`: the Census 2018 1:500,000 place; `census_tracts`: the county dissolved from Census tracts.'),
  source_note: z.string().nullable(),
  updated_at: z.string().nullable().describe('When the account stored it; null for a Census boundary.'),
  boundary_geojson: z.object({ type: z.enum(['Polygon', 'MultiPolygon']), coordinates: z.array(z.unknown()) }),
}).openapi('JurisdictionBoundary'));

export const JurisdictionParams = onFirstUse(() => z.object({
  jurisdiction: z.string().trim().min(2).max(120)
    .describe('A jurisdiction id (`county:12103`, `municipality:120168`) or name ("Pinellas County", "City of Key West").'),
}));
