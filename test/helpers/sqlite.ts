import { readFileSync } from 'node:fs';
import initSqlJs from 'sql.js';

/** The little of SQLite the tests use to read GeoPackages: rows as objects, blobs as Buffers. */
export interface Sqlite {
  prepare(sql: string): { all(...params: unknown[]): any[]; get(...params: unknown[]): any };
  close(): void;
}

const rowsOf = (statement: initSqlJs.Statement): Record<string, unknown>[] => {
  const rows: Record<string, unknown>[] = [];
  while (statement.step()) {
    rows.push(Object.fromEntries(Object.entries(statement.getAsObject()).map(([column, value]) => [column, value instanceof Uint8Array ? Buffer.from(value) : value])));
  }
  statement.free();
  return rows;
};

/** Opens a copy of the SQLite file in memory (SQLite compiled to WebAssembly). */
export async function openSqlite(file: string): Promise<Sqlite> {
  const db = new (await initSqlJs()).Database(readFileSync(file));
  const query = (sql: string, params: unknown[]) => rowsOf(db.prepare(sql, params as initSqlJs.BindParams));
  return {
    prepare: (sql) => ({ all: (...params) => query(sql, params), get: (...params) => query(sql, params)[0] }),
    close: () => db.close(),
  };
}
