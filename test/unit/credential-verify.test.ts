import { generateKeyPairSync, sign } from 'node:crypto';
import * as jose from 'jose';
import { decodeJwtClaims, derToJoseSignature, signJwt, type CredentialSigner, type PublicJwk } from '../../shared/domain/credentials/jws';
import { issueCredential, openBadgeClaims, type CredentialRecord } from '../../shared/domain/credentials/open-badge';
import { jwtSignatureValid, verificationAnswer } from '../../shared/domain/credentials/verify';

/**
 * The public verification of a certification and the JWT pieces under it. Tokens are built here
 * with Node's own ES256 signer (IEEE P1363 signatures) and checked against jose, independently of
 * the code under test.
 */

function keyPair(kid: string) {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const jwk = { ...(publicKey.export({ format: 'jwk' }) as { kty: 'EC'; crv: 'P-256'; x: string; y: string }), kid, alg: 'ES256' as const, use: 'sig' as const };
  const signer: CredentialSigner = {
    publicJwk: async () => jwk,
    sign: async (input) => sign('sha256', input, { key: privateKey, dsaEncoding: 'ieee-p1363' }),
  };
  return { jwk: jwk as PublicJwk, signer, privateKey };
}

const b64 = (value: unknown) => Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString('base64url');

function handMadeToken(header: unknown, claims: unknown, privateKey: ReturnType<typeof keyPair>['privateKey']): string {
  const input = `${b64(header)}.${b64(claims)}`;
  return `${input}.${sign('sha256', Buffer.from(input), { key: privateKey, dsaEncoding: 'ieee-p1363' }).toString('base64url')}`;
}

const issuer = { id: 'https://api.example.test/api/v1', name: 'Vulnerability Assessment Compliance API' };
const policy = { validity_years: 3, expiring_within_days: 90 };
const base: Omit<CredentialRecord, 'credential_jwt' | 'revoked_at' | 'revocation_reason'> = {
  certification_id: 'cert_7d0f3c1e-2b4a-4c6d-8e9f-0a1b2c3d4e5f',
  kind: 'course',
  achievement_code: 'IS-100.C',
  name: 'Introduction to the Incident Command System',
  description: 'FEMA independent study course.',
  holder_name: 'Ana B.',
  holder_id: '11111111-2222-4333-8444-555555555555',
  issued_at: '2026-03-02T14:30:00.000Z',
  valid_from: '2026-03-02',
  expires_at: '2029-03-02T00:00:00.000Z',
  certificate_number: 'IS-100.C-0042',
};

describe('JWT signature check', () => {
  const { jwk, signer, privateKey } = keyPair('k1');
  const other = keyPair('k2');

  it('accepts a token signed by the key its kid names, among several keys', async () => {
    const token = await signJwt({ a: 1 }, signer);
    await expect(jose.jwtVerify(token, await jose.importJWK(jwk, 'ES256'))).resolves.toBeDefined();
    expect(jwtSignatureValid(token, [other.jwk, jwk])).toBe(true);
  });

  it('refuses a changed payload, another key under the same kid, an unknown kid, another alg and broken shapes', async () => {
    const token = await signJwt({ a: 1 }, signer);
    const [h, , s] = token.split('.');
    expect(jwtSignatureValid(`${h}.${b64({ a: 2 })}.${s}`, [jwk])).toBe(false);
    expect(jwtSignatureValid(token, [{ ...other.jwk, kid: 'k1' }])).toBe(false);
    expect(jwtSignatureValid(token, [other.jwk])).toBe(false);
    expect(jwtSignatureValid(token, [])).toBe(false);
    expect(jwtSignatureValid(handMadeToken({ alg: 'ES384', kid: 'k1' }, { a: 1 }, privateKey), [jwk])).toBe(false);
    expect(jwtSignatureValid(handMadeToken({ alg: 'ES256', kid: 'k1' }, { a: 1 }, privateKey), [jwk])).toBe(true);
    expect(jwtSignatureValid(`${token}.extra`, [jwk])).toBe(false);
    expect(jwtSignatureValid(token.split('.').slice(0, 2).join('.'), [jwk])).toBe(false);
    expect(jwtSignatureValid(`${b64('not json')}.${b64({ a: 1 })}.${s}`, [jwk])).toBe(false);
  });
});

describe('claims of a compact JWT', () => {
  it('reads an object payload and nothing else', () => {
    expect(decodeJwtClaims(`${b64({})}.${b64({ jti: 'x' })}.sig`)).toEqual({ jti: 'x' });
    expect(decodeJwtClaims(`${b64({})}.${b64([1])}.sig`)).toBeUndefined();
    expect(decodeJwtClaims(`${b64({})}.${b64('null')}.sig`)).toBeUndefined();
    expect(decodeJwtClaims(`${b64({})}.${b64('7')}.sig`)).toBeUndefined();
    expect(decodeJwtClaims(`${b64({})}.${b64('{oops')}.sig`)).toBeUndefined();
    expect(decodeJwtClaims(`${b64({})}.${b64({ jti: 'x' })}`)).toBeUndefined();
    expect(decodeJwtClaims(`${b64({})}.${b64({ jti: 'x' })}.sig.more`)).toBeUndefined();
  });
});

