import type { rankGrantProjectRoute } from '../../shared/routes/grants';
import type { RouteImplementation } from '../../shared/http/types';
import { rankProject } from '../../shared/domain/grants/ranking';
import { CURRENT_RANKING_RUBRIC } from '../../shared/domain/grants/ranking-rubric';

type RankingRoute = typeof rankGrantProjectRoute;

export const rankGrantProject: RouteImplementation<RankingRoute> = async ({ body }) => ({
  status: 200,
  body: rankProject(body, CURRENT_RANKING_RUBRIC),
});
