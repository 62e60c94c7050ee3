import { createHash } from 'node:crypto';
import { looksLikeApiKey, newApiKey, openAccountWithKey } from '../../shared/domain/api-keys';
import type { Account, AccountStore } from '../../shared/ports';
import { leaseExpired, newLease } from '../../shared/domain/job-lease';
import { countyByName, FLORIDA_COUNTIES, floridaMunicipalities, jurisdictionById, normalizePlaceName, resolveJurisdiction } from '../../shared/domain/jurisdictions';
import { InvalidCursorError } from '../../shared/domain/errors';
import { decodeListCursor, encodeListCursor } from '../../shared/domain/list-cursor';

/**
 * The small modules at the top of the domain: the API key shape, job leases, place-name folding
 * and jurisdiction lookups, list cursors. Each case pins a boundary a one-character change would move.
 */
describe('API key shape', () => {
  it('accepts a new key and refuses anything before or after it', () => {
    const key = newApiKey();
    expect(looksLikeApiKey(key)).toBe(true);
    expect(looksLikeApiKey(`x${key}`)).toBe(false);
    expect(looksLikeApiKey(`${key}x`)).toBe(false);
    expect(looksLikeApiKey(key.slice(0, -1))).toBe(false);
  });
});

describe('an account opened with its first key', () => {
  it('stores the account and the sha256 of a new key, and hands the key back once', async () => {
    const created: [Account, string][] = [];
    const accounts = { createAccount: async (account: Account, keyHash: string) => { created.push([account, keyHash]); } } as unknown as AccountStore;
    const { account, key } = await openAccountWithKey(accounts, 'Town of Cedar Key', 'pro', new Date('2026-11-27T17:00:00Z'));
    expect(looksLikeApiKey(key)).toBe(true);
    expect(account).toEqual({ account_id: expect.stringMatching(/^acct_[0-9a-f-]{36}$/), name: 'Town of Cedar Key', tier: 'pro', created_at: '2026-11-27T17:00:00.000Z', usage_key: expect.stringMatching(/^vacu_[A-Za-z0-9_-]{32}$/) });
    expect(created).toEqual([[account, createHash('sha256').update(key).digest('hex')]]);
  });
});

describe('job leases', () => {
  const now = new Date('2026-09-01T12:00:00.000Z');

  it('expires leaseMs after now, first attempt by default', () => {
    expect(newLease('worker-1', now, 90_000)).toEqual({ owner: 'worker-1', expires_at: '2026-09-01T12:01:30.000Z', attempt: 1 });
    expect(newLease('worker-2', now, 1_000, 3)).toEqual({ owner: 'worker-2', expires_at: '2026-09-01T12:00:01.000Z', attempt: 3 });
  });

  it('is expired only strictly after its expiry, and a missing lease is not expired', () => {
    const lease = newLease('worker-1', now, 60_000);
    expect(leaseExpired(lease, new Date('2026-09-01T12:00:59.999Z'))).toBe(false);
    expect(leaseExpired(lease, new Date('2026-09-01T12:01:00.000Z'))).toBe(false);
    expect(leaseExpired(lease, new Date('2026-09-01T12:01:00.001Z'))).toBe(true);
    expect(leaseExpired(null, now)).toBe(false);
    expect(leaseExpired(undefined, now)).toBe(false);
  });
});

describe('place names', () => {
  it('folds accents, "St"/"Ft" with or without a dot, and runs of punctuation', () => {
    expect(normalizePlaceName('São Paulo')).toBe('sao paulo');
    expect(normalizePlaceName('St Petersburg')).toBe('saint petersburg');
    expect(normalizePlaceName('St. Petersburg')).toBe('saint petersburg');
    expect(normalizePlaceName('Ft Myers')).toBe('fort myers');
    expect(normalizePlaceName('Ft. Lauderdale')).toBe('fort lauderdale');
    expect(normalizePlaceName('Miami -- Dade')).toBe('miami dade');
    expect(normalizePlaceName('  "Miami-Dade", ')).toBe('miami dade');
  });

  it('leaves words that only begin with "st" or "ft" alone', () => {
    expect(normalizePlaceName('Stuart')).toBe('stuart');
    expect(normalizePlaceName('Ftville')).toBe('ftville');
  });
});

describe('jurisdiction lookups', () => {
  it('takes "City of" as a municipality when a county has the same name', () => {
    expect(resolveJurisdiction('Okeechobee').status).toBe('ambiguous');
    const city = resolveJurisdiction('City of Okeechobee');
    expect(city.status === 'found' && city.jurisdiction.type).toBe('municipality');
  });

  it('keeps only the municipalities of the county named in the hint', () => {
    expect(resolveJurisdiction('Key West', { county: countyByName('Monroe') }).status).toBe('found');
    expect(resolveJurisdiction('Key West', { county: countyByName('Palm Beach') }).status).toBe('not_found');
  });

  it('finds a county and a city by id even where the two share a name, and nothing for unknown ids', () => {
    expect(jurisdictionById('county:12093')).toMatchObject({ type: 'county', name: 'Okeechobee' });
    expect(jurisdictionById('municipality:120178')).toMatchObject({ type: 'municipality', name: 'Okeechobee' });
    expect(jurisdictionById('county:12999')).toBeUndefined();
    expect(jurisdictionById('municipality:999999')).toBeUndefined();
    expect(jurisdictionById('county:120178')).toBeUndefined();
    expect(jurisdictionById('municipality:12093')).toBeUndefined();
  });

  it('finds every bundled county and municipality by its own id', () => {
    for (const county of FLORIDA_COUNTIES) expect(jurisdictionById(`county:${county.fips}`)).toMatchObject({ type: 'county', name: county.name });
    for (const city of floridaMunicipalities()) expect(jurisdictionById(`municipality:${city.cid}`)).toMatchObject({ type: 'municipality', name: city.name });
  });
});

describe('list cursors', () => {
  const readKey = (content: Record<string, unknown>) => (typeof content.k === 'string' ? content.k : undefined);

  it('round-trips and refuses what is not an encoded object', () => {
    expect(decodeListCursor(encodeListCursor({ k: 'a' }), readKey)).toBe('a');
    for (const json of ['null', '[1]', '42', '"k"']) {
      expect(() => decodeListCursor(Buffer.from(json).toString('base64url'), readKey)).toThrow(InvalidCursorError);
    }
    expect(() => decodeListCursor('%%%', readKey)).toThrow(InvalidCursorError);
    // An object the reader refuses (here without `k`) is no cursor either.
    expect(() => decodeListCursor(encodeListCursor({ x: 'a' }), readKey)).toThrow(InvalidCursorError);
    // A reader that keeps the content whole is never handed a number or a string.
    for (const json of ['42', '"k"']) {
      expect(() => decodeListCursor(Buffer.from(json).toString('base64url'), (content) => content)).toThrow(InvalidCursorError);
    }
  });
});
