import type { Readable } from 'node:stream';
import ExcelJS from 'exceljs';
import { AssetFileError } from '../file-error';
import type { SourceRecord } from '../import-rows';
import { uniqueHeaders } from '../columns';
import { checkedStart, isZip } from './sniff';

function checkWorkbook(head: Buffer): AssetFileError | undefined {
  return isZip(head) ? undefined : new AssetFileError('malformed_xlsx', 'The file is not an .xlsx workbook (an .xlsx file is a ZIP archive; legacy .xls is not supported: save as .xlsx).');
}

/** A cell as text, number or boolean: rich text joined, hyperlinks as their text, formulas as their result. */
export function cellValue(value: unknown): string | number | boolean | undefined {
  if (value === null || value === undefined) return undefined;
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return value;
  if (value instanceof Date) return value.toISOString();
  const cell = value as { richText?: { text: string }[]; text?: unknown; result?: unknown; error?: unknown };
  if (Array.isArray(cell.richText)) return cell.richText.map((part) => part.text).join('');
  if ('result' in cell) return cellValue(cell.result);
  if (cell.text !== undefined) return cellValue(cell.text);
  return undefined;
}

/**
 * Streams the rows of the first worksheet (exceljs WorkbookReader: shared strings cached, styles
 * and hyperlinks ignored). The first non-empty row is the header.
 */
export async function* readXlsx(input: Readable): AsyncGenerator<SourceRecord> {
  const source = await checkedStart(input, checkWorkbook);
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(source.stream, {
    worksheets: 'emit',
    sharedStrings: 'cache',
    hyperlinks: 'ignore',
    styles: 'ignore',
    entries: 'emit',
  });
  let sawSheet = false;
  try {
    for await (const sheet of reader) {
      sawSheet = true;
      let headers: string[] | undefined;
      for await (const row of sheet) {
        const values = (row.values as unknown[]).slice(1).map(cellValue);
        if (values.every((v) => v === undefined || v === '')) continue;
        if (!headers) {
          headers = uniqueHeaders(values.map((v) => (v === undefined ? '' : String(v))));
          continue;
        }
        const properties: Record<string, unknown> = {};
        headers.forEach((header, i) => {
          properties[header] = values[i];
        });
        yield { row: row.number, properties };
      }
      break;
    }
  } catch (error) {
    if (source.sourceError()) throw source.sourceError();
    if (error instanceof AssetFileError) throw error;
    throw new AssetFileError('malformed_xlsx', `The workbook is damaged or not an .xlsx file: ${(error as Error).message}`);
  } finally {
    input.destroy();
  }
  if (source.sourceError()) throw source.sourceError();
  if (!sawSheet) throw new AssetFileError('malformed_xlsx', 'The archive holds no worksheet: it is not an .xlsx workbook.');
}
