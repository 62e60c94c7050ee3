import { readFileSync } from 'node:fs';

/**
 * A small RFC 4180 reader for the tests: quoted fields, doubled quotes, commas and newlines inside
 * quotes, a leading byte-order mark. Independent of the product's CSV code and derived JSON.
 */
export function readCsvRows(file: string): Record<string, string>[] {
  const text = readFileSync(file, 'utf8').replace(/^\uFEFF/, '');
  const records: string[][] = [];
  let field = '';
  let record: string[] = [];
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') { field += '"'; i++; } else if (ch === '"') quoted = false; else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') { record.push(field); field = ''; } else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && text[i + 1] === '\n') i++;
      record.push(field); field = '';
      if (record.some((f) => f !== '')) records.push(record);
      record = [];
    } else field += ch;
  }
  if (field !== '' || record.length > 0) { record.push(field); records.push(record); }
  const [header, ...rows] = records;
  return rows.map((row) => Object.fromEntries(header!.map((name, i) => [name, row[i] ?? ''])));
}
