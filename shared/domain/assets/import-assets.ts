import type { AssetCategory } from './classification';
import { openAssetFile, type AssetFileFormat, type ByteSource } from './formats';
import { AssetRowProcessor, type ImportedAsset } from './import-rows';
import type { AssetStore, ImportRecord, ImportReport, WriteCounts } from './ports';

export interface ImportRequest {
  accountId: string;
  importId: string;
  jurisdictionId: string;
  category?: AssetCategory;
  format: AssetFileFormat;
  open: ByteSource;
  now: Date;
  /** Called every few thousand rows (status of asynchronous imports). */
  onProgress?: (progress: ImportRecord['progress']) => Promise<void>;
}

/** Assets written per store call (the store batches them 25 per BatchWriteItem). */
const WRITE_BATCH = 500;
const PROGRESS_EVERY = 5000;

/** Opens the file and a row processor for one pass over it. */
async function openPass(request: ImportRequest, phase: 'validating' | 'writing') {
  const file = await openAssetFile(request.format, request.open);
  const processor = new AssetRowProcessor({
    jurisdictionId: request.jurisdictionId,
    category: request.category,
    hasGeometry: file.hasGeometry,
    headers: file.headers,
  });
  async function* validAssets(): AsyncGenerator<ImportedAsset> {
    let rows = 0;
    for await (const record of file.records) {
      const asset = processor.process(record);
      if (asset) yield asset;
      if (++rows % PROGRESS_EVERY === 0) await request.onProgress?.({ phase, rows_processed: rows });
    }
  }
  return { processor, assets: validAssets() };
}

/**
 * Imports one file in two passes over the same bytes: the first validates every row and decides
 * whether the file is importable (throwing an AssetFileError if not — nothing is written); the
 * second writes the valid assets in batches. Memory stays flat: neither pass keeps the rows.
 */
export async function importAssetFile(assets: AssetStore, request: ImportRequest): Promise<ImportReport> {
  const validation = await openPass(request, 'validating');
  for await (const _asset of validation.assets);
  const summary = validation.processor.finish();

  const written: WriteCounts = { created: 0, updated: 0, unchanged: 0 };
  const add = (counts: WriteCounts) => {
    written.created += counts.created;
    written.updated += counts.updated;
    written.unchanged += counts.unchanged;
  };
  let batch: ImportedAsset[] = [];
  for await (const asset of (await openPass(request, 'writing')).assets) {
    batch.push(asset);
    if (batch.length >= WRITE_BATCH) {
      add(await assets.saveImported(request.accountId, batch, request.importId, request.now));
      batch = [];
    }
  }
  if (batch.length > 0) add(await assets.saveImported(request.accountId, batch, request.importId, request.now));
  return { ...summary, written };
}
