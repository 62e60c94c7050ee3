import { signJwt, type CredentialSigner } from './jws';

/**
 * Certifications are Open Badges 3.0 `OpenBadgeCredential`s (W3C Verifiable Credentials 2.0 data
 * model) secured as a JWT (VC-JOSE: the credential is the JWT's claims set, `iss`/`sub`/`jti`/
 * `nbf`/`exp` mirror it), signed ES256 by this service.
 */

export const CREDENTIAL_STATUSES = ['active', 'expiring', 'expired', 'revoked'] as const;
export type CredentialStatus = (typeof CREDENTIAL_STATUSES)[number];

/**
 * What a credential attests about the completion behind it. Every completion is reported by the
 * holder (`POST /v1/courses/enrollments/{id}/complete`) without confirmation from the course
 * provider, and a programme credential rests on such completions: all are `self_reported`.
 */
export const ATTESTATIONS = ['self_reported'] as const;
export type Attestation = (typeof ATTESTATIONS)[number];

export const SELF_REPORTED_NARRATIVE = 'Completion reported by the holder; the course provider has not confirmed it.';

export interface CredentialPolicy {
  validity_years: number;
  expiring_within_days: number;
}

export interface CredentialRecord {
  certification_id: string;
  kind: 'course' | 'programme';
  /** The course code or programme id the credential attests. */
  achievement_code: string;
  name: string;
  description: string;
  /** The holder's display name: the only personal data the public verification shows. */
  holder_name: string;
  holder_id: string;
  issued_at: string;
  /** YYYY-MM-DD: the completion date the validity runs from. */
  valid_from: string;
  expires_at: string;
  certificate_number: string | null;
  /** Absent on records issued before it was stored: they were self-reported too. */
  attestation?: Attestation;
  revoked_at: string | null;
  revocation_reason: string | null;
  credential_jwt: string;
}

export const ISSUER_NAME = 'Vulnerability Assessment Compliance API';

/** The end of validity: `validity_years` after the completion date (a 29 February ends on 28 February). */
export function expiryFor(validFrom: string, policy: CredentialPolicy): string {
  const [year, month, day] = validFrom.split('-').map(Number) as [number, number, number];
  const end = new Date(Date.UTC(year + policy.validity_years, month - 1, day));
  if (end.getUTCMonth() !== month - 1) end.setUTCDate(0);
  return end.toISOString();
}

export function attestationOf(record: Pick<CredentialRecord, 'attestation'>): Attestation {
  return record.attestation ?? 'self_reported';
}

export function credentialStatus(record: Pick<CredentialRecord, 'expires_at' | 'revoked_at'>, now: Date, policy: CredentialPolicy): CredentialStatus {
  if (record.revoked_at) return 'revoked';
  const remaining = Date.parse(record.expires_at) - now.getTime();
  if (remaining <= 0) return 'expired';
  return remaining <= policy.expiring_within_days * 86_400_000 ? 'expiring' : 'active';
}

export interface Issuer {
  /** `{base_url}/v1`: where the issuer's JWKS and the verification routes live. */
  id: string;
  name: string;
}

export function verificationUrl(issuer: Issuer, certificationId: string): string {
  return `${issuer.id}/certifications/${encodeURIComponent(certificationId)}/verify`;
}

/** The credential as claims; `credentialSubject.id` is an opaque URN, never the e-mail address. */
export function openBadgeClaims(record: Omit<CredentialRecord, 'credential_jwt' | 'revoked_at' | 'revocation_reason'>, issuer: Issuer) {
  const credentialId = `urn:uuid:${record.certification_id.replace(/^cert_/, '')}`;
  const subjectId = `urn:uuid:${record.holder_id}`;
  const issuedSeconds = Math.floor(Date.parse(record.issued_at) / 1000);
  const credential = {
    '@context': ['https://www.w3.org/ns/credentials/v2', 'https://purl.imsglobal.org/spec/ob/v3p0/context-3.0.3.json'],
    id: credentialId,
    type: ['VerifiableCredential', 'OpenBadgeCredential'],
    name: record.name,
    issuer: { id: issuer.id, type: ['Profile'], name: issuer.name },
    validFrom: `${record.valid_from}T00:00:00Z`,
    validUntil: record.expires_at,
    credentialSubject: {
      id: subjectId,
      type: ['AchievementSubject'],
      name: record.holder_name,
      narrative: SELF_REPORTED_NARRATIVE,
      achievement: {
        id: `${issuer.id}/achievements/${record.kind}/${encodeURIComponent(record.achievement_code)}`,
        type: ['Achievement'],
        achievementType: record.kind === 'course' ? 'Course' : 'Certificate',
        name: record.name,
        description: record.description,
        criteria: { narrative: record.kind === 'course' ? `Completion of ${record.achievement_code} recorded by the holder on ${record.valid_from}.` : `Completion of every course of the programme, the last on ${record.valid_from}.` },
      },
    },
    evidence: [
      { type: ['Evidence'], name: attestationOf(record), narrative: SELF_REPORTED_NARRATIVE },
      ...(record.certificate_number ? [{ type: ['Evidence'], name: 'Certificate number (as reported by the holder)', description: record.certificate_number }] : []),
    ],
    credentialStatus: { id: verificationUrl(issuer, record.certification_id), type: 'VerificationEndpoint' },
  };
  return {
    ...credential,
    iss: issuer.id,
    sub: subjectId,
    jti: credentialId,
    iat: issuedSeconds,
    nbf: Math.floor(Date.parse(credential.validFrom) / 1000),
    exp: Math.floor(Date.parse(record.expires_at) / 1000),
  };
}

export async function issueCredential(
  record: Omit<CredentialRecord, 'credential_jwt' | 'revoked_at' | 'revocation_reason'>,
  issuer: Issuer,
  signer: CredentialSigner,
): Promise<CredentialRecord> {
  const credential_jwt = await signJwt(openBadgeClaims(record, issuer), signer, 'vc+jwt');
  return { ...record, revoked_at: null, revocation_reason: null, credential_jwt };
}
