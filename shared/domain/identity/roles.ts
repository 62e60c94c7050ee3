/** Cognito groups, one per role. `admin` is granted by an operator, never chosen at registration. */
export const USER_ROLES = ['resident', 'staff', 'consultant', 'admin'] as const;
export type UserRole = (typeof USER_ROLES)[number];

/** Roles a person may pick for themselves when registering. */
export const SELF_SERVICE_ROLES = ['resident', 'staff', 'consultant'] as const satisfies readonly UserRole[];

export function isUserRole(value: unknown): value is UserRole {
  return typeof value === 'string' && (USER_ROLES as readonly string[]).includes(value);
}

/** `pending_confirmation` until the emailed code is confirmed (at once in local mode). */
export const USER_STATUSES = ['pending_confirmation', 'active'] as const;
