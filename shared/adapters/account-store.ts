import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { dynamo } from './aws-clients';
import { queryAll } from './query-all';
import { requiredSetting } from '../config';
import type { Account, AccountContext, AccountStore } from '../ports';
import type { Tier } from '../routes/types';

const accountKey = (accountId: string) => ({ pk: `ACCOUNT#${accountId}`, sk: 'PROFILE' });
const apiKeyKey = (keyHash: string) => ({ pk: `APIKEY#${keyHash}`, sk: 'APIKEY' });

export class DynamoAccountStore implements AccountStore {
  constructor(private readonly tableName = requiredSetting('TABLE_NAME')) {}

  async findByKeyHash(keyHash: string): Promise<AccountContext | undefined> {
    const { Item } = await dynamo().send(new GetCommand({ TableName: this.tableName, Key: apiKeyKey(keyHash) }));
    if (!Item || Item.status !== 'active') return undefined;
    return { accountId: Item.account_id as string, tier: Item.tier as Tier, keyHash };
  }

  async createAccount(account: Account, keyHash: string): Promise<void> {
    await dynamo().send(new PutCommand({
      TableName: this.tableName,
      Item: { ...accountKey(account.account_id), gsi1pk: 'ACCOUNTS', gsi1sk: account.account_id, type: 'account', ...account },
      ConditionExpression: 'attribute_not_exists(pk)',
    }));
    await dynamo().send(new PutCommand({
      TableName: this.tableName,
      Item: { ...apiKeyKey(keyHash), type: 'api_key', account_id: account.account_id, tier: account.tier, status: 'active', created_at: account.created_at },
      ConditionExpression: 'attribute_not_exists(pk)',
    }));
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
      if (error instanceof ConditionalCheckFailedException) return false;
      throw error;
    }
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
  };
}
