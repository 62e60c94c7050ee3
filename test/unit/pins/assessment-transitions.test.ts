import { AssessmentService } from '../../../shared/application/assessments/assessment-service';
import type { Assessment } from '../../../shared/domain/assessments/model';
import type { AssessmentStore } from '../../../shared/domain/assessments/ports';
import { asHttpError } from '../../../shared/http/domain-problems';
import type { BlobStore } from '../../../shared/ports';
import type { Methodology } from '../../../shared/schemas/compliance';
import type { AssessmentStatus, UpdateAssessmentInput } from '../../../shared/schemas/assessments';
import { compliantMethodology, storedAssessment } from '../../helpers/assessment-fixtures';

/**
 * DESIGN §3: an assessment moves draft → in_progress → complete → submitted; every other move is
 * 409 conflict. Each ordered pair of statuses is tried through both ways a status can change —
 * an update (PATCH) and a submission — and the set of moves that succeed must be exactly the
 * allowed one. A single update that does all the remaining work may take a draft to complete,
 * but only by way of in_progress, which the history records.
 */
const STATUSES: AssessmentStatus[] = ['draft', 'in_progress', 'complete', 'submitted'];
const ALLOWED_STEPS = new Set(['draft→in_progress', 'in_progress→complete', 'complete→submitted']);

const now = new Date('2025-09-02T08:00:00Z');
const methodology = compliantMethodology('2024', 2025) as Methodology;

function assessmentIn(status: AssessmentStatus): Assessment {
  const history = STATUSES.slice(0, STATUSES.indexOf(status) + 1).map((s) => ({ status: s, at: '2025-06-01T00:00:00.000Z' }));
  const progress = {
    draft: { phase: 'initiation', completion_percentage: 0 },
    in_progress: { phase: 'exposure_analysis', completion_percentage: 40 },
    complete: { phase: 'final_report', completion_percentage: 100, completed_at: '2025-08-01T00:00:00.000Z' },
    submitted: { phase: 'final_report', completion_percentage: 100, completed_at: '2025-08-01T00:00:00.000Z', submitted_at: '2025-08-02T00:00:00.000Z' },
  }[status] as Partial<Assessment>;
  return storedAssessment({ status, status_history: history, methodology, version: 5, ...progress });
}

/** The update that asks for `to` and does whatever work `to` needs. */
const patchTowards = (to: AssessmentStatus): UpdateAssessmentInput =>
  (to === 'complete' ? { status: to, phase: 'final_report', completion_percentage: 100 } : { status: to }) as UpdateAssessmentInput;

function serviceHolding(assessment: Assessment) {
  let stored = assessment;
  const store: AssessmentStore = {
    create: async () => undefined,
    get: async (accountId, id) => (accountId === stored.account_id && id === stored.assessment_id ? stored : undefined),
    update: async (next, expectedVersion) => {
      if (stored.version !== expectedVersion) return false;
      stored = next;
      return true;
    },
    clearEvent: async () => undefined,
    list: async () => ({ items: [], nextCursor: null }),
  };
  const blobs = { put: async () => undefined, delete: async () => undefined } as unknown as BlobStore;
  const service = new AssessmentService({ store, blobs, queue: { send: async () => undefined }, newAssessmentId: () => 'va_new', warn: () => undefined });
  return { service, stored: () => stored };
}

type Outcome = { accepted: true; history: string[] } | { accepted: false; code: string };

async function attempt(from: AssessmentStatus, to: AssessmentStatus, way: 'update' | 'submit'): Promise<Outcome> {
  const current = assessmentIn(from);
  const { service, stored } = serviceHolding(current);
  try {
    if (way === 'update') await service.update(current.account_id, current.assessment_id, patchTowards(to), current.version, now);
    else {
      await service.submit(current.account_id, current.assessment_id, {
        certification: { certifier_name: 'Ana Lopez', certifier_title: 'Resilience Officer', accepted: true },
        final_report_url: 'https://example.org/va/report.pdf',
        gis_data_url: 'https://example.org/va/gis.zip',
      }, now);
    }
  } catch (error) {
    const problem = asHttpError(error);
    if (problem) return { accepted: false, code: problem.code };
    throw error;
  }
  const after = stored();
  if (after.status !== to) return { accepted: false, code: `status stayed ${after.status}` };
  const statuses = after.status_history.map((h) => h.status);
  return { accepted: true, history: statuses.slice(current.status_history.length - 1) };
}

const pairs = STATUSES.flatMap((from) => STATUSES.filter((to) => to !== from).map((to) => [from, to] as const));

describe('pins: assessment status transitions', () => {
  it('succeed for exactly the allowed moves, over every ordered pair of distinct statuses', async () => {
    const accepted: string[] = [];
    for (const [from, to] of pairs) {
      const way = to === 'submitted' ? 'submit' : 'update';
      const outcome = await attempt(from, to, way);
      if (outcome.accepted) {
        accepted.push(`${from}→${to}`);
        // Every recorded step is an allowed one: nothing skips a status.
        for (let i = 1; i < outcome.history.length; i++) expect(ALLOWED_STEPS).toContain(`${outcome.history[i - 1]}→${outcome.history[i]}`);
      }
    }
    expect(accepted.sort()).toEqual(['complete→submitted', 'draft→complete', 'draft→in_progress', 'in_progress→complete']);
  });

  it('records a draft completed in one update as draft → in_progress → complete', async () => {
    expect(await attempt('draft', 'complete', 'update')).toEqual({ accepted: true, history: ['draft', 'in_progress', 'complete'] });
  });

  it.each(pairs.filter(([from, to]) => STATUSES.indexOf(to) < STATUSES.indexOf(from)))('refuses going back from %s to %s with 409 conflict', async (from, to) => {
    expect(await attempt(from, to, 'update')).toEqual({ accepted: false, code: 'conflict' });
  });

  it.each(STATUSES)('refuses submitting through an update (from %s) with 409 conflict', async (from) => {
    expect(await attempt(from, 'submitted', 'update')).toEqual({ accepted: false, code: 'conflict' });
  });

  it.each(['draft', 'in_progress', 'submitted'] as const)('refuses the submission of a %s assessment with 409 conflict', async (from) => {
    expect(await attempt(from, 'submitted', 'submit')).toEqual({ accepted: false, code: 'conflict' });
  });

  it('refuses asking an in_progress assessment to complete before 100 % in final_report', async () => {
    const current = assessmentIn('in_progress');
    const { service } = serviceHolding(current);
    await expect(service.update(current.account_id, current.assessment_id, { status: 'complete' } as UpdateAssessmentInput, current.version, now))
      .rejects.toMatchObject({ kind: 'conflict' });
  });

  it.each(STATUSES)('keeps a %s assessment where it is when the update asks for its own status', async (status) => {
    const current = assessmentIn(status);
    const { service, stored } = serviceHolding(current);
    const update = service.update(current.account_id, current.assessment_id, { status } as UpdateAssessmentInput, current.version, now);
    if (status === 'submitted') await expect(update).rejects.toMatchObject({ kind: 'conflict' });
    else await update;
    expect(stored().status_history).toEqual(current.status_history);
  });
});
