import { DeleteCommand, GetCommand, PutCommand, QueryCommand, UpdateCommand } from './dynamo-commands';
import type { UpdateCommandInput } from '@aws-sdk/lib-dynamodb';
import { dynamo } from './aws-clients';
import { isConditionalCheckFailed } from './conditional-write';
import { decodeCursor, encodeCursor } from './dynamo-cursor';
import { DynamoLeasedJobRecords, leasedIndexKeys } from './job-lease';
import { queryAll } from './query-all';
import { requiredSetting } from '../config';
import type { ConnectionOutcome, ConnectionRecords } from '../application/elevation-models/model-connection';
import type { ModelConnection } from '../domain/elevation-models/connection';
import { MODEL_LEASE_MS } from '../domain/elevation-models/processing-job';
import type { ElevationModelStore } from '../domain/elevation-models/ports';
import type { StoredElevationModel, UploadedElevationModel } from '../domain/elevation-models/stored-model';
import { newLease, type JobLease, type LeaseHolder } from '../domain/job-lease';

export type ProcessedFields = Pick<UploadedElevationModel, 'crs' | 'resolution_m' | 'bbox' | 'vertical_conversion' | 'model_key'>;

/**
 * Elevation models in their account's partition (sk `ELEVMODEL#<id>`). While the upload is awaited
 * the item also sits in the sparse gsi1 partition `ELEVATION_MODELS#pending` (sorted by creation),
 * so the local upload watcher finds it with a Query; claiming it for processing moves it to
 * `ELEVATION_MODELS#leased` (sorted by lease expiry, as the other jobs), where the sweep finds the
 * models whose worker was lost; finishing removes it. A ready model's connection run, while
 * pending, sits in `ELEVATION_MODELS#connecting` the same way (its lease in the `connection` map).
 */
const PENDING = 'ELEVATION_MODELS#pending';
const LEASED = 'ELEVATION_MODELS#leased';
const CONNECTING = 'ELEVATION_MODELS#connecting';
const PREFIX = 'ELEVMODEL#';
const pkOf = (accountId: string) => `ACCOUNT#${accountId}`;
const keyOf = (accountId: string, id: string) => ({ pk: pkOf(accountId), sk: `${PREFIX}${id}` });

/**
 * The stored model in its own shape: items stored before registration by URL have no `source`
 * (uploads), and `cog_url` items stored before the two shapes were told apart still carry the
 * upload fields a COG never uses, which are left out.
 */
function toModel(item: Record<string, unknown>): StoredElevationModel {
  const { pk: _pk, sk: _sk, gsi1pk: _g1, gsi1sk: _g2, entity: _e, ...fields } = item;
  if (fields.source === 'cog_url') {
    const { upload_key: _key, upload_expires_at: _expires, model_key: _model, error: _error, processing_started_at: _started, lease: _lease, ...cog } = fields;
    return cog as unknown as StoredElevationModel;
  }
  const { cog_url: _url, nodata: _nodata, ...upload } = fields;
  return { ...upload, source: 'upload' } as unknown as UploadedElevationModel;
}

/** Only uploads wait for a file and are processed under a lease. */
const toUpload = (item: Record<string, unknown>) => toModel(item) as UploadedElevationModel;

export class DynamoElevationModelStore implements ElevationModelStore, ConnectionRecords {
  private readonly records: DynamoLeasedJobRecords<UploadedElevationModel>;
  /** The connection run's life cycle, in the model's `connection` map: only started and taken over whole, never claimed. */
  private readonly connections: DynamoLeasedJobRecords<UploadedElevationModel>;

  constructor(private readonly table = requiredSetting('TABLE_NAME')) {
    this.records = new DynamoLeasedJobRecords(table, { key: keyOf, leasedPartition: LEASED, waiting: 'pending', running: 'processing', toRecord: toUpload });
    this.connections = new DynamoLeasedJobRecords(table, {
      key: keyOf, leasedPartition: CONNECTING, waiting: 'pending', running: 'pending', nestedIn: 'connection', toRecord: toUpload,
    });
  }

