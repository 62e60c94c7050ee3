import path from 'node:path';
import * as jose from 'jose';
import { readCsvRows } from '../helpers/v1-risk-csv';
import { startV1Harness, testUser } from '../helpers/v1-training-harness';
import { floridaToday } from '../helpers/florida-date';

const catalogue = readCsvRows(path.join(__dirname, '../../shared/data/v1/courses/courses.csv'));

let harness: Awaited<ReturnType<typeof startV1Harness>>;
beforeAll(async () => {
  harness = await startV1Harness(() => import('../../functions/v1-training/handler'));
});
afterAll(async () => harness?.stop());

const invoke = (...args: Parameters<typeof harness.invoke>) => harness.invoke(...args);
const today = () => floridaToday();

async function enrolAndComplete(user: ReturnType<typeof testUser>, code: string, completedOn = today(), certificateNumber?: string) {
  const enrolled = await invoke('POST', '/v1/courses/enroll', { user, json: { course_code: code } });
  expect(enrolled.status).toBe(201);
  const completed = await invoke('POST', `/v1/courses/enrollments/${enrolled.json.enrollment_id}/complete`, {
    user, json: { completed_on: completedOn, ...(certificateNumber ? { certificate_number: certificateNumber } : {}) },
  });
  expect(completed.status).toBe(200);
  return completed.json;
}

describe('GET /v1/courses', () => {
  it('pages through the 34 courses with a cursor, each row verified only where its hours are confirmed', async () => {
    const user = testUser();
    const seen: any[] = [];
    let cursor: string | null = null;
    do {
      const res = await invoke('GET', `/v1/courses?limit=10${cursor ? `&cursor=${cursor}` : ''}`, { user });
      expect(res.status).toBe(200);
      seen.push(...res.json.data);
      cursor = res.json.next_cursor;
    } while (cursor);
    expect(seen.map((c) => c.code)).toEqual(catalogue.map((r) => r.code));
    const unverified = catalogue.filter((r) => r.evidence!.startsWith('unverified')).map((r) => r.code);
    expect(unverified).toHaveLength(23);
    for (const code of unverified) expect(seen.find((c) => c.code === code).verified).toBe(false);
    // Only the first two rows name the hours among what was verified.
    expect(seen.filter((c) => c.verified).map((c) => c.code)).toEqual(['IS-100.c', 'IS-200.c']);
    expect(seen.every((c) => c.enrolled === false)).toBe(true);
  });

  it('filters by topic, provider and words, and refuses a cursor from another filter', async () => {
    const user = testUser();
    const floodplain = await invoke('GET', '/v1/courses?topic=floodplain&limit=3', { user });
    expect(floodplain.json.data.map((c: any) => c.code)).toEqual(catalogue.filter((r) => r.topic === 'floodplain').slice(0, 3).map((r) => r.code));
    const words = await invoke('GET', '/v1/courses?q=benefit%20cost', { user });
    expect(words.json.data.map((c: any) => c.code)).toEqual(['IS-276.a']);
    const provider = await invoke('GET', '/v1/courses?provider=FDEM', { user });
    expect(provider.json.data.map((c: any) => c.code)).toEqual(catalogue.filter((r) => r.provider!.includes('FDEM')).map((r) => r.code));
    const foreign = await invoke('GET', `/v1/courses?topic=mitigation&cursor=${floodplain.json.next_cursor}`, { user });
    expect(foreign.json).toMatchObject({ status: 400, code: 'invalid_request' });
    expect((await invoke('GET', '/v1/courses?topic=cooking', { user })).status).toBe(400);
  });
});

