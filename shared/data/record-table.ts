/**
 * A list of records stored as its column names and one array of values per record. The bundled
 * data files use it so a function bundle does not carry every key once per record (the FEMA
 * county table repeats 160 keys in each of 67 counties); values are stored exactly as they were.
 */
export interface RecordTable {
  columns: string[];
  rows: unknown[][];
}

/** The records again, one object per row with the table's columns as keys. */
export function recordsOf<T>(table: RecordTable): T[] {
  const { columns, rows } = table;
  return rows.map((row) => {
    if (row.length !== columns.length) throw new Error(`A record table row has ${row.length} values for ${columns.length} columns.`);
    const record: Record<string, unknown> = {};
    for (let i = 0; i < columns.length; i++) record[columns[i]!] = row[i];
    return record as T;
  });
}

/** The table of records that all have the first record's keys, in that order (used by the data derivation scripts). */
export function tableOf(records: readonly object[]): RecordTable {
  const columns = records.length > 0 ? Object.keys(records[0]!) : [];
  return {
    columns,
    rows: records.map((record, index) => {
      const keys = Object.keys(record);
      if (keys.join() !== columns.join()) throw new Error(`Record ${index} has the keys ${keys.join()}, not ${columns.join()}.`);
      return columns.map((column) => (record as Record<string, unknown>)[column]);
    }),
  };
}
