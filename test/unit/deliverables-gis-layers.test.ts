import { unzipSync } from 'fflate';
import type { Geometry } from 'geojson';
import proj4 from 'proj4';
import { open as openShapefile } from 'shapefile';
import albers from 'epsg-index/s/3087.json';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os, { tmpdir } from 'node:os';
import path from 'node:path';
import type { StoredAsset } from '../../shared/domain/assets/ports';
import { assetLayer, assetLayers, boundaryLayer, depthField, inundationLayer } from '../../shared/domain/deliverables/gis-layers';
import { fgdcMetadata, geoPackageContent } from '../../shared/domain/deliverables/gis-package';
import { shapefileZip } from '../helpers/deliverable-writers';
import { SqlJsGeoPackageWriter } from '../../shared/adapters/geopackage-writer';
import { assetListXlsx } from '../helpers/deliverable-writers';
import ExcelJS from 'exceljs';
import { openSqlite } from '../helpers/sqlite';

/**
 * The GIS layers' attribute tables (what a county analyst opens in ArcGIS), the FGDC record of a
 * layer, and the ring orientation of polygons in the Shapefile read back with its own reader.
 */

function asset(id: string, overrides: Partial<StoredAsset> = {}): StoredAsset {
  return {
    asset_id: id, jurisdiction_id: 'county:12087', name: `Asset ${id}`, category: 'transportation', asset_type: null, source_type: null,
    classification: { category: null, asset_type: null, rule: 'unclassified', matched_field: null, matched_text: null, ruleset_version: '1' } as never,
    lon: -81.78, lat: 24.55, geometry_type: 'Point', geometry: null, source_id: null, address: null, city: null, county: null, owner: null, attributes: {},
    content_hash: 'h', import_id: 'imp_1', vulnerability: null, vulnerability_level: 'not_assessed', impact_timeline: 'not_assessed',
    vulnerability_history: [], version: 1, created_at: '2026-01-01T00:00:00Z', updated_at: '2026-01-01T00:00:00Z', ...overrides,
  };
}

const combos = [{ scenario: 'intermediate_low', planning_horizon: 2046 }, { scenario: 'intermediate', planning_horizon: 2076 }];

