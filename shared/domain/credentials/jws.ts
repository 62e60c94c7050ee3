/**
 * Compact JWS (RFC 7515) with ES256 (RFC 7518 §3.4): the signature is the raw concatenation
 * r || s, each 32 bytes big-endian — not the DER `ECDSA-Sig-Value` that KMS and OpenSSL return.
 */

/** A public key as a JWK (RFC 7517), with the id and use this service gives it. */
export interface PublicJwk {
  kty: 'EC';
  crv: 'P-256';
  x: string;
  y: string;
  kid: string;
  alg: 'ES256';
  use: 'sig';
}

/** Signs with a P-256 key that may live elsewhere (KMS): only the signature comes back. */
export interface CredentialSigner {
  publicJwk(): Promise<PublicJwk>;
  /** The raw r || s signature (64 bytes) of SHA-256 over `signingInput`. */
  sign(signingInput: Uint8Array): Promise<Uint8Array>;
}

export const ES256_COORDINATE_BYTES = 32;

const b64url = (data: Uint8Array | string) => Buffer.from(data).toString('base64url');

/** ECDSA-Sig-Value ::= SEQUENCE { r INTEGER, s INTEGER } (DER) → r || s. */
export function derToJoseSignature(der: Uint8Array, size = ES256_COORDINATE_BYTES): Uint8Array {
  let offset = 0;
  const fail = (why: string): never => { throw new Error(`Not a DER ECDSA signature: ${why}`); };
  const readLength = (): number => {
    const first = der[offset++] ?? fail('truncated');
    if (first < 0x80) return first;
    const count = first & 0x7f;
    if (count === 0 || count > 2) fail('length form');
    let length = 0;
    for (let i = 0; i < count; i++) length = (length << 8) | (der[offset++] ?? fail('truncated'));
    return length;
  };
  if (der[offset++] !== 0x30) fail('no SEQUENCE');
  const sequenceLength = readLength();
  if (offset + sequenceLength !== der.length) fail('SEQUENCE length');
  const integer = (): Uint8Array => {
    if (der[offset++] !== 0x02) fail('no INTEGER');
    const length = readLength();
    if (length === 0 || offset + length > der.length) fail('INTEGER length');
    let value = der.subarray(offset, offset + length);
    offset += length;
    // DER prefixes a zero byte when the high bit is set; leading zeros are not part of the value.
    while (value.length > 1 && value[0] === 0) value = value.subarray(1);
    if (value.length > size) fail('INTEGER too large');
    const padded = new Uint8Array(size);
    padded.set(value, size - value.length);
    return padded;
  };
  const r = integer();
  const s = integer();
  if (offset !== der.length) fail('trailing bytes');
  const out = new Uint8Array(size * 2);
  out.set(r, 0);
  out.set(s, size);
  return out;
}

/** A signed JWT: protected header `{alg: ES256, typ, kid}`, the claims as given. */
export async function signJwt(claims: Record<string, unknown>, signer: CredentialSigner, type = 'JWT'): Promise<string> {
  const { kid } = await signer.publicJwk();
  const signingInput = `${b64url(JSON.stringify({ alg: 'ES256', typ: type, kid }))}.${b64url(JSON.stringify(claims))}`;
  const signature = await signer.sign(Buffer.from(signingInput, 'ascii'));
  if (signature.length !== ES256_COORDINATE_BYTES * 2) throw new Error('An ES256 signature is 64 bytes');
  return `${signingInput}.${b64url(signature)}`;
}

/** The claims of a compact JWT, without verifying it (callers verify separately). */
export function decodeJwtClaims(token: string): Record<string, unknown> | undefined {
  const parts = token.split('.');
  if (parts.length !== 3) return undefined;
  try {
    const claims = JSON.parse(Buffer.from(parts[1]!, 'base64url').toString('utf8')) as unknown;
    return typeof claims === 'object' && claims !== null && !Array.isArray(claims) ? claims as Record<string, unknown> : undefined;
  } catch {
    return undefined;
  }
}
