import type { HazardJob } from '../../shared/domain/hazards/jobs';
import { defaultHazardDeps, forAccount, type HazardDeps } from './deps';
import { runFloodAnalysisJob } from './flood-analysis';

/**
 * Flood analysis jobs, shared by the API (which queues them) and the job worker (which runs them):
 * the worker loads this use case, not the API handler and its routes.
 */

/** A queued analysis runs with its account's elevation models, like the request that queued it. */
export async function runAccountFloodAnalysisJob(deps: HazardDeps, job: Pick<HazardJob, 'account_id' | 'job_id'>): Promise<void> {
  await runFloodAnalysisJob(await forAccount(deps, job.account_id), job);
}

export const hazardDeps = defaultHazardDeps();
