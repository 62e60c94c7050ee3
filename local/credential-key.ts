import { generateKeyPairSync } from 'node:crypto';
import { existsSync, linkSync, mkdirSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { LocalKeySigner } from '../shared/adapters/credential-signer';

export const CREDENTIAL_KEY_FILE = 'credential-signing-key.jwk.json';

/**
 * The local stand-in for the KMS signing key: a P-256 private key generated on first start under
 * `$DATA_DIR/keys` (owner-only), kept across restarts so issued credentials keep verifying.
 * Returns its path after checking that it loads.
 */
export function ensureLocalCredentialKey(dataDir: string): string {
  const dir = path.join(dataDir, 'keys');
  const file = path.join(dir, CREDENTIAL_KEY_FILE);
  if (!existsSync(file)) {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    // Written aside, then linked into place: a second process starting at once keeps the first key.
    const temporary = `${file}.${process.pid}.tmp`;
    writeFileSync(temporary, `${JSON.stringify(privateKey.export({ format: 'jwk' }))}\n`, { mode: 0o600 });
    try {
      linkSync(temporary, file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    } finally {
      unlinkSync(temporary);
    }
  }
  LocalKeySigner.fromFile(file);
  return file;
}
