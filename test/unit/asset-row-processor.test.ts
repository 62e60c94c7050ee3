import { createHash, createHmac } from 'node:crypto';
import { AssetRowProcessor, type SourceRecord } from '../../shared/domain/assets/import-rows';
import type { JurisdictionArea } from '../../shared/domain/assets/jurisdiction-area';
import { fileErrorOf, fileErrorParts } from '../helpers/asset-file-error';

/**
 * The row processor's counts, caps and file-level verdicts, one threshold at a time: a majority of
 * swapped or outside positions condemns the file and exactly half does not, report caps are exact,
 * and ids and hashes are recomputed here with Node's own HMAC and SHA-256.
 */
const TAMPA = { lon: -82.4572, lat: 27.9506 };
const LONDON = { lon: -0.1276, lat: 51.5072 };
const HEADERS = ['name', 'type', 'lat', 'lon'];

type Options = ConstructorParameters<typeof AssetRowProcessor>[0];
const processor = (options: Partial<Options> = {}) => new AssetRowProcessor({ jurisdictionId: 'county:12057', idKey: 'account-key', hasGeometry: false, headers: HEADERS, ...options });

let nextRow = 2;
function record(properties: Record<string, unknown>): SourceRecord {
  return { row: nextRow++, properties };
}
const at = (name: string, { lon, lat }: { lon: number; lat: number }, type = 'Fire Station') => record({ name, type, lat, lon });
const swapped = (name: string) => record({ name, type: 'Fire Station', lat: TAMPA.lon, lon: TAMPA.lat });

function runAll(p: AssetRowProcessor, records: SourceRecord[]) {
  const assets = records.map((r) => p.process(r));
  return { assets, summary: p.finish() };
}

beforeEach(() => {
  nextRow = 2;
});

