import { createHash, generateKeyPairSync, sign } from 'node:crypto';
import { GetPublicKeyCommand, SignCommand } from '@aws-sdk/client-kms';
import * as jose from 'jose';
import { KmsSigner, LocalKeySigner } from '../../shared/adapters/credential-signer';
import { derToJoseSignature, signJwt } from '../../shared/domain/credentials/jws';
import { credentialStatus, expiryFor } from '../../shared/domain/credentials/open-badge';

const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });

/**
 * A stand-in for KMS: answers the public key as DER SPKI and DER ECDSA signatures of the digest it
 * is sent. Node cannot sign a bare digest, so the fake signs the message whose SHA-256 that digest is.
 */
function fakeKms(messages: Map<string, Buffer>) {
  const calls: string[] = [];
  return {
    calls,
    async send(command: unknown) {
      if (command instanceof GetPublicKeyCommand) {
        calls.push('GetPublicKey');
        return { KeySpec: 'ECC_NIST_P256', KeyUsage: 'SIGN_VERIFY', PublicKey: publicKey.export({ format: 'der', type: 'spki' }) };
      }
      if (command instanceof SignCommand) {
        calls.push(`Sign:${command.input.MessageType}:${command.input.SigningAlgorithm}`);
        const message = messages.get(Buffer.from(command.input.Message!).toString('hex'));
        if (!message) throw new Error('KMS was not sent the SHA-256 digest of the signing input');
        return { Signature: sign('sha256', message, { key: privateKey, dsaEncoding: 'der' }) };
      }
      throw new Error('unexpected command');
    },
  };
}

describe('DER to JOSE signatures', () => {
  it('converts OpenSSL DER signatures to r||s that WebCrypto (jose) verifies, including r or s shorter than 32 bytes', async () => {
    const key = await jose.importJWK(publicKey.export({ format: 'jwk' }) as jose.JWK, 'ES256');
    // About one signature in 256 has a short r or s: sign until three have been seen (a bounded
    // loop, so a converter that never meets one cannot pass by luck).
    let short = 0;
    for (let i = 0; i < 20_000 && short < 3; i++) {
      const signingInput = `${Buffer.from('{"alg":"ES256"}').toString('base64url')}.${Buffer.from(`message ${i}`).toString('base64url')}`;
      const der = sign('sha256', Buffer.from(signingInput), { key: privateKey, dsaEncoding: 'der' });
      const raw = derToJoseSignature(der);
      expect(Buffer.from(raw)).toEqual(rawFromDerIndependently(der));
      // A 32-byte integer is 0x20 long, 0x21 with the sign byte; anything shorter was padded here.
      const rLength = der[3]!;
      if (rLength < 0x20 || der[4 + rLength + 1]! < 0x20) {
        short += 1;
        await expect(jose.compactVerify(`${signingInput}.${Buffer.from(raw).toString('base64url')}`, key)).resolves.toBeDefined();
      } else if (i < 20) {
        await expect(jose.compactVerify(`${signingInput}.${Buffer.from(raw).toString('base64url')}`, key)).resolves.toBeDefined();
      }
    }
    expect(short).toBe(3);
  });

  it('rejects what is not a DER ECDSA signature', () => {
    expect(() => derToJoseSignature(Buffer.from([0x31, 0x00]))).toThrow(/SEQUENCE/);
    expect(() => derToJoseSignature(Buffer.from([0x30, 0x03, 0x02, 0x01, 0x01]))).toThrow();
    expect(() => derToJoseSignature(Buffer.alloc(0))).toThrow();
  });
});

/** The test's own reading of ECDSA-Sig-Value: two INTEGERs, each left-padded or trimmed to 32 bytes. */
function rawFromDerIndependently(der: Buffer): Buffer {
  const rLength = der[3]!;
  const r = der.subarray(4, 4 + rLength);
  const s = der.subarray(4 + rLength + 2, 4 + rLength + 2 + der[4 + rLength + 1]!);
  const fix = (n: Buffer) => Buffer.concat([Buffer.alloc(32), n]).subarray(-32);
  return Buffer.concat([fix(r), fix(s)]);
}

describe('signers', () => {
  it('the local signer signs JWTs that jose verifies with its JWK; the kid is the RFC 7638 thumbprint', async () => {
    const signer = new LocalKeySigner(privateKey.export({ format: 'jwk' }));
    const jwk = await signer.publicJwk();
    expect(jwk.kid).toBe(await jose.calculateJwkThumbprint(publicKey.export({ format: 'jwk' }) as jose.JWK, 'sha256'));
    const token = await signJwt({ iss: 'https://example.test/api/v1', sub: 'urn:uuid:1' }, signer);
    const { payload, protectedHeader } = await jose.jwtVerify(token, await jose.importJWK(jwk, 'ES256'));
    expect(protectedHeader).toEqual({ alg: 'ES256', typ: 'JWT', kid: jwk.kid });
    expect(payload.sub).toBe('urn:uuid:1');
  });

  it('the KMS signer sends a SHA-256 digest, converts KMS\'s DER answer, and reads the public key once', async () => {
    const messages = new Map<string, Buffer>();
    const kms = fakeKms(messages);
    const signer = new KmsSigner('arn:aws:kms:us-east-1:111122223333:key/test', kms as never);
    const original = signer.sign.bind(signer);
    signer.sign = async (input) => {
      messages.set(createHash('sha256').update(input).digest('hex'), Buffer.from(input));
      return original(input);
    };
    const token = await signJwt({ hello: 'world' }, signer);
    await signJwt({ again: true }, signer);
    const jwk = await signer.publicJwk();
    expect(jwk.kid).toBe(await jose.calculateJwkThumbprint(publicKey.export({ format: 'jwk' }) as jose.JWK, 'sha256'));
    await expect(jose.jwtVerify(token, await jose.importJWK(jwk, 'ES256'))).resolves.toBeDefined();
    expect(kms.calls).toEqual(['GetPublicKey', 'Sign:DIGEST:ECDSA_SHA_256', 'Sign:DIGEST:ECDSA_SHA_256']);
  });
});

describe('credential validity', () => {
  const policy = { validity_years: 3, expiring_within_days: 90 };
  it('runs three years from the completion date, 29 February ending on 28 February', () => {
    expect(expiryFor('2026-03-02', policy)).toBe('2029-03-02T00:00:00.000Z');
    expect(expiryFor('2024-02-29', policy)).toBe('2027-02-28T00:00:00.000Z');
  });
  it('is active, then expiring within 90 days of the end, then expired; revoked wins', () => {
    const expires_at = '2029-03-02T00:00:00.000Z';
    expect(credentialStatus({ expires_at, revoked_at: null }, new Date('2028-12-01T00:00:00Z'), policy)).toBe('active');
    expect(credentialStatus({ expires_at, revoked_at: null }, new Date('2028-12-02T00:00:00Z'), policy)).toBe('expiring');
    expect(credentialStatus({ expires_at, revoked_at: null }, new Date('2029-03-02T00:00:00Z'), policy)).toBe('expired');
    expect(credentialStatus({ expires_at, revoked_at: '2027-01-01T00:00:00Z' }, new Date('2027-06-01T00:00:00Z'), policy)).toBe('revoked');
  });
});
