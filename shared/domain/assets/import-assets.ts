import type { AssetCategory } from './classification';
import { KNOWN_CRS, knownCrs, toWgs84 } from './crs';
import { AssetFileError } from './file-error';
import { JobFailureError } from '../job-failure';
import { openAssetFile, type AssetFileFormat, type ByteSource } from './formats';
import { AssetRowProcessor, type ImportedAsset } from './import-rows';
import type { ImportOptions } from './import-options';

export type { ImportOptions } from './import-options';
import { jurisdictionArea } from './jurisdiction-area';
import type { OfficialBoundary } from '../jurisdiction-boundaries';
import type { AssetStore, ImportRecord, ImportReport } from './ports';

/** A table's coordinates to WGS84, for a `crs` the importer knows. */
function tableReprojector(epsg: number) {
  if (!knownCrs(epsg)) {
    throw new AssetFileError('unsupported_crs', `EPSG:${epsg} is not a coordinate system the importer knows. Known: ${KNOWN_CRS.map((c) => `EPSG:${c.epsg} (${c.name})`).join(', ')}.`);
  }
  return toWgs84(epsg);
}

export interface ImportRequest {
  options?: ImportOptions;
  accountId: string;
  importId: string;
  jurisdictionId: string;
  /** The account's official boundary of the jurisdiction, when it stored one: rows are checked against it instead of the Census one. */
  officialBoundary?: OfficialBoundary;
  category?: AssetCategory;
  format: AssetFileFormat;
  open: ByteSource;
  now: Date;
  /** Reported about once a second: rows validated, then rows written (never ahead of the writes). */
  onProgress?: (progress: ImportRecord['progress']) => Promise<void>;
  /** The import stops with ImportDeadlineError past this time (a job's time budget). */
  deadline?: Date;
  /** Injected for tests; `Date.now` otherwise. */
  clock?: () => number;
  /** Aborted when the process stops: the import ends with ImportInterruptedError at the next row. */
  signal?: AbortSignal;
}

/** What every failed import tells its caller: a re-run is safe. */
export const RESTART_IMPORT = 'start it again (assets already written are updated, not duplicated)';

/** The import ran out of its time budget; what was written stays (a re-run updates, never duplicates). */
export class ImportDeadlineError extends JobFailureError {
  readonly code = 'time_budget_exceeded';
  constructor(rows: number) {
    super(`The import ran out of its time budget after ${rows} rows. Split the file, or ${RESTART_IMPORT}.`);
    this.name = 'ImportDeadlineError';
  }
}

/** The process stopped mid-import; what was written stays, and a resumed run picks the rest up. */
export class ImportInterruptedError extends Error {
  constructor(rows: number) {
    super(`The import was interrupted after ${rows} rows.`);
    this.name = 'ImportInterruptedError';
  }
}

/** Assets handed to the writer at a time (it sends them 25 per BatchWriteItem, several calls in flight). */
const WRITE_BATCH = 500;
const PROGRESS_INTERVAL_MS = 1000;

