import openapi from '../../openapi.json';
import { startTestApp } from '../helpers/local-app';
import { percentile, sampleHealthDuring } from '../helpers/health-latency';
import { registerAndLogin, type V1User } from '../helpers/v1-user';
import { multipartBody } from '../fixtures/assets/multipart';

/**
 * Names that are not data: `__proto__`, `constructor` and `prototype` as keys of every free-form
 * map a request body holds. Each is either taken as an ordinary name (a correct 2xx, read back as
 * sent) or refused with a 4xx naming it; never a 5xx, and nothing reaches Object.prototype (the
 * server runs in this process, so its prototype is this test's).
 */

type Json = Record<string, any>;

/** Every object in a request body whose keys the caller chooses, as `<operationId>:<path>`. */
function freeFormMaps(doc: Json): string[] {
  const resolve = (schema: Json | undefined): Json => {
    let current = schema ?? {};
    for (let hops = 0; current.$ref && hops < 20; hops += 1) current = String(current.$ref).slice(2).split('/').reduce<Json>((node, key) => node[key], doc);
    return current;
  };
  const found: string[] = [];
  const walk = (schema: Json | undefined, path: string, operation: string, depth: number) => {
    const node = resolve(schema);
    if (depth > 12) return;
    if (node.propertyNames || node.additionalProperties === true || typeof node.additionalProperties === 'object') found.push(`${operation}:${path}`);
    for (const key of ['anyOf', 'oneOf', 'allOf']) for (const part of node[key] ?? []) walk(part, path, operation, depth + 1);
    for (const [name, property] of Object.entries<Json>(node.properties ?? {})) walk(property, path ? `${path}.${name}` : name, operation, depth + 1);
    if (node.items) walk(node.items, `${path}[]`, operation, depth + 1);
  };
  for (const methods of Object.values<Json>(doc.paths)) {
    for (const operation of Object.values<Json>(methods)) {
      for (const media of Object.values<Json>(operation.requestBody?.content ?? {})) walk(media.schema, '', operation.operationId, 0);
    }
  }
  return found.sort();
}

const NAMES = ['__proto__', 'constructor', 'prototype'] as const;
const prototypeNames = () => Object.getOwnPropertyNames(Object.prototype).sort();

