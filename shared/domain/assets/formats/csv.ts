import { pipeline, type Readable } from 'node:stream';
import { Parser, type CsvError } from 'csv-parse';
import { AssetFileError } from '../file-error';
import type { SourceRecord } from '../import-rows';
import { uniqueHeaders } from '../columns';
import { checkedStart, isZip } from './sniff';

function checkText(head: Buffer): AssetFileError | undefined {
  if (isZip(head)) return new AssetFileError('malformed_csv', 'This is a ZIP archive (an .xlsx workbook or a zipped Shapefile?), not CSV text. Upload it with its own extension.');
  if (head.subarray(0, 4096).includes(0)) return new AssetFileError('malformed_csv', 'The file is binary, not CSV text.');
  return undefined;
}

const DELIMITERS = [',', ';', '\t', '|'] as const;

/** The longest record (row) read; a longer one makes the file malformed. */
const MAX_RECORD_BYTES = 1024 * 1024;

/**
 * The delimiter of a table: the one of `,` `;` tab `|` found most often, outside quotes, in the
 * header line (`headerRow`, 1-based) of the file's first bytes; a comma when none is.
 */
export function detectDelimiter(head: Buffer, headerRow = 1): string {
  const line = head.toString('utf8').replace(/^\uFEFF/, '').split(/\r?\n/)[headerRow - 1] ?? '';
  const counts = new Map<string, number>(DELIMITERS.map((d) => [d, 0]));
  let quoted = false;
  for (const ch of line) {
    if (ch === '"') quoted = !quoted;
    else if (!quoted && counts.has(ch)) counts.set(ch, counts.get(ch)! + 1);
  }
  let best: string = ',';
  for (const [delimiter, count] of counts) if (count > counts.get(best)!) best = delimiter;
  return best;
}

/**
 * csv-parse with each record paired with the line it ends on, read from the parser's own counter
 * as the record is pushed. The parser's `info: true` option gives the same line but copies its
 * whole state into a new object for every record, a quarter of the parse time.
 */
class LineNumberedParser extends Parser {
  override push(record: unknown, encoding?: BufferEncoding): boolean {
    return super.push(record === null ? null : { record, line: this.info.lines }, encoding);
  }
}

/**
 * The errors csv-parse cannot read past: an unclosed quote swallows the rest of the file, and the
 * parser does not resume after an oversized record (every row after it would be lost unseen).
 */
function fileEndingError(error: CsvError): string | undefined {
  if (error.code === 'CSV_QUOTE_NOT_CLOSED') return `A quoted field opened before line ${error.lines} is never closed.`;
  if (error.code === 'CSV_MAX_RECORD_SIZE') return `The record on line ${error.lines} is longer than ${MAX_RECORD_BYTES / (1024 * 1024)} MiB, the most one row may hold.`;
  return undefined;
}

/**
 * Streams CSV records (csv-parse, values kept as text: the row schema casts them). The header is
 * line `headerRow` (lines above it, such as a title, are skipped) and the delimiter is detected.
 * A record with the wrong number of fields or a stray quote becomes a row error; an unclosed
 * quote, which swallows the rest of the file, or a record longer than 1 MiB makes the file malformed.
 */
export async function* readCsv(input: Readable, options: { headerRow?: number } = {}): AsyncGenerator<SourceRecord> {
  const skipped: SourceRecord[] = [];
  const source = await checkedStart(input, checkText);
  const parser = new LineNumberedParser({
    columns: uniqueHeaders,
    delimiter: detectDelimiter(source.head, options.headerRow),
    from_line: options.headerRow ?? 1,
    bom: true,
    trim: true,
    skip_empty_lines: true,
    skip_records_with_error: true,
    max_record_size: MAX_RECORD_BYTES,
  });
  parser.on('skip', (error: CsvError) => {
    const fatal = fileEndingError(error);
    if (fatal) {
      parser.destroy(new AssetFileError('malformed_csv', fatal, { line: Number(error.lines) }));
      return;
    }
    skipped.push({ row: Number(error.lines), properties: {}, malformed: error.message });
  });
  pipeline(source.stream, parser, () => undefined);
  try {
    for await (const { record, line } of parser as AsyncIterable<{ record: Record<string, string>; line: number }>) {
      // Skipped rows are reported as the parser meets them, ahead of the records it buffered.
      while (skipped.length > 0 && skipped[0]!.row < line) yield skipped.shift()!;
      yield { row: line, properties: record };
    }
  } catch (error) {
    if (error instanceof AssetFileError) throw error;
    throw new AssetFileError('malformed_csv', `The file is not readable CSV: ${(error as Error).message}`);
  }
  if (source.sourceError()) throw source.sourceError();
  yield* skipped;
}
