import proj4 from 'proj4';
import { crsFromGeoJsonMember, crsFromPrj, featureRecords, importReprojector, type FeatureFile } from '../../shared/domain/assets/formats/features';
import { readGeoJson } from '../../shared/domain/assets/formats/geojson';
import type { SourceRecord } from '../../shared/domain/assets/import-rows';
import { GDL_ALBERS_PROJ4, PRJ } from '../fixtures/assets/shapefile-writer';
import { fileErrorOf, fileErrorParts } from '../helpers/asset-file-error';

/** GeoJSON documents and feature files as the importer receives them, each refusal with its words. */
const doc = (value: unknown) => Buffer.from(JSON.stringify(value));
const point = (lon: number, lat: number) => ({ type: 'Point', coordinates: [lon, lat] });

async function records(file: FeatureFile): Promise<SourceRecord[]> {
  const out: SourceRecord[] = [];
  for await (const record of featureRecords(file)) out.push(record);
  return out;
}

describe('reading GeoJSON', () => {
  it.each([
    ['an empty file', Buffer.alloc(0), 'empty_file', 'The file is empty.'],
    ['whitespace', Buffer.from(' \n\t'), 'empty_file', 'The file is empty.'],
    ['a byte-order mark alone', Buffer.from('\uFEFF'), 'empty_file', 'The file is empty.'],
    ['an array', doc([]), 'invalid_geojson', 'The JSON is not a GeoJSON object.'],
    ['a number', doc(5), 'invalid_geojson', 'The JSON is not a GeoJSON object.'],
    ['null', doc(null), 'invalid_geojson', 'The JSON is not a GeoJSON object.'],
    ['a bare Feature', doc({ type: 'Feature', geometry: point(-81.8, 24.55), properties: {} }), 'invalid_geojson', 'Expected a GeoJSON FeatureCollection, got type "Feature". Wrap the Feature in a FeatureCollection.'],
    ['a bare geometry', doc(point(-81.8, 24.55)), 'invalid_geojson', 'Expected a GeoJSON FeatureCollection, got type "Point".'],
    ['an object without a type', doc({ features: [] }), 'invalid_geojson', 'Expected a GeoJSON FeatureCollection, got type null.'],
    ['a collection without features', doc({ type: 'FeatureCollection' }), 'invalid_geojson', 'The FeatureCollection has no "features" array.'],
    ['a collection whose features is an object', doc({ type: 'FeatureCollection', features: {} }), 'invalid_geojson', 'The FeatureCollection has no "features" array.'],
    ['an empty collection', doc({ type: 'FeatureCollection', features: [] }), 'empty_file', 'The FeatureCollection has no features.'],
  ])('refuses %s', (_what, buffer, code, message) => {
    const error = fileErrorOf(() => readGeoJson(buffer));
    expect([error.code, error.message]).toEqual([code, message]);
  });

  it('refuses text that is not JSON, quoting the parser', () => {
    const error = fileErrorOf(() => readGeoJson(Buffer.from('{"type": "FeatureCollection",')));
    expect(error.code).toBe('malformed_json');
    expect(error.message).toMatch(/^The file is not valid JSON: .+/);
  });

  it('reads a collection after a byte-order mark, numbering features from 1 and keeping their order', () => {
    const file = readGeoJson(Buffer.from(`\uFEFF${JSON.stringify({ type: 'FeatureCollection', features: [
      { type: 'Feature', geometry: point(-81.8, 24.55), properties: { NAME: 'A' } },
      { type: 'Feature', geometry: null, properties: { NAME: 'B', TYPE: 'Pump' } },
    ] })}`));
    expect(file.format).toBe('geojson');
    expect(file.features).toEqual([
      { index: 1, properties: { NAME: 'A' }, geometry: point(-81.8, 24.55) },
      { index: 2, properties: { NAME: 'B', TYPE: 'Pump' }, geometry: null },
    ]);
    expect(file.headers).toEqual(['NAME', 'TYPE']);
  });

  it('a member that is not a Feature is a row of its own, not the end of the file', () => {
    const file = readGeoJson(doc({ type: 'FeatureCollection', features: [null, 7, { type: 'Point' }, { type: 'Feature', properties: { NAME: 'A' }, geometry: point(-81.8, 24.55) }] }));
    expect((file.features as unknown[]).slice(0, 3)).toEqual([1, 2, 3].map((index) => ({ index, properties: {}, geometry: null, malformed: 'Not a GeoJSON Feature object.' })));
  });

  it('properties that are not an object count as none; a missing geometry is null', () => {
    const file = readGeoJson(doc({ type: 'FeatureCollection', features: [
      { type: 'Feature', properties: ['a'] },
      { type: 'Feature', properties: 'text', geometry: point(0, 0) },
      { type: 'Feature', properties: null, geometry: point(0, 0) },
    ] }));
    expect((file.features as { properties: unknown; geometry: unknown }[]).map((f) => [f.properties, f.geometry])).toEqual([[{}, null], [{}, point(0, 0)], [{}, point(0, 0)]]);
  });

  it('a Feature id fills properties.id when the properties carry none', () => {
    const file = readGeoJson(doc({ type: 'FeatureCollection', features: [
      { type: 'Feature', id: 'F-1', properties: { NAME: 'A' }, geometry: null },
      { type: 'Feature', id: 42, properties: { NAME: 'B' }, geometry: null },
      { type: 'Feature', id: 'F-3', properties: { NAME: 'C', id: 'own' }, geometry: null },
      { type: 'Feature', id: { not: 'an id' }, properties: { NAME: 'D' }, geometry: null },
    ] }));
    expect((file.features as { properties: Record<string, unknown> }[]).map((f) => f.properties.id)).toEqual(['F-1', 42, 'own', undefined]);
  });

  it('takes headers from the first 100 features', () => {
    const features = Array.from({ length: 101 }, (_, i) => ({ type: 'Feature', geometry: null, properties: i === 100 ? { LATE: 1 } : { [`P${i % 3}`]: i } }));
    expect(readGeoJson(doc({ type: 'FeatureCollection', features })).headers).toEqual(['P0', 'P1', 'P2']);
  });
});

