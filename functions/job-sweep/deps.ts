import { assetAdapters } from '../../shared/adapters/asset-wiring';
import { DynamoDeliverableStore } from '../../shared/adapters/deliverable-store';
import { DynamoElevationModelStore } from '../../shared/adapters/elevation-model-store';
import { DynamoHazardJobStore } from '../../shared/adapters/hazard-job-store';
import { S3BlobStore } from '../../shared/adapters/s3-blob-store';
import { SqsJobStarter } from '../../shared/adapters/sqs-job-starter';
import { importJobs } from '../../shared/application/assets/import-jobs';
import { deliverableJobs } from '../../shared/application/deliverables/deliverable-jobs';
import { elevationModelJobs } from '../../shared/application/elevation-models/processing-jobs';
import { hazardJobs } from '../../shared/application/hazards/hazard-jobs';
import type { JobStarter } from '../../shared/application/jobs/job-start';
import type { SweptJobs } from '../../shared/application/jobs/sweep';
import { wiring } from '../../shared/config';

/** What the sweep runs on: every job kind's store, and each kind's queue to start a job again. */
export interface JobSweepDeps {
  kinds: SweptJobs[];
  starter: JobStarter;
}

export const jobSweepDeps = wiring((): JobSweepDeps => ({
  kinds: [
    hazardJobs(new DynamoHazardJobStore()),
    importJobs(assetAdapters),
    elevationModelJobs({ models: new DynamoElevationModelStore(), blobs: new S3BlobStore() }),
    deliverableJobs(new DynamoDeliverableStore()),
  ],
  starter: new SqsJobStarter(),
}));
