import type { DeliverableRef } from '../../domain/deliverables/jobs';
import type { JobStart } from '../jobs/job-start';

/** The start of a deliverable job (the API sends it; the worker and the sweep read it back). */
export const deliverableStart = (job: DeliverableRef): JobStart => ({
  kind: 'deliverable',
  ref: { account_id: job.account_id, job_id: job.deliverable_id, assessment_id: job.assessment_id },
});
