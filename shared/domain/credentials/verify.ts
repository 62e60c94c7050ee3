import { createPublicKey, verify } from 'node:crypto';
import { decodeJwtClaims, type PublicJwk } from './jws';
import { attestationOf, credentialStatus, type CredentialPolicy, type CredentialRecord, type CredentialStatus } from './open-badge';

/** The signature of a compact ES256 JWT under one of the issuer's public keys (by `kid`). */
export function jwtSignatureValid(token: string, keys: readonly PublicJwk[]): boolean {
  const parts = token.split('.');
  if (parts.length !== 3) return false;
  let header: { alg?: unknown; kid?: unknown };
  try {
    header = JSON.parse(Buffer.from(parts[0]!, 'base64url').toString('utf8')) as typeof header;
  } catch {
    return false;
  }
  const key = keys.find((k) => k.kid === header.kid);
  if (header.alg !== 'ES256' || !key) return false;
  const { kid: _kid, alg: _alg, use: _use, ...material } = key;
  return verify('sha256', Buffer.from(`${parts[0]}.${parts[1]}`, 'ascii'), { key: createPublicKey({ key: material, format: 'jwk' }), dsaEncoding: 'ieee-p1363' }, Buffer.from(parts[2]!, 'base64url'));
}

/**
 * The public answer about a credential: whether this API issued it (its signature) and it is
 * current, and what it attests (`self_reported`: the completion is the holder's word, which the
 * answer never calls verified). It names the holder by display name only — no e-mail, user id or
 * certificate number.
 */
export function verificationAnswer(record: CredentialRecord, keys: readonly PublicJwk[], issuerName: string, now: Date, policy: CredentialPolicy) {
  const status: CredentialStatus = credentialStatus(record, now, policy);
  const claims = decodeJwtClaims(record.credential_jwt);
  const genuine = jwtSignatureValid(record.credential_jwt, keys) && typeof claims?.jti === 'string' && claims.jti.endsWith(record.certification_id.replace(/^cert_/, ''));
  return {
    valid: genuine && (status === 'active' || status === 'expiring'),
    status,
    signature_valid: genuine,
    attestation: attestationOf(record),
    certification_id: record.certification_id,
    name: record.name,
    kind: record.kind,
    holder_name: record.holder_name,
    issuer: issuerName,
    issued_at: record.issued_at,
    valid_from: record.valid_from,
    expires_at: record.expires_at,
    revoked_at: record.revoked_at,
  };
}
