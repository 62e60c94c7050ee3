import { AssetFileError } from '../file-error';
import { crsFromGeoJsonMember, type FeatureFile, type RawFeature } from './features';

const HEADER_SAMPLE = 100;

/**
 * Parses a GeoJSON FeatureCollection (RFC 7946). Anything else — invalid JSON, a bare Feature or
 * Geometry, a collection without a `features` array — is refused as a whole; a member of
 * `features` that is not a Feature becomes a row error.
 */
export function readGeoJson(buffer: Buffer): FeatureFile {
  const text = buffer.toString('utf8').replace(/^\uFEFF/, '');
  if (text.trim() === '') throw new AssetFileError('empty_file', 'The file is empty.');
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch (error) {
    throw new AssetFileError('malformed_json', `The file is not valid JSON: ${(error as Error).message}`);
  }
  const root = document as { type?: unknown; features?: unknown; crs?: unknown };
  if (typeof root !== 'object' || root === null || Array.isArray(root)) {
    throw new AssetFileError('invalid_geojson', 'The JSON is not a GeoJSON object.');
  }
  if (root.type !== 'FeatureCollection') {
    const hint = root.type === 'Feature' ? ' Wrap the Feature in a FeatureCollection.' : '';
    throw new AssetFileError('invalid_geojson', `Expected a GeoJSON FeatureCollection, got type ${JSON.stringify(root.type ?? null)}.${hint}`);
  }
  if (!Array.isArray(root.features)) throw new AssetFileError('invalid_geojson', 'The FeatureCollection has no "features" array.');
  if (root.features.length === 0) throw new AssetFileError('empty_file', 'The FeatureCollection has no features.');

  const features: RawFeature[] = root.features.map((item: unknown, i: number) => {
    const feature = item as { type?: unknown; properties?: unknown; geometry?: unknown; id?: unknown };
    if (typeof feature !== 'object' || feature === null || feature.type !== 'Feature') {
      return { index: i + 1, properties: {}, geometry: null, malformed: 'Not a GeoJSON Feature object.' };
    }
    const properties = typeof feature.properties === 'object' && feature.properties !== null && !Array.isArray(feature.properties)
      ? { ...(feature.properties as Record<string, unknown>) }
      : {};
    // RFC 7946 §3.2: a Feature's "id" identifies it; use it when the properties carry none.
    if ((typeof feature.id === 'string' || typeof feature.id === 'number') && properties.id === undefined) properties.id = feature.id;
    return { index: i + 1, properties, geometry: feature.geometry ?? null };
  });
  const headers = [...new Set(features.slice(0, HEADER_SAMPLE).flatMap((f) => Object.keys(f.properties)))];
  return { format: 'geojson', crs: crsFromGeoJsonMember(root.crs), headers, features };
}
