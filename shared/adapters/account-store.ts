import { randomUUID } from 'node:crypto';
import { GetCommand, PutCommand, QueryCommand, UpdateCommand } from './dynamo-commands';
import { isConditionalCheckFailed } from './conditional-write';
import { dynamo } from './aws-clients';
import { queryAll } from './query-all';
import { requiredSetting } from '../config';
import type { Account, AccountContext, AccountStore } from '../ports';
import type { Tier } from '../domain/tiers';
import type { AccountKey, AccountKeyStore } from '../domain/identity/ports';

const accountKey = (accountId: string) => ({ pk: `ACCOUNT#${accountId}`, sk: 'PROFILE' });
const apiKeyKey = (keyHash: string) => ({ pk: `APIKEY#${keyHash}`, sk: 'APIKEY' });
/** Keys are listed per account through gsi2, by key id. */
const accountKeysPartition = (accountId: string) => `ACCOUNTKEYS#${accountId}`;

/** `key_` + a time-ordered id, so an account's keys list oldest first. */
export function newKeyId(now: Date): string {
  return `key_${now.getTime().toString(36).padStart(9, '0')}${randomUUID().replace(/-/g, '').slice(0, 12)}`;
}

export class DynamoAccountStore implements AccountStore, AccountKeyStore {
  constructor(private readonly tableName = requiredSetting('TABLE_NAME')) {}

  async findByKeyHash(keyHash: string): Promise<AccountContext | undefined> {
    const { Item } = await dynamo().send(new GetCommand({ TableName: this.tableName, Key: apiKeyKey(keyHash) }));
    if (!Item || Item.status !== 'active') return undefined;
    return { accountId: Item.account_id as string, tier: Item.tier as Tier, keyHash, ...(Item.usage_key ? { usageKey: Item.usage_key as string } : {}) };
  }

  async createAccount(account: Account, keyHash: string): Promise<void> {
    await this.openAccount(account);
    await this.addKey(account.account_id, keyHash, {
      key_id: newKeyId(new Date(account.created_at)),
      name: 'Issued by an operator',
      // Only the hash reaches this store, so only the common prefix is known.
      prefix: 'vac_',
      created_at: account.created_at,
    }, account);
  }

  /** An account with no key yet (a registered user's own account). */
  async openAccount(account: Account): Promise<void> {
    await dynamo().send(new PutCommand({
      TableName: this.tableName,
      Item: { ...accountKey(account.account_id), gsi1pk: 'ACCOUNTS', gsi1sk: account.account_id, type: 'account', ...account },
      ConditionExpression: 'attribute_not_exists(pk)',
    }));
  }

  async addKey(accountId: string, keyHash: string, key: Omit<AccountKey, 'last_used_at'>, known?: Pick<Account, 'tier' | 'usage_key'>): Promise<void> {
    const account = known ?? await this.getAccount(accountId);
    if (!account) throw new Error(`No account ${accountId}`);
    await dynamo().send(new PutCommand({
      TableName: this.tableName,
      Item: {
        ...apiKeyKey(keyHash), gsi2pk: accountKeysPartition(accountId), gsi2sk: key.key_id, type: 'api_key',
        // The authorizer reads the key alone: it carries the account's tier and usage identifier.
        account_id: accountId, tier: account.tier, ...(account.usage_key ? { usage_key: account.usage_key } : {}), status: 'active', ...key,
      },
      ConditionExpression: 'attribute_not_exists(pk)',
    }));
  }

  async recordKeyUse(keyHash: string, at: Date): Promise<void> {
    try {
      await dynamo().send(new UpdateCommand({
        TableName: this.tableName,
        Key: apiKeyKey(keyHash),
        UpdateExpression: 'SET last_used_at = :at',
        // One write a minute per key at most: the list shows use to the minute.
        ConditionExpression: 'attribute_exists(pk) AND (attribute_not_exists(last_used_at) OR last_used_at < :minuteAgo)',
        ExpressionAttributeValues: { ':at': at.toISOString(), ':minuteAgo': new Date(at.getTime() - 60_000).toISOString() },
      }));
    } catch (error) {
      if (!isConditionalCheckFailed(error)) throw error;
    }
  }

  async listKeys(accountId: string): Promise<AccountKey[]> {
    const items = await this.accountKeyItems(accountId);
    return items.filter((item) => item.status === 'active').map((item) => ({
      key_id: item.key_id as string,
      name: item.name as string,
      prefix: item.prefix as string,
      created_at: item.created_at as string,
      last_used_at: (item.last_used_at as string | undefined) ?? null,
    }));
  }

