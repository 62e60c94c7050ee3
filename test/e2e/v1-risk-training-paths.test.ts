import * as jose from 'jose';
import { startTestApp } from '../helpers/local-app';
import { registerAndLogin, type V1User } from '../helpers/v1-user';

/** The resident's and the staff member's paths over HTTP, through the local gateway's bearer step. */
let app: Awaited<ReturnType<typeof startTestApp>>;
let resident: V1User;
let staff: V1User;

beforeAll(async () => {
  app = await startTestApp({ backgroundWorkers: false });
  resident = await registerAndLogin(app.request, { role: 'resident', name: 'Rosa Resident' });
  staff = await registerAndLogin(app.request, { role: 'staff', name: 'Sam Staff', organization: 'Monroe County' });
});
afterAll(async () => app?.stop());

describe('a resident: risk at my address, then my kit', () => {
  it('answers the county risk for a point and a printable kit', async () => {
    const risk = await app.request('GET', '/v1/risks/calculate?lat=25.7907&lon=-80.13&hazards=HRCN,CFLD', { headers: resident.headers });
    expect(risk.status).toBe(200);
    expect(risk.json.location).toMatchObject({ county_name: 'Miami-Dade', coastal: true });
    expect(risk.headers.get('ratelimit-limit')).not.toBeNull();
    const kit = await app.request('GET', '/v1/supplies/generate?adults=2&children=1&pets=1&hazard=hurricane', { headers: resident.headers });
    expect(kit.json.totals.water_gallons).toBe(21);
    const pdf = await fetch(`${app.baseUrl}/v1/supplies/generate?adults=2&format=pdf`, { headers: resident.headers });
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    expect(Buffer.from(await pdf.arrayBuffer()).subarray(0, 5).toString('latin1')).toBe('%PDF-');
  });

  it('refuses the training routes to a resident with 403 insufficient_scope, without counting them against the hourly limit', async () => {
    const kit = (n: number) => app.request('GET', `/v1/supplies/generate?adults=${n}`, { headers: resident.headers });
    const before = Number((await kit(1)).headers.get('ratelimit-remaining'));
    for (const [method, route, json] of [
      ['GET', '/v1/courses', undefined], ['POST', '/v1/courses/enroll', { course_code: 'IS-393.b' }], ['GET', '/v1/courses/enrollments', undefined], ['GET', '/v1/certifications', undefined],
    ] as const) {
      const refused = await app.request(method, route, { headers: resident.headers, json });
      expect(refused.status).toBe(403);
      expect(refused.json.code).toBe('insufficient_scope');
      expect(refused.json.detail).toContain('resident');
      expect(refused.headers.get('www-authenticate')).toBe('Bearer error="insufficient_scope"');
    }
    expect(Number((await kit(2)).headers.get('ratelimit-remaining'))).toBe(before - 1);
    // The same routes answer a staff member, and verification stays public.
    expect((await app.request('GET', '/v1/courses?limit=1', { headers: staff.headers })).status).toBe(200);
  });

  it('refuses a missing or tampered token with 401 invalid_token', async () => {
    const none = await app.request('GET', '/v1/risks/calculate?county=Monroe');
    expect(none.status).toBe(401);
    expect(none.json.code).toBe('invalid_token');
    const [h, p] = resident.access_token.split('.');
    const forged = await app.request('GET', '/v1/hazards/location?lat=24.55&lon=-81.78', { headers: { Authorization: `Bearer ${h}.${p}.AAAA` } });
    expect(forged.status).toBe(401);
  });
});

describe('a staff member: enrol, complete, verify the credential', () => {
  it('issues a credential that verifies with the served JWKS and is verifiable without a token', async () => {
    const enrolled = await app.request('POST', '/v1/courses/enroll', { headers: { ...staff.headers, 'Idempotency-Key': 'staff-is-393b-01' }, json: { course_code: 'IS-393.b' } });
    expect(enrolled.status).toBe(201);
    const complete = (json: object) => app.request('POST', `/v1/courses/enrollments/${enrolled.json.enrollment_id}/complete`, { headers: staff.headers, json });
    // The holder is the account's profile name: a name in the request is no field of it.
    for (const field of ['holder_name', 'name']) {
      const named = await complete({ completed_on: '2026-10-01', [field]: 'Dr. Certified Expert' });
      expect([named.status, named.json.code]).toEqual([400, 'invalid_request']);
    }
    const done = await complete({ completed_on: '2026-10-01' });
    expect(done.status).toBe(200);
    const credential = done.json.certifications[0];
    expect(credential.attestation).toBe('self_reported');
    const jwks = await app.request('GET', '/v1/.well-known/jwks.json');
    const { payload } = await jose.jwtVerify(credential.credential_jwt, jose.createLocalJWKSet(jwks.json), { issuer: `${app.baseUrl}/v1`, algorithms: ['ES256'] });
    expect(payload).toMatchObject({ credentialSubject: { name: 'Sam Staff' }, evidence: [{ name: 'self_reported' }] });
    const verify = await app.request('GET', new URL(credential.verification_url).pathname.replace(/^\/api/, ''));
    // Issued by this API and current, but what it attests is the holder's own report: never called verified.
    expect(verify.json).toMatchObject({ valid: true, status: 'active', signature_valid: true, attestation: 'self_reported', holder_name: 'Sam Staff' });
    expect(verify.text).not.toMatch(/verified/i);
    expect(verify.text).not.toContain(staff.email);
  });
});
