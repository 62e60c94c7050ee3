import { unzipSync } from 'fflate';
import type { MultiPolygon } from 'geojson';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { open as openShapefile } from 'shapefile';
import { componentExtentLayer, inundationLayer } from '../../shared/domain/deliverables/gis-layers';
import { fgdcMetadata, geoPackageContent, packageReadme } from '../../shared/domain/deliverables/gis-package';
import { shapefileZip } from '../helpers/deliverable-writers';
import type { ComponentExtent } from '../../shared/domain/hazards/inundation-extents';
import { SqlJsGeoPackageWriter } from '../../shared/adapters/geopackage-writer';
import { albers3087, gpkgPolygons, planarArea } from '../helpers/deliverable-readers';
import { openSqlite } from '../helpers/sqlite';

/**
 * The rainfall ponding and compound flooding layers of the GIS package: one feature per design storm,
 * resp. per scenario × horizon, with the storm, the area and the deepest water; written to the
 * GeoPackage and to Shapefiles with their FGDC records, read back with the formats' own readers, and
 * listed in the package README.
 */

const square = (west: number, south: number, size: number): MultiPolygon => ({
  type: 'MultiPolygon',
  coordinates: [[[[west, south], [west + size, south], [west + size, south + size], [west, south + size], [west, south]]]],
});
const STORM = { return_period_years: 100, depth_mm: 330.2, duration_h: 24 };
const extent = (component: ComponentExtent['component'], scenario: string | null, year: number | null, geometry: MultiPolygon, maxDepth: number, areaKm2: number): ComponentExtent => ({
  component, scenario, planning_horizon: year, storm: component === 'rainfall' || component === 'compound' ? STORM : null, area_km2: areaKm2, area_m2: areaKm2 * 1e6, max_depth_m: maxDepth, geometry,
});
const EXTENTS: ComponentExtent[] = [
  extent('tidal', 'intermediate', 2050, square(-81.80, 24.55, 0.01), 0.4, 1.1),
  extent('rainfall', null, null, square(-81.78, 24.56, 0.002), 1.1, 0.04),
  extent('compound', 'intermediate', 2050, square(-81.79, 24.55, 0.004), 1.3, 0.16),
  extent('compound', 'high', 2080, square(-81.79, 24.55, 0.006), 1.9, 0.36),
  // Nothing wet: no feature.
  extent('compound', 'low', 2030, { type: 'MultiPolygon', coordinates: [] }, 0, 0),
];
const CONTEXT = { jurisdiction: 'Monroe County', publisher: 'Test publisher', generatedAt: '2026-11-29T00:00:00.000Z', sources: ['NOAA 2022'] };
const projectedKm2 = (geometry: MultiPolygon) => planarArea(geometry.coordinates.map((p) => p.map((r) => r.map(([lon, lat]) => albers3087(lon!, lat!))))) / 1e6;

