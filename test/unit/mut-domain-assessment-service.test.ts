import { AssessmentService } from '../../shared/application/assessments/assessment-service';
import type { Assessment } from '../../shared/domain/assessments/model';
import type { AssessmentFilter, AssessmentStore } from '../../shared/domain/assessments/ports';
import { ConflictError, InvalidInputError, VersionConflictError } from '../../shared/domain/errors';
import type { BlobStore, QueuedEvent } from '../../shared/ports';
import type { Methodology } from '../../shared/schemas/compliance';
import { compliantMethodology, newAssessmentBody, storedAssessment } from '../helpers/assessment-fixtures';

/**
 * The assessment service over in-memory ports: the version checks, the retries without If-Match,
 * the outbox relay, and the submission's all-or-nothing write.
 */
class MemoryStore implements AssessmentStore {
  readonly items = new Map<string, Assessment>();
  updates = 0;
  /** Writes to lose (as if another request had written first), or an error to throw. */
  lose = 0;
  fail: Error | undefined;
  cleared: string[] = [];
  lastFilter: AssessmentFilter | undefined;
  async create(assessment: Assessment) {
    this.items.set(assessment.assessment_id, assessment);
  }
  async get(accountId: string, id: string) {
    const found = this.items.get(id);
    return found && found.account_id === accountId ? found : undefined;
  }
  async update(next: Assessment, expectedVersion: number) {
    this.updates++;
    if (this.fail) throw this.fail;
    if (this.lose > 0) {
      this.lose--;
      return false;
    }
    if (this.items.get(next.assessment_id)?.version !== expectedVersion) return false;
    this.items.set(next.assessment_id, next);
    return true;
  }
  async clearEvent(_accountId: string, _id: string, eventId: string) {
    this.cleared.push(eventId);
  }
  async list(_accountId: string, filter: AssessmentFilter) {
    this.lastFilter = filter;
    return { items: [...this.items.values()], nextCursor: null };
  }
}

function harness(seed?: Assessment) {
  const store = new MemoryStore();
  if (seed) store.items.set(seed.assessment_id, seed);
  const objects = new Map<string, string>();
  const blobs = { put: async (key: string, body: string) => void objects.set(key, body), delete: async (key: string) => void objects.delete(key) } as unknown as BlobStore;
  const sent: QueuedEvent[] = [];
  const queue = { failing: false, send: async (event: QueuedEvent) => { if (queue.failing) throw new Error('queue down'); sent.push(event); } };
  const warnings: string[] = [];
  const service = new AssessmentService({ store, blobs, queue, newAssessmentId: () => 'va_NEW', warn: (message) => warnings.push(message) });
  return { service, store, objects, sent, queue, warnings };
}

const now = new Date('2025-05-01T10:00:00Z');
const refusal = async (work: Promise<unknown>) => work.then(() => { throw new Error('expected a refusal'); }, (error: unknown) => error as ConflictError);

describe('updates and versions', () => {
  const current = () => storedAssessment({ status: 'in_progress', phase: 'data_collection', completion_percentage: 20, version: 4 });

  it('refuses a stale If-Match with the current version, writing nothing', async () => {
    const { service, store } = harness(current());
    const error = await refusal(service.update('acct_1', 'va_test', { completion_percentage: 30 }, 3, now));
    expect(error).toBeInstanceOf(VersionConflictError);
    expect([(error as VersionConflictError).currentVersion, error.details]).toEqual([4, { current_version: 4 }]);
    expect(store.updates).toBe(0);
  });

  it('with If-Match, one lost write is a 409: no retry on a version the caller did not read', async () => {
    const { service, store } = harness(current());
    store.lose = 1;
    const error = await refusal(service.update('acct_1', 'va_test', { completion_percentage: 30 }, 4, now));
    expect(error.message).toMatch(/changed after version 4/);
    expect(store.updates).toBe(1);
  });

  it('without If-Match, retries a lost write on the fresh version, three times at most', async () => {
    const once = harness(current());
    once.store.lose = 2;
    expect((await once.service.update('acct_1', 'va_test', { completion_percentage: 30 }, undefined, now)).completion_percentage).toBe(30);
    expect(once.store.updates).toBe(3);
    const never = harness(current());
    never.store.lose = 5;
    expect((await refusal(never.service.update('acct_1', 'va_test', { completion_percentage: 30 }, undefined, now))).message).toMatch(/kept changing/);
    expect(never.store.updates).toBe(3);
  });

  it('turns a forbidden move into a 409 naming the field and where the assessment stands', async () => {
    const { service } = harness(current());
    const error = await refusal(service.update('acct_1', 'va_test', { phase: 'initiation' }, undefined, now));
    expect(error.details).toEqual({ field: 'phase', status_now: 'in_progress', phase_now: 'data_collection' });
  });

  it('relays the completion event and clears it from the outbox; a queue failure leaves it there and is only a warning', async () => {
    const nearlyDone = storedAssessment({ status: 'in_progress', phase: 'final_report', completion_percentage: 90, version: 4 });
    const ok = harness(nearlyDone);
    await ok.service.update('acct_1', 'va_test', { completion_percentage: 100 }, undefined, now);
    expect(ok.sent.map((e) => e.type)).toEqual(['assessment_complete']);
    expect(ok.store.cleared).toEqual([ok.sent[0]!.event_id]);
    const down = harness(nearlyDone);
    down.queue.failing = true;
    expect((await down.service.update('acct_1', 'va_test', { completion_percentage: 100 }, undefined, now)).status).toBe('complete');
    expect(down.store.cleared).toEqual([]);
    expect(down.warnings).toEqual(['Event left in the outbox for the relay']);
  });
});

