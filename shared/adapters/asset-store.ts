import { randomBytes } from 'node:crypto';
import { BatchGetCommand, DeleteCommand, GetCommand, PutCommand, type BatchGetCommandOutput, QueryCommand, UpdateCommand, type QueryCommandInput, type QueryCommandOutput } from './dynamo-commands';
import { isConditionalCheckFailed } from './conditional-write';
import { dynamo } from './aws-clients';
import { userKeyedMap } from './user-keyed-map';
import { queryAll } from './query-all';
import { requiredSetting } from '../config';
import type { ImportedAsset } from '../domain/assets/import-rows';
import type { AssetFilter, AssetPage, AssetStore, ExposureChange, ImportWriter, ImportWriteTarget, StoredAsset, VulnerabilityChange, WriteCounts } from '../domain/assets/ports';
import { BatchWriter, withBackoff } from './batch-writer';
import { NOT_ASSESSED, type VulnerabilityAssessment } from '../domain/assets/vulnerability';
import { decodeListCursor, encodeListCursor } from '../domain/list-cursor';
import { geoCell, geoCellsCovering } from '../domain/geo-cells';
import type { LatLon } from '../domain/hazards/geo';

/**
 * Assets, one item each, in their account's partition: pk `ACCOUNT#<account>`, sk `ASSET#<asset id>`.
 * gsi1 lists a jurisdiction's assets by category (`ASSETS#<account>#<jurisdiction>`, `<category>#<id>`);
 * gsi2 lists them by vulnerability level and impact timeline
 * (`ASSETS#<account>#<jurisdiction>#<level>`, `<timeline>#<id>`); gsi3 finds them by place
 * (`ASSETS#<account>#GEO#<geohash cell>`, `<id>`), so a point analysis reads the few cells around
 * its point, not the inventory. Every list is a Query; other filters are filter expressions on it.
 * No Scan.
 */

const partition = (accountId: string) => `ACCOUNT#${accountId}`;
const assetKey = (accountId: string, assetId: string) => ({ pk: partition(accountId), sk: `ASSET#${assetId}` });
const gsi1 = (accountId: string, jurisdictionId: string, category: string, assetId: string) =>
  ({ gsi1pk: `ASSETS#${accountId}#${jurisdictionId}`, gsi1sk: `${category}#${assetId}` });
const gsi2 = (accountId: string, jurisdictionId: string, level: string, timeline: string, assetId: string) =>
  ({ gsi2pk: `ASSETS#${accountId}#${jurisdictionId}#${level}`, gsi2sk: `${timeline}#${assetId}` });

const geoCellPartition = (accountId: string, cell: string) => `ASSETS#${accountId}#GEO#${cell}`;
const gsi3 = (accountId: string, position: LatLon, assetId: string) =>
  ({ gsi3pk: geoCellPartition(accountId, geoCell(position)), gsi3sk: assetId });

const KEY_ATTRIBUTES = ['pk', 'sk', 'gsi1pk', 'gsi1sk', 'gsi2pk', 'gsi2sk', 'gsi3pk', 'gsi3sk', 'entity', 'account_id'] as const;
/** Fields an import sets; vulnerability and history belong to the vulnerability route and are never overwritten here. */
const IMPORTED_FIELDS = ['name', 'category', 'asset_type', 'source_type', 'classification', 'lon', 'lat', 'geometry_type', 'geometry', 'source_id', 'address', 'city', 'county', 'owner', 'attributes', 'content_hash'] as const;
const HISTORY_KEPT = 50;
const UPDATE_CONCURRENCY = 8;

function toAsset(item: Record<string, unknown>): StoredAsset {
  const asset = { ...item };
  for (const key of KEY_ATTRIBUTES) delete asset[key];
  return asset as unknown as StoredAsset;
}


function chunks<T>(items: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** Runs `task` over `items` with at most `limit` in flight. */
async function inParallel<T>(items: T[], limit: number, task: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) await task(items[next++]!);
  }));
}

interface Cursor {
  index: 'table' | 'gsi1' | 'gsi2';
  key: Record<string, string>;
}

function encodeCursor(cursor: Cursor): string {
  return encodeListCursor({ ...cursor });
}