describe('file-level verdicts', () => {
  it('a file without rows is empty', () => {
    expect(fileErrorParts(fileErrorOf(() => processor().finish()))).toEqual({ code: 'empty_file', message: 'The file has no data rows.', extra: {} });
  });

  it('exactly half the positions swapped: the rows are refused, the file is not', () => {
    const { summary } = runAll(processor(), [at('A', TAMPA), swapped('B'), at('C', TAMPA, 'Fire Rescue'), swapped('D')]);
    expect(summary.validation.accepted).toBe(2);
    expect(summary.validation.errors).toEqual([
      { row: 3, field: 'lat,lon', code: 'coordinate_order', message: 'Latitude and longitude look swapped: the point is in Florida only with the two exchanged.' },
      { row: 5, field: 'lat,lon', code: 'coordinate_order', message: 'Latitude and longitude look swapped: the point is in Florida only with the two exchanged.' },
    ]);
  });

  it('more than half swapped condemns the file, counting only rows that have coordinates', () => {
    const p = processor();
    for (const r of [swapped('A'), swapped('B'), at('C', TAMPA), record({ name: 'D', lat: '', lon: '' }), record({ name: 'E', lat: null, lon: 1 })]) p.process(r);
    const error = fileErrorOf(() => p.finish());
    expect([error.code, error.message, error.extra]).toEqual(['coordinate_order', 'Latitude and longitude are swapped in 2 of 3 rows: exchange the two columns (or the axis order of the export).', { swapped_rows: 2 }]);
  });

  it('exactly half outside Florida: the rows are refused, the file is not; one more condemns it, out-of-range values included', () => {
    const half = runAll(processor(), [at('A', TAMPA), at('B', LONDON), at('C', TAMPA, 'Fire Rescue'), record({ name: 'D', type: 'x', lat: 95, lon: -82 })]);
    expect(half.summary.validation.errors.map((e) => [e.row, e.code, e.message])).toEqual([
      [3, 'outside_florida', 'The point is outside Florida (lon −87.7…−79.8, lat 24.3…31.1).'],
      [5, 'out_of_range', 'Not a longitude/latitude in degrees (WGS84).'],
    ]);
    const p = processor();
    for (const r of [at('A', TAMPA), at('B', LONDON), record({ name: 'C', lat: 95, lon: -82 })]) p.process(r);
    const error = fileErrorOf(() => p.finish());
    expect([error.code, error.message, error.extra]).toEqual(['outside_florida', '2 of 3 positions are outside Florida (lon −87.7…−79.8, lat 24.3…31.1). Coordinates must be WGS84 decimal degrees, or the file a zipped Shapefile with its .prj.', { outside_rows: 2 }]);
  });

  it('a longitude without its minus sign is named in the row and, when the file is condemned, in its verdict', () => {
    const unsigned = { lon: -TAMPA.lon, lat: TAMPA.lat };
    const rows = runAll(processor(), [at('A', TAMPA), at('B', unsigned), at('C', TAMPA, 'Fire Rescue'), at('D', { lon: 82.4572, lat: 51.5 })]);
    expect(rows.summary.validation.errors.map((e) => [e.row, e.code, e.message])).toEqual([
      [3, 'outside_florida', 'The point is outside Florida (lon −87.7…−79.8, lat 24.3…31.1). Its longitude 82.4572 is east of Greenwich; with a minus sign (-82.4572) it is in Florida: west longitudes are negative.'],
      [5, 'outside_florida', 'The point is outside Florida (lon −87.7…−79.8, lat 24.3…31.1).'],
    ]);
    const p = processor();
    for (const r of [at('A', unsigned), at('B', unsigned), at('C', LONDON), at('D', TAMPA)]) p.process(r);
    const error = fileErrorOf(() => p.finish());
    expect([error.code, error.message]).toEqual(['outside_florida', '3 of 4 positions are outside Florida (lon −87.7…−79.8, lat 24.3…31.1). Coordinates must be WGS84 decimal degrees, or the file a zipped Shapefile with its .prj. 2 of them are in Florida with a minus sign before the longitude: west longitudes are negative (did the export drop the sign?).']);
  });

  it('no valid row: every error of the first 50 comes with the verdict', () => {
    const p = processor();
    for (let i = 0; i < 60; i++) p.process(record({ name: `S${i}`, lat: 'n/a', lon: TAMPA.lon }));
    const error = fileErrorOf(() => p.finish());
    expect(error.code).toBe('no_valid_rows');
    expect(error.message).toBe('None of the 60 rows is valid.');
    const errors = error.extra.errors as { row: number; code: string }[];
    expect(errors).toHaveLength(50);
    expect(errors[0]).toEqual({ row: 2, field: 'lat', code: 'invalid_number', message: 'Not a number' });
    expect(errors[49]!.row).toBe(51);
  });
});

