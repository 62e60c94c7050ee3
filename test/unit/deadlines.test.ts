import { nextOccurrence, PROGRAM_DEADLINES, upcomingDeadlines } from '../../shared/domain/grants/deadlines';

const proposals = PROGRAM_DEADLINES.find((d) => d.id === 'project_proposals')!;
const plan = PROGRAM_DEADLINES.find((d) => d.id === 'statewide_plan')!;

describe('program deadlines', () => {
  it('counts days to September 1 within the year', () => {
    // 2026-08-02 → 2026-09-01: 29 days left in August + 1 = 30.
    expect(nextOccurrence(proposals, '2026-08-02')).toEqual({ next_date: '2026-09-01', days_remaining: 30 });
  });

  it('answers 0 on the deadline day and rolls over the day after', () => {
    expect(nextOccurrence(proposals, '2026-09-01')).toEqual({ next_date: '2026-09-01', days_remaining: 0 });
    expect(nextOccurrence(proposals, '2026-09-02')).toEqual({ next_date: '2027-09-01', days_remaining: 364 });
  });

  it('handles leap years', () => {
    // 2027-12-02 → 2028-12-01 spans 29 February 2028: 365 days.
    expect(nextOccurrence(plan, '2027-12-02')).toEqual({ next_date: '2028-12-01', days_remaining: 365 });
  });

  it('lists both deadlines soonest first with their requirements', () => {
    const list = upcomingDeadlines('2026-11-21');
    expect(list.map((d) => [d.id, d.next_date, d.days_remaining])).toEqual([
      ['statewide_plan', '2026-12-01', 10],
      ['project_proposals', '2027-09-01', 284],
    ]);
    for (const d of list) expect(d.requirements.length).toBeGreaterThan(0);
  });
});
