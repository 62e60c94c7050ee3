import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
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

/** Writes `bytes` to a temporary file, opens it, and removes both after `use`. */
export async function withSqliteFile(bytes: Uint8Array, use: (db: Sqlite, file: string) => Promise<void> | void): Promise<void> {
  const dir = mkdtempSync(path.join(tmpdir(), 'sqlite-'));
  try {
    const file = path.join(dir, 'file.sqlite');
    writeFileSync(file, bytes);
    const db = await openSqlite(file);
    try {
      await use(db, file);
    } finally {
      db.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
