import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import ExcelJS from 'exceljs';
import { unzipSync } from 'fflate';
import { parse } from 'csv-parse/sync';
import proj4 from 'proj4';
import { open as openShapefile } from 'shapefile';
import albers from 'epsg-index/s/3087.json';
import type { Geometry, Position } from 'geojson';
import { assetsToCsv, assetsToGeoJson, assetsToXlsx, assetView } from '../../shared/domain/assets/export';
import { MAX_STORED_VERTICES, storedGeometry } from '../../shared/domain/assets/geometry';
import type { StoredAsset } from '../../shared/domain/assets/ports';
import { assetLayers } from '../../shared/domain/deliverables/gis-layers';
import { geoPackageContent } from '../../shared/domain/deliverables/gis-package';
import { shapefileZip } from '../helpers/deliverable-writers';
import { SqlJsGeoPackageWriter } from '../../shared/adapters/geopackage-writer';
import { openSqlite } from '../helpers/sqlite';

/** Lines and areas kept whole through every export: each file read back with its own reader. */

const AREA: Geometry = {
  type: 'Polygon',
  coordinates: [
    [[-81.8021, 24.5512], [-81.7905, 24.5509], [-81.7899, 24.5601], [-81.7960, 24.5644], [-81.8030, 24.5590], [-81.8021, 24.5512]],
    [[-81.7990, 24.5540], [-81.7950, 24.5540], [-81.7950, 24.5570], [-81.7990, 24.5540]],
  ],
};
const LINE: Geometry = { type: 'LineString', coordinates: [[-81.7800, 24.5550], [-81.7700, 24.5600], [-81.7600, 24.5580], [-81.7500, 24.5700]] };
const ROUTES: Geometry = { type: 'MultiLineString', coordinates: [[[-81.70, 24.60], [-81.69, 24.61]], [[-81.68, 24.62], [-81.67, 24.63], [-81.66, 24.61]]] };

function asset(id: string, geometry: Geometry | null, lon: number, lat: number): StoredAsset {
  return {
    asset_id: id, jurisdiction_id: 'county:12087', name: `Asset ${id}`, category: 'transportation', asset_type: null, source_type: null,
    classification: { category: null, asset_type: null, rule: 'unclassified', matched_field: null, matched_text: null, ruleset_version: '1' } as never,
    lon, lat, geometry_type: geometry?.type ?? 'Point', geometry, source_id: null, address: null, city: null, county: null, owner: null, attributes: {},
    content_hash: 'h', import_id: 'imp_1', vulnerability: null, vulnerability_level: 'not_assessed', impact_timeline: 'not_assessed',
    vulnerability_history: [], version: 1, created_at: '2026-01-01T00:00:00Z', updated_at: '2026-01-01T00:00:00Z',
  };
}

const assets = [asset('a_area', AREA, -81.796, 24.556), asset('a_line', LINE, -81.77, 24.56), asset('a_routes', ROUTES, -81.69, 24.61), asset('a_point', null, -81.78, 24.55)];

/** A small reader of the WKT the table exports write: numbers in nested parentheses. */
function readWkt(text: string): { type: string; coordinates: unknown } {
  const type = /^([A-Z]+)/.exec(text)![1]!;
  const json = text.slice(type.length).trim().replace(/\(/g, '[').replace(/\)/g, ']').replace(/(-?[\d.]+) (-?[\d.]+)/g, '[$1,$2]');
  const nested = JSON.parse(json) as unknown;
  return { type, coordinates: type === 'POINT' ? (nested as unknown[])[0] : nested };
}

const flat = (c: unknown): number[] => (Array.isArray(c) ? c.flatMap(flat) : [c as number]);
function expectSameCoordinates(actual: unknown, expected: unknown, digits: number) {
  const a = flat(actual);
  const e = flat(expected);
  expect(a).toHaveLength(e.length);
  a.forEach((value, i) => expect(value).toBeCloseTo(e[i]!, digits));
}