  async revokeAccountKey(accountId: string, keyId: string, at: Date): Promise<boolean> {
    const { Items = [] } = await dynamo().send(new QueryCommand({
      TableName: this.tableName,
      IndexName: 'gsi2',
      KeyConditionExpression: 'gsi2pk = :p AND gsi2sk = :k',
      ExpressionAttributeValues: { ':p': accountKeysPartition(accountId), ':k': keyId },
    }));
    const item = Items[0];
    if (!item || item.status !== 'active') return false;
    return this.revokeKey(String(item.pk).slice('APIKEY#'.length), at);
  }

  /**
   * The account's usage key: the one it has, else `candidate`, stored now (an account opened before
   * accounts had one). Undefined when there is no such account.
   */
  async assignUsageKey(accountId: string, candidate: string): Promise<string | undefined> {
    try {
      const { Attributes } = await dynamo().send(new UpdateCommand({
        TableName: this.tableName,
        Key: accountKey(accountId),
        UpdateExpression: 'SET usage_key = if_not_exists(usage_key, :candidate)',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: { ':candidate': candidate },
        ReturnValues: 'ALL_NEW',
      }));
      return Attributes?.usage_key as string;
    } catch (error) {
      if (isConditionalCheckFailed(error)) return undefined;
      throw error;
    }
  }

  /** The account's tier, and the copy each of its keys carries for the authorizer. */
  async setTier(accountId: string, tier: Tier): Promise<boolean> {
    try {
      await dynamo().send(new UpdateCommand({
        TableName: this.tableName,
        Key: accountKey(accountId),
        UpdateExpression: 'SET tier = :tier',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: { ':tier': tier },
      }));
    } catch (error) {
      if (isConditionalCheckFailed(error)) return false;
      throw error;
    }
    for (const item of await this.accountKeyItems(accountId)) {
      await dynamo().send(new UpdateCommand({
        TableName: this.tableName,
        Key: { pk: item.pk, sk: item.sk },
        UpdateExpression: 'SET tier = :tier',
        ExpressionAttributeValues: { ':tier': tier },
      }));
    }
    return true;
  }

  private async accountKeyItems(accountId: string): Promise<Record<string, unknown>[]> {
    return queryAll({
      TableName: this.tableName,
      IndexName: 'gsi2',
      KeyConditionExpression: 'gsi2pk = :p',
      ExpressionAttributeValues: { ':p': accountKeysPartition(accountId) },
    });
  }

  async getAccount(accountId: string): Promise<Account | undefined> {
    const { Item } = await dynamo().send(new GetCommand({ TableName: this.tableName, Key: accountKey(accountId) }));
    return Item ? toAccount(Item) : undefined;
  }

  async revokeKey(keyHash: string, at: Date): Promise<boolean> {
    try {
      await dynamo().send(new UpdateCommand({
        TableName: this.tableName,
        Key: apiKeyKey(keyHash),
        UpdateExpression: 'SET #status = :revoked, revoked_at = :at',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':revoked': 'revoked', ':at': at.toISOString() },
      }));
      return true;
    } catch (error) {
      if (isConditionalCheckFailed(error)) return false;
      throw error;
    }
  }

  /** Every account's id, `pageSize` per page, from the accounts' index partition (ids only). */
  async *accountIdPages(pageSize: number): AsyncIterable<string[]> {
    let start: Record<string, unknown> | undefined;
    do {
      const page = await dynamo().send(new QueryCommand({
        TableName: this.tableName,
        IndexName: 'gsi1',
        KeyConditionExpression: 'gsi1pk = :p',
        ExpressionAttributeValues: { ':p': 'ACCOUNTS' },
        ProjectionExpression: 'account_id',
        Limit: pageSize,
        ExclusiveStartKey: start,
      }));
      yield (page.Items ?? []).map((item) => item.account_id as string);
      start = page.LastEvaluatedKey;
    } while (start);
  }

  async listAccounts(): Promise<Account[]> {
    const items = await queryAll({
      TableName: this.tableName,
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :p',
      ExpressionAttributeValues: { ':p': 'ACCOUNTS' },
    });
    return items.map(toAccount);
  }
}

function toAccount(item: Record<string, unknown>): Account {
  return {
    account_id: item.account_id as string,
    name: item.name as string,
    tier: item.tier as Tier,
    created_at: item.created_at as string,
    ...(item.usage_key ? { usage_key: item.usage_key as string } : {}),
  };
}
