import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, sign, type JsonWebKey, type KeyObject } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ensureLocalKeyFile } from './credential-key';

export const TOKEN_KEY_FILE = 'token-signing-key.jwk.json';

/** The RSA key the local user pool signs its tokens with, and its public half as the JWKS serves it. */
export interface TokenSigningKey {
  privateKey: KeyObject;
  publicJwk: JsonWebKey & { kid: string; alg: 'RS256'; use: 'sig' };
}

/**
 * The local pool's signing key: RSA 2048 generated on first start under `$DATA_DIR/keys`
 * (owner-only), never the key the emulator's package ships, which anyone holding the package has.
 * Its `kid` is the key's RFC 7638 thumbprint.
 */
export function ensureTokenSigningKey(dataDir: string): TokenSigningKey {
  const file = ensureLocalKeyFile(dataDir, TOKEN_KEY_FILE, () => generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey);
  const privateKey = createPrivateKey({ key: JSON.parse(readFileSync(file, 'utf8')) as JsonWebKey, format: 'jwk' });
  const { n, e } = createPublicKey(privateKey).export({ format: 'jwk' });
  const kid = createHash('sha256').update(JSON.stringify({ e, kty: 'RSA', n })).digest('base64url');
  return { privateKey, publicJwk: { kty: 'RSA', n, e, kid, alg: 'RS256', use: 'sig' } };
}

/** A compact JWT with the same claims, signed RS256 by `key` under its `kid`. */
export function resignJwt(token: string, key: TokenSigningKey): string {
  const payload = token.split('.')[1] ?? '';
  const header = Buffer.from(JSON.stringify({ alg: 'RS256', typ: 'JWT', kid: key.publicJwk.kid })).toString('base64url');
  const signature = sign('sha256', Buffer.from(`${header}.${payload}`, 'ascii'), key.privateKey).toString('base64url');
  return `${header}.${payload}.${signature}`;
}

interface EmulatorTokens {
  AccessToken: string;
  IdToken: string;
  RefreshToken: string;
}

interface TokenGenerator {
  generate(...args: unknown[]): Promise<EmulatorTokens>;
}

/**
 * The emulator's token generator with its claims kept (issuer, client, groups, lifetimes) and its
 * signature replaced: the package's generator can only sign with the package's key.
 */
export function signingWith(key: TokenSigningKey, generator: TokenGenerator): TokenGenerator {
  return {
    async generate(...args) {
      const tokens = await generator.generate(...args);
      return { AccessToken: resignJwt(tokens.AccessToken, key), IdToken: resignJwt(tokens.IdToken, key), RefreshToken: resignJwt(tokens.RefreshToken, key) };
    },
  };
}

const DISCOVERY = /^\/([\w-]+)\/\.well-known\/(jwks\.json|openid-configuration)$/;

/**
 * Answers the pool's discovery documents with this key and the emulator's real address (its own
 * answer serves the package's key, and names `localhost:9229`); anything else goes to `next`.
 */
export function discoveryHandler(key: TokenSigningKey, endpoint: () => string, next: (request: IncomingMessage, response: ServerResponse) => void) {
  return (request: IncomingMessage, response: ServerResponse) => {
    const match = request.method === 'GET' ? DISCOVERY.exec(new URL(request.url ?? '/', 'http://local').pathname) : null;
    if (!match) {
      next(request, response);
      return;
    }
    const issuer = `${endpoint()}/${match[1]}`;
    const body = match[2] === 'jwks.json'
      ? { keys: [key.publicJwk] }
      : { issuer, jwks_uri: `${issuer}/.well-known/jwks.json`, id_token_signing_alg_values_supported: ['RS256'] };
    response.writeHead(200, { 'Content-Type': 'application/json' });
    response.end(JSON.stringify(body));
  };
}
