import { appConfig } from '../config';
import type { HazardWorkerDeps } from '../application/hazards/ports';
import type { AccountAssetSource } from '../domain/hazards/account-assets';
import { defaultElevationSource } from './elevation';
import { AccountElevationModels } from './elevation/processed-account-models';
import { OperatorElevationModels } from './elevation/operator-models';
import { DynamoElevationModelStore } from './elevation-model-store';
import { S3BlobStore } from './s3-blob-store';
import { DynamoFloodEventStore } from './flood-event-store';
import { S3HazardLayerStore } from './hazard-layer-store';
import { DynamoHazardJobStore } from './hazard-job-store';
import { DynamoDesignStormStore } from './design-storm-store';
import { harmonicTides } from './hazard-tide-predictor';
import { DynamoOfficialBoundaryStore } from './official-boundary-store';
import { DynamoAssetStore } from './asset-store';
import { StoredAssetSource } from './hazard-asset-source';
import { defaultAnalysisLinkDeps } from './evidence-store';

/** The hazard use cases' adapters, created on first use: one wiring for the hazards API and the job worker. */

let layers: S3HazardLayerStore | undefined;
let accountModels: AccountElevationModels | undefined;
let events: DynamoFloodEventStore | undefined;
let jobs: DynamoHazardJobStore | undefined;
let boundaries: DynamoOfficialBoundaryStore | undefined;
let designStorms: DynamoDesignStormStore | undefined;
let assetSource: AccountAssetSource | undefined;

function accountElevationModels(): AccountElevationModels {
  const blobs = new S3BlobStore();
  return new AccountElevationModels(new DynamoElevationModelStore(), blobs, new OperatorElevationModels(blobs), { mode: appConfig().APP_MODE });
}

export function hazardAdapters(): HazardWorkerDeps {
  return {
    elevation: defaultElevationSource,
    accountElevation: (accountId) => (accountModels ??= accountElevationModels()).elevationFor(accountId),
    layers: () => (layers ??= new S3HazardLayerStore()),
    events: () => (events ??= new DynamoFloodEventStore()),
    jobs: () => (jobs ??= new DynamoHazardJobStore()),
    // The caller's imported assets, from the asset inventory's store.
    assets: () => (assetSource ??= new StoredAssetSource(new DynamoAssetStore())),
    designStorms: () => (designStorms ??= new DynamoDesignStormStore()),
    analysisLink: defaultAnalysisLinkDeps,
    boundaries: () => (boundaries ??= new DynamoOfficialBoundaryStore()),
    tides: harmonicTides,
    clock: () => new Date(),
  };
}
