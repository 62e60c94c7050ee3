import { randomUUID } from 'node:crypto';
import { assessVulnerability, type VulnerabilityInput } from '../../shared/domain/assets/vulnerability';
import { assetsToCsv, assetsToGeoJson, assetsToXlsx, assetView, assetWithHistoryView } from '../../shared/domain/assets/export';
import type { AssetFilter, StoredAsset } from '../../shared/domain/assets/ports';
import { HttpError } from '../../shared/http/problem';
import { currentETag } from '../../shared/http/domain-problems';
import type { RouteRequest, RouteResult } from '../../shared/http/types';
import type { ListAssetsQuery, VulnerabilityBody } from '../../shared/schemas/assets';
import type * as z from 'zod';
import { assetDeps } from './deps';
import { sortAssets, sortedPage, type AssetSort } from '../../shared/domain/deliverables/asset-priority';
import { requireJurisdiction } from './request';

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

async function allMatching(accountId: string, filter: AssetFilter): Promise<StoredAsset[]> {
  const assets: StoredAsset[] = [];
  let cursor: string | undefined;
  do {
    const page = await assetDeps.assets().list(accountId, filter, { limit: EXPORT_PAGE, cursor });
    assets.push(...page.items);
    cursor = page.nextCursor;
    if (assets.length > MAX_EXPORT_ASSETS) {
      throw new HttpError('invalid_request', `More than ${MAX_EXPORT_ASSETS} assets match: narrow the filters or page with format=json.`, { errors: [{ field: 'format', in: 'query', message: 'Too many assets to export at once' }] });
    }
  } while (cursor);
  return assets;
}

/** A page of the sorted list; a cursor of another list is a 400. */
function sortedAssetPage(sorted: StoredAsset[], query: { accountId: string; filter: AssetFilter; sort: AssetSort }, limit: number, cursor: string | undefined) {
  const page = sortedPage(sorted, query, limit, cursor);
  return { data: page.items.map(assetView), next_cursor: page.nextCursor };
}

/** GET /assets */
export async function listAssets(request: RouteRequest): Promise<RouteResult> {
  const query = request.query as z.infer<typeof ListAssetsQuery>;
  const accountId = request.account!.accountId;
  const jurisdiction = query.jurisdiction ? requireJurisdiction(query.jurisdiction, 'query') : undefined;
  const filter: AssetFilter = {
    jurisdictionId: jurisdiction?.id,
    category: query.category,
    vulnerabilityLevel: query.vulnerability_level,
    impactTimeline: query.impact_timeline,
  };
  if (query.format === 'json' && !query.sort) {
    const page = await assetDeps.assets().list(accountId, filter, { limit: query.limit, cursor: query.cursor });
    return { status: 200, body: { data: page.items.map(assetView), next_cursor: page.nextCursor ?? null } };
  }

  const matching = await allMatching(accountId, filter);
  const assets = query.sort ? sortAssets(matching, query.sort) : matching;
  if (query.format === 'json') return { status: 200, body: sortedAssetPage(assets, { accountId, filter, sort: query.sort! }, query.limit, query.cursor) };
  const type = EXPORT_TYPES[query.format];
  const content = query.format === 'geojson' ? JSON.stringify(assetsToGeoJson(assets))
    : query.format === 'csv' ? assetsToCsv(assets)
      : await assetsToXlsx(assets);
  const filename = `critical-assets-${(jurisdiction?.id ?? 'all').replace(':', '-')}.${type.extension}`;
  if (Buffer.byteLength(content) > INLINE_EXPORT_BYTES) {
    const key = `exports/${accountId}/${randomUUID()}/${filename}`;
    await assetDeps.blobs().put(key, content, type.contentType);
    const url = await assetDeps.blobs().signedGetUrl(key, assetDeps.signedUrlSeconds(), filename);
    return { status: 303, headers: { Location: url } };
  }
  return {
    status: 200,
    rawBody: content,
    contentType: type.contentType,
    headers: { 'Content-Disposition': `attachment; filename="${filename}"` },
  };
}

/** PUT /assets/{asset_id}/vulnerability */
export async function updateAssetVulnerability(request: RouteRequest): Promise<RouteResult> {
  const { asset_id: assetId } = request.params as { asset_id: string };
  const body = request.body as z.infer<typeof VulnerabilityBody>;
  const accountId = request.account!.accountId;
  const asset = await assetDeps.assets().get(accountId, assetId);
  if (!asset) throw new HttpError('not_found', `No asset ${assetId}.`);

  const expected = request.ifMatch ?? body.version;
  // A stale version (If-Match or `version`) is a version conflict: 409 with the current ETag
  // (DESIGN §3, safety of writes; docs/decisions/0005-stale-if-match-409.md).
  if (expected !== undefined && expected !== asset.version) throw staleAsset(asset.version, expected);

  const { version: _version, ...input } = body;
  const assessment = assessVulnerability(input as VulnerabilityInput, request.now);
  const updated = await assetDeps.assets().setVulnerability(accountId, asset, assessment, request.now);
  if (updated === 'conflict') {
    // Another write won after the version check: the answer names the version that won.
    const latest = await assetDeps.assets().get(accountId, assetId);
    if (!latest) throw new HttpError('not_found', `No asset ${assetId}.`);
    throw staleAsset(latest.version, expected ?? asset.version);
  }
  return { status: 200, body: assetWithHistoryView(updated), headers: { ETag: currentETag(updated.version) } };
}

function staleAsset(current: number, expected: number): HttpError {
  return new HttpError('conflict', `The asset is at version ${current}, not ${expected}: read it again and retry.`, { headers: { ETag: currentETag(current) } });
}

/** DELETE /assets/{asset_id} */
export async function deleteAsset(request: RouteRequest): Promise<RouteResult> {
  const { asset_id: assetId } = request.params as { asset_id: string };
  if (!(await assetDeps.assets().delete(request.account!.accountId, assetId))) throw new HttpError('not_found', `No asset ${assetId}.`);
  return { status: 204 };
}
