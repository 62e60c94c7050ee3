import { generateKeyPairSync, sign } from 'node:crypto';
import type { CredentialSigner, PublicJwk } from '../../shared/domain/credentials/jws';
import type { CredentialRecord } from '../../shared/domain/credentials/open-badge';
import { jwtSignatureValid } from '../../shared/domain/credentials/verify';
import {
  completeEnrollment, enroll, listCertifications, listEnrollments, revokeCertification, type TrainingDeps,
} from '../../shared/application/training/enrolment';
import { TrainingError, type Completion, type Enrollment, type TrainingStore } from '../../shared/domain/training/enrolment';
import programmes from '../../shared/data/v1/courses/programmes.json';
import { freshModule } from '../helpers/fresh-module';

/**
 * Enrolment, completion and the credentials they earn, against an in-memory store that keeps the
 * conditional-write contracts of the real one. The programme definitions come from the bundled
 * JSON the test reads itself.
 */

const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
const jwk = { ...(publicKey.export({ format: 'jwk' }) as object), kid: 'k1', alg: 'ES256', use: 'sig' } as PublicJwk;
const signer: CredentialSigner = { publicJwk: async () => jwk, sign: async (input) => sign('sha256', input, { key: privateKey, dsaEncoding: 'ieee-p1363' }) };
const issuer = { id: 'https://api.example.test/api/v1', name: 'Vulnerability Assessment Compliance API' };
const ana = { user_id: 'u-ana', name: 'Ana B.', role: 'staff' };
const VA = programmes.programmes.find((p) => p.id === 'resilient-florida-va')!;
const ICS = programmes.programmes.find((p) => p.id === 'ics-nims-baseline')!;

class MemoryStore implements TrainingStore {
  enrollments: Enrollment[] = [];
  programmeCredentials = new Map<string, CredentialRecord[]>();
  failProgrammeWrites = false;
  async userRecords(userId: string) {
    return { enrollments: this.enrollments.filter((e) => e.user_id === userId).map((e) => ({ ...e })), programmeCredentials: [...(this.programmeCredentials.get(userId) ?? [])] };
  }
  async createEnrollment(enrollment: Enrollment) {
    if (this.enrollments.some((e) => e.user_id === enrollment.user_id && e.course_code === enrollment.course_code)) return false;
    this.enrollments.push(enrollment);
    return true;
  }
  async completeEnrollment(userId: string, courseCode: string, completion: Completion) {
    const e = this.enrollments.find((x) => x.user_id === userId && x.course_code === courseCode);
    if (!e || e.status !== 'enrolled') return false;
    Object.assign(e, { status: 'completed', ...completion });
    return true;
  }
  async addProgrammeCredential(userId: string, programmeId: string, credential: CredentialRecord) {
    if (this.failProgrammeWrites) throw new Error('table unavailable');
    const held = this.programmeCredentials.get(userId) ?? [];
    if (held.some((c) => c.achievement_code === programmeId)) return false;
    this.programmeCredentials.set(userId, [...held, credential]);
    return true;
  }
  all(): CredentialRecord[] {
    return [...this.enrollments.flatMap((e) => (e.credential ? [e.credential] : [])), ...[...this.programmeCredentials.values()].flat()];
  }
  async findCredential(id: string) { return this.all().find((c) => c.certification_id === id); }
  async revokeCredential(id: string, at: string, reason: string) {
    const c = this.all().find((x) => x.certification_id === id);
    if (!c || c.revoked_at) return false;
    c.revoked_at = at;
    c.revocation_reason = reason;
    return true;
  }
}

function setup(now = new Date('2026-11-23T15:00:00Z')) {
  const store = new MemoryStore();
  let n = 0;
  const deferred: unknown[] = [];
  const deps: TrainingDeps = { store, signer, issuer, now, newId: () => `id${String(++n).padStart(3, '0')}`, onDeferredError: (e) => deferred.push(e) };
  return { store, deps, deferred };
}

async function completeCourse(deps: TrainingDeps, code: string, on: string) {
  const e = await enroll(ana, code, deps);
  return completeEnrollment(ana, e.enrollment_id, { completed_on: on }, deps);
}

