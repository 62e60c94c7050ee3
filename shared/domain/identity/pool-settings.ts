/**
 * The user pool's settings, declared once: the CDK stack builds the Cognito pool from them and the
 * local emulator's pool is created with them; the API checks the password policy itself before
 * calling the provider, so both modes refuse a weak password with the same answer.
 */
export const USER_POOL_NAME = 'va-compliance-users';
export const USER_POOL_CLIENT_NAME = 'va-compliance-api';

export const PASSWORD_POLICY = {
  minLength: 12,
  requireLowercase: true,
  requireUppercase: true,
  requireDigits: true,
  requireSymbols: true,
} as const;

export const TOKEN_VALIDITY = { accessTokenHours: 1, idTokenHours: 1, refreshTokenDays: 30 } as const;

/** Cognito's symbol set for password policies. */
const COGNITO_SYMBOLS = '^$*.[]{}()?"!@#%&/\\,><\':;|_~`=+- ';

/** Which rules of the policy a password breaks (empty: it complies). */
export function passwordPolicyViolations(password: string): string[] {
  const violations: string[] = [];
  if ([...password].length < PASSWORD_POLICY.minLength) violations.push(`at least ${PASSWORD_POLICY.minLength} characters`);
  if (!/[a-z]/.test(password)) violations.push('a lower-case letter');
  if (!/[A-Z]/.test(password)) violations.push('an upper-case letter');
  if (!/[0-9]/.test(password)) violations.push('a digit');
  if (![...password].some((ch) => COGNITO_SYMBOLS.includes(ch))) violations.push('a symbol');
  return violations;
}
