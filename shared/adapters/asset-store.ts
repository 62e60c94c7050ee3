import { randomBytes } from 'node:crypto';
import { BatchGetCommand, BatchWriteCommand, DeleteCommand, GetCommand, PutCommand, type BatchGetCommandOutput, QueryCommand, UpdateCommand, type QueryCommandInput, type QueryCommandOutput } from '@aws-sdk/lib-dynamodb';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { dynamo } from './aws-clients';
import { queryAll } from './query-all';
import { requiredSetting } from '../config';
import type { ImportedAsset } from '../domain/assets/import-rows';
import type { AssetFilter, AssetPage, AssetStore, ExposureChange, StoredAsset, VulnerabilityChange, WriteCounts } from '../domain/assets/ports';
import { NOT_ASSESSED, type VulnerabilityAssessment } from '../domain/assets/vulnerability';
import { HttpError } from '../http/problem';

/**
 * Assets, one item each, in their account's partition: pk `ACCOUNT#<account>`, sk `ASSET#<asset id>`.
 * gsi1 lists a jurisdiction's assets by category (`ASSETS#<account>#<jurisdiction>`, `<category>#<id>`);
 * gsi2 lists them by vulnerability level and impact timeline
 * (`ASSETS#<account>#<jurisdiction>#<level>`, `<timeline>#<id>`). Every list is a Query; other
 * filters are filter expressions on it. No Scan.
 */

const partition = (accountId: string) => `ACCOUNT#${accountId}`;
const assetKey = (accountId: string, assetId: string) => ({ pk: partition(accountId), sk: `ASSET#${assetId}` });
const gsi1 = (accountId: string, jurisdictionId: string, category: string, assetId: string) =>
  ({ gsi1pk: `ASSETS#${accountId}#${jurisdictionId}`, gsi1sk: `${category}#${assetId}` });
const gsi2 = (accountId: string, jurisdictionId: string, level: string, timeline: string, assetId: string) =>
  ({ gsi2pk: `ASSETS#${accountId}#${jurisdictionId}#${level}`, gsi2sk: `${timeline}#${assetId}` });

const KEY_ATTRIBUTES = ['pk', 'sk', 'gsi1pk', 'gsi1sk', 'gsi2pk', 'gsi2sk', 'entity', 'account_id'] as const;
/** Fields an import sets; vulnerability and history belong to the vulnerability route and are never overwritten here. */
const IMPORTED_FIELDS = ['name', 'category', 'asset_type', 'source_type', 'classification', 'lon', 'lat', 'geometry_type', 'source_id', 'address', 'city', 'county', 'owner', 'attributes', 'content_hash'] as const;
const HISTORY_KEPT = 50;
const UPDATE_CONCURRENCY = 8;

function toAsset(item: Record<string, unknown>): StoredAsset {
  const asset = { ...item };
  for (const key of KEY_ATTRIBUTES) delete asset[key];
  return asset as unknown as StoredAsset;
}

const isConditionFailure = (error: unknown) =>
  error instanceof ConditionalCheckFailedException || (error as Error).name === 'ConditionalCheckFailedException';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

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
  return Buffer.from(JSON.stringify(cursor)).toString('base64url');
}

function decodeCursor(text: string, accountId: string, index: Cursor['index'], partitionAttribute: string, partitionValue: string): Record<string, string> {
  const invalid = () => new HttpError('invalid_request', 'The cursor is not valid for this query.', { errors: [{ field: 'cursor', in: 'query', message: 'Invalid cursor' }] });
  let cursor: Cursor;
  try {
    cursor = JSON.parse(Buffer.from(text, 'base64url').toString('utf8')) as Cursor;
  } catch {
    throw invalid();
  }
  // A cursor only continues the same query of the same account.
  const key = cursor?.key;
  if (cursor?.index !== index || typeof key !== 'object' || key === null) throw invalid();
  if (!Object.values(key).every((v) => typeof v === 'string' && v.length < 400)) throw invalid();
  if (key[partitionAttribute] !== partitionValue || key.pk !== partition(accountId) || !key.sk?.startsWith('ASSET#')) throw invalid();
  return key;
}

const idKeyItem = (accountId: string) => ({ pk: partition(accountId), sk: 'ASSETIDKEY' });

