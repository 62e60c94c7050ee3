import type { APIGatewayClient } from '@aws-sdk/client-api-gateway';
import { traced } from './aws-clients';
import { TIER_ORDER, type Tier } from '../domain/tiers';
import type { AccountUsageKeys, AccountWithUsageKey } from '../ports';

/**
 * With the API's key source set to AUTHORIZER, the authorizers name the caller's usage plan by
 * returning an API Gateway key's value as `usageIdentifierKey`: customers keep their own `vac_`
 * keys (hashed in DynamoDB). Each account has its own API Gateway key (`Account.usage_key`, see
 * `ApiGatewayAccountUsageKeys`), so the plan's throttle applies per customer. The stack also keeps
 * one key per tier and passes their IDs in these variables: the usage identifier of a request
 * from an account opened before accounts had their own key, and of a refused bearer request.
 */
export const USAGE_KEY_ID_VARIABLES: Record<Tier, string> = {
  free: 'USAGE_KEY_ID_FREE',
  pro: 'USAGE_KEY_ID_PRO',
  enterprise: 'USAGE_KEY_ID_ENTERPRISE',
};

export type UsageKeyValues = Partial<Record<Tier, string>>;

/**
 * The API Gateway SDK, loaded on first use: the authorizers need it only for an account without
 * its own usage key (once per cold start), so it stays out of their cold load.
 */
const sdk = () => require('@aws-sdk/client-api-gateway') as typeof import('@aws-sdk/client-api-gateway');
const newClient = () => traced(new (sdk().APIGatewayClient)({}));

export type UsageKeyLookup = () => Promise<UsageKeyValues>;

/**
 * Reads the tiers' key values once per cold start (GetApiKey with includeValue; the values are not
 * known at synth time). Without the variables — local mode and tests, where no API Gateway exists —
 * there is nothing to look up and the authorizer omits `usageIdentifierKey`.
 */
export function usageKeyLookup(env: NodeJS.ProcessEnv = process.env, client: () => Pick<APIGatewayClient, 'send'> = newClient): UsageKeyLookup {
  let loading: Promise<UsageKeyValues> | undefined;
  const load = async (): Promise<UsageKeyValues> => {
    const configured = TIER_ORDER.filter((tier) => env[USAGE_KEY_ID_VARIABLES[tier]]);
    if (configured.length === 0) return {};
    const api = client();
    const entries = await Promise.all(configured.map(async (tier) => {
      const key = await api.send(new (sdk().GetApiKeyCommand)({ apiKey: env[USAGE_KEY_ID_VARIABLES[tier]], includeValue: true }));
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

/**
 * The stack passes each tier's usage plan name to the functions that open accounts (a name, not
 * the ID: the plan depends on the stage, whose deployment depends on those functions).
 */
export const USAGE_PLAN_NAME_VARIABLES: Record<Tier, string> = {
  free: 'USAGE_PLAN_NAME_FREE',
  pro: 'USAGE_PLAN_NAME_PRO',
  enterprise: 'USAGE_PLAN_NAME_ENTERPRISE',
};

/** The name of an account's key in API Gateway: found again by it after a retry. */
export const accountKeyName = (accountId: string) => `account-${accountId}`;

type ApiGatewaySend = Pick<APIGatewayClient, 'send'>;

/**
 * Each account's own API Gateway key, valued with the account's `usage_key`, in its tier's usage
 * plan. Creating a key whose value exists answers ConflictException (an earlier attempt created it):
 * it is then found by its name. Adding a key a plan already holds answers ConflictException too,
 * and is done. A key is in one plan of the stage at a time: a tier change removes it from the old
 * plan before adding it to the new one.
 */
export class ApiGatewayAccountUsageKeys implements AccountUsageKeys {
  private api: ApiGatewaySend | undefined;
  private planIds: Promise<Record<Tier, string>> | undefined;

  constructor(private readonly planNames: Record<Tier, string>, private readonly client: () => ApiGatewaySend = newClient) {}

  async attach(account: AccountWithUsageKey): Promise<void> {
    await this.addToPlan(account.tier, await this.keyId(account));
  }

  async move(account: AccountWithUsageKey, from: Tier): Promise<void> {
    const keyId = await this.keyId(account);
    if (from !== account.tier) {
      try {
        await this.send().send(new (sdk().DeleteUsagePlanKeyCommand)({ usagePlanId: (await this.plans())[from], keyId }));
      } catch (error) {
        if (!(error instanceof sdk().NotFoundException)) throw error;
      }
    }
    await this.addToPlan(account.tier, keyId);
  }

  private send(): ApiGatewaySend {
    return (this.api ??= this.client());
  }

  /** The plans' IDs by their names, read once per container (a failed read is tried again). */
  private plans(): Promise<Record<Tier, string>> {
    this.planIds ??= (async () => {
      const byName = new Map<string, string>();
      let position: string | undefined;
      do {
        const page = await this.send().send(new (sdk().GetUsagePlansCommand)({ limit: 500, position }));
        for (const plan of page.items ?? []) if (plan.name && plan.id) byName.set(plan.name, plan.id);
        position = page.position;
      } while (position);
      return Object.fromEntries(TIER_ORDER.map((tier) => {
        const id = byName.get(this.planNames[tier]);
        if (!id) throw new Error(`No usage plan named ${this.planNames[tier]}`);
        return [tier, id];
      })) as Record<Tier, string>;
    })().catch((error: unknown) => {
      this.planIds = undefined;
      throw error;
    });
    return this.planIds;
  }

  private async keyId(account: AccountWithUsageKey): Promise<string> {
    const name = accountKeyName(account.account_id);
    try {
      const created = await this.send().send(new (sdk().CreateApiKeyCommand)({
        name, value: account.usage_key, enabled: true, description: `Usage identifier of account ${account.account_id} (not a customer credential)`,
      }));
      return created.id!;
    } catch (error) {
      if (!(error instanceof sdk().ConflictException)) throw error;
      const { items = [] } = await this.send().send(new (sdk().GetApiKeysCommand)({ nameQuery: name, includeValues: false }));
      const existing = items.find((item) => item.name === name);
      if (!existing?.id) throw error;
      return existing.id;
    }
  }

  private async addToPlan(tier: Tier, keyId: string): Promise<void> {
    try {
      await this.send().send(new (sdk().CreateUsagePlanKeyCommand)({ usagePlanId: (await this.plans())[tier], keyId, keyType: 'API_KEY' }));
    } catch (error) {
      if (!(error instanceof sdk().ConflictException)) throw error;
    }
  }
}

/**
 * The accounts' usage keys where the stack configured the plans; undefined otherwise (local mode
 * and tests, where the local gateway keeps a token bucket per usage key without any registration).
 */
export function accountUsageKeys(env: NodeJS.ProcessEnv = process.env): AccountUsageKeys | undefined {
  if (!TIER_ORDER.every((tier) => env[USAGE_PLAN_NAME_VARIABLES[tier]])) return undefined;
  return new ApiGatewayAccountUsageKeys(Object.fromEntries(TIER_ORDER.map((tier) => [tier, env[USAGE_PLAN_NAME_VARIABLES[tier]]!])) as Record<Tier, string>);
}