describe('prototype names in free-form maps', () => {
  let app: Awaited<ReturnType<typeof startTestApp>>;
  let user: V1User;
  const before = prototypeNames();
  const latencies: number[] = [];

  beforeAll(async () => {
    app = await startTestApp({ backgroundWorkers: false });
    user = await registerAndLogin(app.request, { name: 'Proto Tester' });
  });
  afterAll(async () => {
    await app.stop();
  });
  afterEach(() => {
    expect(prototypeNames()).toEqual(before);
    expect(({} as Json).polluted).toBeUndefined();
  });


  it('knows every free-form map of the request bodies (a new one must be added here)', () => {
    expect(freeFormMaps(openapi as Json)).toEqual([
      'createAssessment:methodology.critical_assets.categories',
      'startAssetImport:column_map',
      'updateAssessment:methodology.critical_assets.categories',
      'updateProfile:preferences',
      'validateCompliance:methodology.critical_assets.categories',
    ]);
  });

  it.each(NAMES)('profile preferences: %s', async (name) => {
    const { result } = await sampleHealthDuring(app.baseUrl, async () => {
      const read = await app.request('GET', '/v1/users/profile', { headers: user.headers });
      const value = name === '__proto__' ? { polluted: 'yes' } : 'kept';
      const body = `{"preferences":{${JSON.stringify(name)}:${JSON.stringify(value)},"units":"ft"}}`;
      const update = await app.request('PUT', '/v1/users/update', { body, headers: { ...user.headers, 'Content-Type': 'application/json', 'If-Match': read.headers.get('etag')! } });
      const after = await app.request('GET', '/v1/users/profile', { headers: user.headers });
      return { update, after };
    }).then((sampled) => ((latencies.push(...sampled.latencies)), sampled));
    const { update, after } = result;
    if (name === '__proto__') {
      expect(update.status).toBe(400);
      expect(update.json).toMatchObject({ code: 'invalid_request', errors: [{ field: '__proto__', in: 'body' }] });
      expect(Object.keys(after.json.preferences)).not.toContain('polluted');
    } else {
      expect(update.status).toBe(200);
      expect(update.json.preferences).toEqual({ [name]: 'kept', units: 'ft' });
      expect(after.json.preferences).toEqual({ [name]: 'kept', units: 'ft' });
    }
  });

  it('a __proto__ key deeper in any JSON body is refused as well, escaped or not', async () => {
    const read = await app.request('GET', '/v1/users/profile', { headers: user.headers });
    for (const body of ['{"preferences":{"a":1},"__proto__":{"polluted":"yes"}}', '{"preferences":{"\\u005f_proto__":{"polluted":"yes"}}}']) {
      const update = await app.request('PUT', '/v1/users/update', { body, headers: { ...user.headers, 'Content-Type': 'application/json', 'If-Match': read.headers.get('etag')! } });
      expect([update.status, update.json.code, update.json.errors?.[0]?.field]).toEqual([400, 'invalid_request', '__proto__']);
    }
  });

  it.each(NAMES)('column_map of a started import (JSON body): %s', async (name) => {
    // Written as text: JSON.stringify would not write a `__proto__` own key.
    const body = `{"filename":"assets.csv","jurisdiction":"Monroe County","column_map":{${JSON.stringify(name)}:"name"}}`;
    const started = await app.request('POST', '/assets/imports', { key: app.keys.pro, body, headers: { 'Content-Type': 'application/json' } });
    if (name === '__proto__') {
      expect([started.status, started.json.code, started.json.errors?.[0]?.field]).toEqual([400, 'invalid_request', '__proto__']);
    } else {
      expect(started.status).toBe(201);
      expect(started.json.import_id).toMatch(/^imp_/);
    }
  });

  it.each(NAMES)('asset categories of a methodology (create, update, validate): %s', async (name) => {
    // Written as text: JSON.stringify would not write a `__proto__` own key.
    const methodology = `{"critical_assets":{"categories":{${JSON.stringify(name)}:3,"transportation":12}}}`;
    const json = { 'Content-Type': 'application/json' };
    const timeline = '{"start_date":"2026-01-15","target_completion_date":"2027-06-30"}';
    const { result, latencies: sampled } = await sampleHealthDuring(app.baseUrl, async () => {
      const created = await app.request('POST', '/assessments', {
        key: app.keys.pro, headers: json,
        body: `{"jurisdiction":"Monroe County","type":"initial","scope":"full_jurisdiction","timeline":${timeline},"methodology":${methodology}}`,
      });
      const validated = await app.request('POST', '/compliance/validate', {
        key: app.keys.pro, headers: json,
        body: `{"jurisdiction":"Monroe County","methodology":${methodology}}`,
      });
      const plain = await app.request('POST', '/assessments', { key: app.keys.pro, headers: json, body: `{"jurisdiction":"Monroe County","type":"initial","scope":"full_jurisdiction","timeline":${timeline}}` });
      const updated = await app.request('PATCH', `/assessments/${plain.json.assessment_id}`, {
        key: app.keys.pro, headers: { ...json, 'If-Match': `"${plain.json.version}"` }, body: `{"methodology":${methodology}}`,
      });
      return { created, validated, updated };
    });
    latencies.push(...sampled);
    const { created, validated, updated } = result;
    if (name === '__proto__') {
      for (const answer of [created, validated, updated]) {
        expect([answer.status, answer.json.code, answer.json.errors?.[0]?.field]).toEqual([400, 'invalid_request', '__proto__']);
      }
    } else {
      expect([created.status, validated.status, updated.status]).toEqual([201, 200, 200]);
      const read = await app.request('GET', `/assessments/${created.json.assessment_id}`, { key: app.keys.pro });
      expect(read.json.methodology.critical_assets.categories).toEqual({ [name]: 3, transportation: 12 });
      expect(updated.json.methodology.critical_assets.categories).toEqual({ [name]: 3, transportation: 12 });
    }
  });

  it('column_map of an upload (a JSON text field) and file columns with those names', async () => {
    const csv = ['constructor,prototype,toString,__proto__,latitude,longitude', 'Key West Lift Station,kept-1,kept-2,kept-3,24.5551,-81.7800', 'Marathon Lift Station,kept-4,kept-5,kept-6,24.7136,-81.0904'].join('\n');
    const upload = async (columnMap: string) => {
      const { body, contentType } = await multipartBody({ file: { filename: 'stations.csv', data: csv }, jurisdiction: 'Monroe County', column_map: columnMap });
      return app.request('POST', '/assets/import', { key: app.keys.pro, body, headers: { 'Content-Type': contentType } });
    };
    const { result: [refused, accepted], latencies: sampled } = await sampleHealthDuring(app.baseUrl, async () => [await upload('{"__proto__": "name"}'), await upload('{"constructor": "name"}')]);
    latencies.push(...sampled);
    expect(refused.status).toBe(400);
    expect(refused.json.errors).toEqual([expect.objectContaining({ field: 'column_map', message: expect.stringContaining('__proto__') })]);

    expect(accepted.status).toBe(201);
    expect(accepted.json).toMatchObject({ asset_count: 2, validation: { accepted: 2, rejected: 0 }, report: { columns: { name: 'constructor' } } });
    const assets = (await app.request('GET', '/assets?jurisdiction=Monroe%20County&limit=100', { key: app.keys.pro })).json.data as Array<{ name: string; attributes: Record<string, unknown> }>;
    const keyWest = assets.find((a) => a.name === 'Key West Lift Station')!;
    expect(keyWest).toBeDefined();
    // The other columns are kept as data under their own names, but for `__proto__`.
    expect(keyWest.attributes).toEqual({ prototype: 'kept-1', toString: 'kept-2' });
  });

  it('stays responsive meanwhile: /health p99 under 500 ms', () => {
    expect(latencies.length).toBeGreaterThan(5);
    expect(percentile(latencies, 99)).toBeLessThan(500);
  });
});
