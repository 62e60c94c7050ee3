import { DeleteCommand, GetCommand, PutCommand, QueryCommand } from './dynamo-commands';
import { dynamo } from './aws-clients';
import { isConditionalCheckFailed } from './conditional-write';
import { decodeCursor, encodeCursor } from './dynamo-cursor';
import { DynamoLeasedJobRecords } from './job-lease';
import { queryAll } from './query-all';
import { requiredSetting } from '../config';
import { MODEL_LEASE_MS } from '../domain/elevation-models/processing-job';
import type { BBox } from '../domain/hazards/geo';
import { newLease, type JobLease } from '../domain/job-lease';

export type ElevationModelStatus = 'pending' | 'processing' | 'ready' | 'failed';

/** An account's elevation model as the table keeps it; the processed tiles and `model.json` are in the bucket. */
export interface ElevationModelEntry {
  elevation_model_id: string;
  account_id: string;
  name: string;
  status: ElevationModelStatus;
  vertical_datum: 'NAVD88' | 'EGM96' | 'NGVD29';
  units: 'm' | 'ft';
  vertical_accuracy_m: number | null;
  ngvd29_to_navd88_m: number | null;
  /** `upload`: a GeoTIFF uploaded and tiled; `cog_url`: a COG read by ranges where it is (absent on models stored before registration by URL: uploads). */
  source?: 'upload' | 'cog_url';
  /** Where a `cog_url` model is read from. */
  cog_url?: string | null;
  /** The no-data value a `cog_url` model declares. */
  nodata?: number | null;
  /** Where the GeoTIFF is uploaded (presigned PUT); nothing is ever written there for a `cog_url` model. */
  upload_key: string;
  /** Null for a `cog_url` model (nothing to upload). */
  upload_expires_at: string | null;
  crs: { epsg: number; name: string } | null;
  resolution_m: number | null;
  bbox: BBox | null;
  vertical_conversion: string | null;
  /** The processed model's `model.json` in the bucket (tiles beside it), once ready. */
  model_key: string | null;
  error: { code: string; detail: string } | null;
  processing_started_at: string | null;
  /** The worker processing it, while it does (absent on models stored before leases). */
  lease?: JobLease | null;
  created_at: string;
  updated_at: string;
}

export type ProcessedFields = Pick<ElevationModelEntry, 'crs' | 'resolution_m' | 'bbox' | 'vertical_conversion' | 'model_key'>;

/**
 * Elevation models in their account's partition (sk `ELEVMODEL#<id>`). While the upload is awaited
 * the item also sits in the sparse gsi1 partition `ELEVATION_MODELS#pending` (sorted by creation),
 * so the local upload watcher finds it with a Query; claiming it for processing moves it to
 * `ELEVATION_MODELS#leased` (sorted by lease expiry, as the other jobs), where the sweep finds the
 * models whose worker was lost; finishing removes it.
 */
const PENDING = 'ELEVATION_MODELS#pending';
const LEASED = 'ELEVATION_MODELS#leased';
const PREFIX = 'ELEVMODEL#';
const pkOf = (accountId: string) => `ACCOUNT#${accountId}`;
const keyOf = (accountId: string, id: string) => ({ pk: pkOf(accountId), sk: `${PREFIX}${id}` });

function toEntry(item: Record<string, unknown>): ElevationModelEntry {
  const { pk: _pk, sk: _sk, gsi1pk: _g1, gsi1sk: _g2, entity: _e, ...entry } = item;
  return entry as unknown as ElevationModelEntry;
}

export class DynamoElevationModelStore {
  private readonly records: DynamoLeasedJobRecords<ElevationModelEntry>;

  constructor(private readonly table = requiredSetting('TABLE_NAME')) {
    this.records = new DynamoLeasedJobRecords(table, { key: keyOf, leasedPartition: LEASED, waiting: 'pending', running: 'processing', toRecord: toEntry });
  }

  /** Stores a new model: a pending one where the upload watcher finds it, a ready one (a registered COG) in its account only. */
  async create(entry: ElevationModelEntry): Promise<void> {
    await dynamo().send(new PutCommand({
      TableName: this.table,
      Item: {
        ...keyOf(entry.account_id, entry.elevation_model_id),
        ...(entry.status === 'pending' ? { gsi1pk: PENDING, gsi1sk: `${entry.created_at}#${entry.account_id}#${entry.elevation_model_id}` } : {}),
        entity: 'elevation_model',
        ...entry,
      },
      ConditionExpression: 'attribute_not_exists(pk)',
    }));
  }

