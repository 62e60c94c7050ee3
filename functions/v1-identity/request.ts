import { HttpError } from '../../shared/http/problem';
import { currentETag } from '../../shared/http/domain-problems';
import {
  KeyLimitReachedError, ProfileNotFoundError, StaleVersionError, type ClientInfo,
} from '../../shared/domain/identity/use-cases';
import {
  AttemptCounterBusyError, EmailTakenError, EmailUndeliverableError, InvalidConfirmationCodeError, InvalidCredentialsError, TooManyAttemptsError,
  WeakPasswordError,
} from '../../shared/domain/identity/ports';
import type { RouteRequest } from '../../shared/http/types';

export function clientOf(request: RouteRequest): ClientInfo {
  return { ip: request.clientIp, userAgent: request.headers['user-agent']?.slice(0, 512) ?? null };
}

/** Domain outcomes → the problem codes of the contract. Messages never carry a password or token. */
export async function answering<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof TooManyAttemptsError) {
      throw new HttpError('too_many_attempts', `${error.message} Try again in ${error.retryAfterSeconds} seconds.`, { headers: { 'Retry-After': String(error.retryAfterSeconds) } });
    }
    if (error instanceof AttemptCounterBusyError) {
      throw new HttpError('too_many_attempts', 'Too many attempts at once from this client. Try again in 1 second.', { headers: { 'Retry-After': '1' } });
    }
    if (error instanceof InvalidCredentialsError) throw new HttpError('invalid_credentials', 'The email or password is not correct, or the refresh token is no longer valid.');
    if (error instanceof WeakPasswordError) throw new HttpError('weak_password', error.message || 'The password does not meet the policy.');
    if (error instanceof EmailTakenError) throw new HttpError('email_taken', 'A user with this email is already registered; log in instead.');
    if (error instanceof EmailUndeliverableError) {
      throw new HttpError('email_undeliverable', error.message, { errors: [{ field: 'email', in: 'body', message: 'The confirmation code could not be delivered' }] });
    }
    if (error instanceof InvalidConfirmationCodeError) {
      throw new HttpError('invalid_request', 'The code is wrong or expired.', { errors: [{ field: 'code', in: 'body', message: 'Wrong or expired code' }] });
    }
    if (error instanceof StaleVersionError) {
      // With the current ETag: docs/decisions/0005-stale-if-match-409.md.
      throw new HttpError('conflict', 'The profile changed since you read it: read it again and re-apply your change with the new ETag.', { headers: { ETag: currentETag(error.currentVersion) } });
    }
    if (error instanceof KeyLimitReachedError) throw new HttpError('conflict', 'The account has the maximum number of active keys; revoke one first.');
    if (error instanceof ProfileNotFoundError) throw new HttpError('not_found', 'No profile for this user.');
    throw error;
  }
}
