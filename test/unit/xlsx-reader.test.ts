import { PassThrough, Readable } from 'node:stream';
import ExcelJS from 'exceljs';
import { unzipSync, zipSync } from 'fflate';
import { XLSX_BUDGET, cellValue, readXlsx } from '../../shared/domain/assets/formats/xlsx';
import type { SourceRecord } from '../../shared/domain/assets/import-rows';
import { rejectionOf } from '../helpers/asset-file-error';

/** Workbook cells as values, and the rows of workbooks written here with exceljs's own writer. */
async function workbook(fill: (sheet: ExcelJS.Worksheet, book: ExcelJS.Workbook) => void): Promise<Buffer> {
  const book = new ExcelJS.Workbook();
  fill(book.addWorksheet('Assets'), book);
  return Buffer.from(await book.xlsx.writeBuffer());
}

async function rows(file: Buffer, options: { headerRow?: number } = {}): Promise<SourceRecord[]> {
  const out: SourceRecord[] = [];
  for await (const record of readXlsx(Readable.from([file]), undefined, options)) out.push(record);
  return out;
}

describe('cell values', () => {
  it.each([
    ['empty', null, undefined],
    ['missing', undefined, undefined],
    ['text', 'Fire Station', 'Fire Station'],
    ['empty text', '', ''],
    ['a number', 24.55, 24.55],
    ['zero', 0, 0],
    ['a boolean', false, false],
    ['a date', new Date('2026-01-15T00:00:00Z'), '2026-01-15T00:00:00.000Z'],
    ['rich text', { richText: [{ text: 'Fire ' }, { text: 'Station' }] }, 'Fire Station'],
    ['a formula with a number result', { formula: 'A1+1', result: 5 }, 5],
    ['a formula with a date result', { formula: 'TODAY()', result: new Date('2026-01-15T00:00:00Z') }, '2026-01-15T00:00:00.000Z'],
    ['a formula without a result', { formula: 'A1', result: undefined }, undefined],
    ['a hyperlink', { text: 'County site', hyperlink: 'https://example.org' }, 'County site'],
    ['a hyperlink with rich text', { text: { richText: [{ text: 'a' }, { text: 'b' }] }, hyperlink: 'https://example.org' }, 'ab'],
    ['an error cell', { error: '#N/A' }, undefined],
  ])('%s', (_what, value, expected) => {
    expect(cellValue(value)).toEqual(expected);
  });
});

describe('the unpacking budget of a workbook', () => {
  it('gives the shared strings, which exceljs keeps in memory, 64 MiB of their own; worksheets stream and count only toward the 1 GiB whole', () => {
    expect(XLSX_BUDGET.totalBytes).toBe(2 ** 30);
    expect(XLSX_BUDGET.entryBytes!('xl/sharedStrings.xml')).toBe(64 * 2 ** 20);
    expect(['xl/worksheets/sheet1.xml', 'xl/styles.xml', 'sharedStrings.xml'].map((name) => XLSX_BUDGET.entryBytes!(name))).toEqual([undefined, undefined, undefined]);
    expect(XLSX_BUDGET.damaged).toBe('malformed_xlsx');
  });
});

