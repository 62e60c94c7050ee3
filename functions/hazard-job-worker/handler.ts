import type { DynamoDBStreamEvent } from 'aws-lambda';
import { runFloodAnalysisJob } from '../hazards/flood-analysis';
import { hazardDeps } from '../hazards/handler';
import { sweepLostHazardJobs } from './sweep';

/**
 * AWS entry of flood analysis jobs: the table's stream delivers the insert of each job item
 * (filtered on `type = hazard_job`); the job runs here with a longer timeout than the API's.
 * A schedule calls it as well, to fail the jobs whose worker was lost.
 */
export async function handler(event: DynamoDBStreamEvent | { source?: string }): Promise<void> {
  if (!('Records' in event)) {
    await sweepLostHazardJobs(hazardDeps.jobs());
    return;
  }
  for (const record of event.Records) {
    const image = record.dynamodb?.NewImage;
    if (record.eventName !== 'INSERT' || image?.type?.S !== 'hazard_job') continue;
    await runFloodAnalysisJob(hazardDeps, { account_id: image.account_id!.S!, job_id: image.job_id!.S! });
  }
}
