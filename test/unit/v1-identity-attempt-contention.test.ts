import { answering } from '../../functions/v1-identity/handler';
import { AttemptCounterBusyError } from '../../shared/domain/identity/ports';
import { HttpError } from '../../shared/http/problem';

/** A storm of concurrent attempts from one client that keeps the attempt counter changing is a 429, not a 500. */
describe('attempt counter contention', () => {
  it('answers 429 too_many_attempts with Retry-After', async () => {
    const error = await answering(async () => { throw new AttemptCounterBusyError('busy'); }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HttpError);
    expect((error as HttpError).status).toBe(429);
    expect((error as HttpError).code).toBe('too_many_attempts');
    expect((error as HttpError).extra.headers).toEqual({ 'Retry-After': '1' });
  });

  it('still passes on errors it does not know', async () => {
    await expect(answering(async () => { throw new RangeError('other'); })).rejects.toBeInstanceOf(RangeError);
  });
});
