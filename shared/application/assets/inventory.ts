import { randomUUID } from 'node:crypto';
import { assessVulnerability, type VulnerabilityInput } from '../../domain/assets/vulnerability';
import { assetsToCsv, assetsToGeoJson, assetsToXlsx, assetView, assetWithHistoryView } from '../../domain/assets/export';
import type { AssetFilter, StoredAsset } from '../../domain/assets/ports';
import { ConflictError, InvalidInputError, NotFoundError } from '../../domain/errors';
import type { ListAssetsQuery, VulnerabilityBody } from '../../schemas/assets';
import type * as z from 'zod';
import { sortAssets, sortedPage, type AssetSort } from '../../domain/deliverables/asset-priority';
import { requireJurisdiction } from './jurisdiction';
import type { AssetDeps } from './ports';

/** Exports hold at most this many assets; larger inventories page through `format=json`. */
export const MAX_EXPORT_ASSETS = 100_000;
/** Above this an export goes through S3 (API Gateway's Lambda payload limit is 6 MB). */
const INLINE_EXPORT_BYTES = 5 * 1024 * 1024;
const EXPORT_PAGE = 1000;

const EXPORT_TYPES = {
  geojson: { contentType: 'application/geo+json', extension: 'geojson' },
  csv: { contentType: 'text/csv; charset=utf-8', extension: 'csv' },
  xlsx: { contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', extension: 'xlsx' },
} as const;

async function allMatching(deps: AssetDeps, accountId: string, filter: AssetFilter): Promise<StoredAsset[]> {
  const assets: StoredAsset[] = [];
  let cursor: string | undefined;
  do {
    const page = await deps.assets.list(accountId, filter, { limit: EXPORT_PAGE, cursor });
    assets.push(...page.items);
    cursor = page.nextCursor;
    if (assets.length > MAX_EXPORT_ASSETS) {
      throw new InvalidInputError(`More than ${MAX_EXPORT_ASSETS} assets match: narrow the filters or page with format=json.`, [{ field: 'format', in: 'query', message: 'Too many assets to export at once' }]);
    }
  } while (cursor);
  return assets;
}

/** A page of the sorted list; a cursor of another list is a 400. */
function sortedAssetPage(sorted: StoredAsset[], query: { accountId: string; filter: AssetFilter; sort: AssetSort }, limit: number, cursor: string | undefined) {
  const page = sortedPage(sorted, query, limit, cursor);
  return { data: page.items.map(assetView), next_cursor: page.nextCursor };
}

/** What `GET /assets` answers: a page of the list, an export file, or a link to an export too large to send. */
export type AssetListing =
  | { kind: 'page'; page: { data: ReturnType<typeof assetView>[]; next_cursor: string | null | undefined } }
  | { kind: 'file'; content: string | Buffer; contentType: string; filename: string }
  | { kind: 'link'; url: string };

/** `GET /assets` */
export async function listAssets(deps: AssetDeps, accountId: string, query: z.infer<ReturnType<typeof ListAssetsQuery>>): Promise<AssetListing> {
  const jurisdiction = query.jurisdiction ? requireJurisdiction(query.jurisdiction, 'query') : undefined;
  const filter: AssetFilter = {
    jurisdictionId: jurisdiction?.id,
    category: query.category,
    vulnerabilityLevel: query.vulnerability_level,
    impactTimeline: query.impact_timeline,
  };
  if (query.format === 'json' && !query.sort) {
    const page = await deps.assets.list(accountId, filter, { limit: query.limit, cursor: query.cursor });
    return { kind: 'page', page: { data: page.items.map(assetView), next_cursor: page.nextCursor ?? null } };
  }

  const matching = await allMatching(deps, accountId, filter);
  const assets = query.sort ? sortAssets(matching, query.sort) : matching;
  if (query.format === 'json') return { kind: 'page', page: sortedAssetPage(assets, { accountId, filter, sort: query.sort! }, query.limit, query.cursor) };
  const type = EXPORT_TYPES[query.format];
  const content = query.format === 'geojson' ? JSON.stringify(assetsToGeoJson(assets))
    : query.format === 'csv' ? assetsToCsv(assets)
      : await assetsToXlsx(assets);
  const filename = `critical-assets-${(jurisdiction?.id ?? 'all').replace(':', '-')}.${type.extension}`;
  if (Buffer.byteLength(content) > INLINE_EXPORT_BYTES) {
    const key = `exports/${accountId}/${randomUUID()}/${filename}`;
    await deps.blobs.put(key, content, type.contentType);
    return { kind: 'link', url: await deps.blobs.signedGetUrl(key, deps.signedUrlSeconds, filename) };
  }
  return { kind: 'file', content, contentType: type.contentType, filename };
}

/** A stale version: the answer names the asset's current one, whose ETag it carries. */
export class StaleAssetError extends ConflictError {
  constructor(readonly currentVersion: number, expected: number) {
    super(`The asset is at version ${currentVersion}, not ${expected}: read it again and retry.`);
    this.name = 'StaleAssetError';
  }
}

/** `PUT /assets/{asset_id}/vulnerability`, at the version `expected` (If-Match or `version`) when given. */
export async function updateAssetVulnerability(deps: AssetDeps, accountId: string, assetId: string, body: z.infer<ReturnType<typeof VulnerabilityBody>>, ifMatch: number | undefined, now: Date) {
  const asset = await deps.assets.get(accountId, assetId);
  if (!asset) throw new NotFoundError(`No asset ${assetId}.`);

  const expected = ifMatch ?? body.version;
  // A stale version (If-Match or `version`) is a version conflict: 409 with the current ETag
  // (DESIGN §3, safety of writes; docs/decisions/0005-stale-if-match-409.md).
  if (expected !== undefined && expected !== asset.version) throw new StaleAssetError(asset.version, expected);

  const { version: _version, ...input } = body;
  const assessment = assessVulnerability(input as VulnerabilityInput, now);
  const updated = await deps.assets.setVulnerability(accountId, asset, assessment, now);
  if (updated === 'conflict') {
    // Another write won after the version check: the answer names the version that won.
    const latest = await deps.assets.get(accountId, assetId);
    if (!latest) throw new NotFoundError(`No asset ${assetId}.`);
    throw new StaleAssetError(latest.version, expected ?? asset.version);
  }
  return { view: assetWithHistoryView(updated), version: updated.version };
}

/** `DELETE /assets/{asset_id}` */
export async function deleteAsset(deps: AssetDeps, accountId: string, assetId: string): Promise<void> {
  if (!(await deps.assets.delete(accountId, assetId))) throw new NotFoundError(`No asset ${assetId}.`);
}
