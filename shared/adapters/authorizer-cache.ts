import { APIGatewayClient, FlushStageAuthorizersCacheCommand } from '@aws-sdk/client-api-gateway';
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
  const client = traced(new APIGatewayClient({}));
  return async () => {
    await client.send(new FlushStageAuthorizersCacheCommand({ restApiId, stageName }));
  };
}
