import type { ImportedAsset, ImportSummary } from './import-rows';
import type { AssetFileFormat } from './file-formats';
import type { VulnerabilityAssessment } from './vulnerability';

/** Ports of the asset inventory; the DynamoDB adapters implement them. */

export interface VulnerabilityChange {
  version: number;
  changed_at: string;
  vulnerability: VulnerabilityAssessment;
}

export interface StoredAsset extends ImportedAsset {
  import_id: string;
  vulnerability: VulnerabilityAssessment | null;
  vulnerability_level: string;
  impact_timeline: string;
  /** Oldest first; the last entries are kept when the list grows long. */
  vulnerability_history: VulnerabilityChange[];
  version: number;
  created_at: string;
  updated_at: string;
}

export interface AssetFilter {
  jurisdictionId?: string;
  category?: string;
  vulnerabilityLevel?: string;
  impactTimeline?: string;
}

export interface AssetPage {
  items: StoredAsset[];
  nextCursor?: string;
}

export interface WriteCounts {
  created: number;
  updated: number;
  unchanged: number;
}

export interface AssetStore {
  /** New assets are created; changed ones updated (their vulnerability kept); unchanged ones skipped. */
  saveImported(accountId: string, assets: ImportedAsset[], importId: string, now: Date): Promise<WriteCounts>;
  get(accountId: string, assetId: string): Promise<StoredAsset | undefined>;
  list(accountId: string, filter: AssetFilter, page: { limit: number; cursor?: string }): Promise<AssetPage>;
  /** Conditional on `asset.version` (as read): `conflict` when the asset changed meanwhile. */
  setVulnerability(accountId: string, asset: StoredAsset, assessment: VulnerabilityAssessment, now: Date): Promise<StoredAsset | 'conflict'>;
}

export type ImportStatus = 'pending' | 'processing' | 'complete' | 'failed';

export interface ImportReport extends ImportSummary {
  written: WriteCounts;
}

export interface ImportRecord {
  import_id: string;
  account_id: string;
  status: ImportStatus;
  /** `direct`: the multipart route; `upload`: presigned upload processed asynchronously. */
  mode: 'direct' | 'upload';
  filename: string;
  format: AssetFileFormat;
  jurisdiction: { id: string; name: string };
  asset_category: string | null;
  object_key: string | null;
  progress: { phase: 'waiting_for_upload' | 'validating' | 'writing' | 'done'; rows_processed: number };
  report: ImportReport | null;
  error: { code: string; detail: string } | null;
  created_at: string;
  updated_at: string;
  /** Uploads not received by then are not processed. */
  upload_expires_at: string | null;
}

export interface ImportStore {
  create(record: ImportRecord): Promise<void>;
  get(accountId: string, importId: string): Promise<ImportRecord | undefined>;
  /** pending → processing, once: a repeated S3 notification finds it claimed and returns undefined. */
  claim(accountId: string, importId: string, now: Date): Promise<ImportRecord | undefined>;
  progress(accountId: string, importId: string, progress: ImportRecord['progress'], now: Date): Promise<void>;
  finish(accountId: string, importId: string, outcome: { report: ImportReport } | { error: { code: string; detail: string } }, now: Date): Promise<void>;
  /** Imports still waiting for their upload, created after `since` (the local upload watcher polls these). */
  listPending(since: Date): Promise<ImportRecord[]>;
}
