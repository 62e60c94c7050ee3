import { randomBytes } from 'node:crypto';
import type { BlobStore, EventQueue, QueuedEvent } from '../../ports';
import type {
  AssessmentSummary, CreateAssessmentInput, ListAssessmentsInput, RecordDepConfirmationInput, Submission, SubmitAssessmentInput, UpdateAssessmentInput,
} from '../../schemas/assessments';
import { requireRuleSetDate, resolveApplicant } from '../../domain/compliance/inputs';
import { ConflictError, invalidField, NoEvidenceError, NotFoundError, VersionConflictError } from '../../domain/errors';
import { completionEvent } from '../../domain/assessments/events';
import type { ComplianceEvidence } from '../../domain/compliance/evidence';
import { factsFromEvidence, prefillMethodology, type PrefillOutcome } from '../../domain/compliance/prefill';
import { complianceOf, summaryOf, type Assessment } from '../../domain/assessments/model';
import type { AssessmentFilter, AssessmentStore } from '../../domain/assessments/ports';
import { applyUpdate, TransitionError } from '../../domain/assessments/state-machine';
import { buildSubmissionPackage, manifestKey, markSubmitted, submissionOf } from '../../domain/assessments/submission';
import { depConfirmationProblem } from '../../domain/assessments/dep-filing';

export interface AssessmentServiceDeps {
  store: AssessmentStore;
  blobs: BlobStore;
  queue: EventQueue;
  newAssessmentId: (createdAt: Date) => string;
  /** Relay problems are not the caller's: the stored outbox is retried by the safety net. */
  warn: (message: string, details: Record<string, unknown>) => void;
  /** What the API holds and ran for an assessment; without it the checklist reads the statements alone. */
  evidence?: (assessment: Assessment) => Promise<ComplianceEvidence>;
}

/** Without `If-Match`, an update is retried on the fresh version this often before a 409. */
const UNCONDITIONAL_ATTEMPTS = 3;

const notFound = (assessmentId: string) => new NotFoundError(`No assessment ${assessmentId} in this account.`);

/** The life of an assessment, create to submission, over the store, blob and queue ports. */
export class AssessmentService {
  constructor(private readonly deps: AssessmentServiceDeps) {}

  async create(accountId: string, input: CreateAssessmentInput, now: Date): Promise<Assessment> {
    const jurisdiction = resolveApplicant(input);
    requireRuleSetDate(input.timeline.start_date, now, 'timeline.start_date');
    const at = now.toISOString();
    const assessment: Assessment = {
      assessment_id: this.deps.newAssessmentId(now),
      account_id: accountId,
      jurisdiction,
      type: input.type,
      scope: input.scope,
      scope_rationale: input.scope_rationale,
      timeline: input.timeline,
      status: 'draft',
      phase: 'initiation',
      completion_percentage: 0,
      notes: input.notes,
      methodology: input.methodology ?? {},
      version: 1,
      created_date: at,
      updated_at: at,
      status_history: [{ status: 'draft', at }],
      completion_adjustments: [],
    };
    await this.deps.store.create(assessment);
    return assessment;
  }

  async evidenceFor(assessment: Assessment): Promise<ComplianceEvidence | undefined> {
    return this.deps.evidence?.(assessment);
  }

  async get(accountId: string, assessmentId: string): Promise<Assessment> {
    const assessment = await this.deps.store.get(accountId, assessmentId);
    if (!assessment) throw notFound(assessmentId);
    return assessment;
  }

  /**
   * Conditional on the version: the expected version (the request's `If-Match`) must still be
   * current (else 409); without one the update applies to the latest version. Completing the assessment writes
   * the `assessment_complete` event into the same item, then relays it.
   */
  async update(accountId: string, assessmentId: string, patch: UpdateAssessmentInput, expectedVersion: number | undefined, now: Date): Promise<Assessment> {
    const expected = expectedVersion ?? 'any';
    if (patch.timeline) requireRuleSetDate(patch.timeline.start_date, now, 'timeline.start_date');

    const attempts = expected === 'any' ? UNCONDITIONAL_ATTEMPTS : 1;
    for (let attempt = 0; attempt < attempts; attempt++) {
      const current = await this.get(accountId, assessmentId);
      if (expected !== 'any' && current.version !== expected) {
        throw new VersionConflictError(`The assessment is at version ${current.version}, not ${expected}; read it again.`, current.version);
      }
      const { next, completed } = this.transition(current, patch, now);
      const event = completed ? completionEvent(next) : undefined;
      if (await this.deps.store.update(next, current.version, event)) {
        if (event) await this.relay(event, next);
        return next;
      }
      if (expected !== 'any') throw await this.changedMeanwhile(accountId, assessmentId, expected);
    }
    throw new ConflictError('The assessment kept changing during the update; retry.');
  }

  /**
   * Fills the methodology fields the linked imports and analyses prove (see `prefillMethodology`),
   * conditional on `expectedVersion` like an update. Nothing provable is 422 `no_evidence`; a
   * submitted assessment is frozen (409).
   */
  async prefill(accountId: string, assessmentId: string, options: { overwrite: boolean }, expectedVersion: number, now: Date): Promise<{ assessment: Assessment; evidence?: ComplianceEvidence; outcome: PrefillOutcome }> {
    const current = await this.get(accountId, assessmentId);
    if (current.version !== expectedVersion) {
      throw new VersionConflictError(`The assessment is at version ${current.version}, not ${expectedVersion}; read it again.`, current.version);
    }
    if (current.status === 'submitted') throw new ConflictError('The assessment was submitted and is frozen.', { status_now: current.status });
    const evidence = await this.evidenceFor(current);
    const facts = evidence ? factsFromEvidence(evidence) : [];
    if (facts.length === 0) {
      throw new NoEvidenceError(`Nothing could be filled: no complete asset import and no flood analysis is linked to assessment ${assessmentId}.`, {
        link_first: ['POST /assets/import with assessment_id (the inventory)', 'POST /hazards/flood-analysis with assessment_id (the analyses)'],
      });
    }
    const at = now.toISOString();
    const outcome = prefillMethodology(current.methodology, current.methodology_provenance ?? {}, facts, { overwrite: options.overwrite, at });
    const next: Assessment = { ...current, methodology: outcome.methodology, methodology_provenance: outcome.provenance, version: current.version + 1, updated_at: at };
    if (!(await this.deps.store.update(next, current.version))) throw await this.changedMeanwhile(accountId, assessmentId, expectedVersion);
    return { assessment: next, evidence, outcome };
  }

