/** What a user can read about their own account's security: who signed in, from where, what changed. */
export const SECURITY_EVENT_TYPES = ['sign_in', 'sign_in_failed', 'sign_out', 'key_created', 'key_revoked', 'profile_changed', 'password_reset'] as const;
export type SecurityEventType = (typeof SECURITY_EVENT_TYPES)[number];

export interface SecurityEvent {
  event_id: string;
  type: SecurityEventType;
  occurred_at: string;
  user_id: string;
  client_ip: string;
  user_agent: string | null;
  /** Non-secret facts: a key's id and name, the names of changed profile fields. */
  details: Record<string, string | string[]>;
}

/** Kept one year, then expired. */
export const SECURITY_EVENT_RETENTION_DAYS = 365;
