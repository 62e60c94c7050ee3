import type { getUsageRoute } from '../../shared/routes/account';
import type { RouteImplementation } from '../../shared/http/types';
import { hourWindow } from '../../shared/domain/tiers';

type UsageRoute = typeof getUsageRoute;

/** Reports the limiter's own count for this key; the route is unmetered, so this read is not in it. */
export const getUsage: RouteImplementation<UsageRoute> = async ({ account, rate, now }) => {
  const window = hourWindow(now);
  return {
    status: 200,
    body: {
      requests_used: rate!.used,
      limit: rate!.limit,
      remaining: rate!.remaining,
      reset_time: rate!.resetAt.toISOString(),
      window_start: new Date(window.resetAt.getTime() - 3600_000).toISOString(),
      subscription_tier: account!.tier,
    },
  };
};