describe('the jurisdiction check', () => {
  const westOf82: JurisdictionArea = { description: 'Test County', contains: (lon) => lon < -82 };
  const EAST = { lon: -81.5, lat: 27.9 };

  it('rejects a row outside by default and says against what it was checked', () => {
    const { summary } = runAll(processor({ area: westOf82 }), [at('In', TAMPA), at('Out', EAST)]);
    expect(summary.validation.accepted).toBe(1);
    expect(summary.validation.errors).toEqual([{ row: 3, field: 'lat,lon', code: 'outside_jurisdiction', message: 'The position is outside Test County.' }]);
    expect(summary.validation.outside_jurisdiction).toEqual({ mode: 'reject', rows: 1, checked_against: 'Test County' });
  });

  it('a file with every row outside and none inside is refused as a whole', () => {
    const p = processor({ area: westOf82 });
    for (const r of [at('A', EAST), at('B', { lon: -80.2, lat: 25.8 })]) p.process(r);
    const error = fileErrorOf(() => p.finish());
    expect([error.code, error.message, error.extra]).toEqual(['outside_jurisdiction', '2 of 2 rows are outside Test County and none is inside: check the jurisdiction, or send outside_jurisdiction=warn (or accept) to import them anyway.', { outside_rows: 2 }]);
  });

  it('half the rows outside and the rest invalid is "no valid rows", not a jurisdiction verdict', () => {
    const p = processor({ area: westOf82 });
    for (const r of [at('A', EAST), record({ name: '', type: 'x', lat: TAMPA.lat, lon: TAMPA.lon })]) p.process(r);
    expect(fileErrorOf(() => p.finish()).code).toBe('no_valid_rows');
  });

  it('warn imports the rows outside with a warning each, the first maxReportedErrors of them', () => {
    const { assets, summary } = runAll(processor({ area: westOf82, outsideJurisdiction: 'warn', maxReportedErrors: 2 }), [at('A', EAST), at('B', EAST, 'Fire Rescue'), at('C', EAST, 'Fire House'), at('D', TAMPA)]);
    expect(assets.every((a) => a !== undefined)).toBe(true);
    expect(summary.validation.warnings).toEqual([
      { row: 2, field: 'lat,lon', code: 'outside_jurisdiction', message: 'The position is outside Test County.' },
      { row: 3, field: 'lat,lon', code: 'outside_jurisdiction', message: 'The position is outside Test County.' },
    ]);
    expect(summary.validation.errors).toEqual([]);
    expect(summary.validation.outside_jurisdiction).toEqual({ mode: 'warn', rows: 3, checked_against: 'Test County' });
  });

  it('accept does not look at the area at all', () => {
    const contains = jest.fn(() => false);
    const { summary } = runAll(processor({ area: { description: 'Test County', contains }, outsideJurisdiction: 'accept' }), [at('A', EAST)]);
    expect(contains).not.toHaveBeenCalled();
    expect(summary.validation.outside_jurisdiction).toEqual({ mode: 'accept', rows: 0, checked_against: null });
  });
});

