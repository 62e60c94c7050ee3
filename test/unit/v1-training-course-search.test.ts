import courses from '../../shared/data/v1/courses/courses.json';
import { courseByCode, listCourses } from '../../shared/domain/training/catalogue';
import { InvalidCursorError } from '../../shared/domain/errors';

/** Course filters and paging against the bundled catalogue, each expectation computed here from the JSON. */

const codes = (page: { data: { code: string }[] }) => page.data.map((c) => c.code);
const everything = (query: { topic?: string; provider?: string; q?: string }) => {
  const all: string[] = [];
  let cursor: string | undefined;
  do {
    const page = listCourses({ ...query, limit: 5, cursor }, new Set());
    all.push(...codes(page));
    cursor = page.next_cursor ?? undefined;
  } while (cursor);
  return all;
};

describe('course search', () => {
  it('filters by provider without regard to case, and by every word of q over code, title, audience and topic', () => {
    const fdem = courses.filter((c) => c.provider.toLowerCase().includes('fdem')).map((c) => c.code);
    expect(fdem.length).toBeGreaterThan(0);
    expect(everything({ provider: 'FDEM' })).toEqual(fdem);
    const words = ['floodplain', 'ADVANCED'];
    const expected = courses.filter((c) => words.every((w) => `${c.code} ${c.title} ${c.audience} ${c.topic}`.toLowerCase().includes(w.toLowerCase()))).map((c) => c.code);
    expect(expected).toEqual(['E0194', 'E0282', 'E0284']);
    expect(everything({ q: '  floodplain   ADVANCED ' })).toEqual(expected);
    expect(everything({ q: 'floodplain nosuchword' })).toEqual([]);
    expect(everything({})).toEqual(courses.map((c) => c.code));
  });

  it('pages exactly: a full last page has no cursor, and a cursor only continues its own filters', () => {
    const fdem = courses.filter((c) => c.provider.toLowerCase().includes('fdem')).map((c) => c.code);
    const exact = listCourses({ provider: 'fdem', limit: fdem.length }, new Set([fdem[0]!]));
    expect(codes(exact)).toEqual(fdem);
    expect(exact.next_cursor).toBeNull();
    expect(exact.data.map((c) => c.enrolled)).toEqual(fdem.map((_c, i) => i === 0));
    const first = listCourses({ provider: 'fdem', limit: 1 }, new Set());
    expect(() => listCourses({ provider: 'other', limit: 1, cursor: first.next_cursor! }, new Set())).toThrow();
    expect(() => listCourses({ q: 'fdem', limit: 1, cursor: first.next_cursor! }, new Set())).toThrow();
    expect(() => listCourses({ topic: 'fdem', limit: 1, cursor: first.next_cursor! }, new Set())).toThrow();
    // A cursor naming a course outside the filtered list is refused.
    const all = listCourses({ limit: 1 }, new Set());
    expect(() => listCourses({ limit: 1, cursor: all.next_cursor!, provider: 'fdem' }, new Set())).toThrow();
    expect(codes(listCourses({ limit: 2, cursor: all.next_cursor! }, new Set()))).toEqual(courses.slice(1, 3).map((c) => c.code));
  });

  it('refuses a filtered list\'s cursor on the unfiltered list, though its course is there too', () => {
    const topic = courses[0]!.topic;
    for (const filter of [{ topic }, { provider: 'fdem' }, { q: 'flood' }]) {
      const page = listCourses({ ...filter, limit: 1 }, new Set());
      expect(page.next_cursor).not.toBeNull();
      expect(() => listCourses({ limit: 1, cursor: page.next_cursor! }, new Set())).toThrow(InvalidCursorError);
      expect(listCourses({ ...filter, limit: 1, cursor: page.next_cursor! }, new Set()).data).toHaveLength(1);
    }
  });

  it('refuses a cursor on another filter of the same kind whose list holds its course as well', () => {
    // The cursor's course is the first of a list filtered by provider 'fdem', or by q 'floodplain'.
    const byProvider = listCourses({ provider: 'fdem', limit: 1 }, new Set());
    const providerCourse = courses.find((c) => c.code === byProvider.data[0]!.code)!;
    // Its full provider name lists it too, but the cursor was issued for 'fdem'.
    expect(everything({ provider: providerCourse.provider })).toContain(providerCourse.code);
    expect(() => listCourses({ provider: providerCourse.provider, limit: 1, cursor: byProvider.next_cursor! }, new Set())).toThrow(InvalidCursorError);
    const byWords = listCourses({ q: 'floodplain', limit: 1 }, new Set());
    const wordsCourse = courses.find((c) => c.code === byWords.data[0]!.code)!;
    const narrower = `floodplain ${wordsCourse.code}`;
    expect(everything({ q: narrower })).toEqual([wordsCourse.code]);
    expect(() => listCourses({ q: narrower, limit: 1, cursor: byWords.next_cursor! }, new Set())).toThrow(InvalidCursorError);
  });

  it('refuses a cursor altered to name a course outside its list, or no course at all', () => {
    const fdem = courses.filter((c) => c.provider.toLowerCase().includes('fdem')).map((c) => c.code);
    const outside = courses.find((c) => !fdem.includes(c.code))!.code;
    const page = listCourses({ provider: 'fdem', limit: 1 }, new Set());
    const content = JSON.parse(Buffer.from(page.next_cursor!, 'base64url').toString('utf8'));
    const altered = (after: string) => Buffer.from(JSON.stringify({ ...content, after })).toString('base64url');
    expect(codes(listCourses({ provider: 'fdem', limit: 1, cursor: altered(fdem[1]!) }, new Set()))).toEqual([fdem[2]]);
    expect(() => listCourses({ provider: 'fdem', limit: 1, cursor: altered(outside) }, new Set())).toThrow(InvalidCursorError);
    expect(() => listCourses({ provider: 'fdem', limit: 1, cursor: altered('NO-SUCH-COURSE') }, new Set())).toThrow(InvalidCursorError);
  });

  it('finds a course by its code with spaces around it', () => {
    expect(courseByCode('  is-9 ')?.code).toBe('IS-9');
  });
});