function decodeCursor(text: string, accountId: string, index: Cursor['index'], partitionAttribute: string, partitionValue: string): Record<string, string> {
  // A cursor only continues the same query of the same account.
  return decodeListCursor(text, (cursor) => {
    const key = cursor.key as Record<string, string> | null | undefined;
    if (cursor.index !== index || typeof key !== 'object' || key === null) return undefined;
    if (!Object.values(key).every((v) => typeof v === 'string' && v.length < 400)) return undefined;
    return key[partitionAttribute] === partitionValue && key.pk === partition(accountId) && key.sk?.startsWith('ASSET#') ? key : undefined;
  });
}

const idKeyItem = (accountId: string) => ({ pk: partition(accountId), sk: 'ASSETIDKEY' });
const geoKeyMarker = (accountId: string) => ({ pk: partition(accountId), sk: 'ASSETGEOKEYS' });

/**
 * The asset count: one item per import that created assets (`ASSETCOUNT#<import id>`), holding
 * how many of them exist. The import sets it (an absolute value, so a resumed run corrects it),
 * deleting an asset takes one off its creator's, deleting an import removes it.
 */
const TALLY_PREFIX = 'ASSETCOUNT#';
const tallyKey = (accountId: string, importId: string) => ({ pk: partition(accountId), sk: `${TALLY_PREFIX}${importId}` });
/**
 * An import's count is written at its end, and every few seconds while it runs so that a worker
 * lost for good leaves it at most that far behind (a resumed run sets it right).
 */
const TALLY_INTERVAL_MS = 5000;
/** Above this many assets held per row imported, the import looks its batches up instead of reading the jurisdiction's hashes. */
const PREFETCH_RATIO = 10;

interface Existing {
  hash: string;
  createdBy: string | undefined;
}

/**
 * One import run's writes. What is stored already comes from `lookup` (the jurisdiction's hashes
 * read once, or a batch's keys), never from a read per write: new assets go out in BatchWriteItem
 * calls (several in flight), changed ones as conditional updates that keep the vulnerability,
 * unchanged ones not at all.
 */
class DynamoImportWriter implements ImportWriter {
  private readonly counts: WriteCounts = { created: 0, updated: 0, unchanged: 0 };
  /** Assets this import created that exist: its share of the account's count. */
  private mine = 0;
  private readonly puts: BatchWriter;
  private readonly updates = new Set<Promise<void>>();
  private updateFailure: { error: unknown } | undefined;
  private tallyWritten = false;
  private lastTally = Date.now();
  private tallyWrite: Promise<void> = Promise.resolve();
  private readonly timestamp: string;

  constructor(
    private readonly table: string,
    private readonly accountId: string,
    private readonly target: ImportWriteTarget,
    private readonly lookup: (assetIds: string[]) => Promise<Map<string, Existing>>,
  ) {
    this.timestamp = target.now.toISOString();
    this.puts = new BatchWriter(table, (requests) => {
      this.counts.created += requests.length;
      this.mine += requests.length;
      if (Date.now() - this.lastTally >= TALLY_INTERVAL_MS) this.writeTally();
    });
  }

  get pending(): number {
    return this.puts.pending + this.updates.size;
  }

  async write(assets: ImportedAsset[]): Promise<void> {
    const existing = await this.lookup(assets.map((a) => a.asset_id));
    for (const asset of assets) {
      const before = existing.get(asset.asset_id);
      if (!before) {
        await this.puts.add({ PutRequest: { Item: this.newItem(asset) } });
        continue;
      }
      if (before.createdBy === this.target.importId) this.mine++;
      if (before.hash === asset.content_hash) this.counts.unchanged++;
      else await this.update(asset);
    }
  }

  async finish(): Promise<WriteCounts> {
    while (this.updates.size > 0) await Promise.all(this.updates);
    if (this.updateFailure) throw this.updateFailure.error;
    await this.puts.drain();
    if (this.mine > 0 || this.tallyWritten) this.writeTally();
    await this.tallyWrite;
    return this.counts;
  }

  private newItem(asset: ImportedAsset): Record<string, unknown> {
    const { accountId, timestamp } = this;
    // Built by assignment: as object spreads this took about 40 µs an item, 17 times as long
    // (V8 copies spread objects on a slow path), the largest single cost of a write pass.
    const item: Record<string, unknown> = assetKey(accountId, asset.asset_id);
    Object.assign(
      item,
      gsi1(accountId, asset.jurisdiction_id, asset.category, asset.asset_id),
      gsi2(accountId, asset.jurisdiction_id, NOT_ASSESSED, NOT_ASSESSED, asset.asset_id),
      gsi3(accountId, asset, asset.asset_id),
    );
    item.entity = 'asset';
    item.account_id = accountId;
    Object.assign(item, asset);
    item.attributes = userKeyedMap(asset.attributes);
    item.import_id = this.target.importId;
    item.created_by_import = this.target.importId;
    item.vulnerability = null;
    item.vulnerability_level = NOT_ASSESSED;
    item.impact_timeline = NOT_ASSESSED;
    item.vulnerability_history = [];
    item.version = 1;
    item.created_at = timestamp;
    item.updated_at = timestamp;
    return item;
  }