describe('asset attribute table', () => {
  it('codes depth fields by scenario, falling back to the first two letters', () => {
    expect(['low', 'intermediate_low', 'intermediate', 'intermediate_high', 'high'].map((s) => depthField(s, 2050))).toEqual(['D_L_2050', 'D_IL_2050', 'D_I_2050', 'D_IH_2050', 'D_H_2050']);
    expect(depthField('extreme', 2100)).toBe('D_EX_2100');
  });

  it('ranks from 1, fills absent text with empty strings and absent figures with nulls, and names the statute type', () => {
    const exposed = asset('a_1', {
      asset_type: 'airports', owner: 'Monroe County', address: '3491 S Roosevelt Blvd', source_id: 'EYW',
      vulnerability: { vulnerability_score: 0.62, first_exposed_year: 2076 } as never, vulnerability_level: 'high', impact_timeline: 'medium_term',
      exposure: { depths: [{ scenario: 'intermediate', planning_horizon: 2076, depth_ft: 1.4 }], max_depth_ft: 1.4, ground_elevation_navd88_m: 0.9, first_exposed_year: 2046, ground_source: 'usgs-key-west-quad',
        tidal_datum_check: { status: 'differs', mhhw_used_navd88_m: 0.7677, station: { noaa_id: '8720226', name: 'Jacksonville', distance_km: 0.6, mhhw_navd88_m: 0.198 }, difference_m: -0.5697 } } as never,
    });
    const bare = asset('a_2', { asset_type: 'not_a_type' as never });
    const unreached = asset('a_3', { exposure: { depths: [], max_depth_ft: 0, ground_elevation_navd88_m: 3.1, first_exposed_year: null, ground_source: 'surveyed', reason: 'not_connected' } as never });
    const layer = assetLayer([exposed, bare, unreached], combos);
    const [first, second, third] = layer.collection.features.map((f) => f.properties!);
    expect(first).toEqual({
      PRIORITY: 1, ASSET_ID: 'a_1', NAME: 'Asset a_1', ASSET_TYPE: 'Airports', CATEGORY: 'transportation', OWNER: 'Monroe County', ADDRESS: '3491 S Roosevelt Blvd',
      SOURCE_ID: 'EYW', VULN_SCORE: 0.62, VULN_LEVEL: 'high', TIMELINE: 'medium_term', FIRST_EXP: 2076, MAX_DEP_FT: 1.4, GROUND_M: 0.9,
      GROUND_SRC: 'usgs-key-west-quad', NODEP_WHY: '', DATUM_CHK: 'differs', DATUM_DM: -0.5697, D_IL_2046: null, D_I_2076: 1.4,
    });
    expect(second).toMatchObject({ PRIORITY: 2, ASSET_TYPE: 'not_a_type', OWNER: '', ADDRESS: '', SOURCE_ID: '', VULN_SCORE: null, FIRST_EXP: null, MAX_DEP_FT: null, GROUND_M: null, GROUND_SRC: '', NODEP_WHY: '', DATUM_CHK: '', DATUM_DM: null, D_IL_2046: null });
    expect(third).toMatchObject({ PRIORITY: 3, ASSET_TYPE: 'unclassified', GROUND_M: 3.1, GROUND_SRC: 'surveyed', NODEP_WHY: 'not_connected' });
    expect(layer.collection.features[0]!.geometry).toEqual({ type: 'Point', coordinates: [-81.78, 24.55] });
    expect(layer.attributes.map((a) => a.name)).toEqual(Object.keys(first!));
    expect(layer.attributes.at(-1)).toEqual({ name: 'D_I_2076', type: 'REAL', definition: 'Flood depth in feet, NOAA 2022 intermediate scenario, 2076.' });
  });

  it('takes the first exposed year from the exposure when no vulnerability was scored', () => {
    const layer = assetLayer([asset('a', { exposure: { depths: [], first_exposed_year: 2046, max_depth_ft: 0.2, ground_elevation_navd88_m: 1 } as never })], []);
    expect(layer.collection.features[0]!.properties).toMatchObject({ FIRST_EXP: 2046 });
  });

  it('adds line and area layers only when the inventory has such assets', () => {
    const line: Geometry = { type: 'LineString', coordinates: [[-81.78, 24.55], [-81.77, 24.56]] };
    const area: Geometry = { type: 'Polygon', coordinates: [[[-81.8, 24.55], [-81.79, 24.55], [-81.79, 24.56], [-81.8, 24.55]]] };
    expect(assetLayers([asset('p')], combos).map((l) => l.name)).toEqual(['assets']);
    expect(assetLayers([asset('p'), asset('l', { geometry: line })], combos).map((l) => [l.name, l.geometryType, l.collection.features.length])).toEqual([['assets', 'POINT', 2], ['asset_lines', 'MULTILINESTRING', 1]]);
    const layers = assetLayers([asset('a', { geometry: area }), asset('p')], combos);
    expect(layers.map((l) => [l.name, l.geometryType])).toEqual([['assets', 'POINT'], ['asset_areas', 'MULTIPOLYGON']]);
    expect(layers[1]!.collection.features[0]!.geometry).toEqual({ type: 'MultiPolygon', coordinates: [area.coordinates] });
    expect(layers[1]!.collection.features[0]!.properties).toMatchObject({ PRIORITY: 1, ASSET_ID: 'a' });
  });
});

