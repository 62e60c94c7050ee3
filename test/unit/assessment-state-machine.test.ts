import { applyUpdate, TransitionError } from '../../shared/domain/assessments/state-machine';
import { etagOf } from '../../shared/domain/assessments/model';
import { versionOfEtag } from '../../shared/http/if-match';
import { completionEvent, completionEventId } from '../../shared/domain/assessments/events';
import { storedAssessment } from '../helpers/assessment-fixtures';

const now = new Date('2025-05-01T10:00:00Z');

const draft = storedAssessment;

const fieldOfError = (fn: () => unknown) => {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(TransitionError);
    return (error as TransitionError).field;
  }
  throw new Error('expected a TransitionError');
};

describe('assessment state machine', () => {
  it('moves a draft to in_progress on its first progress and bumps the version', () => {
    const { next, completed } = applyUpdate(draft(), { phase: 'data_collection', completion_percentage: 10 }, now);
    expect(next).toMatchObject({ status: 'in_progress', phase: 'data_collection', completion_percentage: 10, version: 2, updated_at: now.toISOString() });
    expect(next.status_history.map((h) => h.status)).toEqual(['draft', 'in_progress']);
    expect(completed).toBe(false);
  });

  it('keeps a draft a draft when only notes or methodology change', () => {
    const { next } = applyUpdate(draft(), { notes: 'kick-off', methodology: { vertical_datum: 'NAVD88' } }, now);
    expect(next.status).toBe('draft');
    expect(next.methodology.vertical_datum).toBe('NAVD88');
  });

  it('completes at 100 % in final_report, once', () => {
    const current = draft({ status: 'in_progress', phase: 'focus_areas', completion_percentage: 90 });
    const { next, completed } = applyUpdate(current, { phase: 'final_report', completion_percentage: 100 }, now);
    expect(completed).toBe(true);
    expect(next).toMatchObject({ status: 'complete', completed_at: now.toISOString() });
    const again = applyUpdate(next, { notes: 'typo fixed' }, now);
    expect(again.completed).toBe(false);
    expect(again.next.status).toBe('complete');
  });

  it('does not complete at 100 % before the final_report phase', () => {
    const { next, completed } = applyUpdate(draft({ status: 'in_progress', phase: 'exposure_analysis' }), { completion_percentage: 100 }, now);
    expect(completed).toBe(false);
    expect(next.status).toBe('in_progress');
  });

  it('refuses moving a phase back', () => {
    expect(fieldOfError(() => applyUpdate(draft({ status: 'in_progress', phase: 'focus_areas' }), { phase: 'data_collection' }, now))).toBe('phase');
  });

  it('lowers completion only with a reason, and records it', () => {
    const current = draft({ status: 'in_progress', phase: 'exposure_analysis', completion_percentage: 60 });
    expect(fieldOfError(() => applyUpdate(current, { completion_percentage: 40 }, now))).toBe('completion_percentage');
    const { next } = applyUpdate(current, { completion_percentage: 40, completion_change_reason: 'Surge layers must be redone.' }, now);
    expect(next.completion_adjustments).toEqual([{ at: now.toISOString(), from: 60, to: 40, reason: 'Surge layers must be redone.' }]);
  });

  it('keeps 100 drops of completion with their reasons and refuses the 101st, losing none', () => {
    // 100 reasons of 2,000 characters are 200 KB: with the rest of the assessment within one stored item (400 KB).
    let current = draft({ status: 'in_progress', phase: 'exposure_analysis', completion_percentage: 60 });
    for (let drop = 1; drop <= 100; drop++) {
      current = applyUpdate(applyUpdate(current, { completion_percentage: 60 }, now).next, { completion_percentage: 40, completion_change_reason: `${drop}`.padEnd(2000, '.') }, now).next;
    }
    expect(current.completion_adjustments).toHaveLength(100);
    expect(current.completion_adjustments[0]!.reason.startsWith('1.')).toBe(true);
    const raised = applyUpdate(current, { completion_percentage: 60 }, now).next;
    let refused: unknown;
    try {
      applyUpdate(raised, { completion_percentage: 40, completion_change_reason: 'once more' }, now);
    } catch (error) {
      refused = error;
    }
    expect(refused).toBeInstanceOf(TransitionError);
    expect(refused).toMatchObject({ field: 'completion_percentage', message: 'The assessment has recorded 100 drops of completion_percentage, the most it keeps; it cannot drop again.' });
    // Raising it, or any other change, still works.
    expect(applyUpdate(raised, { completion_percentage: 70, notes: 'on' }, now).next.completion_adjustments).toHaveLength(100);
  });

  it('refuses illegal status moves', () => {
    const inProgress = draft({ status: 'in_progress', phase: 'data_collection', completion_percentage: 20 });
    expect(fieldOfError(() => applyUpdate(inProgress, { status: 'draft' }, now))).toBe('status');
    expect(fieldOfError(() => applyUpdate(inProgress, { status: 'complete' }, now))).toBe('status');
    expect(fieldOfError(() => applyUpdate(inProgress, { status: 'submitted' }, now))).toBe('status');
    const complete = draft({ status: 'complete', phase: 'final_report', completion_percentage: 100 });
    expect(fieldOfError(() => applyUpdate(complete, { completion_percentage: 90, completion_change_reason: 'x' }, now))).toBe('completion_percentage');
    expect(fieldOfError(() => applyUpdate(complete, { status: 'in_progress' }, now))).toBe('status');
    expect(fieldOfError(() => applyUpdate(draft({ status: 'submitted' }), { notes: 'late' }, now))).toBe('status');
  });

  it('needs a rationale for a partial scope', () => {
    expect(fieldOfError(() => applyUpdate(draft(), { scope: 'partial' }, now))).toBe('scope_rationale');
    expect(applyUpdate(draft(), { scope: 'partial', scope_rationale: 'Barrier islands only' }, now).next.scope).toBe('partial');
  });

  it('builds one deterministic assessment_complete event per assessment', () => {
    const completed = draft({ status: 'complete', completed_at: now.toISOString() });
    const event = completionEvent(completed);
    expect(event).toEqual({
      event_id: completionEventId('va_test'),
      account_id: 'acct_1',
      type: 'assessment_complete',
      timestamp: now.toISOString(),
      data: { assessment_id: 'va_test', jurisdiction: 'Monroe County', completed_at: now.toISOString() },
    });
    expect(completionEventId('va_test')).toBe(completionEventId('va_test'));
    expect(completionEventId('va_other')).not.toBe(completionEventId('va_test'));
  });

  it('writes the ETag the API reads back from If-Match, strong or weak; no wildcard', () => {
    expect(etagOf(7)).toBe('"7"');
    expect(versionOfEtag(etagOf(7))).toBe(7);
    expect(versionOfEtag('W/"7"')).toBe(7);
    expect(versionOfEtag('*')).toBeUndefined();
    expect(versionOfEtag('7')).toBeUndefined();
    expect(versionOfEtag('"abc"')).toBeUndefined();
  });
});
