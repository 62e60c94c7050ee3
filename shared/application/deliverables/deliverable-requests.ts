import { randomBytes } from 'node:crypto';
import { NotFoundError } from '../../domain/errors';
import type { BlobStore } from '../../ports';
import type { AssessmentStore } from '../../domain/assessments/ports';
import type { DeliverableJob, DeliverableRef, DeliverableStore } from '../../domain/deliverables/jobs';

/**
 * What the API does with deliverables: queue a job and show it. Kept apart from the package
 * builder (build-package.ts) so the API function never loads the renderers, which only the
 * deliverables worker ships.
 */
export interface DeliverableRequestDeps {
  jobs: Pick<DeliverableStore, 'open' | 'get'>;
  assessments: Pick<AssessmentStore, 'get'>;
  blobs: Pick<BlobStore, 'signedGetUrl'>;
  clock: () => Date;
}

export const SIGNED_URL_SECONDS = 900;
const notFound = (what: string) => new NotFoundError(`No ${what} in this account.`);

/**
 * `POST /assessments/{id}/deliverables`: a queued job for an assessment of the account, or the job
 * still open for the same version of the assessment (repeated and concurrent requests share one).
 */
export async function startDeliverables(deps: DeliverableRequestDeps, accountId: string, assessmentId: string): Promise<DeliverableJob> {
  const assessment = await deps.assessments.get(accountId, assessmentId);
  if (!assessment) throw notFound(`assessment ${assessmentId}`);
  const now = deps.clock();
  const at = now.toISOString();
  const job: DeliverableJob = {
    deliverable_id: `dlv_${randomBytes(12).toString('base64url')}`,
    assessment_id: assessmentId,
    account_id: accountId,
    status: 'queued',
    created_at: at,
    updated_at: at,
    error: null,
    files: [],
    lease: null,
  };
  return deps.jobs.open(job, `version:${assessment.version}`, now);
}

/** The job as the API answers it, its files behind short-lived signed URLs. */
export async function deliverableView(deps: Pick<DeliverableRequestDeps, 'jobs' | 'blobs' | 'clock'>, ref: DeliverableRef) {
  const job = await deps.jobs.get(ref);
  if (!job) throw notFound(`deliverable ${ref.deliverable_id} of assessment ${ref.assessment_id}`);
  const expires = new Date(deps.clock().getTime() + SIGNED_URL_SECONDS * 1000).toISOString();
  return {
    deliverable_id: job.deliverable_id,
    assessment_id: job.assessment_id,
    status: job.status,
    created_at: job.created_at,
    updated_at: job.updated_at,
    error: job.error,
    files: await Promise.all(job.files.map(async (file) => ({
      name: file.name,
      kind: file.kind,
      content_type: file.content_type,
      bytes: file.bytes,
      sha256: file.sha256,
      url: await deps.blobs.signedGetUrl(file.key, SIGNED_URL_SECONDS, file.name),
      url_expires_at: expires,
    }))),
  };
}