describe('boundary and inundation layers', () => {
  it('makes a polygon boundary one multipolygon feature', () => {
    const polygon = { type: 'Polygon' as const, coordinates: [[[-81.8, 24.5], [-81.7, 24.5], [-81.7, 24.6], [-81.8, 24.5]]] };
    const layer = boundaryLayer('Monroe County', polygon);
    expect(layer.collection.features).toEqual([{ type: 'Feature', geometry: { type: 'MultiPolygon', coordinates: [polygon.coordinates] }, properties: { NAME: 'Monroe County', TYPE: 'jurisdiction boundary' } }]);
    expect(layer.attributes.map((a) => a.name)).toEqual(['NAME', 'TYPE']);
  });

  it('leaves out extents with no inundated land and labels the others', () => {
    const geometry = { type: 'MultiPolygon' as const, coordinates: [[[[-81.8, 24.5], [-81.7, 24.5], [-81.7, 24.6], [-81.8, 24.5]]]] };
    const layer = inundationLayer([
      { scenario: 'intermediate_low', planning_horizon: 2046, components: ['tidal'], area_km2: 0, area_m2: 0, geometry: { type: 'MultiPolygon', coordinates: [] } },
      { scenario: 'intermediate', planning_horizon: 2076, components: ['surge', 'tidal'], area_km2: 12.5, area_m2: 12_500_000, geometry },
    ]);
    expect(layer.collection.features).toEqual([{ type: 'Feature', geometry, properties: { NAME: 'intermediate 2076 inundation', TYPE: 'inundation extent', SCENARIO: 'intermediate', HORIZON: 2076, COMPONENTS: 'surge+tidal', AREA_KM2: 12.5 } }]);
    expect(layer.attributes.map((a) => a.name)).toEqual(['NAME', 'TYPE', 'SCENARIO', 'HORIZON', 'COMPONENTS', 'AREA_KM2']);
  });
});

describe('FGDC record', () => {
  const context = { jurisdiction: 'Monroe <County> & "Keys"', publisher: 'VA API', generatedAt: '2026-11-23T15:00:00Z', sources: ['NOAA 2022 <TR>', 'SRTM'] };
  const tag = (xml: string, name: string) => [...xml.matchAll(new RegExp(`<${name}>([^<]*)</${name}>`, 'g'))].map((m) => m[1]);

  it('bounds the layer\'s coordinates, escapes text, dates the record and lists every attribute and source', () => {
    const layer = assetLayer([asset('a', { lon: -81.9, lat: 24.5 }), asset('b', { lon: -80.1, lat: 25.9 })], combos);
    const xml = fgdcMetadata(layer, context);
    expect([tag(xml, 'westbc'), tag(xml, 'eastbc'), tag(xml, 'southbc'), tag(xml, 'northbc')]).toEqual([['-81.900000'], ['-80.100000'], ['24.500000'], ['25.900000']]);
    expect(tag(xml, 'pubdate')).toEqual(['20261123']);
    expect(tag(xml, 'placekey')).toEqual(['Monroe &lt;County&gt; &amp; &quot;Keys&quot;', 'Florida']);
    expect(tag(xml, 'attrlabl')).toEqual(layer.attributes.map((a) => a.name));
    expect(tag(xml, 'title')).toEqual(['Monroe &lt;County&gt; &amp; &quot;Keys&quot; vulnerability assessment: Critical assets with flood exposure', 'NOAA 2022 &lt;TR&gt;', 'SRTM']);
    expect(fgdcMetadata({ ...layer, title: "Assets' table" }, context)).toContain('<enttypd>Assets&apos; table</enttypd>');
  });

  it('bounds lines, polygons, multipolygons and collections, and falls back to Florida for an empty layer', () => {
    const shapes: Geometry[] = [
      { type: 'MultiLineString', coordinates: [[[-82, 27], [-82.5, 27.5]]] },
      { type: 'MultiPolygon', coordinates: [[[[-81, 26], [-80.1, 26], [-80.1, 26.5], [-81, 26]]]] },
      { type: 'GeometryCollection', geometries: [{ type: 'Point', coordinates: [-83, 28] }, { type: 'LineString', coordinates: [[-83.5, 29], [-83.4, 30.6]] }] },
      { type: 'Polygon', coordinates: [[[-84, 30], [-83.9, 30], [-83.9, 30.2], [-84, 30]]] },
      { type: 'MultiPoint', coordinates: [[-80.2, 25.1]] },
    ];
    const layer = { ...inundationLayer([]), collection: { type: 'FeatureCollection' as const, features: shapes.map((geometry) => ({ type: 'Feature' as const, geometry, properties: {} })) } };
    const xml = fgdcMetadata(layer, context);
    // Each edge comes from a different shape: west the polygon, east the multipolygon, south the multipoint, north the collection.
    expect([tag(xml, 'westbc'), tag(xml, 'eastbc'), tag(xml, 'southbc'), tag(xml, 'northbc')]).toEqual([['-84.000000'], ['-80.100000'], ['25.100000'], ['30.600000']]);
    const empty = fgdcMetadata(inundationLayer([]), context);
    expect([tag(empty, 'westbc'), tag(empty, 'eastbc'), tag(empty, 'southbc'), tag(empty, 'northbc')]).toEqual([['-87.700000'], ['-79.900000'], ['24.400000'], ['31.100000']]);
  });
});

