import { createReadStream, existsSync } from 'node:fs';
import { createGunzip } from 'node:zlib';
import { parse } from 'csv-parse';
import { DynamoFloodEventStore } from '../shared/adapters/flood-event-store';
import { eventFromStormEventsRow, isFloridaFloodRow, type FloodEvent } from '../shared/domain/hazards/flood-events';
import { CliError, openOperatorStorage, runCli } from './operator-storage';

const USAGE = `Load NOAA NCEI Storm Events into the historical flood events.

Usage: npx tsx bin/storm-events-load.ts FILE... [--dry-run]

FILE is a StormEvents_details-ftp_v1.0_dYYYY_cYYYYMMDD.csv or .csv.gz file as published at
https://www.ncei.noaa.gov/pub/data/swdi/stormevents/csvfiles/ (one year per file). Florida rows of
flood-type events (Flood, Flash Flood, Coastal Flood, Storm Surge/Tide, Heavy Rain, Hurricane,
Tropical Storm, Tropical Depression, Lakeshore Flood) are kept; zone records are placed in the
county their zone names. Loading is idempotent (one item per NCEI event id).

--dry-run  read and count, write nothing.

Writes to the table named by TABLE_NAME with APP_MODE=aws, else to the local data directory
(DATA_DIR, default .data; stop \`npm start\` first).
`;

const REQUIRED_COLUMNS = ['EVENT_ID', 'STATE', 'EVENT_TYPE', 'BEGIN_YEARMONTH', 'BEGIN_DAY', 'CZ_TYPE', 'CZ_FIPS', 'CZ_NAME'];

export interface StormEventsFileSummary {
  file: string;
  rows: number;
  florida_flood_events: number;
  skipped_without_location: number;
}

/** Streams one file (gzip by extension) and returns its Florida flood-type events. */
export async function readStormEventsFile(file: string): Promise<{ events: FloodEvent[]; summary: StormEventsFileSummary }> {
  if (!existsSync(file)) throw new CliError(`${file} does not exist.`);
  const input = createReadStream(file);
  const parser = (file.endsWith('.gz') ? input.pipe(createGunzip()) : input).pipe(parse({ columns: true, relax_column_count: true, skip_empty_lines: true }));
  const events: FloodEvent[] = [];
  let rows = 0;
  let skipped = 0;
  for await (const row of parser as AsyncIterable<Record<string, string>>) {
    if (rows === 0) {
      const missing = REQUIRED_COLUMNS.filter((c) => !(c in row));
      if (missing.length > 0) throw new CliError(`${file} is not a StormEvents_details file: missing columns ${missing.join(', ')}.`);
    }
    rows++;
    const event = eventFromStormEventsRow(row);
    if (event) events.push(event);
    else if (isFloridaFloodRow(row)) skipped++;
  }
  return { events, summary: { file, rows, florida_flood_events: events.length, skipped_without_location: skipped } };
}

async function main(args: string[]): Promise<void> {
  if (args.includes('--help') || args.includes('-h')) {
    process.stdout.write(USAGE);
    return;
  }
  const unknown = args.filter((a) => a.startsWith('--') && a !== '--dry-run');
  const files = args.filter((a) => !a.startsWith('--'));
  if (files.length === 0 || unknown.length > 0) throw new CliError(`Expected one or more files${unknown.length ? ` (unknown option ${unknown.join(', ')})` : ''}. See --help.`, 2);

  const read = [];
  for (const file of files) read.push(await readStormEventsFile(file));
  for (const { summary } of read) {
    process.stdout.write(`${summary.file}: ${summary.rows} rows, ${summary.florida_flood_events} Florida flood-type events, ${summary.skipped_without_location} without a locatable county.\n`);
  }
  if (args.includes('--dry-run')) {
    process.stdout.write('Nothing written (--dry-run).\n');
    return;
  }
  const storage = await openOperatorStorage();
  try {
    const written = await new DynamoFloodEventStore().putEvents(read.flatMap((r) => r.events));
    process.stdout.write(`Wrote ${written} events into ${storage.description}.\n`);
  } finally {
    await storage.close();
  }
}

if (require.main === module) runCli(main);