  /** Bounded like the puts; an asset deleted since the lookup is created again (and counted). */
  private async update(asset: ImportedAsset): Promise<void> {
    while (this.updates.size >= UPDATE_CONCURRENCY) await Promise.race(this.updates);
    if (this.updateFailure) throw this.updateFailure.error;
    const call: Promise<void> = this.sendUpdate(asset)
      .catch((error: unknown) => {
        this.updateFailure ??= { error };
      })
      .finally(() => this.updates.delete(call));
    this.updates.add(call);
  }

  private async sendUpdate(asset: ImportedAsset): Promise<void> {
    const { accountId } = this;
    const names: Record<string, string> = {};
    const indexKeys = { ...gsi1(accountId, asset.jurisdiction_id, asset.category, asset.asset_id), ...gsi3(accountId, asset, asset.asset_id) };
    const values: Record<string, unknown> = { ':one': 1, ':import': this.target.importId, ':now': this.timestamp, ...Object.fromEntries(Object.entries(indexKeys).map(([k, v]) => [`:${k}`, v])) };
    const sets = IMPORTED_FIELDS.map((field, i) => {
      names[`#f${i}`] = field;
      values[`:f${i}`] = field === 'attributes' ? userKeyedMap(asset.attributes) : asset[field] ?? null; // a point's geometry is null (lon/lat)
      return `#f${i} = :f${i}`;
    });
    try {
      await dynamo().send(new UpdateCommand({
        TableName: this.table,
        Key: assetKey(accountId, asset.asset_id),
        UpdateExpression: `SET ${sets.join(', ')}, gsi1pk = :gsi1pk, gsi1sk = :gsi1sk, gsi3pk = :gsi3pk, gsi3sk = :gsi3sk, import_id = :import, updated_at = :now, version = version + :one`,
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
      }));
      this.counts.updated++;
    } catch (error) {
      if (!isConditionalCheckFailed(error)) throw error;
      await this.puts.add({ PutRequest: { Item: this.newItem(asset) } });
    }
  }

  /** Writes are chained, so a later (larger) count never lands before an earlier one. */
  private writeTally(): void {
    const assets = this.mine;
    this.lastTally = Date.now();
    this.tallyWritten = true;
    this.tallyWrite = this.tallyWrite.then(() => dynamo().send(new PutCommand({
      TableName: this.table,
      Item: { ...tallyKey(this.accountId, this.target.importId), entity: 'asset_count', import_id: this.target.importId, jurisdiction_id: this.target.jurisdictionId, assets, updated_at: this.timestamp },
    }))).then(() => undefined);
    // Kept for `finish` to throw; handled here so a failure in between is not an unhandled rejection.
    this.tallyWrite.catch(() => undefined);
  }
}

export class DynamoAssetStore implements AssetStore {
  private readonly idKeys = new Map<string, string>();
  /** Accounts whose assets all carry their place key (see `ensureGeoKeys`). */
  private readonly geoKeyed = new Set<string>();

  constructor(private readonly table = requiredSetting('TABLE_NAME')) {}

  /** One item per account; two first imports racing both read the one that was written first. */
  async idKey(accountId: string): Promise<string> {
    const cached = this.idKeys.get(accountId);
    if (cached) return cached;
    const read = async () => (await dynamo().send(new GetCommand({ TableName: this.table, Key: idKeyItem(accountId), ConsistentRead: true }))).Item?.key as string | undefined;
    let key = await read();
    if (!key) {
      try {
        const fresh = randomBytes(32).toString('hex');
        await dynamo().send(new PutCommand({
          TableName: this.table,
          Item: { ...idKeyItem(accountId), entity: 'asset_id_key', key: fresh },
          ConditionExpression: 'attribute_not_exists(pk)',
        }));
        key = fresh;
      } catch (error) {
        if (!isConditionalCheckFailed(error)) throw error;
        key = await read();
      }
    }
    this.idKeys.set(accountId, key!);
    return key!;
  }