describe('enrolment and completion', () => {
  it('enforces prerequisites, refuses a second enrolment and replays an idempotent one', async () => {
    const user = testUser();
    const early = await invoke('POST', '/v1/courses/enroll', { user, json: { course_code: 'IS-200.c' } });
    expect(early.json).toMatchObject({ status: 409, code: 'prerequisites_not_met', missing_prerequisites: ['IS-100.c'] });

    const headers = { 'Idempotency-Key': 'enrol-is100-0001' };
    const first = await invoke('POST', '/v1/courses/enroll', { user, json: { course_code: 'is-100.C' }, headers });
    expect(first.status).toBe(201);
    expect(first.json).toMatchObject({ course_code: 'IS-100.c', status: 'enrolled', external_url: 'https://training.fema.gov/is/courseoverview.aspx?code=IS-100.c' });
    const replay = await invoke('POST', '/v1/courses/enroll', { user, json: { course_code: 'is-100.C' }, headers });
    expect(replay.status).toBe(201);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.json.enrollment_id).toBe(first.json.enrollment_id);
    const reused = await invoke('POST', '/v1/courses/enroll', { user, json: { course_code: 'IS-700.b' }, headers });
    expect(reused.json).toMatchObject({ status: 422, code: 'idempotency_key_reused' });
    // The same key of another user is another key.
    const other = await invoke('POST', '/v1/courses/enroll', { user: testUser({ account_id: user.account_id }), json: { course_code: 'is-100.C' }, headers });
    expect(other.status).toBe(201);
    expect(other.json.enrollment_id).not.toBe(first.json.enrollment_id);

    const again = await invoke('POST', '/v1/courses/enroll', { user, json: { course_code: 'IS-100.c' } });
    expect(again.json).toMatchObject({ status: 409, code: 'already_enrolled', enrollment_id: first.json.enrollment_id });
    expect((await invoke('POST', '/v1/courses/enroll', { user, json: { course_code: 'IS-9999' } })).json).toMatchObject({ status: 404, code: 'not_found' });
    expect((await invoke('POST', '/v1/courses/enroll', { user, json: { course_code: 'IS-100.c', extra: 1 } })).status).toBe(400);

    const courses = await invoke('GET', '/v1/courses?q=IS-100.c', { user });
    expect(courses.json.data[0]).toMatchObject({ code: 'IS-100.c', enrolled: true });
  });

  it('records a completion once, with its date and certificate number, then lets the next course in', async () => {
    const user = testUser();
    const enrolled = await invoke('POST', '/v1/courses/enroll', { user, json: { course_code: 'IS-100.c' } });
    const id = enrolled.json.enrollment_id;
    const future = await invoke('POST', `/v1/courses/enrollments/${id}/complete`, { user, json: { completed_on: '2999-01-01' } });
    expect(future.json).toMatchObject({ status: 400, code: 'invalid_request' });
    const stranger = await invoke('POST', `/v1/courses/enrollments/${id}/complete`, { user: testUser(), json: { completed_on: today() } });
    expect(stranger.json).toMatchObject({ status: 404, code: 'not_found' });

    const done = await invoke('POST', `/v1/courses/enrollments/${id}/complete`, { user, json: { completed_on: '2026-03-02', certificate_number: 'IS-100.c-0042' } });
    expect(done.status).toBe(200);
    expect(done.json.enrollment).toMatchObject({ status: 'completed', completed_on: '2026-03-02', certificate_number: 'IS-100.c-0042' });
    expect(done.json.certifications).toHaveLength(1);
    expect(done.json.certifications[0]).toMatchObject({ kind: 'course', achievement_code: 'IS-100.c', status: 'active', valid_from: '2026-03-02', expires_at: '2029-03-02T00:00:00.000Z' });

    const twice = await invoke('POST', `/v1/courses/enrollments/${id}/complete`, { user, json: { completed_on: '2026-03-02' } });
    expect(twice.json).toMatchObject({ status: 409, code: 'conflict' });

    expect((await invoke('POST', '/v1/courses/enroll', { user, json: { course_code: 'IS-200.c' } })).status).toBe(201);
    const list = await invoke('GET', '/v1/courses/enrollments', { user });
    expect(list.json.data.map((e: any) => [e.course_code, e.status])).toEqual([['IS-200.c', 'enrolled'], ['IS-100.c', 'completed']]);
    expect(list.json.data[1].certification_id).toBe(done.json.certifications[0].certification_id);
  });
});

describe('concurrent requests', () => {
  it('records one enrolment and one completion when the same request races itself', async () => {
    const user = testUser();
    const enrolments = await Promise.all([1, 2, 3].map(() => invoke('POST', '/v1/courses/enroll', { user, json: { course_code: 'IS-22' } })));
    expect(enrolments.map((r) => r.status).sort()).toEqual([201, 409, 409]);
    const id = enrolments.find((r) => r.status === 201)!.json.enrollment_id;
    const completions = await Promise.all([1, 2, 3].map(() => invoke('POST', `/v1/courses/enrollments/${id}/complete`, { user, json: { completed_on: today() } })));
    expect(completions.map((r) => r.status).sort()).toEqual([200, 409, 409]);
    const certifications = await invoke('GET', '/v1/certifications', { user });
    expect(certifications.json.data).toHaveLength(1);
  });
});