describe('enrolment', () => {
  it('enrols in a catalogue course, matching the code without regard to case', async () => {
    const { deps, store } = setup();
    const e = await enroll(ana, 'is-100.C', deps);
    expect(e).toEqual({
      enrollment_id: 'enr_id001', user_id: 'u-ana', course_code: 'IS-100.c', status: 'enrolled', enrolled_at: '2026-11-23T15:00:00.000Z',
      completed_on: null, certificate_number: null, completed_at: null, credential: null,
    });
    expect(store.enrollments).toEqual([e]);
  });

  it('refuses an unknown course, a second enrolment (read or lost race) and missing prerequisites', async () => {
    const { deps, store } = setup();
    await expect(enroll(ana, 'IS-0000', deps)).rejects.toMatchObject({ code: 'not_found' });
    const first = await enroll(ana, 'IS-100.c', deps);
    await expect(enroll(ana, 'IS-100.C', deps)).rejects.toMatchObject({
      code: 'already_enrolled', extra: { enrollment_id: first.enrollment_id },
      message: `You are already enrolled in IS-100.c (${first.enrollment_id}, enrolled).`,
    });
    await expect(enroll(ana, 'E/L/G0300', deps)).rejects.toMatchObject({
      code: 'prerequisites_not_met', extra: { missing_prerequisites: ['IS-100.c', 'IS-200.c', 'IS-700.b'] },
      message: 'E/L/G0300 requires IS-100.c, IS-200.c, IS-700.b to be completed first.',
    });
    // Enrolled is not completed: IS-200.c still waits for IS-100.c.
    await expect(enroll(ana, 'IS-200.c', deps)).rejects.toMatchObject({ code: 'prerequisites_not_met', extra: { missing_prerequisites: ['IS-100.c'] } });
    store.createEnrollment = async () => false;
    await expect(enroll(ana, 'IS-9', deps)).rejects.toMatchObject({ code: 'already_enrolled', message: 'You are already enrolled in IS-9.' });
  });

  it('opens a course once its prerequisites are completed', async () => {
    const { deps } = setup();
    await completeCourse(deps, 'IS-100.c', '2026-10-01');
    await expect(enroll(ana, 'IS-200.c', deps)).resolves.toMatchObject({ course_code: 'IS-200.c' });
  });

  it('lists enrolments newest first', async () => {
    const { store } = setup();
    const at = (iso: string, code: string) => ({ enrollment_id: code, user_id: 'u-ana', course_code: code, status: 'enrolled' as const, enrolled_at: iso, completed_on: null, certificate_number: null, completed_at: null, credential: null });
    store.enrollments = [at('2026-01-02T00:00:00Z', 'b'), at('2026-03-01T00:00:00Z', 'c'), at('2025-12-31T00:00:00Z', 'a'), at('2026-03-01T00:00:00Z', 'd')];
    expect((await listEnrollments(ana, store)).map((e) => e.course_code)).toEqual(['c', 'd', 'b', 'a']);
  });
});

describe('completion', () => {
  it('records the completion with a signed course credential valid three years from the completion date', async () => {
    const { deps, store } = setup();
    const e = await enroll(ana, 'IS-9', deps);
    const { enrollment, certifications } = await completeEnrollment(ana, e.enrollment_id, { completed_on: '2026-11-23', certificate_number: 'IS9-77' }, deps);
    expect(enrollment).toMatchObject({ status: 'completed', completed_on: '2026-11-23', certificate_number: 'IS9-77', completed_at: '2026-11-23T15:00:00.000Z' });
    expect(certifications).toHaveLength(1);
    const [credential] = certifications;
    expect(credential).toMatchObject({
      kind: 'course', achievement_code: 'IS-9', holder_name: 'Ana B.', holder_id: 'u-ana', valid_from: '2026-11-23',
      expires_at: '2029-11-23T00:00:00.000Z', certificate_number: 'IS9-77', revoked_at: null, issued_at: '2026-11-23T15:00:00.000Z',
      name: 'IS-9 Managing Floodplain Development Through the National Flood Insurance Program (NFIP)',
      description: 'FEMA EMI, online independent study. Completion recorded by the holder with certificate number IS9-77.',
    });
    expect(credential!.certification_id).toMatch(/^cert_id\d+$/);
    expect(jwtSignatureValid(credential!.credential_jwt, [jwk])).toBe(true);
    expect(store.enrollments[0]!.credential).toEqual(credential);
  });

  it('describes a completion without a certificate number as such', async () => {
    const { deps } = setup();
    const { certifications } = await completeCourse(deps, 'IS-9', '2026-11-01');
    expect(certifications[0]).toMatchObject({ certificate_number: null, description: 'FEMA EMI, online independent study. Completion recorded by the holder.' });
  });

  it('accepts today in Florida and refuses tomorrow, a non-date, an impossible date and what is more than a date', async () => {
    // The date pattern is compiled when the module loads: loaded here afresh, so a mutation run sees this test use it.
    const fresh = freshModule<typeof import('../../shared/application/training/enrolment')>(require.resolve('../../shared/application/training/enrolment'));
    // 03:00 UTC on the 24th is still the 23rd in Florida.
    const { deps } = setup(new Date('2026-11-24T03:00:00Z'));
    const e = await fresh.enroll(ana, 'IS-9', deps);
    // A five-digit year and a time of day parse as dates, and sort before today as text.
    for (const completed_on of ['2026-11-24', '23/11/2026', '2026-13-45', '2026-11-2', '12026-11-23', '2026-11-20T00:00']) {
      await expect(fresh.completeEnrollment(ana, e.enrollment_id, { completed_on }, deps)).rejects.toMatchObject({
        code: 'invalid_request', message: 'completed_on must be a date (YYYY-MM-DD) no later than today (2026-11-23).',
        extra: { errors: [{ field: 'completed_on', in: 'body', message: 'Not a past or present date' }] },
      });
    }
    await expect(fresh.completeEnrollment(ana, e.enrollment_id, { completed_on: '2026-11-23' }, deps)).resolves.toBeDefined();
  });

  it('records a completion once: a second call, an unknown id and a lost race are refused', async () => {
    const { deps, store } = setup();
    const e = await enroll(ana, 'IS-9', deps);
    await completeEnrollment(ana, e.enrollment_id, { completed_on: '2026-11-01' }, deps);
    await expect(completeEnrollment(ana, e.enrollment_id, { completed_on: '2026-11-02' }, deps)).rejects.toMatchObject({
      code: 'conflict', message: `Enrolment ${e.enrollment_id} was already completed on 2026-11-01; a completion is recorded once.`,
    });
    await expect(completeEnrollment(ana, 'enr_nope', { completed_on: '2026-11-02' }, deps)).rejects.toMatchObject({ code: 'not_found' });
    await expect(completeEnrollment({ ...ana, user_id: 'u-other' }, e.enrollment_id, { completed_on: '2026-11-02' }, deps)).rejects.toMatchObject({ code: 'not_found' });
    const other = await enroll(ana, 'IS-22', deps);
    store.completeEnrollment = async () => false;
    await expect(completeEnrollment(ana, other.enrollment_id, { completed_on: '2026-11-02' }, deps)).rejects.toMatchObject({
      code: 'conflict', message: `Enrolment ${other.enrollment_id} was completed by another request; a completion is recorded once.`,
    });
  });
});