describe('polygon rings in the Shapefile', () => {
  /** Shoelace area in the file's own coordinates: negative for clockwise rings. */
  const signedArea = (ring: number[][]) => ring.slice(0, -1).reduce((sum, p, i) => sum + p[0]! * ring[i + 1]![1]! - ring[i + 1]![0]! * p[1]!, 0) / 2;

  it('writes outer rings clockwise and holes counter-clockwise, whatever order they came in', async () => {
    // Outer ring counter-clockwise and hole clockwise in the input: both must be turned.
    const outer = [[-81.80, 24.55], [-81.79, 24.55], [-81.79, 24.56], [-81.80, 24.56], [-81.80, 24.55]];
    const hole = [[-81.797, 24.553], [-81.797, 24.557], [-81.793, 24.557], [-81.793, 24.553], [-81.797, 24.553]];
    const layers = assetLayers([asset('a', { geometry: { type: 'Polygon', coordinates: [outer, hole] } })], []);
    const zip = unzipSync(shapefileZip(layers[1]!, '<metadata/>'));
    const dir = mkdtempSync(path.join(tmpdir(), 'rings-'));
    try {
      const shp = Object.keys(zip).find((n) => n.endsWith('.shp'))!;
      const dbf = Object.keys(zip).find((n) => n.endsWith('.dbf'))!;
      writeFileSync(path.join(dir, 'a.shp'), zip[shp]!);
      writeFileSync(path.join(dir, 'a.dbf'), zip[dbf]!);
      const source = await openShapefile(path.join(dir, 'a.shp'), path.join(dir, 'a.dbf'));
      const { value } = await source.read();
      const rings = (value.geometry as { coordinates: number[][][] }).coordinates;
      expect(rings).toHaveLength(2);
      expect(signedArea(rings[0]!)).toBeLessThan(0);
      expect(signedArea(rings[1]!)).toBeGreaterThan(0);
      // The outer ring's area is the 0.01° square's, projected to EPSG:3087 with proj4 here.
      const toAlbers = proj4('EPSG:4326', albers.proj4);
      const projected = outer.map((p) => toAlbers.forward(p));
      expect(Math.abs(signedArea(rings[0]!))).toBeCloseTo(Math.abs(signedArea(projected)), -2);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('the GeoPackage', () => {

  it('holds every layer, an empty one too, each with its own FGDC record, and leaves no temporary file', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'gpkg-test-'));
    // The writer works in the system's temporary folder: pointed at this test's own, which must be empty afterwards.
    const scratch = path.join(dir, 'scratch');
    mkdirSync(scratch);
    const spy = jest.spyOn(os, 'tmpdir').mockReturnValue(scratch);
    try {
      const layers = [
        boundaryLayer('Monroe County', { type: 'Polygon', coordinates: [[[-81.8, 24.5], [-81.7, 24.5], [-81.7, 24.6], [-81.8, 24.5]]] }),
        assetLayer([asset('a_1'), asset('a_2', { lon: -81.75 })], []),
        inundationLayer([]),
      ];
      const records = new Map(layers.map((l) => [l.name, `<metadata><title>${l.name}</title></metadata>`]));
      const bytes = await new SqlJsGeoPackageWriter().write(geoPackageContent(layers, records));
      expect(readdirSync(scratch)).toEqual([]);
      spy.mockRestore();
      const file = path.join(dir, 'p.gpkg');
      writeFileSync(file, bytes);
      const db = await openSqlite(file);
      try {
        expect(db.prepare('SELECT COUNT(*) AS n FROM boundary').all()).toEqual([{ n: 1 }]);
        expect(db.prepare('SELECT ASSET_ID FROM assets ORDER BY ASSET_ID').all()).toEqual([{ ASSET_ID: 'a_1' }, { ASSET_ID: 'a_2' }]);
        expect(db.prepare('SELECT COUNT(*) AS n FROM inundation').all()).toEqual([{ n: 0 }]);
        const linked = db.prepare(`SELECT r.reference_scope, r.table_name, m.md_scope, m.md_standard_uri, m.mime_type, m.metadata
          FROM gpkg_metadata_reference r JOIN gpkg_metadata m ON m.id = r.md_file_id ORDER BY r.table_name`).all();
        expect(linked).toEqual(['assets', 'boundary', 'inundation'].map((name) => ({
          reference_scope: 'table', table_name: name, md_scope: 'dataset', md_standard_uri: 'http://www.fgdc.gov/metadata/csdgm', mime_type: 'text/xml',
          metadata: `<metadata><title>${name}</title></metadata>`,
        })));
      } finally {
        db.close();
      }
    } finally {
      spy.mockRestore();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('the prioritized asset list workbook', () => {
  it('has one row per asset in priority order with its position, a frozen bold header, and an About sheet defining each column', async () => {
    const layer = assetLayer([asset('a_1', { owner: 'Monroe County' }), asset('a_2', { lon: -81.75, lat: 24.56 })], combos);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(await assetListXlsx(layer, 'Monroe County: prioritized critical assets') as never);
    const [sheet, about] = workbook.worksheets as [ExcelJS.Worksheet, ExcelJS.Worksheet];
    expect(sheet.name).toBe('Prioritized assets');
    expect(sheet.views).toEqual([expect.objectContaining({ state: 'frozen', ySplit: 1 })]);
    const header = (sheet.getRow(1).values as unknown[]).slice(1);
    expect(header).toEqual([...layer.attributes.map((a) => a.name), 'LAT', 'LON']);
    expect(sheet.getRow(1).font).toMatchObject({ bold: true });
    // Text columns wide enough for names and addresses, figures narrow.
    expect(sheet.columns.map((c) => c.width)).toEqual([...layer.attributes.map((a) => (a.type === 'TEXT' ? 28 : 12)), 12, 12]);
    const cell = (row: number, name: string) => sheet.getRow(row).getCell(header.indexOf(name) + 1).value;
    expect([cell(2, 'PRIORITY'), cell(2, 'ASSET_ID'), cell(2, 'OWNER'), cell(2, 'LAT'), cell(2, 'LON')]).toEqual([1, 'a_1', 'Monroe County', 24.55, -81.78]);
    expect([cell(3, 'PRIORITY'), cell(3, 'ASSET_ID'), cell(3, 'LAT'), cell(3, 'LON')]).toEqual([2, 'a_2', 24.56, -81.75]);
    expect(sheet.rowCount).toBe(3);
    expect(about.name).toBe('About');
    expect(about.getSheetValues().slice(1).map((row) => (row as unknown[]).slice(1))).toEqual([
      ['Monroe County: prioritized critical assets'],
      ...layer.attributes.map((a) => [a.name, a.definition]),
    ]);
  });
});
