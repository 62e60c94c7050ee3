import type { LoadResult } from './load';

/** The middle value; of an even count, the mean of the two middle ones. */
export function medianOf(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

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

/** The process's RSS sampled every 25 ms while `work` runs: its peak, not the peak since the process began. */
export async function withPeakRss<T>(work: () => Promise<T>): Promise<{ result: T; peakRssMb: number }> {
  let peak = process.memoryUsage().rss;
  const timer = setInterval(() => { peak = Math.max(peak, process.memoryUsage().rss); }, 25);
  try {
    const result = await work();
    return { result, peakRssMb: Math.max(peak, process.memoryUsage().rss) / (1024 * 1024) };
  } finally {
    clearInterval(timer);
  }
}
