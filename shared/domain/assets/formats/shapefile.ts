import { AssetFileError } from '../file-error';
import { crsFromPrj, type FeatureFile, type RawFeature } from './features';
import { isEmptyZip, isZip } from './sniff';
import { unzipBudgeted } from './zip-budget';

/** Uncompressed bytes accepted from one archive (a zip bomb stops here). */
export const MAX_UNZIPPED_BYTES = 256 * 1024 * 1024;
const PARTS = /\.(shp|shx|dbf|prj|cpg|xml)$/i;

function extension(name: string): string {
  return name.toLowerCase().replace(/^.*?\.(shp\.xml|[a-z]+)$/, '$1');
}

/** At most ten names, then how many more. */
function listed(names: string[]): string {
  return names.length > 10 ? `${names.slice(0, 10).join(', ')} and ${names.length - 10} more` : names.join(', ');
}

function baseName(name: string): string {
  return name.toLowerCase().replace(/\.(shp\.xml|[a-z]+)$/, '');
}

/**
 * Opens a zipped Shapefile (fflate + the `shapefile` package): exactly one `.shp` with its `.dbf`,
 * plus `.prj` (coordinate system), `.cpg` (attribute encoding) and `.shp.xml`/`.xml` metadata when
 * present. Folders and macOS resource forks inside the archive are ignored.
 */
export async function readShapefileZip(buffer: Buffer): Promise<FeatureFile> {
  if (buffer.length === 0) throw new AssetFileError('empty_file', 'The file is empty.');
  if (isEmptyZip(buffer)) throw new AssetFileError('malformed_zip', 'The ZIP archive holds no file. Zip the .shp, .shx, .dbf and .prj files together.');
  if (!isZip(buffer)) throw new AssetFileError('malformed_zip', 'The file is not a ZIP archive. Zip the .shp, .shx, .dbf and .prj files together.');
  const hidden = (name: string) => name.includes('__MACOSX/') || /(^|\/)\./.test(name);
  const wanted = (name: string) => PARTS.test(name) && !hidden(name);
  const { entries, files } = await unzipBudgeted(buffer, { totalBytes: MAX_UNZIPPED_BYTES }, wanted);
  const names = Object.keys(entries);
  const shps = names.filter((n) => extension(n) === 'shp');
  if (files.length === 0) throw new AssetFileError('malformed_zip', 'No file could be read from the archive: it is empty or damaged. Zip the .shp, .shx, .dbf and .prj files together.');
  const visible = files.filter((name) => !hidden(name));
  if (shps.length === 0) throw new AssetFileError('malformed_zip', `The archive holds no .shp file (found: ${visible.length ? listed(visible) : 'only hidden files and macOS resource forks'}).`);
  if (shps.length > 1) throw new AssetFileError('malformed_zip', `The archive holds ${shps.length} layers (${shps.join(', ')}); upload one layer per file.`);
  const base = baseName(shps[0]!);
  const part = (ext: string) => names.find((n) => baseName(n) === base && extension(n) === ext);
  const dbfName = part('dbf');
  if (!dbfName) throw new AssetFileError('malformed_shapefile', `${shps[0]} has no .dbf beside it: the attributes (names, types) are missing.`);
  const text = (name: string | undefined) => (name ? Buffer.from(entries[name]!).toString('utf8').trim() : undefined);
  const cpg = text(part('cpg'));

  const features: RawFeature[] = [];
  let headers: string[] = [];
  try {
    // Loaded on first use: most requests of the function read no shapefile.
    const { open } = await import('shapefile');
    const source = await open(entries[shps[0]!]!, entries[dbfName]!, { encoding: cpg && /^(utf-?8|65001)$/i.test(cpg) ? 'utf-8' : 'windows-1252' });
    for (let result = await source.read(); !result.done; result = await source.read()) {
      const properties = { ...(result.value.properties ?? {}) };
      if (features.length === 0) headers = Object.keys(properties);
      features.push({ index: features.length + 1, properties, geometry: result.value.geometry ?? null });
    }
  } catch (error) {
    throw new AssetFileError('malformed_shapefile', `The Shapefile cannot be read: ${(error as Error).message}`);
  }
  if (features.length === 0) throw new AssetFileError('empty_file', 'The Shapefile has no features.');
  return {
    format: 'shapefile',
    crs: crsFromPrj(text(part('prj'))),
    headers,
    features,
    metadataXml: text(part('shp.xml') ?? part('xml')),
  };
}
