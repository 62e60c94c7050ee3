import type { FloodEventStore } from '../../domain/hazards/flood-events';
import type { DesignStormStore } from '../../domain/hazards/rainfall-ponding';
import type { OfficialBoundaryStore } from '../../domain/jurisdiction-boundaries';
import type { AccountAssetSource } from '../../domain/hazards/account-assets';
import type { ElevationSource } from '../../domain/hazards/elevation';
import type { HazardLayerSource } from '../../domain/hazards/hazard-layers';
import type { HazardJobRunner, HazardJobStore } from '../../domain/hazards/jobs';
import type { TidePredictor } from '../../domain/hazards/tide-flood-days';
import type { AnalysisLinkDeps } from '../../domain/deliverables/analysis-link';

/** Everything the hazard use cases (routes and job worker alike) reach outside the domain. */
export interface HazardDeps {
  /** The elevation source of these deps (see `forAccount`: an account's own models first). */
  elevation: () => ElevationSource;
  /** The default source with the account's ready elevation models read first where they cover a point. */
  accountElevation: (accountId: string) => Promise<ElevationSource>;
  layers: () => HazardLayerSource;
  events: () => FloodEventStore;
  jobs: () => HazardJobStore;
  jobRunner: () => HazardJobRunner;
  assets: () => AccountAssetSource;
  /** The accounts' design storms per jurisdiction. */
  designStorms: () => DesignStormStore;
  /** Stores an analysis linked to an assessment or applied to assets writes to. */
  analysisLink: () => AnalysisLinkDeps;
  /** Accounts' official jurisdiction boundaries: one wins over the Census boundary of its jurisdiction. */
  boundaries: () => OfficialBoundaryStore;
  tides: TidePredictor;
  clock: () => Date;
}

/** The deps of the job worker, which runs analyses and starts none. */
export type HazardWorkerDeps = Omit<HazardDeps, 'jobRunner'>;

/** The deps an analysis for one account runs with: its ready elevation models come first. */
export async function forAccount<D extends HazardWorkerDeps>(deps: D, accountId: string): Promise<D> {
  const elevation = await deps.accountElevation(accountId);
  return { ...deps, elevation: () => elevation };
}
