import path from 'node:path';
import { readCsvRows } from '../helpers/v1-risk-csv';
import { COURSES, CREDENTIAL_POLICY, courseByCode, listCourses, PROGRAMMES } from '../../shared/domain/training/catalogue';
import { InvalidCursorError } from '../../shared/domain/errors';

const rows = readCsvRows(path.join(__dirname, '../../shared/data/v1/courses/courses.csv'));

describe('course catalogue', () => {
  it('serves the 34 catalogue rows with their published fields', () => {
    expect(COURSES.map((c) => c.code)).toEqual(rows.map((r) => r.code));
    for (const row of rows) {
      const course = courseByCode(row.code!)!;
      expect(course).toMatchObject({ title: row.title, provider: row.provider, delivery: row.delivery, topic: row.topic, url: row.url, evidence: row.evidence });
      expect(course.hours).toBe(Number(row.hours));
      expect(course.ceu).toBe(Number(row.ceu));
    }
  });

  it('enforces only prerequisites the catalogue lists as required, and every one is a catalogue course', () => {
    const required = Object.fromEntries(COURSES.filter((c) => c.prerequisites.length > 0).map((c) => [c.code, c.prerequisites]));
    expect(required).toEqual({
      'IS-200.c': ['IS-100.c'],
      'E/L/G0300': ['IS-100.c', 'IS-200.c', 'IS-700.b'],
      'E/L/G0400': ['IS-100.c', 'IS-200.c', 'E/L/G0300', 'IS-700.b', 'IS-800.d'],
    });
    // Rows whose text says "recommended" or "none" never block an enrolment.
    for (const row of rows.filter((r) => /recommended|^none/i.test(r.prerequisites!))) expect(courseByCode(row.code!)!.prerequisites).toEqual([]);
  });

  it('marks hours as verified only where the evidence confirms them', () => {
    for (const row of rows) {
      const confirmed = row.evidence!.startsWith('verified') && row.evidence!.split('(')[0]!.includes('hours');
      expect([row.code, courseByCode(row.code!)!.hours_verified]).toEqual([row.code, confirmed]);
    }
  });

  it('defines the Resilient Florida vulnerability assessment track from catalogue courses', () => {
    const track = PROGRAMMES.find((p) => p.name === 'Resilient Florida vulnerability assessment')!;
    expect(track.courses.length).toBeGreaterThanOrEqual(3);
    for (const programme of PROGRAMMES) for (const code of programme.courses) expect(courseByCode(code)).toBeDefined();
    expect(CREDENTIAL_POLICY).toMatchObject({ validity_years: 3, expiring_within_days: 90 });
  });

  it('pages with cursors bound to their filters', () => {
    const first = listCourses({ topic: 'preparedness', limit: 4 }, new Set(['IS-22']));
    expect(first.data.map((c) => c.code)).toEqual(rows.filter((r) => r.topic === 'preparedness').slice(0, 4).map((r) => r.code));
    expect(first.data[0]).toMatchObject({ code: 'IS-22', enrolled: true });
    const second = listCourses({ topic: 'preparedness', limit: 4, cursor: first.next_cursor! }, new Set());
    expect(second.data.map((c) => c.code)).toEqual(rows.filter((r) => r.topic === 'preparedness').slice(4, 8).map((r) => r.code));
    expect(second.next_cursor).toBeNull();
    expect(() => listCourses({ topic: 'mitigation', limit: 4, cursor: first.next_cursor! }, new Set())).toThrow(InvalidCursorError);
    expect(() => listCourses({ limit: 4, cursor: 'not-a-cursor' }, new Set())).toThrow(InvalidCursorError);
  });
});
