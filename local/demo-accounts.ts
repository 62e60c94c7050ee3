import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { hashApiKey, openAccountWithKey } from '../shared/domain/api-keys';
import type { AccountStore } from '../shared/ports';
import type { Tier } from '../shared/domain/tiers';
import { TIER_ORDER } from '../shared/domain/tiers';

export type DemoKeys = Record<Tier, string>;

const DEMO_NAMES: Record<Tier, string> = {
  free: 'Demo — Town of Cedar Key (Free)',
  pro: 'Demo — City of St. Petersburg (Pro)',
  enterprise: 'Demo — Monroe County (Enterprise)',
};

/**
 * Three demo accounts, one per tier. Their keys are written to `$DATA_DIR/demo-keys.json` (the only
 * place a key is kept in clear: it is the operator's own local file); the table holds hashes only.
 */
export async function ensureDemoAccounts(dataDir: string, accounts: AccountStore, now: Date): Promise<DemoKeys> {
  const file = path.join(dataDir, 'demo-keys.json');
  if (existsSync(file)) {
    const saved = JSON.parse(readFileSync(file, 'utf8')) as Partial<DemoKeys>;
    const valid = await Promise.all(TIER_ORDER.map(async (tier) => Boolean(saved[tier] && await accounts.findByKeyHash(hashApiKey(saved[tier]!)))));
    if (valid.every(Boolean)) return saved as DemoKeys;
  }
  const keys = {} as DemoKeys;
  for (const tier of TIER_ORDER) {
    keys[tier] = (await openAccountWithKey(accounts, DEMO_NAMES[tier], tier, now)).key;
  }
  writeFileSync(file, JSON.stringify(keys, null, 2) + '\n', { mode: 0o600 });
  return keys;
}