export class DynamoAssetStore implements AssetStore {
  private readonly idKeys = new Map<string, string>();

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
        if (!isConditionFailure(error)) throw error;
        key = await read();
      }
    }
    this.idKeys.set(accountId, key!);
    return key!;
  }

  async saveImported(accountId: string, assets: ImportedAsset[], importId: string, now: Date): Promise<WriteCounts> {
    const counts: WriteCounts = { created: 0, updated: 0, unchanged: 0 };
    const existing = await this.existingHashes(accountId, assets.map((a) => a.asset_id));
    const fresh = assets.filter((a) => !existing.has(a.asset_id));
    const changed = assets.filter((a) => existing.has(a.asset_id) && existing.get(a.asset_id) !== a.content_hash);
    counts.unchanged = assets.length - fresh.length - changed.length;
    const timestamp = now.toISOString();

    await this.batchPut(fresh.map((asset) => ({
      ...assetKey(accountId, asset.asset_id),
      ...gsi1(accountId, asset.jurisdiction_id, asset.category, asset.asset_id),
      ...gsi2(accountId, asset.jurisdiction_id, NOT_ASSESSED, NOT_ASSESSED, asset.asset_id),
      entity: 'asset',
      account_id: accountId,
      ...asset,
      import_id: importId,
      created_by_import: importId,
      vulnerability: null,
      vulnerability_level: NOT_ASSESSED,
      impact_timeline: NOT_ASSESSED,
      vulnerability_history: [],
      version: 1,
      created_at: timestamp,
      updated_at: timestamp,
    })));
    counts.created = fresh.length;

    await inParallel(changed, UPDATE_CONCURRENCY, async (asset) => {
      const names: Record<string, string> = {};
      const values: Record<string, unknown> = { ':one': 1, ':import': importId, ':now': timestamp, ...Object.fromEntries(Object.entries(gsi1(accountId, asset.jurisdiction_id, asset.category, asset.asset_id)).map(([k, v]) => [`:${k}`, v])) };
      const sets = IMPORTED_FIELDS.map((field, i) => {
        names[`#f${i}`] = field;
        values[`:f${i}`] = asset[field];
        return `#f${i} = :f${i}`;
      });
      await dynamo().send(new UpdateCommand({
        TableName: this.table,
        Key: assetKey(accountId, asset.asset_id),
        UpdateExpression: `SET ${sets.join(', ')}, gsi1pk = :gsi1pk, gsi1sk = :gsi1sk, import_id = :import, updated_at = :now, version = version + :one`,
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
      }));
    });
    counts.updated = changed.length;
    return counts;
  }

  private async existingHashes(accountId: string, assetIds: string[]): Promise<Map<string, string>> {
    const found = new Map<string, string>();
    for (const ids of chunks(assetIds, 100)) {
      let keys: Record<string, unknown>[] | undefined = ids.map((id) => assetKey(accountId, id));
      for (let attempt = 0; keys && keys.length > 0; attempt++) {
        if (attempt > 8) throw new Error('DynamoDB kept returning unprocessed keys');
        if (attempt > 0) await sleep(25 * 2 ** attempt);
        const result: BatchGetCommandOutput = await dynamo().send(new BatchGetCommand({
          RequestItems: { [this.table]: { Keys: keys, ProjectionExpression: 'asset_id, content_hash' } },
        }));
        for (const item of result.Responses?.[this.table] ?? []) found.set(item.asset_id as string, item.content_hash as string);
        keys = result.UnprocessedKeys?.[this.table]?.Keys;
      }
    }
    return found;
  }

  async delete(accountId: string, assetId: string): Promise<boolean> {
    try {
      await dynamo().send(new DeleteCommand({ TableName: this.table, Key: assetKey(accountId, assetId), ConditionExpression: 'attribute_exists(pk)' }));
      return true;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw error;
    }
  }

  async deleteCreatedBy(accountId: string, importId: string): Promise<number> {
    const items = await queryAll({
      TableName: this.table,
      KeyConditionExpression: 'pk = :p AND begins_with(sk, :s)',
      FilterExpression: 'created_by_import = :import',
      ExpressionAttributeValues: { ':p': partition(accountId), ':s': 'ASSET#', ':import': importId },
      ProjectionExpression: 'pk, sk',
    });
    await this.batchWrite(items.map((item) => ({ DeleteRequest: { Key: { pk: item.pk, sk: item.sk } } })));
    return items.length;
  }

  private async batchPut(items: Record<string, unknown>[]): Promise<void> {
    await this.batchWrite(items.map((Item) => ({ PutRequest: { Item } })));
  }

  /** BatchWriteItem, 25 requests per call, unprocessed ones retried with exponential backoff. */
  private async batchWrite(all: ({ PutRequest: { Item: Record<string, unknown> } } | { DeleteRequest: { Key: Record<string, unknown> } })[]): Promise<void> {
    for (const batch of chunks(all, 25)) {
      let requests = batch;
      for (let attempt = 0; requests.length > 0; attempt++) {
        if (attempt > 8) throw new Error('DynamoDB kept returning unprocessed items');
        if (attempt > 0) await sleep(25 * 2 ** attempt);
        const result = await dynamo().send(new BatchWriteCommand({ RequestItems: { [this.table]: requests } }));
        requests = (result.UnprocessedItems?.[this.table] ?? []) as typeof requests;
      }
    }
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
      if (isConditionFailure(error)) return 'conflict';
      throw error;
    }
  }

  /**
   * One update per asset, several in flight: exposure, and the vulnerability with its index keys
   * and a history entry when it is known. An asset deleted meanwhile is skipped.
   */
  async applyExposures(accountId: string, changes: ExposureChange[], now: Date): Promise<number> {
    let written = 0;
    const timestamp = now.toISOString();
    await inParallel(changes, UPDATE_CONCURRENCY, async ({ asset, exposure, vulnerability }) => {
      const values: Record<string, unknown> = { ':e': exposure, ':now': timestamp, ':one': 1 };
      let update = 'SET exposure = :e, updated_at = :now, version = version + :one';
      if (vulnerability) {
        const index = gsi2(accountId, asset.jurisdiction_id, vulnerability.vulnerability_level, vulnerability.impact_timeline, asset.asset_id);
        const change: VulnerabilityChange = { version: asset.version + 1, changed_at: timestamp, vulnerability };
        update += ', vulnerability = :v, vulnerability_level = :level, impact_timeline = :timeline, gsi2pk = :g2pk, gsi2sk = :g2sk, vulnerability_history = :history';
        Object.assign(values, {
          ':v': vulnerability, ':level': vulnerability.vulnerability_level, ':timeline': vulnerability.impact_timeline,
          ':g2pk': index.gsi2pk, ':g2sk': index.gsi2sk, ':history': [...(asset.vulnerability_history ?? []), change].slice(-HISTORY_KEPT),
        });
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
