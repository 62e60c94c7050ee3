import { upcomingDeadlines, type UpcomingDeadline } from '../../domain/grants/deadlines';
import { rankProject, type RankingProject, type RankingResult } from '../../domain/grants/ranking';
import { CURRENT_RANKING_RUBRIC } from '../../domain/grants/ranking-rubric';
import { floridaDate } from '../../domain/florida-time';

/** `GET /grants/deadlines`: the program's next deadlines from `date`, or from today. */
export function grantDeadlines(date: string | undefined, now: Date): { data: readonly UpcomingDeadline[]; as_of: string } {
  // "Today" is the Florida date: the statute's deadlines fall on Florida days.
  const today = date ?? floridaDate(now);
  return { data: upcomingDeadlines(today), as_of: today };
}

/** `POST /grants/ranking`: the project scored against the rubric in force. */
export function rankGrantProject(project: RankingProject): RankingResult {
  return rankProject(project, CURRENT_RANKING_RUBRIC);
}
