import type { z } from 'zod';
import { NotFoundError } from '../../domain/errors';
import { resolveApplicant } from '../../domain/compliance/inputs';
import type { DesignStorm, StoredDesignStorm } from '../../domain/hazards/rainfall-ponding';
import type { DesignStormSchema } from '../../schemas/hazards';
import type { HazardDeps } from './ports';

const MM_PER_INCH = 25.4;
const USED_BY = 'Flood analyses of this jurisdiction (`jurisdiction` in the body) that send no `rainfall`; echoed in their rainfall and compound components with its source.';

/** The storm as sent → the domain's: the depth in mm (the inches echoed as stated), one runoff model. */
export function designStorm(body: z.output<ReturnType<typeof DesignStormSchema>>): DesignStorm {
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
export async function storedStormFor(deps: Pick<HazardDeps, 'designStorms'>, accountId: string, jurisdictionId: string | null | undefined): Promise<DesignStorm | undefined> {
  if (!jurisdictionId) return undefined;
  const stored = await deps.designStorms().get(accountId, jurisdictionId);
  return stored && { ...stored.design_storm, stored_for_jurisdiction: stored.jurisdiction_name };
}

const designStormView = (stored: StoredDesignStorm) => ({ ...stored, used_by: USED_BY });

/** `PUT /hazards/design-storms/{jurisdiction}` */
export async function storeDesignStorm(deps: Pick<HazardDeps, 'designStorms'>, accountId: string, jurisdictionText: string, body: z.output<ReturnType<typeof DesignStormSchema>>, now: Date) {
  const jurisdiction = resolveApplicant({ jurisdiction: jurisdictionText }, 'path');
  const stored: StoredDesignStorm = {
    jurisdiction_id: jurisdiction.id,
    jurisdiction_name: jurisdiction.display_name,
    design_storm: designStorm(body),
    updated_at: now.toISOString(),
  };
  await deps.designStorms().put(accountId, stored);
  return designStormView(stored);
}

/** `GET /hazards/design-storms/{jurisdiction}` */
export async function readDesignStorm(deps: Pick<HazardDeps, 'designStorms'>, accountId: string, jurisdictionText: string) {
  const jurisdiction = resolveApplicant({ jurisdiction: jurisdictionText }, 'path');
  const stored = await deps.designStorms().get(accountId, jurisdiction.id);
  if (!stored) throw new NotFoundError(`No design storm is stored for ${jurisdiction.display_name}; store one with PUT /hazards/design-storms/{jurisdiction}.`);
  return designStormView(stored);
}