describe('DER signatures, byte by byte', () => {
  const int = (bytes: number[]) => [0x02, bytes.length, ...bytes];
  const seq = (body: number[]) => [0x30, body.length, ...body];
  const der = (...bytes: number[]) => Uint8Array.from(bytes);

  it('pads short integers, drops the sign byte and leading zeros', () => {
    const out = derToJoseSignature(der(...seq([...int([0x00, 0x80, 0x01]), ...int([0x00, 0x00, 0x05])])), 4);
    expect([...out]).toEqual([0, 0, 0x80, 0x01, 0, 0, 0, 0x05]);
    // A zero integer stays one zero byte, padded.
    expect([...derToJoseSignature(der(...seq([...int([0x00]), ...int([0x07])])), 2)]).toEqual([0, 0, 0, 7]);
  });

  it('reads long-form lengths of one and two bytes', () => {
    const body = [...int(Array(32).fill(1)), ...int(Array(32).fill(2))];
    expect(body.length).toBe(68);
    const expected = [...Array(32).fill(1), ...Array(32).fill(2)];
    expect([...derToJoseSignature(der(0x30, 0x81, body.length, ...body))]).toEqual(expected);
    expect([...derToJoseSignature(der(0x30, 0x82, 0x00, body.length, ...body))]).toEqual(expected);
  });

  it('refuses each malformed form with its reason', () => {
    const good = seq([...int([1]), ...int([2])]);
    expect(() => derToJoseSignature(der(0x31, ...good.slice(1)))).toThrow('no SEQUENCE');
    expect(() => derToJoseSignature(der(0x30))).toThrow('truncated');
    expect(() => derToJoseSignature(der(0x30, 0x80))).toThrow('length form');
    expect(() => derToJoseSignature(der(0x30, 0x83, 0, 0, 6))).toThrow('length form');
    expect(() => derToJoseSignature(der(0x30, 0x82, 0x00))).toThrow('truncated');
    expect(() => derToJoseSignature(der(...good, 0x00))).toThrow('SEQUENCE length');
    expect(() => derToJoseSignature(der(0x30, good.length - 2, ...good.slice(2, -2), 0x00, 0x00))).toThrow();
    expect(() => derToJoseSignature(der(...seq([0x03, 1, 1, ...int([2])])))).toThrow('no INTEGER');
    expect(() => derToJoseSignature(der(...seq([0x02, 0, ...int([2])])))).toThrow('INTEGER length');
    expect(() => derToJoseSignature(der(...seq([0x02, 5, 1, ...int([2])])))).toThrow('INTEGER length');
    expect(() => derToJoseSignature(der(...seq([...int([1, 2, 3]), ...int([2])])), 2)).toThrow('INTEGER too large');
    expect(() => derToJoseSignature(der(...seq([...int([1]), ...int([2]), 0x05, 0x00])))).toThrow('trailing bytes');
  });

  it('a signer answering anything but 64 bytes is refused', async () => {
    const signer: CredentialSigner = { publicJwk: async () => keyPair('k').jwk, sign: async () => new Uint8Array(63) };
    await expect(signJwt({}, signer)).rejects.toThrow('An ES256 signature is 64 bytes');
  });
});

describe('Open Badges credential', () => {
  it('states the achievement, the holder by an opaque id, and the validity in the JWT claims', () => {
    const claims = openBadgeClaims(base, issuer);
    expect(claims).toMatchObject({
      id: 'urn:uuid:7d0f3c1e-2b4a-4c6d-8e9f-0a1b2c3d4e5f',
      type: ['VerifiableCredential', 'OpenBadgeCredential'],
      issuer: { id: issuer.id, type: ['Profile'], name: issuer.name },
      validFrom: '2026-03-02T00:00:00Z',
      validUntil: '2029-03-02T00:00:00.000Z',
      credentialSubject: {
        id: 'urn:uuid:11111111-2222-4333-8444-555555555555',
        type: ['AchievementSubject'],
        name: 'Ana B.',
        narrative: 'Completion reported by the holder; the course provider has not confirmed it.',
        achievement: {
          id: `${issuer.id}/achievements/course/IS-100.C`,
          type: ['Achievement'],
          achievementType: 'Course',
          criteria: { narrative: 'Completion of IS-100.C recorded by the holder on 2026-03-02.' },
        },
      },
      evidence: [
        { type: ['Evidence'], name: 'self_reported', narrative: 'Completion reported by the holder; the course provider has not confirmed it.' },
        { type: ['Evidence'], name: 'Certificate number (as reported by the holder)', description: 'IS-100.C-0042' },
      ],
      credentialStatus: { id: `${issuer.id}/certifications/cert_7d0f3c1e-2b4a-4c6d-8e9f-0a1b2c3d4e5f/verify`, type: 'VerificationEndpoint' },
      iss: issuer.id,
      sub: 'urn:uuid:11111111-2222-4333-8444-555555555555',
      jti: 'urn:uuid:7d0f3c1e-2b4a-4c6d-8e9f-0a1b2c3d4e5f',
      iat: Date.UTC(2026, 2, 2, 14, 30) / 1000,
      nbf: Date.UTC(2026, 2, 2) / 1000,
      exp: Date.UTC(2029, 2, 2) / 1000,
    });
    expect(claims['@context']).toEqual(['https://www.w3.org/ns/credentials/v2', 'https://purl.imsglobal.org/spec/ob/v3p0/context-3.0.3.json']);
  });

  it('names a programme a certificate, and says it is self-reported also without a certificate number', () => {
    const claims = openBadgeClaims({ ...base, kind: 'programme', achievement_code: 'prep/basics', certificate_number: null }, issuer);
    expect(claims.credentialSubject.achievement).toMatchObject({
      id: `${issuer.id}/achievements/programme/prep%2Fbasics`,
      achievementType: 'Certificate',
      criteria: { narrative: 'Completion of every course of the programme, the last on 2026-03-02.' },
    });
    expect(claims.evidence).toEqual([{ type: ['Evidence'], name: 'self_reported', narrative: 'Completion reported by the holder; the course provider has not confirmed it.' }]);
    expect(JSON.stringify(claims)).not.toMatch(/verified/i);
  });
});

