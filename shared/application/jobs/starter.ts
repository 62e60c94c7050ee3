import { logger } from '../../observability/logger';
import type { JobStart, JobStarter } from './job-start';

/**
 * Sends the start of a job whose record was just written. A send that fails is logged, not
 * raised: the job is recorded and the client has its id, and the sweep starts a job left waiting
 * past its grace period.
 */
export async function startRecordedJob(start: JobStart, using: JobStarter): Promise<void> {
  try {
    await using.start(start);
  } catch (error) {
    logger.warn('A job start could not be sent; the sweep will start the job', { kind: start.kind, jobId: start.ref.job_id, error: error as Error });
  }
}
