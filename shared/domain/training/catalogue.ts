import courseData from '../../data/v1/courses/courses.json';
import programmeData from '../../data/v1/courses/programmes.json';
import { InvalidCursorError } from '../errors';
import { decodeListCursor, encodeListCursor } from '../list-cursor';

export interface Course {
  code: string;
  title: string;
  provider: string;
  delivery: string;
  hours: number | null;
  ceu: number | null;
  prerequisites_text: string;
  /** Catalogue codes that must be completed first. */
  prerequisites: string[];
  /** Catalogue codes advised first, not enforced. */
  recommended: string[];
  audience: string;
  topic: string;
  url: string;
  /** The catalogue's evidence confirms the hours; otherwise they are placeholders to check. */
  hours_verified: boolean;
  evidence: string;
  evidence_source: string | null;
}

export interface Programme {
  id: string;
  name: string;
  description: string;
  courses: string[];
  basis: string;
}

export const COURSES: readonly Course[] = courseData as Course[];
export const PROGRAMMES: readonly Programme[] = programmeData.programmes;
export const CREDENTIAL_POLICY = programmeData.credential_policy;
export const COURSE_TOPICS = [...new Set(COURSES.map((c) => c.topic))].sort();

const byCode = new Map(COURSES.map((c) => [c.code.toLowerCase(), c]));

/** Course codes are matched without regard to case (`is-100.C` is IS-100.c). */
export function courseByCode(code: string): Course | undefined {
  return byCode.get(code.trim().toLowerCase());
}

export interface CourseQuery {
  topic?: string;
  provider?: string;
  q?: string;
  limit: number;
  cursor?: string;
}

function matches(course: Course, query: CourseQuery): boolean {
  if (query.topic && course.topic !== query.topic) return false;
  if (query.provider && !course.provider.toLowerCase().includes(query.provider.toLowerCase())) return false;
  if (query.q) {
    const text = `${course.code} ${course.title} ${course.audience} ${course.topic}`.toLowerCase();
    if (!query.q.toLowerCase().split(/\s+/).filter(Boolean).every((word) => text.includes(word))) return false;
  }
  return true;
}

/** A cursor names the last code of the page and the filters it was issued for. */
function filterKey(query: CourseQuery): string {
  return JSON.stringify([query.topic ?? '', query.provider ?? '', query.q ?? '']);
}

function decodeCursor(cursor: string, query: CourseQuery): string {
  return decodeListCursor(cursor, ({ after, f }) => (typeof after === 'string' && f === filterKey(query) && courseByCode(after) ? after : undefined));
}

/** A page of the catalogue in its own order; `enrolled` names the caller's courses. */
export function listCourses(query: CourseQuery, enrolledCodes: ReadonlySet<string>) {
  const selected = COURSES.filter((c) => matches(c, query));
  const after = query.cursor === undefined ? undefined : decodeCursor(query.cursor, query);
  const position = after === undefined ? -1 : selected.findIndex((c) => c.code === after);
  if (after !== undefined && position < 0) throw new InvalidCursorError();
  const start = position + 1;
  const page = selected.slice(start, start + query.limit);
  const more = start + query.limit < selected.length;
  return {
    data: page.map((course) => courseRow(course, enrolledCodes.has(course.code))),
    next_cursor: more ? encodeListCursor({ after: page[page.length - 1]!.code, f: filterKey(query) }) : null,
  };
}

export function courseRow(course: Course, enrolled: boolean) {
  return {
    code: course.code,
    title: course.title,
    provider: course.provider,
    delivery: course.delivery,
    hours: course.hours,
    ceu: course.ceu,
    prerequisites: course.prerequisites,
    recommended: course.recommended,
    prerequisites_text: course.prerequisites_text,
    topic: course.topic,
    audience: course.audience,
    url: course.url,
    verified: course.hours_verified,
    evidence: course.evidence,
    enrolled,
  };
}
