import {
  BadRequestException, ConflictException, CreateApiKeyCommand, CreateUsagePlanKeyCommand, DeleteUsagePlanKeyCommand, GetApiKeysCommand, GetUsagePlansCommand,
  NotFoundException,
  type APIGatewayClient,
} from '@aws-sdk/client-api-gateway';
import { accountKeyName, accountUsageKeys, ApiGatewayAccountUsageKeys, USAGE_PLAN_NAME_VARIABLES } from '../../shared/adapters/usage-keys';
import type { AccountWithUsageKey } from '../../shared/ports';

const PLANS = { free: 'plan-free', pro: 'plan-pro', enterprise: 'plan-enterprise' };
/** The plans as the stack names them; API Gateway lists them by name, two to a page here. */
const PLAN_NAMES = { free: 'Stack-free', pro: 'Stack-pro', enterprise: 'Stack-enterprise' };
const meta = { $metadata: {} };

/**
 * API Gateway's keys and usage plans as its control plane keeps them: a key value exists once, a
 * plan holds a key once, and a key is in at most one plan of the stage (all three plans share it).
 */
function fakeApiGateway() {
  const keys = new Map<string, { id: string; name: string }>();
  const plans = new Map<string, Set<string>>(Object.values(PLANS).map((id) => [id, new Set()]));
  const calls: string[] = [];
  const send = async (command: unknown) => {
    calls.push((command as object).constructor.name);
    if (command instanceof CreateApiKeyCommand) {
      const { name, value } = command.input;
      if (keys.has(value!)) throw new ConflictException({ message: 'API Key already exists', ...meta });
      const id = `key${keys.size + 1}`;
      keys.set(value!, { id, name: name! });
      return { id, name };
    }
    if (command instanceof GetUsagePlansCommand) {
      const all = [{ id: 'plan-other', name: 'Other-free' }, ...Object.entries(PLANS).map(([tier, id]) => ({ id, name: PLAN_NAMES[tier as keyof typeof PLANS] }))];
      const start = Number(command.input.position ?? 0);
      return { items: all.slice(start, start + 2), position: start + 2 < all.length ? String(start + 2) : undefined };
    }
    if (command instanceof GetApiKeysCommand) {
      return { items: [...keys.values()].filter((key) => key.name.startsWith(command.input.nameQuery!)) };
    }
    if (command instanceof CreateUsagePlanKeyCommand) {
      const { usagePlanId, keyId } = command.input;
      if (plans.get(usagePlanId!)!.has(keyId!)) throw new ConflictException({ message: 'already in plan', ...meta });
      if ([...plans.values()].some((held) => held.has(keyId!))) throw new BadRequestException({ message: 'cannot reference multiple usage plans on one stage', ...meta });
      plans.get(usagePlanId!)!.add(keyId!);
      return {};
    }
    if (command instanceof DeleteUsagePlanKeyCommand) {
      if (!plans.get(command.input.usagePlanId!)!.delete(command.input.keyId!)) throw new NotFoundException({ message: 'not in plan', ...meta });
      return {};
    }
    throw new Error(`unexpected ${String(command)}`);
  };
  const planOf = (value: string) => {
    const id = keys.get(value)?.id;
    return Object.entries(PLANS).filter(([, plan]) => plans.get(plan)!.has(id!)).map(([tier]) => tier);
  };
  return { client: { send } as unknown as Pick<APIGatewayClient, 'send'>, keys, calls, planOf };
}

const account = (tier: AccountWithUsageKey['tier'], id = 'acct_1'): AccountWithUsageKey => ({
  account_id: id, name: 'Monroe County', tier, created_at: '2026-11-29T00:00:00Z', usage_key: `vacu_value-of-${id}-000000000000000000`,
});

describe('each account\'s own API Gateway key', () => {
  it('creates the key with the account\'s value and name and puts it in its tier\'s plan', async () => {
    const gateway = fakeApiGateway();
    await new ApiGatewayAccountUsageKeys(PLAN_NAMES, () => gateway.client).attach(account('pro'));
    expect(gateway.keys.get(account('pro').usage_key)?.name).toBe(accountKeyName('acct_1'));
    expect(gateway.planOf(account('pro').usage_key)).toEqual(['pro']);
  });

  it('is idempotent: attaching again finds the key by its name and leaves one key in one plan', async () => {
    const gateway = fakeApiGateway();
    const keys = new ApiGatewayAccountUsageKeys(PLAN_NAMES, () => gateway.client);
    await keys.attach(account('free'));
    await keys.attach(account('free'));
    expect(gateway.keys.size).toBe(1);
    expect(gateway.planOf(account('free').usage_key)).toEqual(['free']);
    expect(gateway.calls.filter((c) => c === 'GetApiKeysCommand')).toHaveLength(1);
    // The plans are listed once (over their pages), not for every account.
    expect(gateway.calls.filter((c) => c === 'GetUsagePlansCommand')).toHaveLength(2);
  });

  it('finds the right key among names that share its prefix', async () => {
    const gateway = fakeApiGateway();
    const keys = new ApiGatewayAccountUsageKeys(PLAN_NAMES, () => gateway.client);
    await keys.attach(account('free', 'acct_10'));
    await keys.attach(account('pro', 'acct_1'));
    await keys.attach(account('pro', 'acct_1'));
    expect(gateway.planOf(account('pro', 'acct_1').usage_key)).toEqual(['pro']);
    expect(gateway.planOf(account('free', 'acct_10').usage_key)).toEqual(['free']);
  });

  it('moves the key between plans on a tier change, also when a first move stopped halfway', async () => {
    const gateway = fakeApiGateway();
    const keys = new ApiGatewayAccountUsageKeys(PLAN_NAMES, () => gateway.client);
    await keys.attach(account('free'));
    await keys.move(account('enterprise'), 'free');
    expect(gateway.planOf(account('free').usage_key)).toEqual(['enterprise']);
    // Again, as a retry would: the old plan no longer holds it, the new one already does.
    await keys.move(account('enterprise'), 'free');
    expect(gateway.planOf(account('free').usage_key)).toEqual(['enterprise']);
  });

  it('refuses to attach where no plan has the tier\'s name', async () => {
    const gateway = fakeApiGateway();
    const keys = new ApiGatewayAccountUsageKeys({ ...PLAN_NAMES, pro: 'Renamed-pro' }, () => gateway.client);
    await expect(keys.attach(account('pro'))).rejects.toThrow('No usage plan named Renamed-pro');
  });

  it('passes on other failures', async () => {
    const keys = new ApiGatewayAccountUsageKeys(PLAN_NAMES, () => ({ send: async () => { throw new Error('throttled'); } }) as unknown as Pick<APIGatewayClient, 'send'>);
    await expect(keys.attach(account('free'))).rejects.toThrow('throttled');
  });

  it('is configured only where the stack names every tier\'s plan', () => {
    const env = Object.fromEntries(Object.entries(USAGE_PLAN_NAME_VARIABLES).map(([tier, variable]) => [variable, `plan-${tier}`]));
    expect(accountUsageKeys(env)).toBeInstanceOf(ApiGatewayAccountUsageKeys);
    expect(accountUsageKeys({ ...env, USAGE_PLAN_NAME_PRO: '' })).toBeUndefined();
    expect(accountUsageKeys({})).toBeUndefined();
  });
});