describe('the rainfall ponding and compound flooding layers', () => {
  const rainfall = componentExtentLayer('rainfall', EXTENTS);
  const compound = componentExtentLayer('compound', EXTENTS);

  it('hold one feature per storm, resp. per scenario × horizon with water, with the storm, area and depth in m and ft', () => {
    expect(rainfall.name).toBe('rainfall_ponding');
    expect(rainfall.collection.features.map((f) => f.properties)).toEqual([{
      NAME: '100-year 24-hour storm rainfall ponding', COMPONENT: 'rainfall', SCENARIO: '', HORIZON: null,
      STORM_RP: 100, STORM_MM: 330.2, STORM_H: 24, AREA_KM2: 0.04, MAX_DEP_M: 1.1, MAX_DEP_FT: 3.609,
    }]);
    expect(compound.name).toBe('compound_flooding');
    expect(compound.collection.features.map((f) => [f.properties!.SCENARIO, f.properties!.HORIZON, f.properties!.MAX_DEP_FT, f.properties!.STORM_MM])).toEqual([
      ['intermediate', 2050, 4.265, 330.2], ['high', 2080, 6.234, 330.2],
    ]);
    for (const layer of [rainfall, compound]) expect(layer.attributes.map((a) => a.name)).toEqual(Object.keys(layer.collection.features[0]!.properties!));
  });

  it('are written to the GeoPackage with their FGDC records and to Shapefiles whose polygons have the land\'s area in EPSG:3087', async () => {
    const layers = [inundationLayer([]), rainfall, compound];
    const records = new Map(layers.map((l) => [l.name, fgdcMetadata(l, CONTEXT)]));
    const dir = mkdtempSync(path.join(tmpdir(), 'component-layers-'));
    try {
      const file = path.join(dir, 'p.gpkg');
      writeFileSync(file, await new SqlJsGeoPackageWriter().write(geoPackageContent(layers, records)));
      const db = await openSqlite(file);
      try {
        const rows = db.prepare('SELECT SCENARIO, HORIZON, STORM_RP, MAX_DEP_M, geom FROM compound_flooding ORDER BY HORIZON').all() as { SCENARIO: string; HORIZON: number; STORM_RP: number; MAX_DEP_M: number; geom: Uint8Array }[];
        expect(rows.map((r) => [r.SCENARIO, r.HORIZON, r.STORM_RP, r.MAX_DEP_M])).toEqual([['intermediate', 2050, 100, 1.3], ['high', 2080, 100, 1.9]]);
        expect(planarArea(gpkgPolygons(rows[1]!.geom)) / 1e6).toBeCloseTo(projectedKm2(EXTENTS[3]!.geometry), 4);
        const ponding = db.prepare('SELECT HORIZON, STORM_MM, geom FROM rainfall_ponding').all() as { HORIZON: number | null; STORM_MM: number; geom: Uint8Array }[];
        expect(ponding).toHaveLength(1);
        expect([ponding[0]!.HORIZON, ponding[0]!.STORM_MM]).toEqual([null, 330.2]);
        expect(planarArea(gpkgPolygons(ponding[0]!.geom)) / 1e6).toBeCloseTo(projectedKm2(EXTENTS[1]!.geometry), 5);
        const metadata = db.prepare(`SELECT r.table_name AS name, m.metadata FROM gpkg_metadata_reference r JOIN gpkg_metadata m ON m.id = r.md_file_id
          WHERE r.table_name IN ('rainfall_ponding', 'compound_flooding') ORDER BY r.table_name`).all() as { name: string; metadata: string }[];
        expect(metadata.map((m) => m.name)).toEqual(['compound_flooding', 'rainfall_ponding']);
        for (const m of metadata) {
          expect(m.metadata).toContain(`<enttypl>${m.name}</enttypl>`);
          expect(m.metadata).toContain('<attrlabl>MAX_DEP_FT</attrlabl>');
          expect(m.metadata).toContain('<metstdv>FGDC-STD-001-1998</metstdv>');
        }
      } finally {
        db.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }

    const zipped = unzipSync(shapefileZip(rainfall, records.get('rainfall_ponding')!));
    expect(Object.keys(zipped).sort()).toEqual(['rainfall_ponding.cpg', 'rainfall_ponding.dbf', 'rainfall_ponding.prj', 'rainfall_ponding.shp', 'rainfall_ponding.shp.xml', 'rainfall_ponding.shx']);
    const shp = await openShapefile(Buffer.from(zipped['rainfall_ponding.shp']!), Buffer.from(zipped['rainfall_ponding.dbf']!));
    const shape = await shp.read();
    expect(shape.value.properties).toMatchObject({ COMPONENT: 'rainfall', STORM_RP: 100, STORM_MM: 330.2, STORM_H: 24, MAX_DEP_M: 1.1, MAX_DEP_FT: 3.609 });
    const coordinates = shape.value.geometry.type === 'Polygon' ? [shape.value.geometry.coordinates] : (shape.value.geometry as MultiPolygon).coordinates;
    expect(planarArea(coordinates) / 1e6).toBeCloseTo(projectedKm2(EXTENTS[1]!.geometry), 5);
    expect((await shp.read()).done).toBe(true);
  });

  it('are listed in the package README with their files, feature counts and attributes', () => {
    const readme = packageReadme([inundationLayer([]), rainfall, compound], { geoPackage: 'monroe-gis.gpkg', shapefile: (l) => `monroe-${l.name}-shp.zip` }, CONTEXT);
    expect(readme).toContain('GeoPackage: monroe-gis.gpkg');
    expect(readme).toContain('rainfall_ponding: Rainfall ponding per design storm\n  GeoPackage table: rainfall_ponding (MULTIPOLYGON, 1 feature); Shapefile: monroe-rainfall_ponding-shp.zip');
    expect(readme).toContain('compound_flooding: Compound flooding per scenario and planning horizon\n  GeoPackage table: compound_flooding (MULTIPOLYGON, 2 features); Shapefile: monroe-compound_flooding-shp.zip');
    expect(readme).toContain('GeoPackage table: inundation (MULTIPOLYGON, 0 features); Shapefile: none (no features)');
    expect(readme).toContain('    AREA_KM2 (REAL): Area of the polygons in EPSG:3087 (equal-area), km².');
  });
});
