import { MAX_COMPLETION_ADJUSTMENTS, type AssessmentStatus, type UpdateAssessmentInput } from '../../schemas/assessments';
import { ASSESSMENT_PHASES } from './vocabulary';
import { provenanceAfterUpdate } from '../compliance/prefill';
import type { Assessment } from './model';

/** A move the assessment's current state does not allow (409), naming the field that asked for it. */
export class TransitionError extends Error {
  constructor(readonly field: string, message: string) {
    super(message);
    this.name = 'TransitionError';
  }
}

const STATUS_ORDER: readonly AssessmentStatus[] = ['draft', 'in_progress', 'complete', 'submitted'];
const phaseIndex = (phase: string) => ASSESSMENT_PHASES.indexOf(phase as (typeof ASSESSMENT_PHASES)[number]);
const FINAL_PHASE = ASSESSMENT_PHASES[ASSESSMENT_PHASES.length - 1]!;

export interface PatchOutcome {
  next: Assessment;
  /** True when this update moved the assessment to `complete` (the event must go with the write). */
  completed: boolean;
}

function withStatus(assessment: Assessment, status: AssessmentStatus, at: string): Assessment {
  if (assessment.status === status) return assessment;
  return { ...assessment, status, status_history: [...assessment.status_history, { status, at }] };
}

/**
 * Applies an update: phases only move forward, completion never drops without a reason, and the
 * status follows `draft → in_progress → complete` (complete at 100 % in `final_report`). A
 * submitted assessment is read-only. Pure: the caller writes `next` conditionally on the version.
 */
export function applyUpdate(current: Assessment, patch: UpdateAssessmentInput, now: Date): PatchOutcome {
  const at = now.toISOString();
  if (current.status === 'submitted') throw new TransitionError('status', 'The assessment was submitted and can no longer change.');

  if (patch.phase !== undefined && phaseIndex(patch.phase) < phaseIndex(current.phase)) {
    throw new TransitionError('phase', `Phases only move forward: ${current.phase} cannot go back to ${patch.phase}.`);
  }
  const completion = patch.completion_percentage ?? current.completion_percentage;
  const adjustments = [...current.completion_adjustments];
  if (completion < current.completion_percentage) {
    if (current.status === 'complete') throw new TransitionError('completion_percentage', 'A complete assessment stays at 100 %.');
    if (!patch.completion_change_reason) {
      throw new TransitionError('completion_percentage', `completion_percentage cannot drop from ${current.completion_percentage} to ${completion} without completion_change_reason.`);
    }
    // The drops are the assessment's audit trail, so none is ever dropped in turn: past the cap the update is refused.
    if (adjustments.length >= MAX_COMPLETION_ADJUSTMENTS) {
      throw new TransitionError('completion_percentage', `The assessment has recorded ${MAX_COMPLETION_ADJUSTMENTS} drops of completion_percentage, the most it keeps; it cannot drop again.`);
    }
    adjustments.push({ at, from: current.completion_percentage, to: completion, reason: patch.completion_change_reason });
  }
  const scope = patch.scope ?? current.scope;
  const scopeRationale = patch.scope_rationale ?? (scope === 'partial' ? current.scope_rationale : undefined);
  if (scope === 'partial' && !scopeRationale) throw new TransitionError('scope_rationale', 'A partial scope needs scope_rationale.');

  let next: Assessment = {
    ...current,
    phase: patch.phase ?? current.phase,
    completion_percentage: completion,
    completion_adjustments: adjustments,
    scope,
    scope_rationale: scopeRationale,
    timeline: patch.timeline ?? current.timeline,
    notes: patch.notes === null ? undefined : patch.notes ?? current.notes,
    methodology: { ...current.methodology, ...patch.methodology },
    methodology_provenance: provenanceAfterUpdate(current.methodology_provenance, Object.keys(patch.methodology ?? {})),
    version: current.version + 1,
    updated_at: at,
  };

  const reachedCompletion = next.completion_percentage === 100 && next.phase === FINAL_PHASE;
  const requested = patch.status;
  if (requested !== undefined && STATUS_ORDER.indexOf(requested) < STATUS_ORDER.indexOf(current.status)) {
    throw new TransitionError('status', `The status cannot move back from ${current.status} to ${requested}.`);
  }
  if (requested === 'submitted') throw new TransitionError('status', 'Submit through POST /assessments/{assessment_id}/submit.');
  if (requested === 'complete' && !reachedCompletion) {
    throw new TransitionError('status', `An assessment is complete at 100 % in the ${FINAL_PHASE} phase; it is at ${next.completion_percentage} % in ${next.phase}.`);
  }

  const progressed = requested === 'in_progress' || next.completion_percentage > 0 || next.phase !== ASSESSMENT_PHASES[0];
  if (next.status === 'draft' && progressed) next = withStatus(next, 'in_progress', at);
  const completed = next.status === 'in_progress' && reachedCompletion;
  if (completed) next = { ...withStatus(next, 'complete', at), completed_at: at };
  return { next, completed };
}
