/** better-sqlite3 ships no type declarations: the little of it the tests use to read GeoPackages. */
export type Sqlite = { prepare(sql: string): { all(...params: unknown[]): any[]; get(...params: unknown[]): any }; close(): void };

// eslint-disable-next-line @typescript-eslint/no-require-imports
export const Database: new (file: string, options?: { readonly?: boolean }) => Sqlite = require('better-sqlite3');