/** Opens the file and a row processor for one pass over it. */
async function openPass(
  request: ImportRequest,
  idKey: string,
  phase: 'validating' | 'writing',
  { stop, unwritten = () => 0, knownDuplicates }: { stop?: (rows: number) => boolean; unwritten?: () => number; knownDuplicates?: ReadonlySet<number> } = {},
) {
  const options = request.options ?? {};
  const table = request.format === 'csv' || request.format === 'xlsx';
  const reproject = table && options.crs !== undefined ? tableReprojector(options.crs) : undefined;
  const file = await openAssetFile(request.format, request.open, { headerRow: options.header_row });
  const processor = new AssetRowProcessor({
    jurisdictionId: request.jurisdictionId,
    idKey,
    area: jurisdictionArea(request.jurisdictionId, request.officialBoundary),
    outsideJurisdiction: options.outside_jurisdiction,
    columnMap: options.column_map,
    reproject,
    category: request.category,
    hasGeometry: file.hasGeometry,
    headers: file.headers,
    knownDuplicates,
  });
  const clock = request.clock ?? Date.now;
  const state = { rows: 0, stopped: false, lastProgress: clock() };
  async function* validAssets(): AsyncGenerator<ImportedAsset> {
    for await (const record of file.records) {
      // The validation pass needs the verdicts only; the write pass builds and hashes the assets.
      let asset: ImportedAsset | undefined;
      if (phase === 'writing') asset = processor.process(record);
      else processor.check(record);
      state.rows++;
      if (request.deadline && clock() > request.deadline.getTime()) throw new ImportDeadlineError(state.rows);
      if (request.signal?.aborted) throw new ImportInterruptedError(state.rows);
      if (stop?.(state.rows)) {
        state.stopped = true;
        return;
      }
      if (asset) yield asset;
      if (phase === 'validating') await progress(false);
    }
  }
  /** Progress at most once a second (or `force`d), so a job's lease is renewed as it goes. */
  async function progress(force: boolean) {
    if (!request.onProgress || (!force && clock() - state.lastProgress < PROGRESS_INTERVAL_MS)) return;
    state.lastProgress = clock();
    // Rows whose assets are still being written are not reported: progress never runs ahead of the store.
    await request.onProgress({ phase, rows_processed: Math.max(0, state.rows - unwritten()) });
  }
  return { processor, assets: validAssets(), state, progress };
}

/**
 * The first pass: every row validated, the file's verdict and report, and the rows that repeat an
 * earlier one; undefined when `stop` ended it. Its own function so that what it holds (the
 * identities seen) is released before the write pass, which is told the duplicates instead.
 */
async function validationPass(request: ImportRequest, idKey: string, stop?: (rows: number) => boolean) {
  const validation = await openPass(request, idKey, 'validating', { stop });
  for await (const _asset of validation.assets);
  return validation.state.stopped ? undefined : { summary: validation.processor.finish(), duplicateRows: validation.processor.duplicateRows };
}

/** What a synchronous import may take on before it goes to the background. */
export interface InlineBudget {
  maxRows: number;
  maxValidationMs: number;
}

export type InlineOutcome = { report: ImportReport } | { deferred: string };

/**
 * Imports one file in two passes over the same bytes: the first validates every row and decides
 * whether the file is importable (throwing an AssetFileError if not — nothing is written); the
 * second streams the valid assets to the store's writer, which keeps several writes in flight.
 * Memory stays flat: neither pass keeps the rows.
 * With an `inline` budget the first pass gives up (`deferred`, nothing written) on a file with
 * more rows, or slower to validate, than a request may take on.
 */
export async function importAssetFile(assets: AssetStore, request: ImportRequest): Promise<ImportReport>;
export async function importAssetFile(assets: AssetStore, request: ImportRequest, inline: InlineBudget): Promise<InlineOutcome>;
export async function importAssetFile(assets: AssetStore, request: ImportRequest, inline?: InlineBudget): Promise<ImportReport | InlineOutcome> {
  const clock = request.clock ?? Date.now;
  const started = clock();
  const idKey = await assets.idKey(request.accountId);
  let deferred: string | undefined;
  const stop = inline && ((rows: number) => {
    if (rows > inline.maxRows) deferred = `The file has more than ${inline.maxRows} rows`;
    else if (clock() - started > inline.maxValidationMs) deferred = `The file takes more than ${inline.maxValidationMs / 1000} s to validate`;
    return deferred !== undefined;
  });
  const validated = await validationPass(request, idKey, stop || undefined);
  if (deferred || !validated) return { deferred: deferred! };
  const { summary, duplicateRows } = validated;

  const writer = await assets.importWriter(request.accountId, { importId: request.importId, jurisdictionId: request.jurisdictionId, rows: summary.asset_count, now: request.now });
  const pass = await openPass(request, idKey, 'writing', { unwritten: () => writer.pending, knownDuplicates: duplicateRows });
  let batch: ImportedAsset[] = [];
  for await (const asset of pass.assets) {
    batch.push(asset);
    if (batch.length >= WRITE_BATCH) {
      await writer.write(batch);
      batch = [];
      await pass.progress(false);
    }
  }
  if (batch.length > 0) await writer.write(batch);
  const written = await writer.finish();
  const report = { ...summary, written };
  return inline ? { report } : report;
}
