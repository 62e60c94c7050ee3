import { createHash, createPrivateKey, createPublicKey, sign as signWithKey, type JsonWebKey, type KeyObject } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type * as Kms from '@aws-sdk/client-kms';
import type { KMSClient } from '@aws-sdk/client-kms';
import * as z from 'zod';
import { derToJoseSignature, type CredentialSigner, type PublicJwk } from '../domain/credentials/jws';
import { traced } from './aws-clients';
import { commandOnFirstUse } from './sdk-commands';

/** `@aws-sdk/client-kms` is loaded with the first KMS call (see sdk-commands.ts). */
const kmsSdk = () => require('@aws-sdk/client-kms') as typeof Kms;
const GetPublicKeyCommand = commandOnFirstUse(kmsSdk, 'GetPublicKeyCommand');
const SignCommand = commandOnFirstUse(kmsSdk, 'SignCommand');

/**
 * The credential signing key. In AWS an asymmetric KMS key (ECC_NIST_P256, SIGN_VERIFY): the
 * private key never leaves KMS, which returns DER signatures converted here to JOSE r || s.
 * Locally a P-256 key generated on first start under `$DATA_DIR` (local/credential-key.ts).
 */
const SignerSettings = z.object({
  /** Key id or ARN of the KMS key (AWS). */
  CREDENTIAL_KMS_KEY_ID: z.string().min(1).optional(),
  /** Path of the local private key, a JWK file (local mode). */
  CREDENTIAL_KEY_FILE: z.string().min(1).optional(),
});

/** RFC 7638 thumbprint of an EC public key: the key id the JWKS and every token header carry. */
export function jwkThumbprint(jwk: { crv: string; x: string; y: string }): string {
  return createHash('sha256').update(JSON.stringify({ crv: jwk.crv, kty: 'EC', x: jwk.x, y: jwk.y })).digest('base64url');
}

function publicJwkOf(key: KeyObject): PublicJwk {
  const jwk = key.export({ format: 'jwk' }) as JsonWebKey;
  if (jwk.kty !== 'EC' || jwk.crv !== 'P-256' || !jwk.x || !jwk.y) throw new Error('The credential key is not a P-256 key');
  return { kty: 'EC', crv: 'P-256', x: jwk.x, y: jwk.y, kid: jwkThumbprint({ crv: jwk.crv, x: jwk.x, y: jwk.y }), alg: 'ES256', use: 'sig' };
}

export class LocalKeySigner implements CredentialSigner {
  private readonly privateKey: KeyObject;
  private readonly jwk: PublicJwk;

  constructor(privateJwk: JsonWebKey) {
    this.privateKey = createPrivateKey({ key: privateJwk, format: 'jwk' });
    this.jwk = publicJwkOf(createPublicKey(this.privateKey));
  }

  static fromFile(file: string): LocalKeySigner {
    return new LocalKeySigner(JSON.parse(readFileSync(file, 'utf8')) as JsonWebKey);
  }

  async publicJwk(): Promise<PublicJwk> {
    return this.jwk;
  }

  async sign(signingInput: Uint8Array): Promise<Uint8Array> {
    return signWithKey('sha256', signingInput, { key: this.privateKey, dsaEncoding: 'ieee-p1363' });
  }
}

export class KmsSigner implements CredentialSigner {
  private jwk: Promise<PublicJwk> | undefined;

  constructor(private readonly keyId: string, private readonly kms: Pick<KMSClient, 'send'> = traced(new (kmsSdk().KMSClient)({}))) {}

  publicJwk(): Promise<PublicJwk> {
    this.jwk ??= this.kms.send(new GetPublicKeyCommand({ KeyId: this.keyId })).then((answer) => {
      if (answer.KeySpec !== 'ECC_NIST_P256' || answer.KeyUsage !== 'SIGN_VERIFY' || !answer.PublicKey) {
        throw new Error(`KMS key ${this.keyId} is not an ECC_NIST_P256 signing key`);
      }
      return publicJwkOf(createPublicKey({ key: Buffer.from(answer.PublicKey), format: 'der', type: 'spki' }));
    });
    this.jwk.catch(() => { this.jwk = undefined; });
    return this.jwk;
  }

  async sign(signingInput: Uint8Array): Promise<Uint8Array> {
    // The digest is sent, not the message: KMS signs messages only up to 4 KB.
    const digest = createHash('sha256').update(signingInput).digest();
    const answer = await this.kms.send(new SignCommand({ KeyId: this.keyId, Message: digest, MessageType: 'DIGEST', SigningAlgorithm: 'ECDSA_SHA_256' }));
    if (!answer.Signature) throw new Error('KMS returned no signature');
    return derToJoseSignature(answer.Signature);
  }
}

let signer: CredentialSigner | undefined;

/** The signer this process uses, chosen once from its settings. */
export function credentialSigner(): CredentialSigner {
  if (!signer) {
    const settings = SignerSettings.parse(process.env);
    if (settings.CREDENTIAL_KMS_KEY_ID) signer = new KmsSigner(settings.CREDENTIAL_KMS_KEY_ID);
    else if (settings.CREDENTIAL_KEY_FILE) signer = LocalKeySigner.fromFile(settings.CREDENTIAL_KEY_FILE);
    else throw new Error('Missing required environment variable CREDENTIAL_KMS_KEY_ID (AWS) or CREDENTIAL_KEY_FILE (local)');
  }
  return signer;
}

/** The local runner and tests change the key between app instances. */
export function resetCredentialSignerForTests(): void {
  signer = undefined;
}
