import type { ImportedAsset, ImportSummary } from './import-rows';
import type { AssetFileFormat } from './file-formats';
import type { ImportOptions } from './import-options';
import type { VulnerabilityAssessment } from './vulnerability';
import type { AssetExposure } from '../hazards/asset-exposure';
import type { JobLease } from '../job-lease';
import type { LatLon } from '../hazards/geo';

/** Ports of the asset inventory; the DynamoDB adapters implement them. */

export interface VulnerabilityChange {
  version: number;
  changed_at: string;
  vulnerability: VulnerabilityAssessment;
}

export interface StoredAsset extends ImportedAsset {
  /** The last import that wrote the asset. */
  import_id: string;
  /** The import that created it (absent on assets stored before imports could be deleted). */
  created_by_import?: string;
  vulnerability: VulnerabilityAssessment | null;
  vulnerability_level: string;
  impact_timeline: string;
  /** Oldest first; the last entries are kept when the list grows long. */
  vulnerability_history: VulnerabilityChange[];
  /** Depths per scenario × horizon from the last flood analysis applied to the asset. */
  exposure?: AssetExposure | null;
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
  /** The account's secret key for asset ids, created at random on first use and kept. */
  idKey(accountId: string): Promise<string>;
  /**
   * The write pass of one import run: new assets are created, changed ones updated (their
   * vulnerability kept), unchanged ones skipped, and the account's asset count kept.
   */
  importWriter(accountId: string, target: ImportWriteTarget): Promise<ImportWriter>;
  /** How many assets the account has: a count maintained by the writes, read without listing them. */
  count(accountId: string): Promise<number>;
  get(accountId: string, assetId: string): Promise<StoredAsset | undefined>;
  list(accountId: string, filter: AssetFilter, page: { limit: number; cursor?: string }): Promise<AssetPage>;
  /** The assets in the cells around a point: all of those within `radiusKm`, and a few beyond it. */
  near(accountId: string, point: LatLon, radiusKm: number): Promise<StoredAsset[]>;
  /** False when there is no such asset. */
  delete(accountId: string, assetId: string): Promise<boolean>;
  /** Deletes every asset the import created (not those it only updated); returns how many. */
  deleteCreatedBy(accountId: string, importId: string): Promise<number>;
  /** Conditional on `asset.version` (as read): `conflict` when the asset changed meanwhile. */
  setVulnerability(accountId: string, asset: StoredAsset, assessment: VulnerabilityAssessment, now: Date): Promise<StoredAsset | 'conflict'>;
  /** Writes a flood analysis's exposure (and the vulnerability it gives, when known) onto many assets; returns how many were written. */
  applyExposures(accountId: string, changes: ExposureChange[], now: Date): Promise<number>;
}

export interface ImportWriteTarget {
  importId: string;
  /** Every asset of an import belongs to its one jurisdiction. */
  jurisdictionId: string;
  /** Valid rows the import will write (from its validation pass). */
  rows: number;
  now: Date;
}

export interface ImportWriter {
  /** Takes assets to write; resolves once there is room for more (the writes in flight are bounded). */
  write(assets: ImportedAsset[]): Promise<void>;
  /** Assets taken whose writes have not completed yet. */
  readonly pending: number;
  /** Waits for every write, records the import's share of the asset count and returns what was written. */
  finish(): Promise<WriteCounts>;
}

export interface ExposureChange {
  asset: StoredAsset;
  exposure: AssetExposure;
  vulnerability: VulnerabilityAssessment | undefined;
}

export const IMPORT_STATUSES = ['pending', 'processing', 'complete', 'failed'] as const;
export type ImportStatus = typeof IMPORT_STATUSES[number];
export const IMPORT_PHASES = ['waiting_for_upload', 'validating', 'writing', 'done'] as const;

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
  /** `outside_jurisdiction`, `crs`, `header_row`, `column_map` as given. */
  options?: ImportOptions;
  /** The assessment the import is evidence for (`assessment_id`), when linked. */
  assessment_id?: string | null;
  object_key: string | null;
  progress: { phase: typeof IMPORT_PHASES[number]; rows_processed: number };
  report: ImportReport | null;
  error: { code: string; detail: string } | null;
  created_at: string;
  updated_at: string;
  /** Uploads not received by then are not processed. */
  upload_expires_at: string | null;
  /** The worker processing the import holds it until `expires_at` and renews it as it goes. */
  lease?: ImportLease | null;
  /** After this an import whose worker was lost is failed rather than started again. */
  deadline?: string | null;
}

/** The job lease every background job carries (`attempt`: one more for each restart after a lost worker). */
export type ImportLease = JobLease;

export interface ClaimLease {
  owner: string;
  now: Date;
  leaseMs: number;
}

export interface ImportStore {
  create(record: ImportRecord): Promise<void>;
  get(accountId: string, importId: string): Promise<ImportRecord | undefined>;
  /** pending → processing under a lease for `owner`, once: a repeated S3 notification finds it claimed and gets undefined. */
  claim(accountId: string, importId: string, lease: ClaimLease & { deadline: Date }): Promise<ImportRecord | undefined>;
  /** Takes over a processing import whose lease expired (as read in `expired`), one attempt more; undefined if another did. */
  takeOver(expired: ImportRecord, lease: ClaimLease): Promise<ImportRecord | undefined>;
  /** Records progress and renews the lease; false when `owner` no longer holds it (another worker took over). */
  progress(accountId: string, importId: string, owner: string, progress: ImportRecord['progress'], now: Date, leaseMs: number): Promise<boolean>;
  /** Ends the import (the lease holder's, when `owner` is given). False when `owner` no longer holds it. */
  finish(accountId: string, importId: string, outcome: { report: ImportReport } | { error: { code: string; detail: string } }, now: Date, owner?: string): Promise<boolean>;
  delete(accountId: string, importId: string): Promise<void>;
  /** Imports still waiting for their upload, created after `since` (the local upload watcher polls these). */
  listPending(since: Date): Promise<ImportRecord[]>;
  /** Processing imports whose lease expired before `now` (their worker was lost). */
  listExpiredLeases(now: Date): Promise<ImportRecord[]>;
}
