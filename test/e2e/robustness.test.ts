import { ROUTES } from '../../shared/routes';
import { startTestApp } from '../helpers/local-app';

/**
 * Malformed input of every kind, sent to every route: the answer is always a 4xx problem, never
 * a 5xx, and the server keeps answering.
 */
const JUNK_BODIES: Array<{ body: string | Buffer; type: string }> = [
  { body: '', type: 'application/json' },
  { body: 'null', type: 'application/json' },
  { body: '[]', type: 'application/json' },
  { body: '"text"', type: 'application/json' },
  { body: '{"a":', type: 'application/json' },
  { body: '{}', type: 'application/json' },
  { body: JSON.stringify({ jurisdiction: { $gt: '' }, lat: 'NaN', lon: 1e309, boundary_geojson: { type: 'Polygon', coordinates: [[[0, 0]]] } }), type: 'application/json' },
  { body: '['.repeat(5000) + ']'.repeat(5000), type: 'application/json' },
  { body: Buffer.from([0xff, 0xfe, 0x00, 0x01]), type: 'application/json' },
  { body: 'not multipart', type: 'multipart/form-data; boundary=xyz' },
  { body: '--xyz\r\nContent-Disposition: form-data; name="file"; filename="a.csv"\r\n\r\n\u0000\u0001\r\n--xyz--\r\n', type: 'multipart/form-data; boundary=xyz' },
  { body: '<xml/>', type: 'application/xml' },
];

const JUNK_VALUES = ['', '-1', '1e999', 'NaN', '%00', '..', '2024-02-30..2024-01-01', '../../etc/passwd', 'x'.repeat(3000), '[object Object]'];

function concretePath(template: string, value: string): string {
  return template.replace(/\{\w+\}/g, encodeURIComponent(value));
}

describe('no input produces a 5xx', () => {
  let app: Awaited<ReturnType<typeof startTestApp>>;

  beforeAll(async () => {
    app = await startTestApp({ backgroundWorkers: false });
  });
  afterAll(async () => {
    await app.stop();
  });

  it.each(ROUTES.map((route) => [`${route.method} ${route.path}`, route] as const))('%s', async (_name, route) => {
    const key = app.keys.enterprise;
    const statuses: number[] = [];
    const queryNames = route.request?.query ? Object.keys(route.request.query.shape) : ['q'];
    for (const value of JUNK_VALUES) {
      const query = new URLSearchParams(queryNames.map((name): [string, string] => [name, value])).toString();
      const path = `${concretePath(route.path, value || 'x')}?${query}`;
      if (route.method === 'GET' || route.method === 'DELETE') {
        statuses.push((await app.request(route.method, path, { key })).status);
      }
    }
    if (route.method !== 'GET' && route.method !== 'DELETE') {
      for (const junk of JUNK_BODIES) {
        const res = await app.request(route.method, concretePath(route.path, 'x'), { key, body: junk.body, headers: { 'Content-Type': junk.type } });
        statuses.push(res.status);
        if (res.status >= 400) expect(res.headers.get('content-type')).toBe('application/problem+json');
      }
    }
    expect(statuses.filter((status) => status >= 500)).toEqual([]);
  });

  // Well-formed but unusual: far from Florida, at the edges of ranges, empty results.
  it.each([
    ['GET', '/hazards/slr-scenarios?location=0,0&time_horizon=2150', undefined],
    ['GET', '/hazards/slr-scenarios?location=90,180&time_horizon=2020', undefined],
    ['GET', '/hazards/slr-scenarios?location=Atlanta', undefined],
    ['GET', '/hazards/flood-events?location=-89.9,179.9&radius_km=500', undefined],
    ['POST', '/hazards/slr-impact', { lat: 0, lon: 0, scenario: 'high', planning_horizon: 2150 }],
    ['POST', '/hazards/slr-impact', { lat: 24.55, lon: -81.8, scenario: 'low', planning_horizon: 2020, radius_km: 5, include_geojson: true }],
    ['POST', '/hazards/flood-analysis', { boundary_geojson: { type: 'Polygon', coordinates: [[[179, 0], [-179, 0], [-179, 1], [179, 1], [179, 0]]] } }],
    ['POST', '/hazards/flood-analysis', { boundary_geojson: { type: 'MultiPolygon', coordinates: [] } }],
    ['GET', '/assets?jurisdiction=Nowhere', undefined],
    ['GET', '/assets?jurisdiction=Monroe%20County&format=xlsx', undefined],
    ['GET', '/assessments?date_range=2020-01-01..2030-12-31&limit=100', undefined],
    ['GET', '/compliance/checklist?assessment_year=2021', undefined],
    ['POST', '/grants/ranking', { costs: { total_cost: 1, requested_amount: 1 } }],
    ['POST', '/grants/eligibility', { jurisdiction: 'Miami-Dade County', population: 0, per_capita_income: 0 }],
  ] as const)('%s %s', async (method, path, json) => {
    const res = await app.request(method, path, { key: app.keys.enterprise, json });
    expect(res.status).toBeLessThan(500);
  });

  it('still answers afterwards', async () => {
    expect((await app.request('GET', '/health')).status).toBe(200);
  });
});
