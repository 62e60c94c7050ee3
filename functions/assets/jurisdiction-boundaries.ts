import type * as z from '../../shared/schemas/zod';
import type { RouteRequest, RouteResult } from '../../shared/http/types';
import { HttpError } from '../../shared/http/problem';
import { jurisdictionById, jurisdictionId } from '../../shared/domain/jurisdictions';
import { heldBoundary, officialBoundary, type HeldBoundary } from '../../shared/domain/jurisdiction-boundaries';
import type { OfficialBoundaryBody } from '../../shared/schemas/jurisdictions';
import { assetDeps } from './deps';
import { requireJurisdiction } from './request';

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

const jurisdictionOf = (request: RouteRequest) => requireJurisdiction((request.params as { jurisdiction: string }).jurisdiction, 'path');

/** PUT /jurisdictions/{jurisdiction}/boundary */
export async function putJurisdictionBoundary(request: RouteRequest): Promise<RouteResult> {
  const { id } = jurisdictionOf(request);
  const body = request.body as z.infer<typeof OfficialBoundaryBody>;
  const { crs: _crs, ...geometry } = body.boundary_geojson;
  const official = officialBoundary(jurisdictionById(id)!, geometry as Parameters<typeof officialBoundary>[1], body.source_note ?? null, request.now);
  await assetDeps.boundaries().put(request.account!.accountId, official);
  return { status: 200, body: boundaryView(heldBoundary(id, official)!, official) };
}

/** GET /jurisdictions/{jurisdiction}/boundary */
export async function getJurisdictionBoundary(request: RouteRequest): Promise<RouteResult> {
  const { id } = jurisdictionOf(request);
  const official = await assetDeps.boundaries().get(request.account!.accountId, id);
  const boundary = heldBoundary(id, official);
  if (!boundary) throw new HttpError('not_found', `No boundary is held for ${id}.`);
  return { status: 200, body: boundaryView(boundary, official) };
}

/** DELETE /jurisdictions/{jurisdiction}/boundary */
export async function deleteJurisdictionBoundary(request: RouteRequest): Promise<RouteResult> {
  const { id, name } = jurisdictionOf(request);
  if (!(await assetDeps.boundaries().delete(request.account!.accountId, id))) throw new HttpError('not_found', `The account stores no official boundary for ${name}.`);
  return { status: 204 };
}
