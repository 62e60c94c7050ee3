import { pipeline, type Readable } from 'node:stream';
import { parse, type CsvError } from 'csv-parse';
import { AssetFileError } from '../file-error';
import type { SourceRecord } from '../import-rows';
import { uniqueHeaders } from '../columns';
import { checkedStart, isZip } from './sniff';

function checkText(head: Buffer): AssetFileError | undefined {
  if (isZip(head)) return new AssetFileError('malformed_csv', 'This is a ZIP archive (an .xlsx workbook or a zipped Shapefile?), not CSV text. Upload it with its own extension.');
  if (head.subarray(0, 4096).includes(0)) return new AssetFileError('malformed_csv', 'The file is binary, not CSV text.');
  return undefined;
}

/**
 * Streams CSV records (csv-parse, values kept as text: the row schema casts them). A record with
 * the wrong number of fields or a stray quote becomes a row error; an unclosed quote, which
 * swallows the rest of the file, makes the file malformed.
 */
export async function* readCsv(input: Readable): AsyncGenerator<SourceRecord> {
  const skipped: SourceRecord[] = [];
  const parser = parse({
    columns: uniqueHeaders,
    bom: true,
    trim: true,
    skip_empty_lines: true,
    skip_records_with_error: true,
    info: true,
    max_record_size: 1024 * 1024,
  });
  parser.on('skip', (error: CsvError) => {
    if (error.code === 'CSV_QUOTE_NOT_CLOSED') {
      parser.destroy(new AssetFileError('malformed_csv', `A quoted field opened before line ${error.lines} is never closed.`, { line: Number(error.lines) }));
      return;
    }
    skipped.push({ row: Number(error.lines), properties: {}, malformed: error.message });
  });
  const source = await checkedStart(input, checkText);
  pipeline(source.stream, parser, () => undefined);
  try {
    for await (const { record, info } of parser as AsyncIterable<{ record: Record<string, string>; info: { lines: number } }>) {
      // Skipped rows are reported as the parser meets them, ahead of the records it buffered.
      while (skipped.length > 0 && skipped[0]!.row < info.lines) yield skipped.shift()!;
      yield { row: info.lines, properties: record };
    }
  } catch (error) {
    if (error instanceof AssetFileError) throw error;
    throw new AssetFileError('malformed_csv', `The file is not readable CSV: ${(error as Error).message}`);
  }
  if (source.sourceError()) throw source.sourceError();
  yield* skipped;
}