  /** A conditional write lost a race after its version check: the conflict names the version that won. */
  private async changedMeanwhile(accountId: string, assessmentId: string, expected: number): Promise<VersionConflictError> {
    const latest = await this.get(accountId, assessmentId);
    return new VersionConflictError(`The assessment changed after version ${expected}; it is at version ${latest.version}: read it again.`, latest.version);
  }

  private transition(current: Assessment, patch: UpdateAssessmentInput, now: Date) {
    try {
      return applyUpdate(current, patch, now);
    } catch (error) {
      if (error instanceof TransitionError) throw new ConflictError(error.message, { field: error.field, status_now: current.status, phase_now: current.phase });
      throw error;
    }
  }

  /** Inline relay; if it fails the event stays pending in the item for the safety net. */
  private async relay(event: QueuedEvent, assessment: Assessment): Promise<void> {
    try {
      await this.deps.queue.send(event);
      await this.deps.store.clearEvent(assessment.account_id, assessment.assessment_id, event.event_id);
    } catch (error) {
      this.deps.warn('Event left in the outbox for the relay', { event_id: event.event_id, error: (error as Error).message });
    }
  }

  /**
   * Stores the manifest first, then moves the status to `submitted` conditionally on the version;
   * if that write loses, the manifest is deleted again, so nothing half-done remains.
   */
  async submit(accountId: string, assessmentId: string, input: SubmitAssessmentInput, now: Date): Promise<Submission> {
    const current = await this.get(accountId, assessmentId);
    if (current.status === 'submitted') {
      throw new ConflictError(`The assessment was already submitted (${current.submission?.submission_id}).`, { submission_id: current.submission?.submission_id });
    }
    if (current.status !== 'complete') {
      throw new ConflictError(`Only a complete assessment can be submitted; this one is ${current.status} at ${current.completion_percentage} % in the ${current.phase} phase.`, { status_now: current.status });
    }
    const compliance = complianceOf(current, await this.evidenceFor(current));
    if (!compliance.compliant) {
      throw new ConflictError(`The checklist does not pass: items ${compliance.missing_items.map((m) => m.item).join(', ')} are missing.`, { missing_items: compliance.missing_items });
    }

    const submittedAt = now.toISOString();
    const submissionId = `sub_${randomBytes(12).toString('hex')}`;
    const pkg = buildSubmissionPackage(current, compliance, input, submissionId, submittedAt);
    const key = manifestKey(accountId, assessmentId, submissionId);
    await this.deps.blobs.put(key, pkg.content, 'application/json');
    const next = markSubmitted(current, {
      submission_id: submissionId,
      receipt: pkg.receipt,
      manifest_key: key,
      manifest_sha256: pkg.sha256,
      final_report_url: input.final_report_url,
      gis_data_url: input.gis_data_url,
    }, submittedAt);
    let written: boolean;
    try {
      written = await this.deps.store.update(next, current.version);
    } catch (error) {
      await this.deps.blobs.delete(key);
      throw error;
    }
    if (!written) {
      await this.deps.blobs.delete(key);
      throw new ConflictError('The assessment changed while it was being submitted; read it again.');
    }
    return submissionOf(next);
  }

  /**
   * Records DEP's own confirmation of the county's filing. Repeating the same values answers the
   * same; other values once one is recorded, or an assessment not submitted, are 409.
   */
  async recordDepConfirmation(accountId: string, assessmentId: string, input: RecordDepConfirmationInput, now: Date): Promise<Submission> {
    const current = await this.get(accountId, assessmentId);
    const problem = depConfirmationProblem(current, input, now);
    if (problem) {
      if (problem.field === 'received_on' && current.status === 'submitted') throw invalidField('received_on', 'body', problem.message);
      throw new ConflictError(problem.message, { field: problem.field });
    }
    if (current.submission!.dep_filing) return submissionOf(current);
    const at = now.toISOString();
    const next: Assessment = {
      ...current,
      version: current.version + 1,
      updated_at: at,
      submission: { ...current.submission!, dep_filing: { confirmation_number: input.confirmation_number, received_on: input.received_on, recorded_at: at } },
    };
    if (!(await this.deps.store.update(next, current.version))) throw new ConflictError('The assessment changed meanwhile; read it again.');
    return submissionOf(next);
  }

  async list(accountId: string, query: ListAssessmentsInput): Promise<{ data: AssessmentSummary[]; next_cursor: string | null }> {
    const filter: AssessmentFilter = { status: query.status };
    if (query.jurisdiction) {
      filter.jurisdictionId = resolveApplicant({ jurisdiction: query.jurisdiction }, 'query').id;
    }
    if (query.date_range) [filter.createdFrom, filter.createdTo] = query.date_range.split('..');
    const page = await this.deps.store.list(accountId, filter, query.limit, query.cursor);
    return { data: page.items.map(summaryOf), next_cursor: page.nextCursor };
  }
}
