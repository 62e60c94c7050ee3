import { nextOccurrence, PROGRAM_DEADLINES, upcomingDeadlines } from '../../shared/domain/grants/deadlines';
import { floridaDate } from '../../shared/domain/florida-time';
import { createGroupHandler } from '../../shared/http/pipeline';
import { grantRoutes } from '../../shared/routes/grants';
import { listGrantDeadlines } from '../../functions/grants/handler';

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

describe('Florida time for "today"', () => {
  it('dates an instant on the Eastern clock, across both DST changes', () => {
    // EST (UTC-5) in winter, EDT (UTC-4) in summer; 2026 DST runs 8 March to 1 November.
    expect(floridaDate(new Date('2026-11-22T04:30:00Z'))).toBe('2026-11-21');
    expect(floridaDate(new Date('2026-11-22T05:00:00Z'))).toBe('2026-11-22');
    expect(floridaDate(new Date('2026-08-02T03:30:00Z'))).toBe('2026-08-01');
    expect(floridaDate(new Date('2026-08-02T04:00:00Z'))).toBe('2026-08-02');
    expect(floridaDate(new Date('2026-03-08T06:59:00Z'))).toBe('2026-03-08');
    expect(floridaDate(new Date('2026-01-01T04:59:59Z'))).toBe('2025-12-31');
  });

  describe('GET /grants/deadlines at 23:30 Eastern', () => {
    const at = (instant: string) => createGroupHandler(grantRoutes, { checkGrantEligibility: async () => ({ status: 500 }), listGrantDeadlines, rankGrantProject: async () => ({ status: 500 }) }, {
      usage: () => ({ consume: async () => ({ used: 1, allowed: true }), used: async () => 1 }),
      clock: () => new Date(instant),
    });
    const call = async (instant: string) => {
      const result = await at(instant)({
        httpMethod: 'GET', resource: '/grants/deadlines', path: '/grants/deadlines', headers: {}, body: null, isBase64Encoded: false,
        queryStringParameters: null, multiValueQueryStringParameters: null, pathParameters: null, stageVariables: null, multiValueHeaders: {},
        requestContext: { requestId: 'r1', stage: 'api', authorizer: { accountId: 'a1', tier: 'free', keyHash: 'k1' } } as never,
      }, {} as never);
      return JSON.parse(result.body);
    };

    it('counts from the Florida date in winter: 23:30 EST on 21 November is 04:30 UTC on the 22nd', async () => {
      const body = await call('2026-11-22T04:30:00Z');
      expect(body.as_of).toBe('2026-11-21');
      // 21 November → 1 December: 9 days left in November + 1 = 10 (the UTC date would give 9).
      expect(body.data[0]).toMatchObject({ id: 'statewide_plan', next_date: '2026-12-01', days_remaining: 10 });
    });

    it('counts from the Florida date in summer: 23:30 EDT on 1 August is 03:30 UTC on the 2nd', async () => {
      const body = await call('2026-08-02T03:30:00Z');
      expect(body.as_of).toBe('2026-08-01');
      // 1 August → 1 September: 31 days (the UTC date would give 30).
      expect(body.data[0]).toMatchObject({ id: 'project_proposals', next_date: '2026-09-01', days_remaining: 31 });
    });
  });
});
