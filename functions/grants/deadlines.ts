import type { listGrantDeadlinesRoute } from '../../shared/routes/grants';
import type { RouteImplementation } from '../../shared/http/types';
import { upcomingDeadlines } from '../../shared/domain/grants/deadlines';
import { floridaDate } from '../../shared/domain/florida-time';

type DeadlinesRoute = typeof listGrantDeadlinesRoute;

export const listGrantDeadlines: RouteImplementation<DeadlinesRoute> = async ({ query, now }) => {
  // "Today" is the Florida date: the statute's deadlines fall on Florida days.
  const today = query.date ?? floridaDate(now);
  return { status: 200, body: { data: upcomingDeadlines(today), as_of: today } };
};
