import type { listGrantDeadlinesRoute } from '../../shared/routes/grants';
import type { RouteImplementation } from '../../shared/http/types';
import { upcomingDeadlines, utcDay } from '../../shared/domain/grants/deadlines';

type DeadlinesRoute = typeof listGrantDeadlinesRoute;

export const listGrantDeadlines: RouteImplementation<DeadlinesRoute> = async ({ query, now }) => {
  const today = query.date ?? utcDay(now);
  return { status: 200, body: { data: upcomingDeadlines(today), as_of: today } };
};
