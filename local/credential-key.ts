import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import { chmodSync, existsSync, linkSync, mkdirSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { LocalKeySigner } from '../shared/adapters/credential-signer';

export const CREDENTIAL_KEY_FILE = 'credential-signing-key.jwk.json';

/**
 * A private key kept in `$DATA_DIR/keys/<fileName>` as a JWK, generated on first start and readable
 * by the owner only (directory 0700, file 0600), kept across restarts. Returns its path.
 */
export function ensureLocalKeyFile(dataDir: string, fileName: string, generate: () => KeyObject): string {
  const dir = path.join(dataDir, 'keys');
  const file = path.join(dir, fileName);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  // A directory made by an earlier version, or under another umask, is narrowed too.
  chmodSync(dir, 0o700);
  if (!existsSync(file)) {
    // Written aside, then linked into place: a second process starting at once keeps the first key.
    const temporary = `${file}.${process.pid}.tmp`;
    writeFileSync(temporary, `${JSON.stringify(generate().export({ format: 'jwk' }))}\n`, { mode: 0o600 });
    try {
      linkSync(temporary, file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    } finally {
      unlinkSync(temporary);
    }
  }
  chmodSync(file, 0o600);
  return file;
}

/**
 * The local stand-in for the KMS signing key of credentials: a P-256 private key under
 * `$DATA_DIR/keys`, so issued credentials keep verifying across restarts. Returns its path after
 * checking that it loads.
 */
export function ensureLocalCredentialKey(dataDir: string): string {
  const file = ensureLocalKeyFile(dataDir, CREDENTIAL_KEY_FILE, () => generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey);
  LocalKeySigner.fromFile(file);
  return file;
}
