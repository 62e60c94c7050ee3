import { randomUUID } from 'node:crypto';
import { startTestApp } from '../helpers/local-app';
import { strongPassword } from '../helpers/v1-user';

/** `POST /v1/users/register` under an `Idempotency-Key`: a lost 201 can be retried without a 409. */
describe('registration with an Idempotency-Key', () => {
  let app: Awaited<ReturnType<typeof startTestApp>>;
  beforeAll(async () => { app = await startTestApp({ backgroundWorkers: false }); });
  afterAll(async () => { await app?.stop(); });

  const registration = () => ({ email: `retry-${randomUUID().slice(0, 10)}@example.org`, password: strongPassword(), name: 'Retrying Resident', role: 'resident' });

  it('answers the same key and body with the first response, and registers one user', async () => {
    const body = registration();
    const headers = { 'Idempotency-Key': `register-${randomUUID()}` };
    const first = await app.request('POST', '/v1/users/register', { json: body, headers });
    const again = await app.request('POST', '/v1/users/register', { json: body, headers });
    expect([first.status, again.status, again.headers.get('idempotent-replayed')]).toEqual([201, 201, 'true']);
    expect(again.json).toEqual(first.json);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    // Without the key the email is taken: there is one user, and it signs in with the first password.
    const unkeyed = await app.request('POST', '/v1/users/register', { json: body });
    expect([unkeyed.status, unkeyed.json.code]).toEqual([409, 'email_taken']);
    expect((await app.request('POST', '/v1/users/login', { json: { email: body.email, password: body.password } })).status).toBe(200);
  });

  it('refuses the same key with another body for the same email (422), and keeps the first user as it was', async () => {
    const body = registration();
    const headers = { 'Idempotency-Key': `register-${randomUUID()}` };
    const first = await app.request('POST', '/v1/users/register', { json: body, headers });
    const other = await app.request('POST', '/v1/users/register', { json: { ...body, name: 'Someone Else', role: 'staff' }, headers });
    expect([first.status, other.status, other.json.code]).toEqual([201, 422, 'idempotency_key_reused']);
    const login = await app.request('POST', '/v1/users/login', { json: { email: body.email, password: body.password } });
    const profile = await app.request('GET', '/v1/users/profile', { headers: { Authorization: `Bearer ${login.json.access_token}` } });
    expect(profile.json).toMatchObject({ user_id: first.json.user_id, name: 'Retrying Resident', role: 'resident' });
  });

  it('keeps keys per email: the same key registers another email as a user of its own', async () => {
    const headers = { 'Idempotency-Key': `register-${randomUUID()}` };
    const one = await app.request('POST', '/v1/users/register', { json: registration(), headers });
    const two = await app.request('POST', '/v1/users/register', { json: registration(), headers });
    expect([one.status, two.status, two.headers.get('idempotent-replayed')]).toEqual([201, 201, null]);
    expect(two.json.user_id).not.toBe(one.json.user_id);
  });
});