describe('row errors', () => {
  it.each([
    ['', 'required', 'Required'],
    ['   ', 'required', 'Required'],
    [null, 'required', 'Required'],
    [undefined, 'required', 'Required'],
    ['abc', 'invalid_number', 'Not a number'],
    [Number.POSITIVE_INFINITY, 'invalid_number', 'Not a number'],
    [true, 'invalid_number', 'Not a number'],
    ['0x1B', 'invalid_number', 'Not a number'],
    ['0b11011', 'invalid_number', 'Not a number'],
    ['27.9.5', 'invalid_number', 'Not a number'],
    ['27,9506', 'invalid_number', 'Not a number: "27,9506" has a decimal comma; write decimal degrees with a point (27.9506).'],
    ['27°57\'02"N', 'invalid_number', 'Not a number: "27°57\'02"N" looks like degrees, minutes and seconds or a hemisphere letter; give signed decimal degrees (west longitudes negative).'],
    ['27.9506 N', 'invalid_number', 'Not a number: "27.9506 N" looks like degrees, minutes and seconds or a hemisphere letter; give signed decimal degrees (west longitudes negative).'],
  ])('a latitude of %j is %s', (lat, code, message) => {
    const p = processor();
    expect(p.process(record({ name: 'A', lat, lon: TAMPA.lon }))).toBeUndefined();
    p.process(at('B', TAMPA));
    expect(p.finish().validation.errors).toEqual([{ row: 2, field: 'lat', code, message }]);
  });

  it('reads coordinates given as text with spaces, a sign or an exponent', () => {
    const asset = processor().process(record({ name: 'A', type: 'Fire Station', lat: ' 27.9506 ', lon: '\t-82.4572' }));
    expect([asset?.lon, asset?.lat]).toEqual([TAMPA.lon, TAMPA.lat]);
    const written = processor().process(record({ name: 'B', type: 'Fire Station', lat: '+2.79506e1', lon: '-8245.72E-2' }));
    expect([written?.lon, written?.lat]).toEqual([TAMPA.lon, TAMPA.lat]);
  });

  it('reports every error of a row, both coordinates included, and a malformed row as such', () => {
    const p = processor();
    p.process(record({ name: '', lat: '', lon: 'x' }));
    p.process({ row: 9, properties: {}, malformed: 'Expected 4 fields, found 5.' });
    p.process(at('Ok', TAMPA));
    expect(p.finish().validation.errors).toEqual([
      { row: 2, field: 'name', code: 'required', message: 'Required' },
      { row: 2, field: 'lat', code: 'required', message: 'Required' },
      { row: 2, field: 'lon', code: 'invalid_number', message: 'Not a number' },
      { row: 9, field: '(row)', code: 'malformed_row', message: 'Expected 4 fields, found 5.' },
    ]);
  });

  it('keeps exactly maxReportedErrors errors and says when there were more', () => {
    const run = (bad: number) => {
      nextRow = 2;
      const p = processor({ maxReportedErrors: 3 });
      for (let i = 0; i < bad; i++) p.process(record({ name: `S${i}`, lat: '', lon: TAMPA.lon }));
      p.process(at('Ok', TAMPA));
      return p.finish().validation;
    };
    expect([run(3).errors.length, run(3).errors_truncated]).toEqual([3, false]);
    expect([run(4).errors.length, run(4).errors_truncated]).toEqual([3, true]);
    expect(run(4).errors.map((e) => e.row)).toEqual([2, 3, 4]);
  });

  it('cuts a row\'s errors at the cap and counts the rest as truncated', () => {
    const p = processor({ maxReportedErrors: 2 });
    p.process(record({ name: '', lat: '', lon: '' }));
    p.process(at('Ok', TAMPA));
    const validation = p.finish().validation;
    expect(validation.errors.map((e) => e.field)).toEqual(['name', 'lat']);
    expect(validation.errors_truncated).toBe(true);
    expect(validation.rejected).toBe(1);
  });

  it('a repeated source id keeps the first row; without an id column, name, type and position to six decimals decide', () => {
    const withIds = processor({ headers: ['name', 'type', 'lat', 'lon', 'FACILITY_ID'] });
    withIds.process(record({ name: 'A', type: 'Fire Station', lat: TAMPA.lat, lon: TAMPA.lon, FACILITY_ID: 'F-1' }));
    expect(withIds.process(record({ name: 'Other', type: 'Fire Station', lat: 28, lon: -82, FACILITY_ID: ' F-1 ' }))).toBeUndefined();
    expect(withIds.finish().validation.errors).toEqual([{ row: 3, field: 'FACILITY_ID', code: 'duplicate', message: 'Source id F-1 appears earlier in the file; the first row is kept.' }]);

    nextRow = 2;
    const byContent = processor();
    byContent.process(at('Station 1', TAMPA));
    expect(byContent.process(at('station 1 ', { lon: TAMPA.lon + 4e-7, lat: TAMPA.lat }))).toBeUndefined();
    expect(byContent.process(at('Station 1', { lon: TAMPA.lon + 2e-6, lat: TAMPA.lat }))).toBeDefined();
    expect(byContent.process(at('Station 1', TAMPA, 'Fire Rescue'))).toBeDefined();
    expect(byContent.finish().validation.errors).toEqual([{ row: 3, field: 'name', code: 'duplicate', message: 'Same name, type and position as an earlier row; the first row is kept.' }]);
  });
});

describe('a second pass over the same file', () => {
  it('the first pass lists the rows that repeat an earlier one', () => {
    const first = processor();
    for (const name of ['Station 1', 'Station 2', 'Station 1', 'Station 3', 'Station 2']) first.check(at(name, TAMPA));
    expect([...first.duplicateRows]).toEqual([4, 6]);
  });

  it('told those rows, takes them as the duplicates instead of comparing identities', () => {
    const second = processor({ knownDuplicates: new Set([3]) });
    expect(second.process(at('Station 1', TAMPA))).toBeDefined();
    expect(second.process(at('Station 9', TAMPA))).toBeUndefined();
    // The same identity again, on a row not listed: the list decides.
    expect(second.process(at('Station 1', TAMPA))).toBeDefined();
    expect(second.finish().validation.errors).toEqual([{ row: 3, field: 'name', code: 'duplicate', message: 'Same name, type and position as an earlier row; the first row is kept.' }]);
    expect([...second.duplicateRows]).toEqual([]);
  });
});

