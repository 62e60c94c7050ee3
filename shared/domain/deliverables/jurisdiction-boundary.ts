import type { MultiPolygon, Polygon } from 'geojson';
import { resolveApplicant, type ApplicantInput } from '../compliance/inputs';
import { invalidField } from '../errors';
import type { AssessmentJurisdiction } from '../assessments/model';
import { countyBoundaryByFips } from '../hazards/florida-counties';

/**
 * The boundary of a named jurisdiction, for analyses and maps that take a jurisdiction instead
 * of a drawn polygon. Only counties have boundaries here (Census cartographic boundaries); a
 * municipality must send its own polygon.
 */
export function jurisdictionBoundary(input: ApplicantInput, field = 'jurisdiction'): { jurisdiction: AssessmentJurisdiction; geometry: Polygon | MultiPolygon } {
  const jurisdiction = resolveApplicant(input);
  if (jurisdiction.type !== 'county') {
    throw invalidField(field, 'body', `No boundary is held for municipalities such as ${jurisdiction.display_name}; send boundary_geojson instead.`);
  }
  return { jurisdiction, geometry: countyBoundaryByFips(jurisdiction.county_fips)!.geometry };
}
