import { upcomingDeadlines } from '../../../shared/domain/grants/deadlines';
import { HOURLY_LIMITS, hourWindow, leaseBlockSize, tierAllows } from '../../../shared/domain/tiers';
import { TIER_ORDER, type Tier } from '../../../shared/domain/tiers';
import { freshModule } from '../../helpers/fresh-module';

/**
 * Program deadlines (DOMAIN §5, verified): project proposals by September 1, the Statewide Plan by
 * December 1, every year. Tiers (DESIGN §3): Free 25 requests per hour, Pro 5,000, Enterprise
 * unlimited, ordered free < pro < enterprise; counted per UTC clock hour.
 */
const DEADLINES = { project_proposals: { month: 9, day: 1 }, statewide_plan: { month: 12, day: 1 } };

/** Walks the calendar one day at a time: an independent count of days to the next month/day. */
function walkTo(today: string, month: number, day: number): { next_date: string; days_remaining: number } {
  const date = new Date(`${today}T00:00:00Z`);
  let days = 0;
  while (!(date.getUTCMonth() + 1 === month && date.getUTCDate() === day)) {
    date.setUTCDate(date.getUTCDate() + 1);
    days++;
  }
  return { next_date: date.toISOString().slice(0, 10), days_remaining: days };
}

function everyDay(from: string, to: string): string[] {
  const days: string[] = [];
  for (const date = new Date(`${from}T00:00:00Z`); date.toISOString().slice(0, 10) <= to; date.setUTCDate(date.getUTCDate() + 1)) days.push(date.toISOString().slice(0, 10));
  return days;
}

describe('pins: program deadlines', () => {
  it.each([
    ['2026-09-01', 'project_proposals', '2026-09-01', 0],
    ['2026-08-31', 'project_proposals', '2026-09-01', 1],
    ['2026-09-02', 'project_proposals', '2027-09-01', 364],
    ['2027-09-02', 'project_proposals', '2028-09-01', 365],
    ['2026-12-01', 'statewide_plan', '2026-12-01', 0],
    ['2026-11-30', 'statewide_plan', '2026-12-01', 1],
    ['2026-12-02', 'statewide_plan', '2027-12-01', 364],
    ['2027-12-02', 'statewide_plan', '2028-12-01', 365],
    ['2026-01-01', 'project_proposals', '2026-09-01', 243],
    ['2028-01-01', 'project_proposals', '2028-09-01', 244],
    ['2026-01-01', 'statewide_plan', '2026-12-01', 334],
  ])('from %s the next %s is %s, %i days away', (today, id, nextDate, days) => {
    expect(upcomingDeadlines(today).find((d) => d.id === id)).toMatchObject({ next_date: nextDate, days_remaining: days });
  });

  it('matches a day-by-day calendar walk for every day of 2027 and of leap year 2028, soonest first', () => {
    for (const today of everyDay('2027-01-01', '2028-12-31')) {
      const expected = Object.entries(DEADLINES)
        .map(([id, { month, day }]) => ({ id, ...walkTo(today, month, day) }))
        .sort((a, b) => a.days_remaining - b.days_remaining);
      const actual = upcomingDeadlines(today).map(({ id, next_date, days_remaining }) => ({ id, next_date, days_remaining }));
      expect({ today, deadlines: actual }).toEqual({ today, deadlines: expected });
    }
  });
});

describe('pins: tiers', () => {
  it('orders free < pro < enterprise', () => {
    expect(TIER_ORDER).toEqual(['free', 'pro', 'enterprise']);
    // The order is built when the module loads: loaded here afresh, so a mutation run sees this test use it.
    const fresh = freshModule<typeof import('../../../shared/domain/tiers')>(require.resolve('../../../shared/domain/tiers'));
    expect(fresh.TIER_ORDER).toEqual(['free', 'pro', 'enterprise']);
    expect(fresh.tierAllows('pro', 'free')).toBe(true);
    expect(fresh.tierAllows('free', 'pro')).toBe(false);
  });

  it('limits Free to 25 and Pro to 5,000 requests an hour; Enterprise is unlimited', () => {
    expect(HOURLY_LIMITS).toEqual({ free: 25, pro: 5000, enterprise: null });
  });

  const order: Tier[] = ['free', 'pro', 'enterprise'];
  it.each(order.flatMap((caller) => order.map((minimum) => [caller, minimum, order.indexOf(caller) >= order.indexOf(minimum)] as const)))(
    'a %s key on a %s route: allowed %s',
    (caller, minimum, allowed) => {
      expect(tierAllows(caller, minimum)).toBe(allowed);
    },
  );

  it.each([
    ['2026-11-23T05:00:00.000Z', '2026-11-23T05', '2026-11-23T06:00:00.000Z', 3600],
    ['2026-11-23T05:59:59.999Z', '2026-11-23T05', '2026-11-23T06:00:00.000Z', 1],
    ['2026-11-23T05:30:00.500Z', '2026-11-23T05', '2026-11-23T06:00:00.000Z', 1800],
    ['2026-12-31T23:15:00.000Z', '2026-12-31T23', '2027-01-01T00:00:00.000Z', 2700],
  ])('counts %s in the UTC clock hour %s, resetting at %s (%i s)', (now, id, resetAt, seconds) => {
    const window = hourWindow(new Date(now));
    expect([window.id, window.resetAt.toISOString(), window.resetSeconds]).toEqual([id, resetAt, seconds]);
  });

  it.each([
    [25, 10, 2], [24, 10, 2], [19, 10, 1], [10, 10, 1], [9, 10, 1], [1, 10, 1], [0, 10, 1],
    [5000, 10, 10], [5000, 2.5, 3], [5000, 1000, 200], [1500, 1000, 150], [100000, 0, 1],
  ])('leases at most a tenth of the %i left (demand %p): %i', (remaining, demand, block) => {
    expect(leaseBlockSize(remaining, demand)).toBe(block);
  });
});