  /** Stores a new model: a pending one where the upload watcher finds it, a ready one (a registered COG) in its account only. */
  async create(entry: StoredElevationModel): Promise<void> {
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

  async get(accountId: string, id: string): Promise<StoredElevationModel | undefined> {
    const { Item } = await dynamo().send(new GetCommand({ TableName: this.table, Key: keyOf(accountId, id), ConsistentRead: true }));
    return Item ? toModel(Item) : undefined;
  }

  /** One page of the account's models, oldest first. */
  async list(accountId: string, limit: number, cursor?: string): Promise<{ items: StoredElevationModel[]; nextCursor: string | undefined }> {
    const pk = pkOf(accountId);
    const page = await dynamo().send(new QueryCommand({
      TableName: this.table,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': pk, ':prefix': PREFIX },
      Limit: limit,
      ExclusiveStartKey: decodeCursor(cursor, { pk }),
    }));
    return { items: (page.Items ?? []).map(toModel), nextCursor: encodeCursor(page.LastEvaluatedKey) };
  }

  /** The account's ready models, oldest first (one partition query). */
  async listReady(accountId: string): Promise<StoredElevationModel[]> {
    const items = await queryAll({
      TableName: this.table,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      FilterExpression: '#status = :ready',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: { ':pk': pkOf(accountId), ':prefix': PREFIX, ':ready': 'ready' },
    });
    return items.map(toModel);
  }

  /** Models of every account still waiting for their upload, created after `since`. */
  async listPending(since: Date): Promise<UploadedElevationModel[]> {
    const items = await queryAll({
      TableName: this.table,
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :p AND gsi1sk > :since',
      ExpressionAttributeValues: { ':p': PENDING, ':since': since.toISOString() },
    });
    return items.map(toUpload);
  }

  /** pending → processing under `owner`'s lease; undefined when another worker (or a repeated notification) got there first. */
  claim(accountId: string, id: string, now: Date, owner: string): Promise<UploadedElevationModel | undefined> {
    return this.records.claim(accountId, id, newLease(owner, now, MODEL_LEASE_MS), now, { processing_started_at: now.toISOString() });
  }

  /** Lets `owner`'s lease on a model being processed lapse now, so the sweep processes it again (the run could not read its upload). */
  release(accountId: string, id: string, owner: string, now: Date): Promise<boolean> {
    return this.records.renew(accountId, id, owner, now.toISOString(), now);
  }

  /** `owner`'s lease moved on to `expiresAt` (a fanned-out run holds it longer); false when it no longer holds it. */
  extendLease(accountId: string, id: string, owner: string, expiresAt: string, now: Date): Promise<boolean> {
    return this.records.renew(accountId, id, owner, expiresAt, now);
  }

  /** Processing whose lease lapsed, soonest lapsed first. */
  listExpiredLeases(now: Date): Promise<UploadedElevationModel[]> {
    return this.records.listExpiredLeases(now);
  }

  /** A lost worker's model under `owner`'s lease, one attempt more; undefined when another sweep took it or it ended meanwhile. */
  takeOver(lost: UploadedElevationModel, owner: string, now: Date): Promise<UploadedElevationModel | undefined> {
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

  /** A new connection run on a ready model, replacing any earlier one, listed by its lease's expiry. */
  startConnection(accountId: string, id: string, connection: ModelConnection): Promise<boolean> {
    const index = leasedIndexKeys(CONNECTING, connection.lease!.expires_at, accountId, id);
    return this.conditionalUpdate({
      Key: keyOf(accountId, id),
      UpdateExpression: 'SET #connection = :connection, gsi1pk = :gsi1pk, gsi1sk = :gsi1sk',
      ConditionExpression: '#status = :ready',
      ExpressionAttributeNames: { '#connection': 'connection', '#status': 'status' },
      ExpressionAttributeValues: { ':connection': connection, ':ready': 'ready', ':gsi1pk': index.gsi1pk, ':gsi1sk': index.gsi1sk },
    });
  }

  /** A lost run replaced by `connection` if its lapsed lease is still the one `seen` (conditional, so of two retries one wins). */
  async restartConnection(accountId: string, id: string, seen: JobLease, connection: ModelConnection): Promise<boolean> {
    const { lease, status: _status, ...fields } = connection;
    return (await this.connections.takeOver(accountId, id, seen, lease!, new Date(connection.started_at), fields)) !== undefined;
  }

  renewConnection(accountId: string, id: string, runId: string, expiresAt: string, now: Date): Promise<boolean> {
    return this.connections.renew(accountId, id, runId, expiresAt, now);
  }

  /** The outcome of the pending run `holder` holds; the model leaves the connecting index. */
  endConnection(accountId: string, id: string, holder: LeaseHolder, outcome: ConnectionOutcome): Promise<boolean> {
    return this.connections.finish(accountId, id, outcome, new Date(outcome.finished_at!), holder);
  }

  /** Ready models whose pending connection run's lease lapsed before `now`, soonest lapsed first. */
  listLapsedConnections(now: Date): Promise<UploadedElevationModel[]> {
    return this.connections.listExpiredLeases(now);
  }

  private async conditionalUpdate(update: Omit<UpdateCommandInput, 'TableName'>): Promise<boolean> {
    try {
      await dynamo().send(new UpdateCommand({ TableName: this.table, ...update }));
      return true;
    } catch (error) {
      if (isConditionalCheckFailed(error)) return false;
      throw error;
    }
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
