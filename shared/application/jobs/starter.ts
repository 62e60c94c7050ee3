import { SqsJobStarter } from '../../adapters/sqs-job-starter';
import { logger } from '../../observability/logger';
import type { JobStart, JobStarter } from './job-start';

let starter: JobStarter | undefined;

/** The job starter of this process: each kind's queue, in AWS and locally. */
export const jobStarter = (): JobStarter => (starter ??= new SqsJobStarter());

/**
 * Sends the start of a job whose record was just written. A send that fails is logged, not
 * raised: the job is recorded and the client has its id, and the sweep starts a job left waiting
 * past its grace period.
 */
export async function startRecordedJob(start: JobStart, using: JobStarter = jobStarter()): Promise<void> {
  try {
    await using.start(start);
  } catch (error) {
    logger.warn('A job start could not be sent; the sweep will start the job', { kind: start.kind, jobId: start.ref.job_id, error: error as Error });
  }
}
