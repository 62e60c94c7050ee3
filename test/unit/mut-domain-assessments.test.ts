import { createHash } from 'node:crypto';
import { applyUpdate } from '../../shared/domain/assessments/state-machine';
import { buildSubmissionPackage, markSubmitted } from '../../shared/domain/assessments/submission';
import { depConfirmationProblem } from '../../shared/domain/assessments/dep-filing';
import { completionEventId } from '../../shared/domain/assessments/events';
import { complianceOf } from '../../shared/domain/assessments/model';
import type { Methodology } from '../../shared/schemas/compliance';
import { compliantMethodology, storedAssessment } from '../helpers/assessment-fixtures';

/**
 * The assessment life cycle's edges the mutation run found unguarded: what an update keeps, what
 * it drops, when it moves the status, and what a submission package records.
 */
const now = new Date('2025-05-01T10:00:00Z');

describe('an update keeps what it does not change', () => {
  it('allows the phase the assessment is already in (phases never go back, but may stay)', () => {
    const current = storedAssessment({ status: 'in_progress', phase: 'data_collection', completion_percentage: 20 });
    expect(applyUpdate(current, { phase: 'data_collection', completion_percentage: 25 }, now).next.phase).toBe('data_collection');
  });

  it('keeps the earlier completion adjustments when another is recorded', () => {
    const earlier = { at: '2025-03-01T00:00:00.000Z', from: 40, to: 30, reason: 'Scope corrected' };
    const current = storedAssessment({ status: 'in_progress', phase: 'data_collection', completion_percentage: 30, completion_adjustments: [earlier] });
    const { next } = applyUpdate(current, { completion_percentage: 20, completion_change_reason: 'Data set withdrawn' }, now);
    expect(next.completion_adjustments).toEqual([earlier, { at: now.toISOString(), from: 30, to: 20, reason: 'Data set withdrawn' }]);
    // An update that does not lower completion keeps them as they are.
    expect(applyUpdate(next, { notes: 'x' }, now).next.completion_adjustments).toEqual(next.completion_adjustments);
  });

  it('keeps a partial scope\'s rationale across updates and drops it when the scope becomes full', () => {
    const current = storedAssessment({ scope: 'partial', scope_rationale: 'Keys only: the mainland part is in the county-wide study.' });
    expect(applyUpdate(current, { notes: 'kick-off' }, now).next.scope_rationale).toBe('Keys only: the mainland part is in the county-wide study.');
    expect(applyUpdate(current, { scope: 'full_jurisdiction' }, now).next.scope_rationale).toBeUndefined();
    expect(applyUpdate(current, { scope_rationale: 'Keys and the mainland.' }, now).next.scope_rationale).toBe('Keys and the mainland.');
  });

  it('clears notes with null, keeps them when absent, replaces them when given', () => {
    const current = storedAssessment({ notes: 'first' });
    expect(applyUpdate(current, { notes: null }, now).next.notes).toBeUndefined();
    expect(applyUpdate(current, { phase: 'initiation' }, now).next.notes).toBe('first');
    expect(applyUpdate(current, { notes: 'second' }, now).next.notes).toBe('second');
  });
});

describe('an update moves the status only as far as the work went', () => {
  it('stays in progress at 100 % before the final phase, and below 100 % in it', () => {
    const current = storedAssessment({ status: 'in_progress', phase: 'focus_areas', completion_percentage: 50 });
    expect(applyUpdate(current, { completion_percentage: 100 }, now)).toMatchObject({ completed: false, next: { status: 'in_progress' } });
    expect(applyUpdate(current, { phase: 'final_report', completion_percentage: 99 }, now)).toMatchObject({ completed: false, next: { status: 'in_progress' } });
  });

  it('starts a draft when asked to, with nothing done yet, or at the first percent, or in a later phase', () => {
    const draft = storedAssessment();
    expect(applyUpdate(draft, { status: 'in_progress' }, now).next.status).toBe('in_progress');
    expect(applyUpdate(draft, { completion_percentage: 1 }, now).next.status).toBe('in_progress');
    expect(applyUpdate(draft, { phase: 'data_collection' }, now).next.status).toBe('in_progress');
    expect(applyUpdate(draft, { notes: 'only notes' }, now).next.status).toBe('draft');
  });
});

describe('a submission', () => {
  const assessment = storedAssessment({
    assessment_id: 'va_01JTEST', status: 'complete', phase: 'final_report', completion_percentage: 100,
    methodology: compliantMethodology('2024', 2025) as Methodology, version: 9, updated_at: '2025-09-01T00:00:00.000Z', completed_at: '2025-09-01T00:00:00.000Z',
  });
  const certification = { certifier_name: 'Ana Lopez', certifier_title: 'Resilience Officer', accepted: true as const };
  const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
  /** Canonical JSON (keys sorted at every level), written here apart from the product's. */
  const canonical = (value: unknown): string => Array.isArray(value)
    ? `[${value.map(canonical).join(',')}]`
    : value !== null && typeof value === 'object'
      ? `{${Object.keys(value).filter((k) => (value as Record<string, unknown>)[k] !== undefined).sort().map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`).join(',')}}`
      : JSON.stringify(value);

  it('records the certification with its time, each deliverable with its hash or null, and hashes of what it holds', () => {
    const pkg = buildSubmissionPackage(assessment, complianceOf(assessment), {
      certification, final_report_url: 'https://example.org/r.pdf', final_report_sha256: 'a'.repeat(64), gis_data_url: 'https://example.org/g.zip',
    }, 'sub_1', '2025-09-02T08:00:00.000Z');
    const manifest = JSON.parse(pkg.content);
    expect(manifest.certification).toEqual({ ...certification, certified_at: '2025-09-02T08:00:00.000Z' });
    expect(manifest.deliverables).toEqual({ final_report_url: 'https://example.org/r.pdf', final_report_sha256: 'a'.repeat(64), gis_data_url: 'https://example.org/g.zip', gis_data_sha256: null });
    const { account_id: _owner, ...snapshot } = assessment;
    expect(manifest.content_hashes).toEqual({ assessment_sha256: sha256(canonical(snapshot)), checklist_sha256: sha256(canonical(manifest.checklist)) });
    expect(pkg.sha256).toBe(sha256(pkg.content));
  });

  it('appends the submitted status to the history and bumps the version once', () => {
    const record = { submission_id: 'sub_1', receipt: 'VA-12087-2025-ABCDEF12', manifest_sha256: 'b'.repeat(64), manifest_key: 'k', certification: { ...certification, certified_at: '2025-09-02T08:00:00.000Z' } };
    const next = markSubmitted(assessment, record as never, '2025-09-02T08:00:00.000Z');
    expect(next.status_history).toEqual([...assessment.status_history, { status: 'submitted', at: '2025-09-02T08:00:00.000Z' }]);
    expect(next.version).toBe(10);
  });

  it('refuses DEP\'s confirmation on an assessment not yet submitted', () => {
    expect(depConfirmationProblem(assessment, { confirmation_number: 'RF-1', received_on: '2025-09-03' }, new Date('2025-09-05T12:00:00Z')))
      .toEqual({ field: 'status', message: 'Only a submitted assessment can record DEP\'s confirmation; this one is complete.' });
  });
});

it('names a completion event by 32 hex digits of the hash of its assessment id, the same every time', () => {
  const id = completionEventId('va_01JTEST');
  expect(id).toBe(`evt_${createHash('sha256').update('assessment_complete:va_01JTEST').digest('hex').slice(0, 32)}`);
});
