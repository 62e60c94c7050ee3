import type { USER_STATUSES, UserRole } from './roles';
import { FLORIDA_COUNTIES } from '../jurisdictions';

export type UserStatus = typeof USER_STATUSES[number];

/** The user record this API keeps beside the identity provider's (which alone holds the password). */
export interface UserRecord {
  user_id: string;
  email: string;
  name: string;
  role: UserRole;
  organization: string | null;
  county_fips: string | null;
  preferences: Record<string, string | number | boolean>;
  account_id: string;
  status: UserStatus;
  created_at: string;
  updated_at: string;
  /** Incremented by every update; the ETag is this number. */
  version: number;
}

export interface ProfileUpdate {
  name?: string;
  organization?: string | null;
  county_fips?: string | null;
  preferences?: Record<string, string | number | boolean>;
}

export function etagOf(user: Pick<UserRecord, 'version'>): string {
  return `"${user.version}"`;
}

export function countyName(fips: string | null): string | null {
  if (!fips) return null;
  return FLORIDA_COUNTIES.find((county) => county.fips === fips)?.name ?? null;
}

export function isFloridaCountyFips(fips: string): boolean {
  return FLORIDA_COUNTIES.some((county) => county.fips === fips);
}

/** The new record and the names of the fields that actually changed. */
export function applyProfileUpdate(user: UserRecord, update: ProfileUpdate, now: Date): { user: UserRecord; changed: string[] } {
  const next: UserRecord = { ...user };
  const changed: string[] = [];
  for (const field of ['name', 'organization', 'county_fips', 'preferences'] as const) {
    if (update[field] === undefined) continue;
    if (JSON.stringify(update[field]) === JSON.stringify(user[field])) continue;
    (next as unknown as Record<string, unknown>)[field] = update[field];
    changed.push(field);
  }
  if (changed.length > 0) {
    next.version = user.version + 1;
    next.updated_at = now.toISOString();
  }
  return { user: next, changed };
}