  async get(accountId: string, id: string): Promise<ElevationModelEntry | undefined> {
    const { Item } = await dynamo().send(new GetCommand({ TableName: this.table, Key: keyOf(accountId, id), ConsistentRead: true }));
    return Item ? toEntry(Item) : undefined;
  }

  /** One page of the account's models, oldest first. */
  async list(accountId: string, limit: number, cursor?: string): Promise<{ items: ElevationModelEntry[]; nextCursor: string | undefined }> {
    const pk = pkOf(accountId);
    const page = await dynamo().send(new QueryCommand({
      TableName: this.table,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': pk, ':prefix': PREFIX },
      Limit: limit,
      ExclusiveStartKey: decodeCursor(cursor, { pk }),
    }));
    return { items: (page.Items ?? []).map(toEntry), nextCursor: encodeCursor(page.LastEvaluatedKey) };
  }

  /** The account's ready models, oldest first (one partition query). */
  async listReady(accountId: string): Promise<ElevationModelEntry[]> {
    const items = await queryAll({
      TableName: this.table,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      FilterExpression: '#status = :ready',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: { ':pk': pkOf(accountId), ':prefix': PREFIX, ':ready': 'ready' },
    });
    return items.map(toEntry);
  }

  /** Models of every account still waiting for their upload, created after `since`. */
  async listPending(since: Date): Promise<ElevationModelEntry[]> {
    const items = await queryAll({
      TableName: this.table,
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :p AND gsi1sk > :since',
      ExpressionAttributeValues: { ':p': PENDING, ':since': since.toISOString() },
    });
    return items.map(toEntry);
  }

  /** pending → processing under `owner`'s lease; undefined when another worker (or a repeated notification) got there first. */
  claim(accountId: string, id: string, now: Date, owner: string): Promise<ElevationModelEntry | undefined> {
    return this.records.claim(accountId, id, newLease(owner, now, MODEL_LEASE_MS), now, { processing_started_at: now.toISOString() });
  }

  /** Processing whose lease lapsed, soonest lapsed first. */
  listExpiredLeases(now: Date): Promise<ElevationModelEntry[]> {
    return this.records.listExpiredLeases(now);
  }

  /** A lost worker's model under `owner`'s lease, one attempt more; undefined when another sweep took it or it ended meanwhile. */
  takeOver(lost: ElevationModelEntry, owner: string, now: Date): Promise<ElevationModelEntry | undefined> {
    const lease = newLease(owner, now, MODEL_LEASE_MS, (lost.lease?.attempt ?? 1) + 1);
    return this.records.takeOver(lost.account_id, lost.elevation_model_id, lost.lease, lease, now, { processing_started_at: now.toISOString() });
  }

  /**
   * processing → ready (with what processing found) or failed (with the reason), if `lease` (the one
   * the worker took) still holds: a lost worker's late result does not land over its take-over.
   */
  finish(accountId: string, id: string, outcome: { ready: ProcessedFields } | { error: { code: string; detail: string } }, now: Date, lease: JobLease | null | undefined): Promise<boolean> {
    const fields = 'ready' in outcome ? { ...outcome.ready, status: 'ready', error: null } : { status: 'failed', error: outcome.error };
    return this.records.finish(accountId, id, fields, now, lease ? { seen: lease } : undefined);
  }

  /**
   * Removes the model unless it is being processed — or, with `lostAt`, unless it changed since it
   * was seen processing at that `updated_at` (its worker lost). False when refused or gone.
   */
  async delete(accountId: string, id: string, lostAt?: string): Promise<boolean> {
    try {
      await dynamo().send(new DeleteCommand({
        TableName: this.table,
        Key: keyOf(accountId, id),
        ConditionExpression: lostAt === undefined ? 'attribute_exists(pk) AND #status <> :processing' : 'attribute_exists(pk) AND updated_at = :seen',
        ...(lostAt === undefined
          ? { ExpressionAttributeNames: { '#status': 'status' }, ExpressionAttributeValues: { ':processing': 'processing' } }
          : { ExpressionAttributeValues: { ':seen': lostAt } }),
      }));
      return true;
    } catch (error) {
      if (isConditionalCheckFailed(error)) return false;
      throw error;
    }
  }
}
