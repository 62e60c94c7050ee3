import { zipSync, unzipSync } from 'fflate';
import type { RawFeature } from '../../shared/domain/assets/formats/features';
import { readShapefileZip } from '../../shared/domain/assets/formats/shapefile';
import { PRJ, zippedShapefile, type ShapeRecord } from '../fixtures/assets/shapefile-writer';
import { rejectionOf } from '../helpers/asset-file-error';

/** Zipped Shapefiles as people send them: folders, resource forks, several files, code pages, metadata. */
const records: ShapeRecord[] = [
  { geometry: { type: 'Point', coordinates: [-81.78, 24.55] }, attributes: { NAME: 'Station 1', TYPE: 'Lift Station' } },
  { geometry: { type: 'Point', coordinates: [-81.77, 24.56] }, attributes: { NAME: 'Station 2', TYPE: 'Pump' } },
];
const fields = [{ name: 'NAME', type: 'C' as const, length: 20 }, { name: 'TYPE', type: 'C' as const, length: 20 }];
/** The layer's files by name, to be renamed or regrouped in a new archive. */
const layerFiles = (extra: Record<string, string> = {}, name = 'assets') => unzipSync(zippedShapefile({ name, kind: 'Point', fields, records, extra }));
const zip = (files: Record<string, Uint8Array | string>) => Buffer.from(zipSync(Object.fromEntries(Object.entries(files).map(([k, v]) => [k, typeof v === 'string' ? new TextEncoder().encode(v) : v]))));

const refusal = (buffer: Buffer) => rejectionOf(() => readShapefileZip(buffer));

describe('refusals', () => {
  it.each([
    ['an empty file', Buffer.alloc(0), 'empty_file', 'The file is empty.'],
    ['a file that is not a ZIP archive', Buffer.from('NAME,TYPE\n'), 'malformed_zip', 'The file is not a ZIP archive. Zip the .shp, .shx, .dbf and .prj files together.'],
    ['an archive without any part of a layer', zip({ 'readme.txt': 'hello' }), 'malformed_zip', 'The archive holds no .shp file (found: readme.txt).'],
    ['an archive of twelve other files', zip(Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`f${i}.txt`, 'x']))), 'malformed_zip', 'The archive holds no .shp file (found: f0.txt, f1.txt, f2.txt, f3.txt, f4.txt, f5.txt, f6.txt, f7.txt, f8.txt, f9.txt and 2 more).'],
    ['an archive of ten other files', zip(Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`f${i}.txt`, 'x']))), 'malformed_zip', 'The archive holds no .shp file (found: f0.txt, f1.txt, f2.txt, f3.txt, f4.txt, f5.txt, f6.txt, f7.txt, f8.txt, f9.txt).'],
    ['an archive of hidden files only', zip({ '__MACOSX/._assets.shp': 'x', '.DS_Store': 'x' }), 'malformed_zip', 'The archive holds no .shp file (found: only hidden files and macOS resource forks).'],
    ['a folder without a layer, zipped on a Mac', zip({ 'layer/readme.txt': 'x', '__MACOSX/layer/._readme.txt': 'x' }), 'malformed_zip', 'The archive holds no .shp file (found: layer/readme.txt).'],
    ['ZIP signature and then no entry', Buffer.from('PK\x03\x04garbage', 'latin1'), 'malformed_zip', 'No file could be read from the archive: it is empty or damaged. Zip the .shp, .shx, .dbf and .prj files together.'],
    ['an archive without files', zip({}), 'malformed_zip', 'The ZIP archive holds no file. Zip the .shp, .shx, .dbf and .prj files together.'],
    ['an archive with a .dbf only', zip({ 'assets.dbf': layerFiles()['assets.dbf']! }), 'malformed_zip', 'The archive holds no .shp file (found: assets.dbf).'],
    ['two layers', zip({ ...layerFiles(), ...layerFiles({}, 'roads') }), 'malformed_zip', 'The archive holds 2 layers (assets.shp, roads.shp); upload one layer per file.'],
    ['a .shp without its .dbf', zip({ 'assets.shp': layerFiles()['assets.shp']!, 'assets.shx': layerFiles()['assets.shx']! }), 'malformed_shapefile', 'assets.shp has no .dbf beside it: the attributes (names, types) are missing.'],
    ['a .dbf of another layer', zip({ 'assets.shp': layerFiles()['assets.shp']!, 'other.dbf': layerFiles()['assets.dbf']! }), 'malformed_shapefile', 'assets.shp has no .dbf beside it: the attributes (names, types) are missing.'],
  ])('%s', async (_what, buffer, code, message) => {
    const error = await refusal(buffer);
    expect([error.code, error.message]).toEqual([code, message]);
  });

  it('a layer without features', async () => {
    const error = await refusal(zippedShapefile({ kind: 'Point', fields, records: [] }));
    expect([error.code, error.message]).toEqual(['empty_file', 'The Shapefile has no features.']);
  });

  it('a .shp that is not a Shapefile', async () => {
    const error = await refusal(zip({ 'assets.shp': 'not a shapefile at all, just text', 'assets.dbf': layerFiles()['assets.dbf']! }));
    expect(error.code).toBe('malformed_shapefile');
    expect(error.message).toMatch(/^The Shapefile cannot be read: /);
  });
});