describe('public verification answer', () => {
  const { jwk, signer, privateKey } = keyPair('k1');
  const at = (iso: string) => new Date(iso);

  it('is valid while active or expiring, with a valid signature, says self_reported, and shows no personal data but the name', async () => {
    const record = await issueCredential(base, issuer, signer);
    await expect(jose.jwtVerify(record.credential_jwt, await jose.importJWK(jwk, 'ES256'))).resolves.toBeDefined();
    const active = verificationAnswer(record, [jwk], issuer.name, at('2027-01-01T00:00:00Z'), policy);
    expect(active).toEqual({
      valid: true, status: 'active', signature_valid: true, attestation: 'self_reported', certification_id: base.certification_id, name: base.name, kind: 'course',
      holder_name: 'Ana B.', issuer: issuer.name, issued_at: base.issued_at, valid_from: base.valid_from, expires_at: base.expires_at, revoked_at: null,
    });
    // Nothing in the answer calls the completion verified.
    expect(JSON.stringify(active)).not.toMatch(/verified/i);
    expect(verificationAnswer(record, [jwk], issuer.name, at('2029-01-01T00:00:00Z'), policy)).toMatchObject({ valid: true, status: 'expiring' });
    expect(verificationAnswer(record, [jwk], issuer.name, at('2029-03-02T00:00:00Z'), policy)).toMatchObject({ valid: false, status: 'expired', signature_valid: true });
    expect(verificationAnswer({ ...record, revoked_at: '2027-01-01T00:00:00Z' }, [jwk], issuer.name, at('2027-06-01T00:00:00Z'), policy))
      .toMatchObject({ valid: false, status: 'revoked', signature_valid: true, revoked_at: '2027-01-01T00:00:00Z' });
  });

  it('is invalid when the signature fails or the signed credential is another certification', async () => {
    const record = await issueCredential(base, issuer, signer);
    const now = at('2027-01-01T00:00:00Z');
    expect(verificationAnswer(record, [keyPair('k1').jwk], issuer.name, now, policy)).toMatchObject({ valid: false, status: 'active', signature_valid: false });
    // Genuinely signed, but for another id: the record's id must end the signed jti.
    expect(verificationAnswer({ ...record, certification_id: 'cert_00000000-0000-4000-8000-000000000000' }, [jwk], issuer.name, now, policy))
      .toMatchObject({ valid: false, signature_valid: false });
    // The id at the start of the jti, not at its end, is no match either.
    const prefixed = handMadeToken({ alg: 'ES256', kid: 'k1' }, { jti: `${base.certification_id.slice(5)}:other` }, privateKey);
    expect(verificationAnswer({ ...record, credential_jwt: prefixed }, [jwk], issuer.name, now, policy)).toMatchObject({ valid: false, signature_valid: false });
    const numericJti = handMadeToken({ alg: 'ES256', kid: 'k1' }, { jti: 7 }, privateKey);
    expect(verificationAnswer({ ...record, certification_id: 'cert_7', credential_jwt: numericJti }, [jwk], issuer.name, now, policy))
      .toMatchObject({ valid: false, signature_valid: false });
    const suffixed = handMadeToken({ alg: 'ES256', kid: 'k1' }, { jti: `urn:uuid:${base.certification_id.slice(5)}` }, privateKey);
    expect(verificationAnswer({ ...record, credential_jwt: suffixed }, [jwk], issuer.name, now, policy)).toMatchObject({ valid: true, signature_valid: true });
  });
});
