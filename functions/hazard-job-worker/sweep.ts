import type { HazardJobStore } from '../../shared/domain/hazards/jobs';

export const LOST_JOB_ERROR = {
  code: 'worker_lost',
  detail: 'The analysis stopped when its worker ended unexpectedly (a crash or a timeout); start it again with POST /hazards/flood-analysis.',
};

/**
 * Running flood-analysis jobs whose lease expired lost their worker: each is ended `failed` with a
 * clear error (an analysis writes nothing but its result, so starting it again is safe). Never
 * left `running`. Returns how many were failed.
 */
export async function sweepLostHazardJobs(store: HazardJobStore, now: Date = new Date()): Promise<number> {
  let failed = 0;
  for (const job of await store.listExpiredLeases(now)) {
    if (await store.failLost(job, LOST_JOB_ERROR, now)) failed++;
  }
  return failed;
}
