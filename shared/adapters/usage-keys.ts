import { APIGatewayClient, GetApiKeyCommand } from '@aws-sdk/client-api-gateway';
import { traced } from './aws-clients';
import { TIER_ORDER, type Tier } from '../domain/tiers';

/**
 * The stack creates one API Gateway key per tier, attached to the tier's usage plan, and passes
 * their IDs in these variables. With the API's key source set to AUTHORIZER, the authorizer names
 * the caller's plan by returning that key's value as `usageIdentifierKey`: customers keep their
 * own `vac_` keys (hashed in DynamoDB), while the usage-plan throttles still apply per tier.
 */
export const USAGE_KEY_ID_VARIABLES: Record<Tier, string> = {
  free: 'USAGE_KEY_ID_FREE',
  pro: 'USAGE_KEY_ID_PRO',
  enterprise: 'USAGE_KEY_ID_ENTERPRISE',
};

export type UsageKeyValues = Partial<Record<Tier, string>>;

export type UsageKeyLookup = () => Promise<UsageKeyValues>;

/**
 * Reads the tiers' key values once per cold start (GetApiKey with includeValue; the values are not
 * known at synth time). Without the variables — local mode and tests, where no API Gateway exists —
 * there is nothing to look up and the authorizer omits `usageIdentifierKey`.
 */
export function usageKeyLookup(env: NodeJS.ProcessEnv = process.env, client = () => traced(new APIGatewayClient({}))): UsageKeyLookup {
  let loading: Promise<UsageKeyValues> | undefined;
  const load = async (): Promise<UsageKeyValues> => {
    const configured = TIER_ORDER.filter((tier) => env[USAGE_KEY_ID_VARIABLES[tier]]);
    if (configured.length === 0) return {};
    const api = client();
    const entries = await Promise.all(configured.map(async (tier) => {
      const key = await api.send(new GetApiKeyCommand({ apiKey: env[USAGE_KEY_ID_VARIABLES[tier]], includeValue: true }));
      if (!key.value) throw new Error(`API Gateway key for the ${tier} tier has no value`);
      return [tier, key.value] as const;
    }));
    return Object.fromEntries(entries);
  };
  return () => {
    // A failed read is retried on the next request instead of being cached for the container's life.
    loading ??= load().catch((error: unknown) => {
      loading = undefined;
      throw error;
    });
    return loading;
  };
}
