import type { Context, DynamoDBBatchResponse, DynamoDBStreamEvent } from 'aws-lambda';
import { jobInsertConsumer } from '../../shared/adapters/job-stream';
import { countJobEnd, countMetric, METRIC, observedHandler } from '../../shared/observability/metrics';
import { hazardDeps, runAccountFloodAnalysisJob } from '../hazards/jobs';
import { sweepLostHazardJobs } from './sweep';

const runInsertedJob = jobInsertConsumer('hazard_job', async (item) => {
  const ref = { account_id: String(item.account_id), job_id: String(item.job_id) };
  const before = await hazardDeps.jobs().get(ref.account_id, ref.job_id);
  await runAccountFloodAnalysisJob(hazardDeps, ref);
  const after = await hazardDeps.jobs().get(ref.account_id, ref.job_id);
  countJobEnd(before?.status, after?.status, { succeeded: METRIC.analysesRun, failed: METRIC.analysesFailed });
});

/**
 * AWS entry of flood analysis jobs: the table's stream delivers the insert of each job item
 * (filtered on `type = hazard_job`); the job runs here with a longer timeout than the API's.
 * A schedule calls it as well, to fail the jobs whose worker was lost.
 */
export const handler = observedHandler(async (event: DynamoDBStreamEvent | { source?: string }, context?: Context): Promise<DynamoDBBatchResponse | void> => {
  if (!('Records' in event)) {
    countMetric(METRIC.analysesFailed, await sweepLostHazardJobs(hazardDeps.jobs()));
    return;
  }
  return runInsertedJob(event, context);
});
