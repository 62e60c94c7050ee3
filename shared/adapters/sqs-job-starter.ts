import { SendMessageCommand } from './sqs-commands';
import { sqs } from './aws-clients';
import { requiredSetting, type JobQueueSetting } from '../config';
import type { JobKindName, JobStart, JobStarter } from '../application/jobs/job-start';

/** The setting that names each kind's queue (set by the stack, and by the local runner). */
export const JOB_QUEUE_SETTINGS: Record<JobKindName, JobQueueSetting> = {
  hazard_job: 'HAZARD_JOB_QUEUE_URL',
  asset_import: 'ASSET_IMPORT_QUEUE_URL',
  elevation_model: 'ELEVATION_MODEL_QUEUE_URL',
  deliverable: 'DELIVERABLE_QUEUE_URL',
};

/** A job start as a message on its kind's queue, consumed by the kind's worker. */
export class SqsJobStarter implements JobStarter {
  async start(message: JobStart): Promise<void> {
    await sqs().send(new SendMessageCommand({
      QueueUrl: requiredSetting(JOB_QUEUE_SETTINGS[message.kind]),
      MessageBody: JSON.stringify(message),
      MessageAttributes: { job_kind: { DataType: 'String', StringValue: message.kind } },
    }));
  }
}