describe('assets built from rows', () => {
  const hmac = (key: string, message: string) => createHmac('sha256', key).update(message).digest('hex');

  it.each([
    ['a short key', 'account-key'],
    ['a key longer than the SHA-256 block', 'k'.repeat(100)],
    ['a key of exactly one block', 'b'.repeat(64)],
    ['a key one byte over the block', 'c'.repeat(65)],
  ])('ids are the HMAC-SHA256 of jurisdiction and identity under the account key (%s)', (_what, idKey) => {
    const p = processor({ idKey, headers: ['name', 'type', 'lat', 'lon', 'Site_ID'] });
    const withId = p.process(record({ name: 'A', type: 'Fire Station', lat: TAMPA.lat, lon: TAMPA.lon, Site_ID: 'S-9' }))!;
    expect(withId.asset_id).toBe(`a_${hmac(idKey, 'county:12057\nid:site_id:S-9').slice(0, 24)}`);
    const noId = processor({ idKey }).process(at('Station  One', TAMPA))!;
    expect(noId.asset_id).toBe(`a_${hmac(idKey, 'county:12057\ncontent:station one|fire station|-82.457200|27.950600').slice(0, 24)}`);
  });

  it('the content hash is the SHA-256 of the asset as built, so any field change changes it', () => {
    const asset = processor().process(at('A', TAMPA))!;
    const { content_hash, ...rest } = asset;
    expect(content_hash).toBe(createHash('sha256').update(JSON.stringify(rest)).digest('hex').slice(0, 32));
    expect(processor().process(at('B', TAMPA))!.content_hash).not.toBe(content_hash);
  });

  it('keeps the first 40 non-empty other columns as attributes, text trimmed and cut at 300 characters', () => {
    const extra = Array.from({ length: 45 }, (_, i) => `c${i}`);
    const properties: Record<string, unknown> = { name: `  ${'N'.repeat(310)} `, type: 'Fire Station', lat: TAMPA.lat, lon: TAMPA.lon };
    for (const column of extra) properties[column] = column === 'c0' ? '  ' : column === 'c1' ? null : column === 'c2' ? ` ${'x'.repeat(320)} ` : column === 'c3' ? 7 : column === 'c4' ? false : column === 'c5' ? new Date('2024-05-01T00:00:00Z') : column === 'c6' ? new Date('nonsense') : column === 'c7' ? Number.NaN : column;
    const asset = processor({ headers: [...HEADERS, ...extra] }).process(record(properties))!;
    expect(asset.name).toBe('N'.repeat(300));
    const kept = Object.keys(asset.attributes);
    expect(kept).toHaveLength(40);
    // c0, c1, c6 and c7 are empty or not values: the 40 are c2…c5 and c8…c43.
    expect(kept).toEqual(['c2', 'c3', 'c4', 'c5', ...extra.slice(8, 44)]);
    expect(asset.attributes).toMatchObject({ c2: 'x'.repeat(300), c3: 7, c4: false, c5: '2024-05-01T00:00:00.000Z', c8: 'c8' });
  });

  it('optional fields are trimmed text or null', () => {
    const p = processor({ headers: ['name', 'type', 'lat', 'lon', 'Address', 'City', 'County', 'Owner'] });
    const asset = p.process(record({ name: 'A', type: 'Fire Station', lat: TAMPA.lat, lon: TAMPA.lon, Address: ' 1 Main St ', City: '', County: null, Owner: 12 }))!;
    expect([asset.address, asset.city, asset.county, asset.owner]).toEqual(['1 Main St', null, null, '12']);
  });

  it('check counts like process without building the asset', () => {
    const p = processor();
    expect(p.check(at('A', TAMPA))).toBe(true);
    expect(p.check(record({ name: 'B', lat: '', lon: '' }))).toBe(false);
    const summary = p.finish();
    expect([summary.total_rows, summary.asset_count, summary.validation.rejected]).toEqual([2, 1, 1]);
  });
});

