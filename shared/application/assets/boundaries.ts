import type * as z from '../../schemas/zod';
import { NotFoundError } from '../../domain/errors';
import { jurisdictionById, jurisdictionId } from '../../domain/jurisdictions';
import { heldBoundary, officialBoundary, type HeldBoundary } from '../../domain/jurisdiction-boundaries';
import type { OfficialBoundaryBody } from '../../schemas/jurisdictions';
import { requireJurisdiction } from './jurisdiction';
import type { AssetDeps } from './ports';

/** An account's jurisdiction boundaries: its official one where it stored one, else the Census one. */

function boundaryView(boundary: HeldBoundary, official: { source_note: string | null; updated_at: string } | undefined) {
  return {
    jurisdiction_id: jurisdictionId(boundary.jurisdiction),
    display_name: boundary.jurisdiction.display_name,
    source: boundary.source,
    source_note: official?.source_note ?? null,
    updated_at: official?.updated_at ?? null,
    boundary_geojson: boundary.geometry,
  };
}

/** `PUT /jurisdictions/{jurisdiction}/boundary` */
export async function putJurisdictionBoundary(deps: Pick<AssetDeps, 'boundaries'>, accountId: string, jurisdiction: string, body: z.infer<ReturnType<typeof OfficialBoundaryBody>>, now: Date) {
  const { id } = requireJurisdiction(jurisdiction, 'path');
  const { crs: _crs, ...geometry } = body.boundary_geojson;
  const official = officialBoundary(jurisdictionById(id)!, geometry as Parameters<typeof officialBoundary>[1], body.source_note ?? null, now);
  await deps.boundaries.put(accountId, official);
  return boundaryView(heldBoundary(id, official)!, official);
}

/** `GET /jurisdictions/{jurisdiction}/boundary` */
export async function getJurisdictionBoundary(deps: Pick<AssetDeps, 'boundaries'>, accountId: string, jurisdiction: string) {
  const { id } = requireJurisdiction(jurisdiction, 'path');
  const official = await deps.boundaries.get(accountId, id);
  const boundary = heldBoundary(id, official);
  if (!boundary) throw new NotFoundError(`No boundary is held for ${id}.`);
  return boundaryView(boundary, official);
}

/** `DELETE /jurisdictions/{jurisdiction}/boundary` */
export async function deleteJurisdictionBoundary(deps: Pick<AssetDeps, 'boundaries'>, accountId: string, jurisdiction: string): Promise<void> {
  const { id, name } = requireJurisdiction(jurisdiction, 'path');
  if (!(await deps.boundaries.delete(accountId, id))) throw new NotFoundError(`The account stores no official boundary for ${name}.`);
}
