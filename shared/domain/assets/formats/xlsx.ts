import type { Readable } from 'node:stream';
import { AssetFileError } from '../file-error';
import type { SourceRecord } from '../import-rows';
import { uniqueHeaders } from '../columns';
import { checkedStart, isZip } from './sniff';
import { DEFAULT_WATCHDOG, ReadWatchdog, type WatchdogLimits } from './watchdog';
import { budgetedPassThrough, type ZipBudget } from './zip-budget';

/**
 * What a workbook may unpack to. exceljs keeps every shared string in memory, so that part has a
 * budget of its own (a 4.6 MB file can hold shared strings that inflate to 2 GiB); worksheets
 * stream and only count toward the whole.
 */
export const XLSX_BUDGET: ZipBudget = {
  totalBytes: 1024 * 1024 * 1024,
  entryBytes: (name) => (name === 'xl/sharedStrings.xml' ? 64 * 1024 * 1024 : undefined),
  damaged: 'malformed_xlsx',
};

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
 * and hyperlinks ignored). The first non-empty row (from `headerRow` on) is the header. The archive is inflated on the
 * side under `XLSX_BUDGET` as exceljs reads it, and a watchdog ends a read that stalls.
 */
export async function* readXlsx(input: Readable, limits: WatchdogLimits = DEFAULT_WATCHDOG, options: { headerRow?: number } = {}): AsyncGenerator<SourceRecord> {
  const watchdog = new ReadWatchdog(limits, (reason) => new AssetFileError('malformed_xlsx', reason === 'ended'
    ? 'The workbook ends before its last part: the file is truncated or damaged.'
    : `The workbook stopped arriving (nothing read for ${Math.round(limits.idleMs / 1000)} s).`));
  async function* watched(chunks: AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
    for await (const chunk of chunks) {
      watchdog.touch();
      yield chunk;
    }
    watchdog.markEnded();
  }
  try {
    const source = await checkedStart(input, checkWorkbook, (chunks) => watched(budgetedPassThrough(chunks, XLSX_BUDGET)));
    // Loaded on first use, not with the function: it costs more to load than the rest of it.
    const { default: ExcelJS } = await import('exceljs');
    const reader = new ExcelJS.stream.xlsx.WorkbookReader(source.stream, {
      worksheets: 'emit',
      sharedStrings: 'cache',
      hyperlinks: 'ignore',
      styles: 'ignore',
      entries: 'emit',
    });
    let sawSheet = false;
    try {
      for await (const sheet of watchdog.guard(reader)) {
        sawSheet = true;
        let headers: string[] | undefined;
        for await (const row of watchdog.guard(sheet)) {
          // A budget passed upstream ends exceljs's input: stop at once rather than read what it buffered.
          if (source.sourceError()) throw source.sourceError();
          // Rows above `headerRow` (a title, notes) are not data.
          if (options.headerRow !== undefined && row.number < options.headerRow) continue;
          // exceljs leaves empty cells as holes, which map() would keep: a blank header would lose its column.
          const values = Array.from((row.values as unknown[]).slice(1), cellValue);
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
      source.stream.destroy();
    }
    if (source.sourceError()) throw source.sourceError();
    if (!sawSheet) throw new AssetFileError('malformed_xlsx', 'The archive holds no worksheet: it is not an .xlsx workbook.');
  } finally {
    watchdog.stop();
  }
}