  async importWriter(accountId: string, target: ImportWriteTarget): Promise<ImportWriter> {
    const inventory = await this.jurisdictionCount(accountId, target.jurisdictionId);
    // Reading the jurisdiction's ids and hashes once costs about one Query per 1,000 assets held;
    // an import much smaller than what is held looks its batches up instead (one call per 100).
    const lookup = inventory > target.rows * PREFETCH_RATIO
      ? (ids: string[]) => this.existingByKeys(accountId, ids)
      : await this.existingInJurisdiction(accountId, target.jurisdictionId).then((all) => async () => all);
    return new DynamoImportWriter(this.table, accountId, target, lookup);
  }

  async count(accountId: string): Promise<number> {
    let total = 0;
    for (const tally of await this.tallies(accountId)) total += tally.assets;
    return total;
  }

  private async jurisdictionCount(accountId: string, jurisdictionId: string): Promise<number> {
    let total = 0;
    for (const tally of await this.tallies(accountId)) if (tally.jurisdiction_id === jurisdictionId) total += tally.assets;
    return total;
  }

  /** One small item per import that created assets: the count is their sum (one Query, whatever the inventory). */
  private async tallies(accountId: string): Promise<{ jurisdiction_id: string; assets: number }[]> {
    const items = await queryAll({
      TableName: this.table,
      KeyConditionExpression: 'pk = :p AND begins_with(sk, :s)',
      ExpressionAttributeValues: { ':p': partition(accountId), ':s': TALLY_PREFIX },
      ProjectionExpression: 'jurisdiction_id, assets',
    });
    return items as { jurisdiction_id: string; assets: number }[];
  }

  /** The stored hash of every asset of the jurisdiction, read page by page from gsi1. */
  private async existingInJurisdiction(accountId: string, jurisdictionId: string): Promise<Map<string, Existing>> {
    const found = new Map<string, Existing>();
    const items = await queryAll({
      TableName: this.table,
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :p',
      ExpressionAttributeValues: { ':p': gsi1(accountId, jurisdictionId, '', '').gsi1pk },
      ProjectionExpression: 'asset_id, content_hash, created_by_import',
    });
    for (const item of items) found.set(item.asset_id as string, { hash: item.content_hash as string, createdBy: item.created_by_import as string | undefined });
    return found;
  }

  private async existingByKeys(accountId: string, assetIds: string[]): Promise<Map<string, Existing>> {
    const found = new Map<string, Existing>();
    for (const ids of chunks(assetIds, 100)) {
      let keys: Record<string, unknown>[] | undefined = ids.map((id) => assetKey(accountId, id));
      await withBackoff(async () => {
        const result: BatchGetCommandOutput = await dynamo().send(new BatchGetCommand({
          RequestItems: { [this.table]: { Keys: keys!, ProjectionExpression: 'asset_id, content_hash, created_by_import' } },
        }));
        for (const item of result.Responses?.[this.table] ?? []) found.set(item.asset_id as string, { hash: item.content_hash as string, createdBy: item.created_by_import as string | undefined });
        keys = result.UnprocessedKeys?.[this.table]?.Keys;
        return !keys || keys.length === 0;
      }, 'DynamoDB kept returning unprocessed keys');
    }
    return found;
  }

  /** The asset goes, and with it one from the count of the import that created it. */
  async delete(accountId: string, assetId: string): Promise<boolean> {
    let old: Record<string, unknown> | undefined;
    try {
      old = (await dynamo().send(new DeleteCommand({ TableName: this.table, Key: assetKey(accountId, assetId), ConditionExpression: 'attribute_exists(pk)', ReturnValues: 'ALL_OLD' }))).Attributes;
    } catch (error) {
      if (isConditionalCheckFailed(error)) return false;
      throw error;
    }
    const createdBy = old?.created_by_import as string | undefined;
    if (createdBy) {
      try {
        await dynamo().send(new UpdateCommand({
          TableName: this.table,
          Key: tallyKey(accountId, createdBy),
          UpdateExpression: 'ADD assets :minus',
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeValues: { ':minus': -1 },
        }));
      } catch (error) {
        if (!isConditionalCheckFailed(error)) throw error;
      }
    }
    return true;
  }