describe('classification counts', () => {
  it('counts categories and types, and the unclassified type texts by count, most frequent first', () => {
    const rows = [at('A', TAMPA), at('B', TAMPA, 'Widget'), at('C', TAMPA, 'Gizmo'), at('D', TAMPA, 'Gizmo'), at('E', TAMPA, 'Fire Rescue')];
    const { summary } = runAll(processor(), rows);
    expect(summary.categorization).toEqual({ by_category: { community_emergency: 2, unclassified: 3 }, by_asset_type: { fire_stations: 2 }, unclassified: 3 });
    expect(summary.validation.unclassified_types).toEqual([{ text: 'Gizmo', count: 2 }, { text: 'Widget', count: 1 }]);
  });

  it('lists at most 100 distinct unclassified texts, still counting the ones already listed', () => {
    const p = processor();
    for (let i = 0; i < 105; i++) p.process(at(`Thing ${i}`, TAMPA, `Widget ${i}`));
    p.process(at('Thing again', TAMPA, 'Widget 0'));
    const { validation, categorization } = p.finish();
    expect(categorization.unclassified).toBe(106);
    expect(validation.unclassified_types).toHaveLength(100);
    expect(validation.unclassified_types[0]).toEqual({ text: 'Widget 0', count: 2 });
    expect(validation.unclassified_types.some((t) => t.text === 'Widget 100')).toBe(false);
  });

  it('a row without a type column is listed under its name, cut at 100 characters', () => {
    const p = processor({ headers: ['name', 'lat', 'lon'] });
    p.process(record({ name: 'Q'.repeat(150), lat: TAMPA.lat, lon: TAMPA.lon }));
    expect(p.finish().validation.unclassified_types).toEqual([{ text: 'Q'.repeat(100), count: 1 }]);
  });
});

describe('cells as the readers give them', () => {
  it('an absent cell (a blank workbook cell, a missing property) is no text: the name is required, optional fields and attributes are left out, the type is read from the name', () => {
    const p = processor({ headers: ['name', 'type', 'lat', 'lon', 'Address', 'Site_ID', 'Notes'] });
    expect(p.process(record({ name: undefined, type: 'Fire Station', lat: TAMPA.lat, lon: TAMPA.lon }))).toBeUndefined();
    const asset = p.process(record({ name: 'Fire Station 5', type: undefined, lat: TAMPA.lat, lon: TAMPA.lon, Address: undefined, Site_ID: undefined, Notes: undefined }))!;
    expect([asset.address, asset.source_id, asset.source_type, asset.attributes]).toEqual([null, null, null, {}]);
    expect(asset.asset_type).toBe('fire_stations');
    expect(p.finish().validation.errors).toEqual([{ row: 2, field: 'name', code: 'required', message: 'Required' }]);
  });

  it('a type cell holding TRUE or FALSE is not a type text', () => {
    const asset = processor().process(record({ name: 'Lift Station 12', type: true, lat: TAMPA.lat, lon: TAMPA.lon }))!;
    expect(asset.source_type).toBeNull();
    expect(asset.asset_type).toBe('wastewater_treatment_facilities_and_lift_stations');
  });

  it.each([
    ['', 'required', 'Required'],
    [undefined, 'required', 'Required'],
    ['west', 'invalid_number', 'Not a number'],
  ])('a longitude of %j is %s', (lon, code, message) => {
    const p = processor();
    expect(p.process(record({ name: 'A', lat: TAMPA.lat, lon }))).toBeUndefined();
    p.process(at('B', TAMPA));
    expect(p.finish().validation.errors).toEqual([{ row: 2, field: 'lon', code, message }]);
  });

  it('a swapped position is counted as swapped only, not also as outside Florida', () => {
    // One swapped, one outside, one good: neither is a majority of the three.
    const { summary } = runAll(processor(), [swapped('A'), at('B', LONDON), at('C', TAMPA)]);
    expect(summary.validation.errors.map((e) => e.code)).toEqual(['coordinate_order', 'outside_florida']);
  });
});

