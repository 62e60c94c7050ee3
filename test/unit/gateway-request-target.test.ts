import { matchRoute, splitTarget } from '../../local/gateway';
import { ROUTES } from '../../shared/routes';

/**
 * The local gateway splits a request target without a full URL parse when the path needs no
 * normalising; whatever the target, the path and the query parameters must be those WHATWG URL
 * parsing gives (what the gateway parsed every target with before).
 */
describe('request target split', () => {
  const targets = [
    '/', '/api', '/api/', '/api/grants/deadlines', '/api/grants/deadlines?', '/api/grants/deadlines?a=1&b=2&a=3',
    '/api/hazards/slr-scenarios?gauge_id=8724580&time_horizon=2040&time_horizon=2070',
    '/api/resources?action=search&q=sea+level%20rise', '/api/resources?q=%E2%9C%93&x', '/api/resources?q=a?b=c',
    '/api/assets/a%2Fb', '/api/assets/%41', '/api/assets/caf%C3%A9', "/api/assets/a'b(c)*d~e!f$g,h;i=j:k@l",
    '/api/./grants/deadlines', '/api/x/../grants/deadlines', '/api/grants/.', '/api/grants/..', '/api/%2e%2E/grants',
    '/api/.hidden/x', '/api/x../y', '//api/grants/deadlines', '///x', '/api/a b', '/api/a"b', '/api/<x>', '/api/{id}',
    '/api/a\\b', '/api/é', '/api/grants#frag', '/api/grants?x=1#frag', 'http://example.org/api/grants?x=1', '*',
  ];

  it.each(targets)('%s', (target) => {
    const url = new URL(target, 'http://127.0.0.1');
    const split = splitTarget(target);
    expect(split.pathname).toBe(url.pathname);
    expect([...new URLSearchParams(split.search)]).toEqual([...url.searchParams]);
  });
});

describe('route matching', () => {
  it.each(ROUTES.map((route) => [route.method, route.path, route] as const))('%s %s is found by its own path, with or without a final slash', (method, routePath, route) => {
    const names = [...routePath.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
    const concrete = routePath.replace(/\{(\w+)\}/g, (_all, name: string) => `v-${name}%20x`);
    const params = Object.fromEntries(names.map((name) => [name, `v-${name} x`]));
    expect(matchRoute(method, concrete)).toEqual({ route, params });
    expect(matchRoute(method, `${concrete}/`)).toEqual({ route, params });
    expect(matchRoute(method, `${concrete}//`)).toBeUndefined();
    expect(matchRoute(method === 'GET' ? 'PATCH' : 'GET', concrete)?.route).not.toBe(route);
  });

  it('finds nothing for a path outside the table', () => {
    expect(matchRoute('GET', '/no/such/route')).toBeUndefined();
    expect(matchRoute('GET', '')).toBeUndefined();
    expect(matchRoute('GET', 'grants/deadlines')).toBeUndefined();
  });
});
