import type { MultiPolygon, Polygon } from 'geojson';
import { resolveApplicant, type ApplicantInput } from '../compliance/inputs';
import type { AssessmentJurisdiction } from '../assessments/model';
import { invalidField } from '../errors';
import { heldBoundary, type BoundarySource, type OfficialBoundary } from '../jurisdiction-boundaries';

/**
 * The boundary of a named jurisdiction, for analyses and maps that take a jurisdiction instead
 * of a drawn polygon: the account's official boundary when it stored one, else the Census county
 * (dissolved from tracts) or incorporated place.
 */
export function jurisdictionBoundary(input: ApplicantInput, official?: OfficialBoundary, field = 'jurisdiction'): { jurisdiction: AssessmentJurisdiction; geometry: Polygon | MultiPolygon; source: BoundarySource } {
  const jurisdiction = resolveApplicant(input);
  const boundary = heldBoundary(jurisdiction.id, official);
  if (!boundary) throw invalidField(field, 'body', `No boundary is held for ${jurisdiction.display_name}; store one (PUT /jurisdictions/${jurisdiction.id}/boundary) or send boundary_geojson.`);
  return { jurisdiction, geometry: boundary.geometry, source: boundary.source };
}