describe('coordinate systems of feature files', () => {
  it('no crs member is RFC 7946 WGS84', () => {
    expect(crsFromGeoJsonMember(undefined)).toEqual({ source: 'rfc7946_default', detected: { epsg: 4326, name: 'WGS 84 (RFC 7946)', projected: false } });
    expect(crsFromGeoJsonMember(null)).toEqual(crsFromGeoJsonMember(undefined));
  });

  it('a named crs member is that system, known or not', () => {
    expect(crsFromGeoJsonMember({ type: 'name', properties: { name: 'urn:ogc:def:crs:EPSG::3087' } })).toEqual({ source: 'geojson_crs', detected: { epsg: 3087, name: 'NAD83(HARN) / Florida GDL Albers', projected: true } });
    expect(crsFromGeoJsonMember({ type: 'name', properties: { name: 'EPSG:2000' } })).toEqual({ source: 'geojson_crs', detected: { epsg: null, name: 'EPSG:2000', projected: true } });
  });

  it('a crs member that names nothing readable is unreadable, quoted', () => {
    expect(crsFromGeoJsonMember({ type: 'link', properties: { href: 'x.prj' } })).toEqual({ source: 'geojson_crs', unreadable: 'Unrecognised "crs" member {"type":"link","properties":{"href":"x.prj"}}.' });
    expect(crsFromGeoJsonMember({ properties: { name: 7 } }).unreadable).toBe('Unrecognised "crs" member {"properties":{"name":7}}.');
    const long = crsFromGeoJsonMember({ properties: { name: 'x'.repeat(500) } });
    expect(long.unreadable).toBe(`Unrecognised "crs" member ${JSON.stringify({ properties: { name: 'x'.repeat(500) } }).slice(0, 200)}.`);
  });

  it('a .prj is read, or kept as unreadable with why', () => {
    expect(crsFromPrj(undefined)).toEqual({ source: 'none' });
    expect(crsFromPrj(PRJ.harnGdlAlbers)).toMatchObject({ source: 'prj', detected: { epsg: 3087 }, wkt: PRJ.harnGdlAlbers });
    expect(crsFromPrj('not wkt')).toEqual({ source: 'prj', unreadable: 'Not valid WKT: "[" expected at character 4', wkt: 'not wkt' });
  });

  it('reprojects from a known system, passes a file without .prj as it is, and refuses the rest with reasons', () => {
    const [x, y] = proj4('EPSG:4326', GDL_ALBERS_PROJ4, [-81.8, 24.55]) as [number, number];
    const fromAlbers = importReprojector(crsFromPrj(PRJ.harnGdlAlbers))(point(x, y) as never) as { coordinates: number[] };
    expect(fromAlbers.coordinates[0]).toBeCloseTo(-81.8, 7);
    expect(fromAlbers.coordinates[1]).toBeCloseTo(24.55, 7);
    const asIs = point(-81.8, 24.55);
    expect(importReprojector({ source: 'none' })(asIs as never)).toBe(asIs);
    const unreadable = fileErrorOf(() => importReprojector({ source: 'geojson_crs', unreadable: 'Unrecognised "crs" member {}.' }));
    expect([unreadable.code, unreadable.message]).toEqual(['unsupported_crs', 'The coordinate system cannot be read: Unrecognised "crs" member {}.']);
    const unknown = fileErrorOf(() => importReprojector({ source: 'geojson_crs', detected: { epsg: null, name: 'EPSG:2000', projected: true } }));
    expect([unknown.code, unknown.message]).toEqual(['unsupported_crs', 'Unsupported coordinate system "EPSG:2000". Export in WGS84 (EPSG:4326), NAD83, Florida GDL Albers (EPSG:3086, 3087, 6439) or Florida State Plane.']);
  });
});

