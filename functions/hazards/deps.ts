import { randomUUID } from 'node:crypto';
import { appConfig, wiring } from '../../shared/config';
import { defaultElevationSource } from '../../shared/adapters/elevation';
import { AccountElevationModels } from '../../shared/adapters/elevation/processed-account-models';
import { OperatorElevationModels } from '../../shared/adapters/elevation/operator-models';
import { DynamoElevationModelStore } from '../../shared/adapters/elevation-model-store';
import { BlobElevationModelFiles } from '../../shared/adapters/elevation/model-files';
import { cogUrlReader } from '../../shared/adapters/elevation/cog-url';
import { DynamoIdempotencyStore } from '../../shared/adapters/idempotency-store';
import type { ElevationModelDeps } from '../../shared/application/elevation-models/use-cases';
import { S3BlobStore } from '../../shared/adapters/s3-blob-store';
import { DynamoFloodEventStore, type FloodEventStore } from '../../shared/adapters/flood-event-store';
import { S3HazardLayerStore } from '../../shared/adapters/hazard-layer-store';
import { DynamoHazardJobStore } from '../../shared/adapters/hazard-job-store';
import { DynamoDesignStormStore } from '../../shared/adapters/design-storm-store';
import type { DesignStormStore } from '../../shared/domain/hazards/rainfall-ponding';
import { harmonicTides } from '../../shared/adapters/hazard-tide-predictor';
import { DynamoOfficialBoundaryStore } from '../../shared/adapters/official-boundary-store';
import type { OfficialBoundaryStore } from '../../shared/domain/jurisdiction-boundaries';
import type { AccountAssetSource } from '../../shared/domain/hazards/account-assets';
import type { ElevationSource } from '../../shared/domain/hazards/elevation';
import type { HazardLayerSource } from '../../shared/domain/hazards/hazard-layers';
import type { HazardJobRunner, HazardJobStore } from '../../shared/domain/hazards/jobs';
import { hazardJobStart } from '../../shared/application/hazards/hazard-jobs';
import { startRecordedJob } from '../../shared/application/jobs/starter';
import type { TidePredictor } from '../../shared/domain/hazards/tide-flood-days';
import { defaultAssetSource } from './asset-source';
import { defaultAnalysisLinkDeps } from '../../shared/adapters/evidence-store';
import type { AnalysisLinkDeps } from '../../shared/domain/deliverables/analysis-link';

/** Everything the hazard routes and the job worker reach outside the domain. */
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

/** The deps an analysis for one account runs with: its ready elevation models come first. */
export async function forAccount(deps: HazardDeps, accountId: string): Promise<HazardDeps> {
  const elevation = await deps.accountElevation(accountId);
  return { ...deps, elevation: () => elevation };
}

let layers: S3HazardLayerStore | undefined;
let accountModels: AccountElevationModels | undefined;
let events: DynamoFloodEventStore | undefined;
let jobs: DynamoHazardJobStore | undefined;
let boundaries: DynamoOfficialBoundaryStore | undefined;
let designStorms: DynamoDesignStormStore | undefined;

function accountElevationModels(): AccountElevationModels {
  const blobs = new S3BlobStore();
  return new AccountElevationModels(new DynamoElevationModelStore(), blobs, new OperatorElevationModels(blobs), { mode: appConfig().APP_MODE });
}

export function defaultHazardDeps(): HazardDeps {
  return {
    elevation: defaultElevationSource,
    accountElevation: (accountId) => (accountModels ??= accountElevationModels()).elevationFor(accountId),
    layers: () => (layers ??= new S3HazardLayerStore()),
    events: () => (events ??= new DynamoFloodEventStore()),
    jobs: () => (jobs ??= new DynamoHazardJobStore()),
    // The job's start goes to the hazard job queue, whose worker runs it (in AWS and locally).
    jobRunner: () => ({ start: (job) => startRecordedJob(hazardJobStart(job)) }),
    assets: defaultAssetSource,
    designStorms: () => (designStorms ??= new DynamoDesignStormStore()),
    analysisLink: defaultAnalysisLinkDeps,
    boundaries: () => (boundaries ??= new DynamoOfficialBoundaryStore()),
    tides: harmonicTides,
    clock: () => new Date(),
  };
}

/** The elevation model use cases' adapters. */
export const elevationModelDeps = wiring((config): ElevationModelDeps => ({
  models: new DynamoElevationModelStore(),
  files: new BlobElevationModelFiles(new S3BlobStore()),
  // Loopback over http only in local mode.
  cogs: cogUrlReader({ mode: config.APP_MODE }),
  signedUrlSeconds: config.SIGNED_URL_TTL_SECONDS,
  newId: () => `em_${randomUUID().replace(/-/g, '')}`,
}));

export const idempotencyStore = wiring(() => new DynamoIdempotencyStore());