describe('asset geometry kept whole', () => {
  it('stores lines and areas whole, points as lon/lat, and refuses a geometry past the vertex cap', () => {
    expect(storedGeometry({ type: 'Point', coordinates: [-81.7, 24.5] })).toBeNull();
    expect(storedGeometry(AREA)).toEqual(AREA);
    const ring: Position[] = Array.from({ length: MAX_STORED_VERTICES }, (_, i) => [-81.7 + 0.01 * Math.cos(i / 800), 24.5 + 0.01 * Math.sin(i / 800)]);
    expect(storedGeometry({ type: 'Polygon', coordinates: [[...ring, ring[0]!]] })).toBe('too_large');
    expect(storedGeometry({ type: 'LineString', coordinates: ring })).not.toBe('too_large');
  });

  it('GeoJSON and the asset view carry the whole geometry; a point is its lon/lat', () => {
    const collection = assetsToGeoJson(assets);
    expect(collection.features.map((f) => f.geometry)).toEqual([AREA, LINE, ROUTES, { type: 'Point', coordinates: [-81.78, 24.55] }]);
    expect(collection.features[0]!.properties).toMatchObject({ lon: -81.796, lat: 24.556, geometry_type: 'Polygon' });
    expect(assetView(assets[1]!).geometry).toEqual(LINE);
  });

  it('CSV and XLSX have a WKT column with every vertex', async () => {
    const rows: Record<string, string>[] = parse(assetsToCsv(assets), { columns: true });
    const wkts = rows.map((row) => row.wkt!);
    expect(readWkt(wkts[0]!).type).toBe('POLYGON');
    expectSameCoordinates(readWkt(wkts[0]!).coordinates, AREA.coordinates, 10);
    expect(readWkt(wkts[1]!).type).toBe('LINESTRING');
    expectSameCoordinates(readWkt(wkts[1]!).coordinates, LINE.coordinates, 10);
    expectSameCoordinates(readWkt(wkts[2]!).coordinates, ROUTES.coordinates, 10);
    expect(wkts[3]).toBe('POINT (-81.78 24.55)');
    expect(rows.map((row) => row.geometry_type)).toEqual(['Polygon', 'LineString', 'MultiLineString', 'Point']);

    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(await assetsToXlsx(assets) as never);
    const sheet = workbook.worksheets[0]!;
    const column = (sheet.getRow(1).values as unknown[]).indexOf('wkt');
    const area = readWkt(String(sheet.getRow(2).getCell(column).value));
    expect(area.type).toBe('POLYGON');
    expectSameCoordinates(area.coordinates, AREA.coordinates, 10);
  });

  const toWgs84 = proj4(albers.proj4, 'EPSG:4326');
  const unproject = (c: unknown): unknown => (typeof (c as unknown[])[0] === 'number' ? toWgs84.forward(c as number[]) : (c as unknown[]).map(unproject));

  it('the GIS package has line and area layers whose Shapefiles hold every vertex in EPSG:3087', async () => {
    const layers = assetLayers(assets, []);
    expect(layers.map((l) => [l.name, l.geometryType, l.collection.features.length])).toEqual([
      ['assets', 'POINT', 4], ['asset_lines', 'MULTILINESTRING', 2], ['asset_areas', 'MULTIPOLYGON', 1],
    ]);
    const read = async (name: string) => {
      const files = unzipSync(shapefileZip(layers.find((l) => l.name === name)!, '<metadata/>'));
      const source = await openShapefile(Buffer.from(files[`${name}.shp`]!), Buffer.from(files[`${name}.dbf`]!));
      const out: { geometry: Geometry; properties: Record<string, unknown> }[] = [];
      for (let r = await source.read(); !r.done; r = await source.read()) out.push(r.value as never);
      return out;
    };
    const lines = await read('asset_lines');
    expect(lines.map((f) => [f.properties.ASSET_ID, f.geometry.type])).toEqual([['a_line', 'LineString'], ['a_routes', 'MultiLineString']]);
    // Projected coordinates are kept to the centimetre: about 1e-7 degrees.
    expectSameCoordinates(unproject((lines[0]!.geometry as { coordinates: unknown }).coordinates), LINE.coordinates, 6);
    expectSameCoordinates(unproject((lines[1]!.geometry as { coordinates: unknown }).coordinates), ROUTES.coordinates, 6);
    const areas = await read('asset_areas');
    expect(areas.map((f) => [f.properties.ASSET_ID, f.geometry.type])).toEqual([['a_area', 'Polygon']]);
    const rings = (areas[0]!.geometry as { coordinates: Position[][] }).coordinates.map((ring) => unproject(ring) as Position[]);
    // Ring order and vertices kept; a Shapefile may start a ring elsewhere or turn it, so compare as sets of vertices.
    const key = (p: Position) => `${p[0]!.toFixed(6)},${p[1]!.toFixed(6)}`;
    expect(rings.map((r) => new Set(r.map(key)))).toEqual((AREA.coordinates as Position[][]).map((r) => new Set(r.map(key))));
  });

  it('the GeoPackage holds the line and area layers whole in EPSG:3087', async () => {
    const layers = assetLayers(assets, []);
    const dir = mkdtempSync(path.join(tmpdir(), 'asset-gpkg-'));
    try {
      const file = path.join(dir, 'p.gpkg');
      writeFileSync(file, await new SqlJsGeoPackageWriter().write(geoPackageContent(layers, new Map(layers.map((l) => [l.name, '<metadata/>'])))));
      const db = await openSqlite(file);
      const columns = db.prepare('SELECT table_name, geometry_type_name, srs_id FROM gpkg_geometry_columns ORDER BY table_name').all();
      expect(columns).toEqual([
        { table_name: 'asset_areas', geometry_type_name: 'MULTIPOLYGON', srs_id: 3087 },
        { table_name: 'asset_lines', geometry_type_name: 'MULTILINESTRING', srs_id: 3087 },
        { table_name: 'assets', geometry_type_name: 'POINT', srs_id: 3087 },
      ]);
      const lines = db.prepare('SELECT ASSET_ID, geom FROM asset_lines ORDER BY ASSET_ID').all() as { ASSET_ID: string; geom: Buffer }[];
      expect(lines.map((l) => l.ASSET_ID)).toEqual(['a_line', 'a_routes']);
      expectSameCoordinates(unproject(readGpkgGeometry(lines[0]!.geom).coordinates), [LINE.coordinates], 6);
      expectSameCoordinates(unproject(readGpkgGeometry(lines[1]!.geom).coordinates), ROUTES.coordinates, 6);
      const areas = db.prepare('SELECT ASSET_ID, geom FROM asset_areas').all() as { ASSET_ID: string; geom: Buffer }[];
      const area = readGpkgGeometry(areas[0]!.geom);
      expect(area.type).toBe(6);
      expectSameCoordinates(unproject(area.coordinates), [AREA.coordinates], 6);
      db.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

/** GeoPackage binary (GP header, envelope) then OGC WKB of a multi-line or multi-polygon. */
function readGpkgGeometry(blob: Buffer): { type: number; coordinates: unknown } {
  expect(blob.toString('latin1', 0, 2)).toBe('GP');
  const flags = blob[3]!;
  const envelopeBytes = [0, 32, 48, 48, 64][(flags >> 1) & 7]!;
  let at = 8 + envelopeBytes;
  const read = (): { type: number; coordinates: unknown } => {
    const little = blob[at] === 1;
    const u32 = () => { const v = little ? blob.readUInt32LE(at) : blob.readUInt32BE(at); at += 4; return v; };
    const f64 = () => { const v = little ? blob.readDoubleLE(at) : blob.readDoubleBE(at); at += 8; return v; };
    at += 1;
    const type = u32();
    const points = () => Array.from({ length: u32() }, () => [f64(), f64()]);
    if (type === 2) return { type, coordinates: points() };
    if (type === 3) return { type, coordinates: Array.from({ length: u32() }, points) };
    if (type === 5 || type === 6) return { type, coordinates: Array.from({ length: u32() }, () => read().coordinates) };
    throw new Error(`WKB type ${type} not expected here`);
  };
  return read();
}