describe('feature records', () => {
  const wgs84 = crsFromGeoJsonMember(undefined);

  it('hands on each feature with its number, a malformed one as such, a broken geometry unprojected for the row check', async () => {
    const broken = { type: 'Polygon', coordinates: [[[0, 0], [1, 1]]] };
    const out = await records({ format: 'geojson', crs: wgs84, headers: ['NAME'], features: [
      { index: 1, properties: { NAME: 'A' }, geometry: point(-81.8, 24.55) },
      { index: 2, properties: {}, geometry: null, malformed: 'Not a GeoJSON Feature object.' },
      { index: 3, properties: { NAME: 'C' }, geometry: broken },
      { index: 4, properties: { NAME: 'D' }, geometry: null },
    ] });
    expect(out).toEqual([
      { row: 1, properties: { NAME: 'A' }, geometry: point(-81.8, 24.55) },
      { row: 2, properties: {}, malformed: 'Not a GeoJSON Feature object.' },
      { row: 3, properties: { NAME: 'C' }, geometry: broken },
      { row: 4, properties: { NAME: 'D' }, geometry: null },
    ]);
  });

  it('a file in which no feature has a geometry is refused after its records', async () => {
    // A missing geometry (undefined) is no geometry either.
    const file: FeatureFile = { format: 'geojson', crs: wgs84, headers: ['NAME'], features: [{ index: 1, properties: { NAME: 'A' }, geometry: null }, { index: 2, properties: {}, geometry: null, malformed: 'x' }, { index: 3, properties: { NAME: 'C' }, geometry: undefined }] };
    const error = await records(file).then(() => undefined, (e: unknown) => e);
    expect(fileErrorParts(error)).toEqual({ code: 'no_geometry', message: 'No feature has a geometry.', extra: {} });
  });
});
