/**
 * The two fixed dates of the Resilient Florida cycle (DOMAIN §5, verified): local governments
 * submit proposed projects to DEP by September 1 (the portal opens July 1), and DEP delivers the
 * Statewide Flooding and Sea Level Rise Resilience Plan to the Governor and Legislature by
 * December 1, each year.
 */
export interface ProgramDeadline {
  id: 'project_proposals' | 'statewide_plan';
  name: string;
  month: number;
  day: number;
  statute_ref: string;
  requirements: string[];
}

export const PROGRAM_DEADLINES: readonly ProgramDeadline[] = [
  {
    id: 'project_proposals',
    name: 'Project proposals to DEP for the Statewide Flooding and Sea Level Rise Resilience Plan',
    month: 9,
    day: 1,
    statute_ref: 's. 380.093, F.S.',
    requirements: [
      'Submit each proposed project through DEP\'s Resilient Florida grant portal (the submission window opens July 1).',
      'A vulnerability assessment meeting s. 380.093(3) is complete, or under way, for the jurisdiction: implementation grants require one.',
      'Each project addresses risks to critical assets identified in the vulnerability assessment.',
      'State the total cost, the amount requested and the cost share (50 % for implementation projects unless the applicant is a financially disadvantaged small community).',
      'Give the project\'s readiness: design stage, permits, easements and local funding.',
    ],
  },
  {
    id: 'statewide_plan',
    name: 'Statewide Flooding and Sea Level Rise Resilience Plan to the Governor and Legislature',
    month: 12,
    day: 1,
    statute_ref: 's. 380.093, F.S.',
    requirements: [
      'DEP delivers the ranked plan of projects, covering a 3-year horizon, to the Governor, the President of the Senate and the Speaker of the House.',
      'Only projects proposed by September 1 of the same year are considered for ranking in that plan.',
      'Ranking follows the four tiers of s. 380.093 (risk reduction, readiness and cost-effectiveness, cost share and prior commitments, innovation and assistance to disadvantaged communities).',
    ],
  },
];

/**
 * Years a day may be asked from: s. 380.093 created the cycle in 2021, so earlier days had no such
 * deadlines; later than 2100 is beyond any planning horizon the program speaks of.
 */
export const DEADLINE_YEARS = { first: 2021, last: 2100 } as const;

export interface UpcomingDeadline {
  id: ProgramDeadline['id'];
  name: string;
  next_date: string;
  days_remaining: number;
  requirements: string[];
  statute_ref: string;
}

const DAY_MS = 86_400_000;

/**
 * The next occurrence on or after `today`, a Florida date (see florida-time.ts); the deadline day
 * itself has 0 days remaining. Dates are counted as calendar days, so UTC arithmetic on them is exact.
 */
export function nextOccurrence(deadline: ProgramDeadline, today: string): { next_date: string; days_remaining: number } {
  const start = Date.parse(`${today}T00:00:00Z`);
  const year = Number(today.slice(0, 4));
  let target = Date.UTC(year, deadline.month - 1, deadline.day);
  if (target < start) target = Date.UTC(year + 1, deadline.month - 1, deadline.day);
  return { next_date: new Date(target).toISOString().slice(0, 10), days_remaining: Math.round((target - start) / DAY_MS) };
}

let lastDay: { today: string; deadlines: readonly UpcomingDeadline[] } | undefined;

/** Both deadlines from `today`, soonest first (computed once per day asked, the answer being the same all day). */
export function upcomingDeadlines(today: string): readonly UpcomingDeadline[] {
  if (lastDay?.today !== today) lastDay = { today, deadlines: deadlinesFrom(today) };
  return lastDay.deadlines;
}

function deadlinesFrom(today: string): UpcomingDeadline[] {
  return PROGRAM_DEADLINES
    .map((deadline) => ({
      id: deadline.id,
      name: deadline.name,
      ...nextOccurrence(deadline, today),
      requirements: deadline.requirements,
      statute_ref: deadline.statute_ref,
    }))
    .sort((a, b) => a.days_remaining - b.days_remaining);
}
