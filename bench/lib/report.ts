import type { LoadResult } from './load';

/** Prints results side by side as a fixed-width table. */
export function printTable(rows: Array<{ name: string; result: LoadResult }>): void {
  const header = ['target', 'requests', 'errors', 'req/s', 'p50 ms', 'p99 ms'];
  const lines = rows.map(({ name, result }) => [
    name,
    String(result.requests),
    String(result.errors),
    result.requestsPerSecond.toFixed(0),
    result.p50Ms.toFixed(2),
    result.p99Ms.toFixed(2),
  ]);
  const widths = header.map((title, i) => Math.max(title.length, ...lines.map((line) => line[i]!.length)));
  const format = (cells: string[]) => cells.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  ');
  console.log(format(header));
  console.log(widths.map((width) => '-'.repeat(width)).join('  '));
  for (const line of lines) console.log(format(line));
}