describe('reading a workbook', () => {
  it('takes the first non-empty row as the header and numbers rows as the spreadsheet does', async () => {
    const file = await workbook((sheet) => {
      sheet.getRow(2).values = ['name', 'lat', 'lon'];
      sheet.getRow(3).values = ['Station 1', 24.55, -81.78];
      sheet.getRow(5).values = ['Station 2', 24.56, -81.77];
    });
    expect(await rows(file)).toEqual([
      { row: 3, properties: { name: 'Station 1', lat: 24.55, lon: -81.78 } },
      { row: 5, properties: { name: 'Station 2', lat: 24.56, lon: -81.77 } },
    ]);
  });

  it('skips rows whose cells are all blank text, keeps a row with one value', async () => {
    const file = await workbook((sheet) => {
      sheet.addRow(['name', 'note']);
      sheet.addRow(['', '']);
      sheet.addRow(['', 0]);
      sheet.addRow([undefined, 'x']);
    });
    expect((await rows(file)).map((r) => [r.row, r.properties])).toEqual([
      // exceljs writes no cell for empty text: it reads back as no value.
      [3, { name: undefined, note: 0 }],
      [4, { name: undefined, note: 'x' }],
    ]);
  });

  it('skips rows whose cells read as no value or as empty text: an error, a formula never calculated, rich text without text', async () => {
    const file = await workbook((sheet) => {
      // Above the header: would become a header of blank names if it were read as a row.
      sheet.getCell('A1').value = { error: '#N/A' } as ExcelJS.CellErrorValue;
      sheet.getCell('B1').value = { formula: 'A1', date1904: false } as ExcelJS.CellFormulaValue;
      sheet.getRow(2).values = ['name', 'lat'];
      sheet.getRow(3).values = ['Station 1', 24.55];
      // Below it: would be a data row of blanks.
      sheet.getCell('A4').value = { richText: [{ text: '' }] };
      sheet.getRow(5).values = ['Station 2', 24.56];
    });
    expect(await rows(file)).toEqual([
      { row: 3, properties: { name: 'Station 1', lat: 24.55 } },
      { row: 5, properties: { name: 'Station 2', lat: 24.56 } },
    ]);
  });

  it('names repeated and blank headers apart', async () => {
    const file = await workbook((sheet) => {
      sheet.addRow(['name', 'name', '', 'type']);
      sheet.addRow(['a', 'b', 'c', 'd']);
    });
    expect((await rows(file))[0]!.properties).toEqual({ name: 'a', name_2: 'b', column_3: 'c', type: 'd' });
  });

  it('with headerRow, rows above it are not data even when filled', async () => {
    const file = await workbook((sheet) => {
      sheet.addRow(['Critical assets of Monroe County']);
      sheet.addRow(['Prepared 2026']);
      sheet.addRow([]);
      sheet.addRow(['name', 'lat']);
      sheet.addRow(['Station 1', 24.55]);
    });
    expect(await rows(file, { headerRow: 4 })).toEqual([{ row: 5, properties: { name: 'Station 1', lat: 24.55 } }]);
    // From row 3 on, the first non-empty row (4) is still the header.
    expect(await rows(file, { headerRow: 3 })).toEqual([{ row: 5, properties: { name: 'Station 1', lat: 24.55 } }]);
    // Without it the title is the header.
    expect((await rows(file))[0]).toEqual({ row: 2, properties: { 'Critical assets of Monroe County': 'Prepared 2026' } });
  });

  it('reads the first worksheet only', async () => {
    const file = await workbook((sheet, book) => {
      sheet.addRow(['name']);
      sheet.addRow(['first']);
      const other = book.addWorksheet('Other');
      other.addRow(['name']);
      other.addRow(['second']);
    });
    expect((await rows(file)).map((r) => r.properties.name)).toEqual(['first']);
  });

  it('a reader that stops early destroys the input it was still reading', async () => {
    const file = await workbook((sheet) => {
      sheet.addRow(['name']);
      for (let i = 0; i < 5; i++) sheet.addRow([`Station ${i}`]);
    });
    // Not ended: only the reader's own clean-up can destroy it.
    const input = new PassThrough();
    input.write(file);
    for await (const record of readXlsx(input)) {
      expect(record).toEqual({ row: 2, properties: { name: 'Station 0' } });
      break;
    }
    expect(input.destroyed).toBe(true);
  });

  it('a header and no data is no rows', async () => {
    expect(await rows(await workbook((sheet) => sheet.addRow(['name', 'lat'])))).toEqual([]);
  });
});

describe('refusals', () => {
  it('a file that is not a ZIP archive', async () => {
    const error = await rejectionOf(() => rows(Buffer.from('name,lat\nA,1\n')));
    expect([error.code, error.message]).toEqual(['malformed_xlsx', 'The file is not an .xlsx workbook (an .xlsx file is a ZIP archive; legacy .xls is not supported: save as .xlsx).']);
  });

  it('a ZIP archive without a worksheet', async () => {
    const error = await rejectionOf(() => rows(Buffer.from(zipSync({ 'readme.txt': new TextEncoder().encode('hello') }))));
    expect([error.code, error.message]).toEqual(['malformed_xlsx', 'The archive holds no worksheet: it is not an .xlsx workbook.']);
  });

  it("a worksheet whose XML is damaged, with the parser's own words", async () => {
    const parts = unzipSync(await workbook((sheet) => sheet.addRow(['name'])));
    parts['xl/worksheets/sheet1.xml'] = new TextEncoder().encode('<worksheet><sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>name</t></is></c></row><row r="2"><c r="A2" <</sheetData></worksheet>');
    const error = await rejectionOf(() => rows(Buffer.from(zipSync(parts))));
    expect(error.code).toBe('malformed_xlsx');
    expect(error.message).toMatch(/^The workbook is damaged or not an \.xlsx file: \d+:\d+: .+/);
  });

  it('a workbook whose input stops arriving, after the idle limit in whole seconds', async () => {
    const file = await workbook((sheet) => {
      sheet.addRow(['name']);
      for (let i = 0; i < 50; i++) sheet.addRow([`Station ${i}`]);
    });
    const input = new PassThrough();
    input.write(file.subarray(0, 1_600));
    const started = Date.now();
    const error = await rejectionOf(async () => {
      for await (const _ of readXlsx(input, { idleMs: 1_400, endGraceMs: 1_000 })) void _;
    });
    expect([error.code, error.message]).toEqual(['malformed_xlsx', 'The workbook stopped arriving (nothing read for 1 s).']);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1_400);
  });

  it('a workbook that ends early', async () => {
    const file = await workbook((sheet) => {
      sheet.addRow(['name']);
      for (let i = 0; i < 50; i++) sheet.addRow([`Station ${i}`]);
    });
    const error = await rejectionOf(async () => {
      for await (const _ of readXlsx(Readable.from([file.subarray(0, 1_600)]), { idleMs: 5_000, endGraceMs: 200 })) void _;
    });
    expect(error.code).toBe('malformed_xlsx');
    // Whichever notices first: the watchdog, exceljs, or the inflater on the side.
    expect(error.message).toMatch(/^(The workbook ends before its last part: the file is truncated or damaged\.|The workbook is damaged or not an \.xlsx file: .+|The ZIP archive is damaged: .+)$/);
  });
});