describe('submission', () => {
  const complete = (overrides: Partial<Assessment> = {}) => storedAssessment({
    status: 'complete', phase: 'final_report', completion_percentage: 100, methodology: compliantMethodology('2024', 2025) as Methodology,
    version: 9, updated_at: '2025-09-01T00:00:00.000Z', completed_at: '2025-09-01T00:00:00.000Z', ...overrides,
  });
  const input = {
    certification: { certifier_name: 'Ana Lopez', certifier_title: 'Resilience Officer', accepted: true as const },
    final_report_url: 'https://example.org/r.pdf', gis_data_url: 'https://example.org/g.zip',
  };

  it('refuses an assessment already submitted (naming the submission), or not complete (naming its status)', async () => {
    const submitted = harness(complete({ status: 'submitted', submission: { submission_id: 'sub_1' } as Assessment['submission'] }));
    expect((await refusal(submitted.service.submit('acct_1', 'va_test', input, now))).details).toEqual({ submission_id: 'sub_1' });
    const inProgress = harness(complete({ status: 'in_progress' }));
    expect((await refusal(inProgress.service.submit('acct_1', 'va_test', input, now))).details).toEqual({ status_now: 'in_progress' });
  });

  it('refuses a checklist that does not pass, listing the missing items', async () => {
    const { service, objects } = harness(complete({ methodology: {} }));
    const error = await refusal(service.submit('acct_1', 'va_test', input, now));
    expect(error.message).toMatch(/^The checklist does not pass: items [A-N](, [A-N])* are missing\.$/);
    expect((error.details.missing_items as unknown[]).length).toBeGreaterThan(0);
    expect(objects.size).toBe(0);
  });

  it('removes the stored manifest when the status write loses or fails, so nothing half-done remains', async () => {
    const lost = harness(complete());
    lost.store.lose = 1;
    expect((await refusal(lost.service.submit('acct_1', 'va_test', input, now))).message).toMatch(/changed while it was being submitted/);
    expect(lost.objects.size).toBe(0);
    const broken = harness(complete());
    broken.store.fail = new Error('table unavailable');
    await expect(broken.service.submit('acct_1', 'va_test', input, now)).rejects.toThrow('table unavailable');
    expect(broken.objects.size).toBe(0);
    const ok = harness(complete());
    await ok.service.submit('acct_1', 'va_test', input, now);
    expect(ok.objects.size).toBe(1);
  });
});

describe('DEP confirmation', () => {
  const submitted = (depFiling?: object) => storedAssessment({
    status: 'submitted', version: 10, submitted_at: '2025-09-02T12:00:00.000Z',
    submission: { submission_id: 'sub_1', receipt: 'VA-12087-2025-ABCDEF12', manifest_key: 'k', manifest_sha256: 'a'.repeat(64), final_report_url: 'https://example.org/r.pdf', gis_data_url: 'https://example.org/g.zip', ...(depFiling ? { dep_filing: depFiling } : {}) } as Assessment['submission'],
  });
  const later = new Date('2025-09-10T12:00:00Z');

  it('records it once with the next version; the same values again answer the same without a write', async () => {
    const { service, store } = harness(submitted());
    await service.recordDepConfirmation('acct_1', 'va_test', { confirmation_number: 'RF-1', received_on: '2025-09-05' }, later);
    expect(store.items.get('va_test')).toMatchObject({ version: 11, submission: { dep_filing: { confirmation_number: 'RF-1', received_on: '2025-09-05' } } });
    await service.recordDepConfirmation('acct_1', 'va_test', { confirmation_number: 'RF-1', received_on: '2025-09-05' }, later);
    expect(store.updates).toBe(1);
  });

  it('answers a received_on before the submission 400, other values after a recorded one 409, a lost write 409', async () => {
    const early = harness(submitted());
    expect(await refusal(early.service.recordDepConfirmation('acct_1', 'va_test', { confirmation_number: 'RF-1', received_on: '2025-08-01' }, later))).toBeInstanceOf(InvalidInputError);
    const recorded = harness(submitted({ confirmation_number: 'RF-1', received_on: '2025-09-05', recorded_at: '2025-09-06T00:00:00.000Z' }));
    const other = await refusal(recorded.service.recordDepConfirmation('acct_1', 'va_test', { confirmation_number: 'RF-2', received_on: '2025-09-05' }, later));
    expect([other instanceof ConflictError, other.details]).toEqual([true, { field: 'confirmation_number' }]);
    const lost = harness(submitted());
    lost.store.lose = 1;
    expect((await refusal(lost.service.recordDepConfirmation('acct_1', 'va_test', { confirmation_number: 'RF-1', received_on: '2025-09-05' }, later))).message).toMatch(/changed meanwhile/);
  });
});

describe('create and list', () => {
  it('creates a draft whose history starts with the draft status at its creation time', async () => {
    const { service } = harness();
    const created = await service.create('acct_1', newAssessmentBody() as never, now);
    expect(created.status_history).toEqual([{ status: 'draft', at: now.toISOString() }]);
  });

  it('passes the status filter and the resolved jurisdiction id to the store', async () => {
    const { service, store } = harness(storedAssessment());
    await service.list('acct_1', { status: 'draft', jurisdiction: 'Monroe County', limit: 10 } as never);
    expect(store.lastFilter).toEqual({ status: 'draft', jurisdictionId: 'county:12087' });
  });
});