describe('reading a layer', () => {
  it('numbers features from 1, takes the headers from the first, and has no system without a .prj', async () => {
    const file = await readShapefileZip(zippedShapefile({ kind: 'Point', fields, records }));
    expect(file.format).toBe('shapefile');
    expect(file.headers).toEqual(['NAME', 'TYPE']);
    expect(file.features).toEqual([
      { index: 1, properties: { NAME: 'Station 1', TYPE: 'Lift Station' }, geometry: { type: 'Point', coordinates: [-81.78, 24.55] } },
      { index: 2, properties: { NAME: 'Station 2', TYPE: 'Pump' }, geometry: { type: 'Point', coordinates: [-81.77, 24.56] } },
    ]);
    expect(file.crs).toEqual({ source: 'none' });
    expect(file.metadataXml).toBeUndefined();
  });

  it('ignores macOS resource forks and hidden files, and finds a layer inside a folder, names in any case', async () => {
    const files = layerFiles({ 'assets.prj': PRJ.harnGdlAlbers });
    const archive = zip({
      '__MACOSX/layer/._ASSETS.SHP': 'resource fork',
      'layer/.hidden.shp': 'hidden',
      'layer/ASSETS.SHP': files['assets.shp']!,
      'layer/ASSETS.SHX': files['assets.shx']!,
      'layer/Assets.DBF': files['assets.dbf']!,
      'layer/assets.PRJ': files['assets.prj']!,
    });
    const file = await readShapefileZip(archive);
    expect((file.features as unknown[]).length).toBe(2);
    expect(file.crs).toMatchObject({ source: 'prj', detected: { epsg: 3087 } });
  });

  it('ignores a hidden layer at the top of the archive too', async () => {
    const files = layerFiles();
    const file = await readShapefileZip(zip({ '.assets.shp': 'hidden', 'assets.shp': files['assets.shp']!, 'assets.dbf': files['assets.dbf']! }));
    expect((file.features as RawFeature[]).length).toBe(2);
  });

  it('a layer whose name holds dots', async () => {
    const files = layerFiles();
    const file = await readShapefileZip(zip({ 'county.assets.v2.shp': files['assets.shp']!, 'county.assets.v2.dbf': files['assets.dbf']! }));
    expect(file.headers).toEqual(['NAME', 'TYPE']);
  });

  it.each([['UTF-8'], ['utf8'], [' 65001\n']])('a .cpg of %j reads the attributes as UTF-8', async (cpg) => {
    // "Ã©" written byte for byte is the UTF-8 encoding of "é".
    const archive = zippedShapefile({ kind: 'Point', fields, records: [{ geometry: records[0]!.geometry, attributes: { NAME: 'CafÃ©', TYPE: 'x' } }], extra: { 'assets.cpg': cpg } });
    expect(((await readShapefileZip(archive)).features as RawFeature[])[0]!.properties.NAME).toBe('Café');
  });

  it.each([[undefined], ['ISO-8859-1'], ['UTF-16'], ['NOT-UTF8'], ['UTF8X'], ['650011']])('with a .cpg of %j the attributes are Windows-1252', async (cpg) => {
    const archive = zippedShapefile({ kind: 'Point', fields, records: [{ geometry: records[0]!.geometry, attributes: { NAME: 'CafÃ©', TYPE: 'x' } }], extra: cpg === undefined ? {} : { 'assets.cpg': cpg } });
    expect(((await readShapefileZip(archive)).features as RawFeature[])[0]!.properties.NAME).toBe('CafÃ©');
  });

  it('takes metadata from the .shp.xml before a plain .xml, trimmed', async () => {
    const both = await readShapefileZip(zippedShapefile({ kind: 'Point', fields, records, extra: { 'assets.xml': '<plain/>', 'assets.shp.xml': '  <metadata/>\n' } }));
    expect(both.metadataXml).toBe('<metadata/>');
    const plain = await readShapefileZip(zippedShapefile({ kind: 'Point', fields, records, extra: { 'assets.xml': '<plain/>' } }));
    expect(plain.metadataXml).toBe('<plain/>');
    const other = await readShapefileZip(zippedShapefile({ kind: 'Point', fields, records, extra: { 'roads.shp.xml': '<other/>' } }));
    expect(other.metadataXml).toBeUndefined();
  });

  it('an unreadable .prj is kept as unreadable, with the text', async () => {
    const file = await readShapefileZip(zippedShapefile({ kind: 'Point', fields, records, prj: 'garbage' }));
    expect(file.crs).toEqual({ source: 'prj', unreadable: 'Not valid WKT: "[" expected at character 7', wkt: 'garbage' });
  });
});
