import { DynamoIdempotencyStore } from '../../shared/adapters/idempotency-store';
import { wiring } from '../../shared/config';

/** The asset use cases' adapters are those of the import worker too. */
export { assetAdapters as assetDeps } from '../../shared/adapters/asset-wiring';

/** Imports create records: a repeated `Idempotency-Key` replays the first answer. */
export const idempotencyStore = wiring(() => new DynamoIdempotencyStore());
