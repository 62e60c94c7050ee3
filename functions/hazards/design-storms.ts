import type { z } from 'zod';
import type { getDesignStormRoute, putDesignStormRoute } from '../../shared/routes/hazards';
import type { RouteRequest, RouteResult } from '../../shared/http/types';
import { HttpError } from '../../shared/http/problem';
import { resolveApplicant } from '../../shared/domain/compliance/inputs';
import type { DesignStorm, StoredDesignStorm } from '../../shared/domain/hazards/rainfall-ponding';
import type { DesignStormSchema } from '../../shared/schemas/hazards';
import type { HazardDeps } from './deps';

const MM_PER_INCH = 25.4;
const USED_BY = 'Flood analyses of this jurisdiction (`jurisdiction` in the body) that send no `rainfall`; echoed in their rainfall and compound components with its source.';

/** The storm as sent → the domain's: the depth in mm (the inches echoed as stated), one runoff model. */
export function designStorm(body: z.output<typeof DesignStormSchema>): DesignStorm {
  const { depth_mm, depth_in, runoff_coefficient, curve_number, ...rest } = body;
  const runoff = runoff_coefficient !== undefined ? { runoff_coefficient } : curve_number !== undefined ? { curve_number } : undefined;
  return {
    ...rest,
    depth_mm: depth_mm ?? depth_in! * MM_PER_INCH,
    ...(depth_in !== undefined ? { depth_in } : {}),
    ...(runoff ? { runoff } : {}),
  };
}

/** The account's stored storm for a jurisdiction, marked as such; none without a jurisdiction. */
export async function storedStormFor(deps: HazardDeps, accountId: string, jurisdictionId: string | null | undefined): Promise<DesignStorm | undefined> {
  if (!jurisdictionId) return undefined;
  const stored = await deps.designStorms().get(accountId, jurisdictionId);
  return stored && { ...stored.design_storm, stored_for_jurisdiction: stored.jurisdiction_name };
}

const answer = (stored: StoredDesignStorm): RouteResult => ({ status: 200, body: { ...stored, used_by: USED_BY } });

export function storeDesignStorm(deps: HazardDeps) {
  return async (request: RouteRequest<typeof putDesignStormRoute>): Promise<RouteResult> => {
    const jurisdiction = resolveApplicant({ jurisdiction: request.params.jurisdiction }, 'path');
    const stored: StoredDesignStorm = {
      jurisdiction_id: jurisdiction.id,
      jurisdiction_name: jurisdiction.display_name,
      design_storm: designStorm(request.body),
      updated_at: request.now.toISOString(),
    };
    await deps.designStorms().put(request.account!.accountId, stored);
    return answer(stored);
  };
}

export function readDesignStorm(deps: HazardDeps) {
  return async (request: RouteRequest<typeof getDesignStormRoute>): Promise<RouteResult> => {
    const jurisdiction = resolveApplicant({ jurisdiction: request.params.jurisdiction }, 'path');
    const stored = await deps.designStorms().get(request.account!.accountId, jurisdiction.id);
    if (!stored) throw new HttpError('not_found', `No design storm is stored for ${jurisdiction.display_name}; store one with PUT /hazards/design-storms/{jurisdiction}.`);
    return answer(stored);
  };
}
