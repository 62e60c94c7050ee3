import type { IdempotencyStore } from '../../shared/ports';

const unused = () => Promise.reject(new Error('no Idempotency-Key was sent'));

/** For pipelines under test whose requests send no `Idempotency-Key`: the keyed routes never reach the store. */
export const unusedIdempotencyStore: IdempotencyStore = { claim: unused, find: unused, complete: unused, release: unused };
