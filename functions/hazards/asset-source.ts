import { DynamoAssetStore } from '../../shared/adapters/asset-store';
import { StoredAssetSource } from '../../shared/adapters/hazard-asset-source';
import type { AccountAssetSource } from '../../shared/domain/hazards/account-assets';

let source: AccountAssetSource | undefined;

/** The caller's imported assets, from the asset inventory's store. */
export function defaultAssetSource(): AccountAssetSource {
  source ??= new StoredAssetSource(new DynamoAssetStore());
  return source;
}