describe('certifications', () => {
  it('issues the programme credential when its last course is completed, and filters by status', async () => {
    const user = testUser();
    const threeYearsAgo = new Date();
    threeYearsAgo.setUTCFullYear(threeYearsAgo.getUTCFullYear() - 3);
    const expiringFrom = new Date(threeYearsAgo.getTime() + 30 * 86_400_000).toISOString().slice(0, 10);
    await enrolAndComplete(user, 'IS-100.c', '2020-05-01');
    await enrolAndComplete(user, 'IS-700.b', expiringFrom);
    await enrolAndComplete(user, 'IS-800.d', today());
    const last = await enrolAndComplete(user, 'IS-200.c', today());
    expect(last.certifications.map((c: any) => [c.kind, c.achievement_code])).toEqual([['course', 'IS-200.c'], ['programme', 'ics-nims-baseline']]);
    expect(last.certifications[1]).toMatchObject({ name: 'ICS/NIMS baseline', valid_from: today(), status: 'active' });

    const all = await invoke('GET', '/v1/certifications', { user });
    expect(all.json.data).toHaveLength(5);
    const byStatus = async (status: string) => (await invoke('GET', `/v1/certifications?status=${status}`, { user })).json.data.map((c: any) => c.achievement_code);
    expect(await byStatus('expired')).toEqual(['IS-100.c']);
    expect(await byStatus('expiring')).toEqual(['IS-700.b']);
    expect((await byStatus('active')).sort()).toEqual(['IS-200.c', 'IS-800.d', 'ics-nims-baseline']);
    const page = await invoke('GET', '/v1/certifications?limit=2', { user });
    const rest = await invoke('GET', `/v1/certifications?limit=10&cursor=${page.json.next_cursor}`, { user });
    expect([...page.json.data, ...rest.json.data].map((c: any) => c.certification_id)).toEqual(all.json.data.map((c: any) => c.certification_id));
    expect(rest.json.next_cursor).toBeNull();
    // A cursor of another filter, or not a cursor at all, is refused rather than misread.
    expect((await invoke('GET', `/v1/certifications?status=active&cursor=${page.json.next_cursor}`, { user })).json).toMatchObject({ status: 400, code: 'invalid_request' });
    expect((await invoke('GET', '/v1/certifications?cursor=bm90LWEtY3Vyc29y', { user })).json).toMatchObject({ status: 400, code: 'invalid_request' });
  });

  it('verifies with the served JWKS (jose), fails a tampered token, and reports a revoked one', async () => {
    const user = testUser({ name: 'Dana Planner', email: 'dana.planner@example.org' });
    const done = await enrolAndComplete(user, 'IS-393.b', today(), 'IS393-77');
    const credential = done.certifications[0];

    const jwksAnswer = await invoke('GET', '/v1/.well-known/jwks.json');
    expect(jwksAnswer.status).toBe(200);
    const keys = jose.createLocalJWKSet(jwksAnswer.json);
    const { payload, protectedHeader } = await jose.jwtVerify(credential.credential_jwt, keys, { issuer: `${harness.baseUrl}/v1`, algorithms: ['ES256'] });
    expect(protectedHeader).toMatchObject({ alg: 'ES256', typ: 'vc+jwt' });
    expect(payload.type).toEqual(['VerifiableCredential', 'OpenBadgeCredential']);
    expect(payload).toMatchObject({ credentialSubject: { name: 'Dana Planner', achievement: { name: credential.name } }, validUntil: credential.expires_at });
    expect(JSON.stringify(payload)).not.toContain('dana.planner@example.org');

    // Change one claim and keep the signature: jose must refuse it.
    const [header, body, signature] = credential.credential_jwt.split('.');
    const forged = { ...JSON.parse(Buffer.from(body, 'base64url').toString('utf8')), name: 'Certified Floodplain Manager' };
    const tampered = `${header}.${Buffer.from(JSON.stringify(forged)).toString('base64url')}.${signature}`;
    await expect(jose.jwtVerify(tampered, keys, { algorithms: ['ES256'] })).rejects.toThrow(jose.errors.JWSSignatureVerificationFailed);

    const verify = await invoke('GET', `/v1/certifications/${credential.certification_id}/verify`);
    expect(verify.status).toBe(200);
    expect(verify.json).toMatchObject({ valid: true, status: 'active', signature_valid: true, attestation: 'self_reported', holder_name: 'Dana Planner', name: credential.name });
    expect(verify.body).not.toContain('dana.planner@example.org');
    expect(verify.body).not.toContain(user.user_id);
    expect(verify.body).not.toContain('IS393-77');

    const foreign = await invoke('POST', `/v1/certifications/${credential.certification_id}/revoke`, { user: testUser(), json: { reason: 'not mine' } });
    expect(foreign.json).toMatchObject({ status: 404, code: 'not_found' });
    const revoked = await invoke('POST', `/v1/certifications/${credential.certification_id}/revoke`, { user, json: { reason: 'Recorded in error' } });
    expect(revoked.json).toMatchObject({ valid: false, status: 'revoked' });
    expect((await invoke('GET', `/v1/certifications/${credential.certification_id}/verify`)).json).toMatchObject({ valid: false, status: 'revoked', signature_valid: true, attestation: 'self_reported' });
    expect((await invoke('POST', `/v1/certifications/${credential.certification_id}/revoke`, { user, json: { reason: 'again' } })).json).toMatchObject({ status: 409 });
    // The signature still verifies: revocation is the issuer's statement, answered by the verify route.
    await expect(jose.jwtVerify(credential.credential_jwt, keys, { algorithms: ['ES256'] })).resolves.toBeDefined();

    expect((await invoke('GET', '/v1/certifications/cert_doesnotexist/verify')).json).toMatchObject({ status: 404 });
    expect((await invoke('GET', '/v1/certifications/not-an-id/verify')).json).toMatchObject({ status: 400 });
  });
});
