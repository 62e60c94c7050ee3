import type { DynamoDBStreamEvent } from 'aws-lambda';
import { countJobEnd, countMetric, METRIC, observedHandler } from '../../shared/observability/metrics';
import { hazardDeps, runAccountFloodAnalysisJob } from '../hazards/jobs';
import { sweepLostHazardJobs } from './sweep';

/**
 * AWS entry of flood analysis jobs: the table's stream delivers the insert of each job item
 * (filtered on `type = hazard_job`); the job runs here with a longer timeout than the API's.
 * A schedule calls it as well, to fail the jobs whose worker was lost.
 */
export const handler = observedHandler(async (event: DynamoDBStreamEvent | { source?: string }): Promise<void> => {
  if (!('Records' in event)) {
    countMetric(METRIC.analysesFailed, await sweepLostHazardJobs(hazardDeps.jobs()));
    return;
  }
  for (const record of event.Records) {
    const image = record.dynamodb?.NewImage;
    if (record.eventName !== 'INSERT' || image?.type?.S !== 'hazard_job') continue;
    const [accountId, jobId] = [image.account_id!.S!, image.job_id!.S!];
    const before = await hazardDeps.jobs().get(accountId, jobId);
    await runAccountFloodAnalysisJob(hazardDeps, { account_id: accountId, job_id: jobId });
    const after = await hazardDeps.jobs().get(accountId, jobId);
    countJobEnd(before?.status, after?.status, { succeeded: METRIC.analysesRun, failed: METRIC.analysesFailed });
  }
});