describe('the columns of a file', () => {
  // 101 columns or more: a refusal lists the first 100.
  const many = Array.from({ length: 99 }, (_, i) => `extra_${i}`);

  it('a column_map naming a column the file lacks', () => {
    const headers = ['name', 'lat', 'lon', ...many];
    const error = fileErrorOf(() => processor({ headers, columnMap: { Facility: 'name', Kind: 'asset_type' } }).process(record({ name: 'A', lat: TAMPA.lat, lon: TAMPA.lon })));
    expect([error.code, error.message, error.extra]).toEqual(['unknown_column', 'column_map names "Facility", "Kind", not a column of the file.', { columns: headers.slice(0, 100) }]);
  });

  it('no name column', () => {
    const headers = ['label_text', 'lat', 'lon', ...many];
    const error = fileErrorOf(() => processor({ headers }).process(record({ label_text: 'A', lat: TAMPA.lat, lon: TAMPA.lon })));
    expect([error.code, error.extra]).toEqual(['missing_name_column', { columns: headers.slice(0, 100) }]);
    expect(error.message).toMatch(/^No column with the asset name\. Name it one of: name, /);
  });

  it('a latitude column without a longitude column, or the reverse', () => {
    for (const headers of [['name', 'lat', ...many], ['name', 'lon', ...many]]) {
      const error = fileErrorOf(() => processor({ headers }).process(record({ name: 'A', lat: TAMPA.lat, lon: TAMPA.lon })));
      expect([error.code, error.extra]).toEqual(['no_geometry', { columns: headers.slice(0, 100) }]);
      expect(error.message).toMatch(/^No coordinates: the file needs a latitude column \(.+\) and a longitude column \(.+\), in WGS84 decimal degrees\.$/);
    }
  });
});