  /** The import's assets first, then its share of the count: a retry after a failure finishes the job. */
  async deleteCreatedBy(accountId: string, importId: string): Promise<number> {
    const items = await queryAll({
      TableName: this.table,
      KeyConditionExpression: 'pk = :p AND begins_with(sk, :s)',
      FilterExpression: 'created_by_import = :import',
      ExpressionAttributeValues: { ':p': partition(accountId), ':s': 'ASSET#', ':import': importId },
      ProjectionExpression: 'pk, sk',
    });
    const writer = new BatchWriter(this.table);
    for (const item of items) await writer.add({ DeleteRequest: { Key: { pk: item.pk, sk: item.sk } } });
    await writer.drain();
    await dynamo().send(new DeleteCommand({ TableName: this.table, Key: tallyKey(accountId, importId) }));
    return items.length;
  }

  async get(accountId: string, assetId: string): Promise<StoredAsset | undefined> {
    const result = await dynamo().send(new QueryCommand({
      TableName: this.table,
      KeyConditionExpression: 'pk = :pk AND sk = :sk',
      ExpressionAttributeValues: { ':pk': partition(accountId), ':sk': `ASSET#${assetId}` },
    }));
    const item = result.Items?.[0];
    return item ? toAsset(item) : undefined;
  }

  async list(accountId: string, filter: AssetFilter, page: { limit: number; cursor?: string }): Promise<AssetPage> {
    const query = this.queryFor(accountId, filter, page.cursor);
    const items: Record<string, unknown>[] = [];
    let startKey: Record<string, unknown> | undefined = query.start;
    let dropped = false;
    while (items.length < page.limit) {
      const result: QueryCommandOutput = await dynamo().send(new QueryCommand({ ...query.input, Limit: page.limit, ExclusiveStartKey: startKey }));
      for (const item of result.Items ?? []) {
        if (items.length < page.limit) items.push(item);
        else dropped = true;
      }
      startKey = result.LastEvaluatedKey;
      if (!startKey) break;
    }
    const last = items[items.length - 1];
    // A full page continues after its last item, wherever DynamoDB stopped reading.
    const continues = last !== undefined && items.length === page.limit && (dropped || startKey !== undefined);
    return {
      items: items.map(toAsset),
      nextCursor: continues ? encodeCursor({ index: query.index, key: Object.fromEntries(query.keyAttributes.map((a) => [a, String(last[a])])) }) : undefined,
    };
  }

  /**
   * The assets in the geohash cells covering the circle (a superset of those within it; the
   * caller measures the distance): one Query per cell, whatever the inventory holds.
   */
  async near(accountId: string, point: LatLon, radiusKm: number): Promise<StoredAsset[]> {
    await this.ensureGeoKeys(accountId);
    const cells = await Promise.all(geoCellsCovering(point, radiusKm).map((cell) => queryAll({
      TableName: this.table,
      IndexName: 'gsi3',
      KeyConditionExpression: 'gsi3pk = :p',
      ExpressionAttributeValues: { ':p': geoCellPartition(accountId, cell) },
    })));
    return cells.flat().map(toAsset);
  }

  /**
   * Assets stored before gsi3 existed have no place key: the account's first point read gives
   * them one (a single pass over its partition), then records that it did, so every later read
   * is the cells' Queries alone. Every write since sets the key itself.
   */
  private async ensureGeoKeys(accountId: string): Promise<void> {
    if (this.geoKeyed.has(accountId)) return;
    const marker = geoKeyMarker(accountId);
    const done = (await dynamo().send(new GetCommand({ TableName: this.table, Key: marker, ConsistentRead: true }))).Item;
    if (!done) {
      const unkeyed = await queryAll({
        TableName: this.table,
        KeyConditionExpression: 'pk = :p AND begins_with(sk, :s)',
        FilterExpression: 'attribute_not_exists(gsi3pk)',
        ExpressionAttributeValues: { ':p': partition(accountId), ':s': 'ASSET#' },
        ProjectionExpression: 'asset_id, lat, lon',
      });
      await inParallel(unkeyed, UPDATE_CONCURRENCY, async (item) => {
        const keys = gsi3(accountId, item as unknown as LatLon, item.asset_id as string);
        try {
          await dynamo().send(new UpdateCommand({
            TableName: this.table,
            Key: assetKey(accountId, item.asset_id as string),
            UpdateExpression: 'SET gsi3pk = :pk, gsi3sk = :sk',
            // An asset written meanwhile has its key already (and maybe another place).
            ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(gsi3pk)',
            ExpressionAttributeValues: { ':pk': keys.gsi3pk, ':sk': keys.gsi3sk },
          }));
        } catch (error) {
          if (!isConditionalCheckFailed(error)) throw error;
        }
      });
      await dynamo().send(new PutCommand({ TableName: this.table, Item: { ...marker, entity: 'asset_geo_keys', keyed: unkeyed.length } }));
    }
    this.geoKeyed.add(accountId);
  }