describe('programme credentials', () => {
  it('are issued with the last course of the programme, valid from its latest completion', async () => {
    const { deps } = setup();
    const dates = ['2026-05-01', '2026-09-30', '2026-06-15', '2026-07-04'];
    for (const [i, code] of VA.courses.slice(0, -1).entries()) {
      const { certifications } = await completeCourse(deps, code, dates[i]!);
      expect(certifications.map((c) => c.kind)).toEqual(['course']);
    }
    const { certifications } = await completeCourse(deps, VA.courses.at(-1)!, '2026-08-01');
    expect(certifications.map((c) => [c.kind, c.achievement_code])).toEqual([['course', VA.courses.at(-1)], ['programme', VA.id]]);
    expect(certifications[1]).toMatchObject({
      name: VA.name, valid_from: '2026-09-30', expires_at: '2029-09-30T00:00:00.000Z', certificate_number: null,
      description: `${VA.description} Courses: ${VA.courses.join(', ')}.`,
    });
    expect(jwtSignatureValid(certifications[1]!.credential_jwt, [jwk])).toBe(true);
  });

  it.each([0, 1, 2, 3])('is valid from the latest completion whichever course it was (latest at course %p)', async (latest) => {
    const { deps } = setup();
    const earlier = ['2026-05-01', '2026-06-15', '2026-07-04'];
    const dates = [...earlier.slice(0, latest), '2026-09-30', ...earlier.slice(latest)];
    for (const [i, code] of VA.courses.slice(0, -1).entries()) await completeCourse(deps, code, dates[i]!);
    const { certifications } = await completeCourse(deps, VA.courses.at(-1)!, '2026-08-01');
    expect(certifications.find((c) => c.kind === 'programme')).toMatchObject({ valid_from: '2026-09-30' });
  });

  it('is valid from the programme\'s own latest completion, not from a later course outside it', async () => {
    const { deps } = setup();
    await completeCourse(deps, 'IS-22', '2026-10-15');
    const dates = ['2026-05-01', '2026-09-30', '2026-06-15', '2026-07-04'];
    for (const [i, code] of VA.courses.slice(0, -1).entries()) await completeCourse(deps, code, dates[i]!);
    const { certifications } = await completeCourse(deps, VA.courses.at(-1)!, '2026-08-01');
    expect(VA.courses).not.toContain('IS-22');
    expect(certifications.find((c) => c.kind === 'programme')).toMatchObject({ valid_from: '2026-09-30' });
  });

  it('a failure to store one leaves the completion standing, and the next list issues it', async () => {
    const { deps, store, deferred } = setup();
    for (const code of ICS.courses.slice(0, -1)) await completeCourse(deps, code, '2026-10-01');
    store.failProgrammeWrites = true;
    const { certifications } = await completeCourse(deps, ICS.courses.at(-1)!, '2026-10-02');
    expect(certifications.map((c) => c.kind)).toEqual(['course']);
    expect(deferred).toEqual([new Error('table unavailable')]);
    store.failProgrammeWrites = false;
    const list = await listCertifications(ana, { limit: 50 }, deps);
    expect(list.data.filter((c) => c.kind === 'programme').map((c) => c.achievement_code)).toEqual([ICS.id]);
    // Issued once: a second list finds it held.
    await listCertifications(ana, { limit: 50 }, deps);
    expect(store.programmeCredentials.get('u-ana')).toHaveLength(1);
  });
});