describe('features (files with geometry)', () => {
  const point = (lon: number, lat: number) => ({ type: 'Point' as const, coordinates: [lon, lat] });

  it('matches columns per set of property names and refuses a feature without a name', () => {
    const p = processor({ hasGeometry: true, headers: undefined });
    expect(p.process({ row: 1, properties: { NAME: 'A', FAC_TYPE: 'Fire Station' }, geometry: point(TAMPA.lon, TAMPA.lat) })?.name).toBe('A');
    expect(p.process({ row: 2, properties: { Label: 'B' }, geometry: point(TAMPA.lon, TAMPA.lat) })?.name).toBe('B');
    expect(p.process({ row: 3, properties: { Notes: 'no name' }, geometry: point(TAMPA.lon, TAMPA.lat) })).toBeUndefined();
    expect(p.process({ row: 4, properties: { NAME: 'D' }, geometry: null })).toBeUndefined();
    expect(p.finish().validation.errors).toEqual([
      { row: 3, field: 'name', code: 'required', message: 'The feature has no name attribute.' },
      { row: 4, field: 'geometry', code: 'no_geometry', message: expect.any(String) },
    ]);
  });

  it('a feature outside the jurisdiction is reported on its geometry, even with lat and lon properties', () => {
    const p = processor({ hasGeometry: true, headers: undefined, area: { description: 'Test County', contains: (lon) => lon < -82 } });
    p.process({ row: 1, properties: { name: 'A', lat: 27.9, lon: -81.5 }, geometry: point(-81.5, 27.9) });
    p.process({ row: 2, properties: { name: 'B' }, geometry: point(TAMPA.lon, TAMPA.lat) });
    expect(p.finish().validation.errors).toEqual([{ row: 1, field: 'geometry', code: 'outside_jurisdiction', message: 'The position is outside Test County.' }]);
  });

  it('an invalid geometry is invalid_geometry, an empty one no_geometry', () => {
    const p = processor({ hasGeometry: true, headers: undefined });
    p.process({ row: 1, properties: { name: 'A' }, geometry: { type: 'Point', coordinates: [TAMPA.lon] } as never });
    p.process({ row: 2, properties: { name: 'B' }, geometry: { type: 'MultiPoint', coordinates: [] } });
    p.process({ row: 3, properties: { name: 'C' }, geometry: point(TAMPA.lon, TAMPA.lat) });
    expect(p.finish().validation.errors.map((e) => [e.row, e.field, e.code])).toEqual([[1, 'geometry', 'invalid_geometry'], [2, 'geometry', 'no_geometry']]);
  });

  it('a polygon crossing itself is refused with where it crosses (the GIS package would fail its own validation); a line may cross', () => {
    const p = processor({ hasGeometry: true, headers: undefined });
    const [x, y] = [TAMPA.lon, TAMPA.lat];
    const bowTie = { type: 'Polygon' as const, coordinates: [[[x, y], [x + 0.01, y + 0.01], [x + 0.01, y], [x, y + 0.01], [x, y]]] };
    const square = { type: 'Polygon' as const, coordinates: [[[x, y], [x + 0.01, y], [x + 0.01, y + 0.01], [x, y + 0.01], [x, y]]] };
    const loopRoad = { type: 'LineString' as const, coordinates: [[x, y], [x + 0.01, y + 0.01], [x + 0.01, y], [x, y + 0.01]] };
    expect(p.process({ row: 1, properties: { name: 'Park' }, geometry: bowTie })).toBeUndefined();
    expect(p.process({ row: 2, properties: { name: 'Plant' }, geometry: { type: 'MultiPolygon', coordinates: [square.coordinates, bowTie.coordinates.map((r) => r.map(([a, b]) => [a! + 0.05, b!]))] } })).toBeUndefined();
    expect(p.process({ row: 3, properties: { name: 'Square' }, geometry: square })?.geometry_type).toBe('Polygon');
    expect(p.process({ row: 4, properties: { name: 'Loop road' }, geometry: loopRoad })?.geometry_type).toBe('LineString');
    const hint = 'Repair the polygon (ArcGIS "Repair Geometry", QGIS "Fix geometries"); a bow-tie ring must be split or its vertices reordered.';
    expect(p.finish().validation.errors).toEqual([
      { row: 1, field: 'geometry', code: 'invalid_geometry', message: `The Polygon crosses itself near (${x + 0.005}, ${y + 0.005}). ${hint}` },
      { row: 2, field: 'geometry', code: 'invalid_geometry', message: `The MultiPolygon crosses itself near (${Number((x + 0.055).toFixed(6))}, ${y + 0.005}). ${hint}` },
    ]);
  });

  it('a swapped feature position is reported on its geometry', () => {
    const p = processor({ hasGeometry: true, headers: undefined });
    p.process({ row: 1, properties: { name: 'A' }, geometry: point(TAMPA.lat, TAMPA.lon) });
    p.process({ row: 2, properties: { name: 'B' }, geometry: point(TAMPA.lon, TAMPA.lat) });
    p.process({ row: 3, properties: { name: 'C' }, geometry: point(TAMPA.lon, TAMPA.lat + 0.01) });
    expect(p.finish().validation.errors).toEqual([{ row: 1, field: 'geometry', code: 'coordinate_order', message: 'Latitude and longitude look swapped: the point is in Florida only with the two exchanged.' }]);
  });
});