  private queryFor(accountId: string, filter: AssetFilter, cursor: string | undefined) {
    const filters: string[] = [];
    const names: Record<string, string> = {};
    const values: Record<string, unknown> = {};
    const addFilter = (attribute: string, value: string) => {
      names[`#${attribute}`] = attribute;
      values[`:${attribute}`] = value;
      filters.push(`#${attribute} = :${attribute}`);
    };
    let index: Cursor['index'];
    let keyCondition: string;
    let partitionAttribute: string;
    let partitionValue: string;
    if (filter.jurisdictionId && filter.vulnerabilityLevel) {
      index = 'gsi2';
      partitionAttribute = 'gsi2pk';
      partitionValue = `ASSETS#${accountId}#${filter.jurisdictionId}#${filter.vulnerabilityLevel}`;
      keyCondition = filter.impactTimeline ? 'gsi2pk = :p AND begins_with(gsi2sk, :s)' : 'gsi2pk = :p';
      if (filter.impactTimeline) values[':s'] = `${filter.impactTimeline}#`;
      if (filter.category) addFilter('category', filter.category);
    } else if (filter.jurisdictionId) {
      index = 'gsi1';
      partitionAttribute = 'gsi1pk';
      partitionValue = `ASSETS#${accountId}#${filter.jurisdictionId}`;
      keyCondition = filter.category ? 'gsi1pk = :p AND begins_with(gsi1sk, :s)' : 'gsi1pk = :p';
      if (filter.category) values[':s'] = `${filter.category}#`;
      if (filter.impactTimeline) addFilter('impact_timeline', filter.impactTimeline);
    } else {
      index = 'table';
      partitionAttribute = 'pk';
      partitionValue = partition(accountId);
      keyCondition = 'pk = :p AND begins_with(sk, :s)';
      values[':s'] = 'ASSET#';
      if (filter.category) addFilter('category', filter.category);
      if (filter.vulnerabilityLevel) addFilter('vulnerability_level', filter.vulnerabilityLevel);
      if (filter.impactTimeline) addFilter('impact_timeline', filter.impactTimeline);
    }
    values[':p'] = partitionValue;
    const keyAttributes = index === 'table' ? ['pk', 'sk'] : ['pk', 'sk', `${index}pk`, `${index}sk`];
    const input: QueryCommandInput = {
      TableName: this.table,
      ...(index === 'table' ? {} : { IndexName: index }),
      KeyConditionExpression: keyCondition,
      ...(filters.length > 0 ? { FilterExpression: filters.join(' AND '), ExpressionAttributeNames: names } : {}),
      ExpressionAttributeValues: values,
    };
    const start = cursor ? decodeCursor(cursor, accountId, index, partitionAttribute, partitionValue) : undefined;
    return { index, input, keyAttributes, start };
  }

  async setVulnerability(accountId: string, asset: StoredAsset, assessment: VulnerabilityAssessment, now: Date): Promise<StoredAsset | 'conflict'> {
    const version = asset.version + 1;
    const change: VulnerabilityChange = { version, changed_at: now.toISOString(), vulnerability: assessment };
    const history = [...(asset.vulnerability_history ?? []), change].slice(-HISTORY_KEPT);
    const index = gsi2(accountId, asset.jurisdiction_id, assessment.vulnerability_level, assessment.impact_timeline, asset.asset_id);
    try {
      const result = await dynamo().send(new UpdateCommand({
        TableName: this.table,
        Key: assetKey(accountId, asset.asset_id),
        UpdateExpression: 'SET vulnerability = :v, vulnerability_level = :level, impact_timeline = :timeline, vulnerability_history = :history, gsi2pk = :g2pk, gsi2sk = :g2sk, version = :next, updated_at = :now',
        ConditionExpression: 'version = :expected',
        ExpressionAttributeValues: {
          ':v': assessment,
          ':level': assessment.vulnerability_level,
          ':timeline': assessment.impact_timeline,
          ':history': history,
          ':g2pk': index.gsi2pk,
          ':g2sk': index.gsi2sk,
          ':next': version,
          ':now': now.toISOString(),
          ':expected': asset.version,
        },
        ReturnValues: 'ALL_NEW',
      }));
      return toAsset(result.Attributes!);
    } catch (error) {
      if (isConditionalCheckFailed(error)) return 'conflict';
      throw error;
    }
  }