describe('listing and revoking certifications', () => {
  it('lists newest first (ties by id), filters by status and pages with a cursor bound to the filter', async () => {
    const { deps } = setup();
    const times = ['2026-01-01T12:00:00Z', '2026-03-01T12:00:00Z', '2026-03-01T12:00:00Z', '2023-12-01T12:00:00Z'];
    const codes = ['IS-22', 'IS-909', 'IS-9', 'IS-230.e'];
    for (const [i, code] of codes.entries()) {
      const at = new Date(times[i]!);
      await completeCourse({ ...deps, now: at }, code, times[i]!.slice(0, 10));
    }
    const all = await listCertifications(ana, { limit: 10 }, deps);
    // IS-909 and IS-9 share an issue time; the lower id (issued first) comes first.
    expect(all.data.map((c) => c.achievement_code)).toEqual(['IS-909', 'IS-9', 'IS-22', 'IS-230.e']);
    expect(all.data.map((c) => c.status)).toEqual(['active', 'active', 'active', 'expiring']);
    expect(all.next_cursor).toBeNull();
    expect(all.data[0]).toMatchObject({ issuer: issuer.name, verification_url: `${issuer.id}/certifications/${all.data[0]!.certification_id}/verify` });

    const first = await listCertifications(ana, { limit: 2 }, deps);
    expect(first.data.map((c) => c.achievement_code)).toEqual(['IS-909', 'IS-9']);
    const second = await listCertifications(ana, { limit: 2, cursor: first.next_cursor! }, deps);
    expect(second.data.map((c) => c.achievement_code)).toEqual(['IS-22', 'IS-230.e']);
    expect(second.next_cursor).toBeNull();

    const expiring = await listCertifications(ana, { limit: 10, status: 'expiring' }, deps);
    expect(expiring.data.map((c) => c.achievement_code)).toEqual(['IS-230.e']);
    const activePage = await listCertifications(ana, { limit: 1, status: 'active' }, deps);
    // A cursor naming the very first certification pages on from it.
    const one = await listCertifications(ana, { limit: 1 }, deps);
    expect((await listCertifications(ana, { limit: 1, cursor: one.next_cursor! }, deps)).data.map((c) => c.achievement_code)).toEqual(['IS-9']);
    // A cursor issued for one filter does not page another.
    await expect(listCertifications(ana, { limit: 1, cursor: activePage.next_cursor! }, deps)).rejects.toThrow();
    await expect(listCertifications(ana, { limit: 1, status: 'active', cursor: 'garbage' }, deps)).rejects.toThrow();
  });

  it('lets the holder or an administrator revoke once, and hides others\' credentials', async () => {
    const { deps, store } = setup();
    const { certifications: [c] } = await completeCourse(deps, 'IS-9', '2026-10-01');
    const id = c!.certification_id;
    await expect(revokeCertification({ ...ana, user_id: 'u-mallory' }, id, 'x', deps)).rejects.toMatchObject({ code: 'not_found', message: `No certification ${id} of yours.` });
    await expect(revokeCertification(ana, 'cert_none', 'x', deps)).rejects.toMatchObject({ code: 'not_found' });
    const revoked = await revokeCertification({ user_id: 'u-admin', name: 'Admin', role: 'admin' }, id, 'issued in error', deps);
    expect(revoked).toMatchObject({ revoked_at: '2026-11-23T15:00:00.000Z', revocation_reason: 'issued in error' });
    await expect(revokeCertification(ana, id, 'again', deps)).rejects.toMatchObject({ code: 'conflict', message: `Certification ${id} was already revoked on 2026-11-23T15:00:00.000Z.` });

    const { certifications: [d] } = await completeCourse(deps, 'IS-22', '2026-10-01');
    store.revokeCredential = async () => false;
    await expect(revokeCertification(ana, d!.certification_id, 'x', deps)).rejects.toMatchObject({ code: 'conflict', message: `Certification ${d!.certification_id} was revoked by another request.` });
    expect(new TrainingError('conflict', 'm').name).toBe('TrainingError');
  });
});
