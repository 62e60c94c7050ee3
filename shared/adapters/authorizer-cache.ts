import { appConfig, requiredSetting } from '../config';
import { traced } from './aws-clients';

/** Caches of authorizer answers in this process: the local gateway's. */
const localCaches = new Set<() => void>();

/** The local gateway registers its cache; the returned function unregisters it. */
export function registerLocalAuthorizerCache(clear: () => void): () => void {
  localCaches.add(clear);
  return () => localCaches.delete(clear);
}

/**
 * Drops every cached authorizer answer of the stage, so a revoked key is refused from the next
 * request although API Gateway caches answers per key (see lib/stage-config.ts). In AWS this is
 * API Gateway's FlushStageAuthorizersCache on the API's stage; locally, the gateway's own cache.
 */
export function authorizerCacheFlusher(): () => Promise<void> {
  if (appConfig().APP_MODE === 'local') {
    return async () => localCaches.forEach((clear) => clear());
  }
  const restApiId = requiredSetting('REST_API_ID');
  const stageName = requiredSetting('REST_API_STAGE');
  // The SDK package is loaded with the first revocation, not with the function.
  const sdk = () => require('@aws-sdk/client-api-gateway') as typeof import('@aws-sdk/client-api-gateway');
  let client: import('@aws-sdk/client-api-gateway').APIGatewayClient | undefined;
  return async () => {
    client ??= traced(new (sdk().APIGatewayClient)({}));
    await client.send(new (sdk().FlushStageAuthorizersCacheCommand)({ restApiId, stageName }));
  };
}
