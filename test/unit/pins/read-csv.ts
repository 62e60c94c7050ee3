import { readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * A small RFC 4180 reader of its own, so pinned figures come from the raw files and not from the
 * product's parser: quoted fields, doubled quotes, CRLF or LF line ends. Rows are keyed by header.
 */
export function parseCsv(text: string): Record<string, string>[] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (ch === '"') {
        quoted = false;
      } else {
        field += ch;
      }
    } else if (ch === '"') {
      quoted = true;
    } else if (ch === ',') {
      row.push(field);
      field = '';
    } else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && text[i + 1] === '\n') i++;
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
    } else {
      field += ch;
    }
  }
  if (field !== '' || row.length > 0) {
    row.push(field);
    rows.push(row);
  }
  const [header, ...body] = rows.filter((r) => r.length > 1 || r[0] !== '');
  return body.map((cells) => Object.fromEntries(header!.map((name, i) => [name, cells[i] ?? ''])));
}

/** A file of the repository's reference data, by path below `shared/data/`. */
export function readDataCsv(relative: string): Record<string, string>[] {
  return parseCsv(readFileSync(path.join(__dirname, '../../../shared/data', relative), 'utf8'));
}
