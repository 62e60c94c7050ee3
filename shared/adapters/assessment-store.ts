import { randomBytes } from 'node:crypto';
import { GetCommand, PutCommand, QueryCommand, UpdateCommand } from './dynamo-commands';
import { dynamo } from './aws-clients';
import { isConditionalCheckFailed } from './conditional-write';
import { clearOutbox, outboxAttributes } from './outbox';
import { requiredSetting } from '../config';
import { canonicalJson, sha256Hex } from '../domain/content-hash';
import type { Assessment } from '../domain/assessments/model';
import type { AssessmentFilter, AssessmentPage, AssessmentStore } from '../domain/assessments/ports';
import type { QueuedEvent } from '../ports';
import { decodeListCursor, encodeListCursor } from '../domain/list-cursor';
import { storableUserKeys } from './user-keyed-map';

/**
 * Assessments live in their account's partition (`ACCOUNT#<id>`, sk `ASSESSMENT#<assessment id>`),
 * the whole record in one `assessment` map. Ids start with their creation time in sortable
 * base32, so one Query serves the list newest first and `date_range` becomes a key condition;
 * status and jurisdiction are filters of the same Query.
 */
const SK_PREFIX = 'ASSESSMENT#';
const ID_PREFIX = 'va_';
const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

const accountPartition = (accountId: string) => `ACCOUNT#${accountId}`;
const keyOf = (accountId: string, assessmentId: string) => ({ pk: accountPartition(accountId), sk: `${SK_PREFIX}${assessmentId}` });

/** 10 base32 characters of epoch milliseconds: lexical order = time order. */
function timePrefix(ms: number): string {
  let value = ms;
  let out = '';
  for (let i = 0; i < 10; i++) {
    out = CROCKFORD[value % 32] + out;
    value = Math.floor(value / 32);
  }
  return out;
}

/** `va_` + creation time + 16 random base32 characters (80 bits). */
export function newAssessmentId(createdAt: Date): string {
  const random = [...randomBytes(16)].map((byte) => CROCKFORD[byte % 32]).join('');
  return `${ID_PREFIX}${timePrefix(createdAt.getTime())}${random}`;
}

interface CursorContent {
  sk: string;
  f: string;
}

export class DynamoAssessmentStore implements AssessmentStore {
  constructor(private readonly tableName = requiredSetting('TABLE_NAME')) {}

  async create(assessment: Assessment): Promise<void> {
    await dynamo().send(new PutCommand({
      TableName: this.tableName,
      Item: { ...keyOf(assessment.account_id, assessment.assessment_id), entity: 'assessment', assessment: storableUserKeys(assessment) },
      ConditionExpression: 'attribute_not_exists(pk)',
    }));
  }

  async get(accountId: string, assessmentId: string): Promise<Assessment | undefined> {
    const { Item } = await dynamo().send(new GetCommand({ TableName: this.tableName, Key: keyOf(accountId, assessmentId), ConsistentRead: true }));
    return Item?.entity === 'assessment' ? Item.assessment as Assessment : undefined;
  }

  async update(next: Assessment, expectedVersion: number, event?: QueuedEvent): Promise<boolean> {
    const pending = event ? outboxAttributes(event) : undefined;
    try {
      await dynamo().send(new UpdateCommand({
        TableName: this.tableName,
        Key: keyOf(next.account_id, next.assessment_id),
        UpdateExpression: pending ? 'SET #a = :a, outbox = :outbox, gsi2pk = :gsi2pk, gsi2sk = :gsi2sk' : 'SET #a = :a',
        ConditionExpression: '#a.#v = :expected',
        ExpressionAttributeNames: { '#a': 'assessment', '#v': 'version' },
        ExpressionAttributeValues: {
          ':a': storableUserKeys(next),
          ':expected': expectedVersion,
          ...(pending ? { ':outbox': pending.outbox, ':gsi2pk': pending.gsi2pk, ':gsi2sk': pending.gsi2sk } : {}),
        },
      }));
      return true;
    } catch (error) {
      if (isConditionalCheckFailed(error)) return false;
      throw error;
    }
  }

  clearEvent(accountId: string, assessmentId: string, eventId: string): Promise<void> {
    return clearOutbox(this.tableName, keyOf(accountId, assessmentId), eventId);
  }

  async list(accountId: string, filter: AssessmentFilter, limit: number, cursor?: string): Promise<AssessmentPage> {
    const fingerprint = sha256Hex(canonicalJson({ accountId, filter })).slice(0, 16);
    const { lower, upper } = skBounds(filter);
    let startKey: Record<string, unknown> | undefined = cursor ? { pk: accountPartition(accountId), sk: decodeCursor(cursor, fingerprint, lower, upper) } : undefined;
    const conditions: string[] = [];
    const names: Record<string, string> = {};
    const values: Record<string, unknown> = { ':pk': accountPartition(accountId), ':lower': lower, ':upper': upper };
    if (filter.status) {
      conditions.push('#a.#status = :status');
      Object.assign(names, { '#a': 'assessment', '#status': 'status' });
      values[':status'] = filter.status;
    }
    if (filter.jurisdictionId) {
      conditions.push('#a.#j.#id = :jurisdiction');
      Object.assign(names, { '#a': 'assessment', '#j': 'jurisdiction', '#id': 'id' });
      values[':jurisdiction'] = filter.jurisdictionId;
    }

    // One item beyond the page tells whether a next page exists.
    const items: Assessment[] = [];
    do {
      const page = await dynamo().send(new QueryCommand({
        TableName: this.tableName,
        KeyConditionExpression: 'pk = :pk AND sk BETWEEN :lower AND :upper',
        FilterExpression: conditions.length > 0 ? conditions.join(' AND ') : undefined,
        ExpressionAttributeNames: Object.keys(names).length > 0 ? names : undefined,
        ExpressionAttributeValues: values,
        ScanIndexForward: false,
        Limit: limit + 1,
        ExclusiveStartKey: startKey,
      }));
      items.push(...(page.Items ?? []).map((item) => item.assessment as Assessment));
      startKey = page.LastEvaluatedKey;
    } while (startKey && items.length <= limit);

    const pageItems = items.slice(0, limit);
    const last = pageItems[pageItems.length - 1];
    return {
      items: pageItems,
      nextCursor: items.length > limit && last ? encodeCursor({ sk: keyOf(accountId, last.assessment_id).sk, f: fingerprint }) : null,
    };
  }
}

/** Sort key range of the created-date filter (the whole account when there is none). */
function skBounds(filter: AssessmentFilter): { lower: string; upper: string } {
  const from = filter.createdFrom ? Date.parse(`${filter.createdFrom}T00:00:00.000Z`) : 0;
  const to = filter.createdTo ? Date.parse(`${filter.createdTo}T23:59:59.999Z`) : 32 ** 10 - 1;
  return { lower: `${SK_PREFIX}${ID_PREFIX}${timePrefix(from)}`, upper: `${SK_PREFIX}${ID_PREFIX}${timePrefix(to)}~` };
}

function encodeCursor(content: CursorContent): string {
  return encodeListCursor({ ...content });
}

/** A cursor is accepted only for the filters it was issued with, and only inside their key range. */
function decodeCursor(cursor: string, fingerprint: string, lower: string, upper: string): string {
  return decodeListCursor(cursor, ({ sk, f }) =>
    (typeof sk === 'string' && f === fingerprint && sk >= lower && sk <= upper && /^ASSESSMENT#va_[0-9A-Z]{26}$/.test(sk) ? sk : undefined));
}