  /**
   * One update per asset, several in flight: exposure, and the vulnerability with a history entry
   * when it is known. The level and timeline (gsi2's keys) are written only when they change, so an
   * analysis that leaves an asset's level as it was moves no entry between gsi2's partitions (see
   * docs/incoming/exposure.md). An asset deleted meanwhile is skipped.
   */
  async applyExposures(accountId: string, changes: ExposureChange[], now: Date): Promise<number> {
    let written = 0;
    const timestamp = now.toISOString();
    await inParallel(changes, UPDATE_CONCURRENCY, async ({ asset, exposure, vulnerability }) => {
      const values: Record<string, unknown> = { ':e': exposure, ':now': timestamp, ':one': 1 };
      let update = 'SET exposure = :e, updated_at = :now, version = version + :one';
      if (vulnerability) {
        const change: VulnerabilityChange = { version: asset.version + 1, changed_at: timestamp, vulnerability };
        update += ', vulnerability = :v, vulnerability_history = :history';
        Object.assign(values, { ':v': vulnerability, ':history': [...(asset.vulnerability_history ?? []), change].slice(-HISTORY_KEPT) });
        const { vulnerability_level: level, impact_timeline: timeline } = vulnerability;
        if (level !== asset.vulnerability_level || timeline !== asset.impact_timeline) {
          const index = gsi2(accountId, asset.jurisdiction_id, level, timeline, asset.asset_id);
          update += ', vulnerability_level = :level, impact_timeline = :timeline, gsi2pk = :g2pk, gsi2sk = :g2sk';
          Object.assign(values, { ':level': level, ':timeline': timeline, ':g2pk': index.gsi2pk, ':g2sk': index.gsi2sk });
        }
      }
      try {
        await dynamo().send(new UpdateCommand({
          TableName: this.table,
          Key: assetKey(accountId, asset.asset_id),
          UpdateExpression: update,
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeValues: values,
        }));
        written++;
      } catch (error) {
        if ((error as Error).name !== 'ConditionalCheckFailedException') throw error;
      }
    });
    return written;
  }
}

/** Where an asset is, for spatial questions (which assets lie in a flood polygon, near a gauge). */
export interface AssetLocation {
  asset_id: string;
  name: string;
  category: string;
  asset_type: string | null;
  jurisdiction_id: string;
  lon: number;
  lat: number;
}

/**
 * Every asset of an account (optionally of one jurisdiction) with its position, read page by page
 * with Query (the table partition, or gsi1 for a jurisdiction) and only the attributes needed.
 */
export async function* accountAssetLocations(accountId: string, options: { jurisdictionId?: string; table?: string } = {}): AsyncGenerator<AssetLocation> {
  const table = options.table ?? requiredSetting('TABLE_NAME');
  const input: QueryCommandInput = options.jurisdictionId
    ? { TableName: table, IndexName: 'gsi1', KeyConditionExpression: 'gsi1pk = :p', ExpressionAttributeValues: { ':p': `ASSETS#${accountId}#${options.jurisdictionId}` } }
    : { TableName: table, KeyConditionExpression: 'pk = :p AND begins_with(sk, :s)', ExpressionAttributeValues: { ':p': partition(accountId), ':s': 'ASSET#' } };
  let startKey: Record<string, unknown> | undefined;
  do {
    const result = await dynamo().send(new QueryCommand({
      ...input,
      ProjectionExpression: 'asset_id, #name, category, asset_type, jurisdiction_id, lon, lat',
      ExpressionAttributeNames: { '#name': 'name' },
      ExclusiveStartKey: startKey,
    }));
    for (const item of result.Items ?? []) yield item as AssetLocation;
    startKey = result.LastEvaluatedKey;
  } while (startKey);
}

/** All of them at once (the hazards analyses take the whole inventory). */
export async function listAccountAssets(accountId: string, options: { jurisdictionId?: string } = {}): Promise<AssetLocation[]> {
  const all: AssetLocation[] = [];
  for await (const location of accountAssetLocations(accountId, options)) all.push(location);
  return all;
}
