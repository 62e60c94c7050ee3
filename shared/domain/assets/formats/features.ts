import type { Geometry } from 'geojson';
import { detectCrsFromWkt, parseCrsReference, knownCrs, toWgs84, wktToWgs84, type DetectedCrs } from '../crs';
import { AssetFileError } from '../file-error';
import { reprojectGeometry, structuralProblems } from '../geometry';
import type { SourceRecord } from '../import-rows';
import type { SpatialIndexCheck } from './geopackage-index';

/** A feature as read from the file, in the file's own coordinate system. */
export interface RawFeature {
  /** 1-based position in the file. */
  index: number;
  properties: Record<string, unknown>;
  /** Whatever the file holds: a geometry object, null, or something invalid (checked later). */
  geometry: unknown;
  /** Set when the entry is not a GeoJSON Feature object at all. */
  malformed?: string;
}

export interface CrsStatement {
  /** Where the statement came from: a `.prj`, a GeoJSON `crs` member, RFC 7946's default, a GeoPackage layer's srs, or nothing. */
  source: 'prj' | 'geojson_crs' | 'rfc7946_default' | 'gpkg_srs' | 'none';
  /** undefined when nothing was stated (a Shapefile without `.prj`). */
  detected?: DetectedCrs;
  /** The statement could not be read (broken WKT, unknown `crs` member). */
  unreadable?: string;
  /** The `.prj` text, for systems outside the known list that proj4 reads itself. */
  wkt?: string;
}

export interface FeatureFile {
  format: 'geojson' | 'shapefile' | 'geopackage';
  /** The GeoPackage layer read. */
  layer?: string;
  crs: CrsStatement;
  /** Property names, in file order (the union over the first features for GeoJSON). */
  headers: string[];
  features: RawFeature[] | AsyncIterable<RawFeature>;
  /** A GeoPackage layer's spatial index, read from its tables. */
  spatialIndex?: SpatialIndexCheck;
  /** Metadata shipped inside the upload (`.shp.xml` / `.xml` beside the Shapefile, a GeoPackage's metadata extension). */
  metadataXml?: string;
}

export function crsFromGeoJsonMember(crs: unknown): CrsStatement {
  if (crs === undefined || crs === null) return { source: 'rfc7946_default', detected: { epsg: 4326, name: 'WGS 84 (RFC 7946)', projected: false } };
  const name = (crs as { properties?: { name?: unknown } }).properties?.name;
  const epsg = typeof name === 'string' ? parseCrsReference(name) : undefined;
  if (epsg === undefined) return { source: 'geojson_crs', unreadable: `Unrecognised "crs" member ${JSON.stringify(crs).slice(0, 200)}.` };
  const known = knownCrs(epsg);
  return { source: 'geojson_crs', detected: { epsg: known ? epsg : null, name: known?.name ?? `EPSG:${epsg}`, projected: known?.projected ?? true } };
}

export function crsFromPrj(prj: string | undefined): CrsStatement {
  if (prj === undefined) return { source: 'none' };
  try {
    return { source: 'prj', detected: detectCrsFromWkt(prj), wkt: prj };
  } catch (error) {
    return { source: 'prj', unreadable: (error as Error).message, wkt: prj };
  }
}

/** The coordinate system the importer can reproject from, or a 400 saying why not. */
export function importReprojector(crs: CrsStatement): ((geometry: Geometry) => Geometry) {
  const known = crs.detected?.epsg != null && knownCrs(crs.detected.epsg) ? crs.detected.epsg : undefined;
  // A .prj outside the known systems is read by proj4 itself (ESRI and OGC WKT1).
  const project = known !== undefined ? toWgs84(known) : crs.wkt !== undefined ? wktToWgs84(crs.wkt) : undefined;
  if (project) return (geometry) => reprojectGeometry(geometry, project);
  if (crs.unreadable) throw new AssetFileError('unsupported_crs', `The coordinate system cannot be read: ${crs.unreadable}`);
  if (!crs.detected) return (geometry) => geometry; // no .prj: positions are taken as WGS84, and checked against Florida
  throw new AssetFileError('unsupported_crs', `Unsupported coordinate system "${crs.detected.name}". Export in WGS84 (EPSG:4326), NAD83, Florida GDL Albers (EPSG:3086, 3087, 6439) or Florida State Plane.`);
}

/** Features as importer records: positions in WGS84; structurally broken geometry passed on for the row check. */
export async function* featureRecords(file: FeatureFile): AsyncGenerator<SourceRecord> {
  const reproject = importReprojector(file.crs);
  let anyGeometry = false;
  for await (const feature of file.features) {
    if (feature.malformed !== undefined) {
      yield { row: feature.index, properties: {}, malformed: feature.malformed };
      continue;
    }
    const valid = structuralProblems(feature.geometry).length === 0;
    if (feature.geometry !== null && feature.geometry !== undefined) anyGeometry = true;
    yield {
      row: feature.index,
      properties: feature.properties,
      geometry: valid ? reproject(feature.geometry as Geometry) : (feature.geometry as Geometry | null),
    };
  }
  if (!anyGeometry) throw new AssetFileError('no_geometry', 'No feature has a geometry.');
}
