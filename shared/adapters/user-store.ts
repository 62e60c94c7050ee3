import { GetCommand, PutCommand, QueryCommand, UpdateCommand } from './dynamo-commands';
import { isConditionalCheckFailed } from './conditional-write';
import { dynamo } from './aws-clients';
import { userKeyedMap } from './user-keyed-map';
import { requiredSetting } from '../config';
import type { SessionRevocationStore, UserStore } from '../domain/identity/ports';
import type { UserRecord } from '../domain/identity/profile';
import type { AccountStore } from '../ports';
import type { BearerUser, SessionRevocations, UserDirectory } from '../domain/identity/signed-in-user';

const userKey = (userId: string) => ({ pk: `USER#${userId}`, sk: 'PROFILE' });
const revokedSessionKey = (userId: string, sessionId: string) => ({ pk: `USER#${userId}`, sk: `REVOKED#${sessionId}` });
const emailIndexKey = (email: string) => `USEREMAIL#${email.toLowerCase()}`;

/** Users of /v1 in the application table: `USER#<sub>`, found by email through gsi1. No password is ever stored. */
export class DynamoUserStore implements UserStore {
  constructor(private readonly tableName = requiredSetting('TABLE_NAME')) {}

  async get(userId: string): Promise<UserRecord | undefined> {
    const { Item } = await dynamo().send(new GetCommand({ TableName: this.tableName, Key: userKey(userId) }));
    return Item ? toUser(Item) : undefined;
  }

  async findByEmail(email: string): Promise<UserRecord | undefined> {
    const { Items = [] } = await dynamo().send(new QueryCommand({
      TableName: this.tableName,
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :p',
      ExpressionAttributeValues: { ':p': emailIndexKey(email) },
      Limit: 1,
    }));
    return Items[0] ? this.get(String(Items[0].user_id)) : undefined;
  }

  async create(user: UserRecord): Promise<void> {
    await dynamo().send(new PutCommand({
      TableName: this.tableName,
      Item: userItem(user),
      ConditionExpression: 'attribute_not_exists(pk)',
    }));
  }

  async replace(user: UserRecord, expectedVersion: number): Promise<boolean> {
    try {
      await dynamo().send(new PutCommand({
        TableName: this.tableName,
        Item: userItem(user),
        ConditionExpression: 'version = :expected',
        ExpressionAttributeValues: { ':expected': expectedVersion },
      }));
      return true;
    } catch (error) {
      if (isConditionalCheckFailed(error)) return false;
      throw error;
    }
  }

  async markActive(userId: string, at: Date): Promise<void> {
    await this.update(userId, 'SET #status = :active, updated_at = :at, version = version + :one', { ':active': 'active', ':at': at.toISOString(), ':one': 1 }, { '#status': 'status' });
  }

  async linkAccount(userId: string, accountId: string, at: Date): Promise<void> {
    await this.update(userId, 'SET account_id = :account, updated_at = :at, version = version + :one', { ':account': accountId, ':at': at.toISOString(), ':one': 1 });
  }

  private async update(userId: string, expression: string, values: Record<string, unknown>, names?: Record<string, string>): Promise<void> {
    await dynamo().send(new UpdateCommand({
      TableName: this.tableName,
      Key: userKey(userId),
      UpdateExpression: expression,
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeValues: values,
      ...(names ? { ExpressionAttributeNames: names } : {}),
    }));
  }
}

function userItem(user: UserRecord): Record<string, unknown> {
  return { ...userKey(user.user_id), gsi1pk: emailIndexKey(user.email), gsi1sk: 'USER', type: 'user', ...user, preferences: userKeyedMap(user.preferences) };
}

function toUser(item: Record<string, unknown>): UserRecord {
  return {
    user_id: item.user_id as string,
    email: item.email as string,
    name: item.name as string,
    role: item.role as UserRecord['role'],
    organization: (item.organization as string | null | undefined) ?? null,
    county_fips: (item.county_fips as string | null | undefined) ?? null,
    preferences: (item.preferences as UserRecord['preferences'] | undefined) ?? {},
    account_id: item.account_id as string,
    status: item.status as UserRecord['status'],
    created_at: item.created_at as string,
    updated_at: item.updated_at as string,
    version: Number(item.version),
  };
}

/**
 * Signed-out sessions beside their user (`USER#<sub>`, `REVOKED#<session>`), kept until the
 * session's last access token expires: the bearer authorizer, which may read only `USER#` and
 * `ACCOUNT#` items, refuses their tokens.
 */
/** In-process readers of revocations that remember answers (the bearer step's): told at once of a sign-out written here. */
const revocationListeners = new Set<(userId: string, sessionId: string) => void>();

/** Calls `listener` after each session this process revokes; the returned function stops it. */
export function onSessionRevoked(listener: (userId: string, sessionId: string) => void): () => void {
  revocationListeners.add(listener);
  return () => revocationListeners.delete(listener);
}

export class DynamoSessionRevocationStore implements SessionRevocationStore {
  constructor(private readonly tableName = requiredSetting('TABLE_NAME')) {}

  async revoke(userId: string, sessionId: string, until: Date): Promise<void> {
    await dynamo().send(new PutCommand({
      TableName: this.tableName,
      Item: { ...revokedSessionKey(userId, sessionId), type: 'revoked_session', expires_at: Math.ceil(until.getTime() / 1000) },
    }));
    revocationListeners.forEach((listener) => listener(userId, sessionId));
  }

  /** The table's TTL deletes late, so an expired record is read as absent (its tokens have expired anyway). */
  readonly isRevoked: SessionRevocations = async (userId, sessionId) => {
    const { Item } = await dynamo().send(new GetCommand({ TableName: this.tableName, Key: revokedSessionKey(userId, sessionId) }));
    return Item !== undefined && Number(Item.expires_at) * 1000 > Date.now();
  };
}

/** Who a verified token's `sub` is: the user record and the tier of their account. */
export function userDirectory(users: () => UserStore, accounts: () => AccountStore): UserDirectory {
  return async (userId): Promise<BearerUser | undefined> => {
    const user = await users().get(userId);
    if (!user || user.status !== 'active') return undefined;
    const account = await accounts().getAccount(user.account_id);
    if (!account) return undefined;
    return {
      user_id: user.user_id, email: user.email, name: user.name, role: user.role, account_id: user.account_id, tier: account.tier,
      ...(account.usage_key ? { usage_key: account.usage_key } : {}),
    };
  };
}
