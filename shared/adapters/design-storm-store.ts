import { GetCommand, PutCommand } from './dynamo-commands';
import { dynamo } from './aws-clients';
import { requiredSetting } from '../config';
import type { DesignStormStore, StoredDesignStorm } from '../domain/hazards/rainfall-ponding';

/** Design storms in their account's partition, one per jurisdiction (sk `DESIGNSTORM#<jurisdiction id>`). */
const keyOf = (accountId: string, jurisdictionId: string) => ({ pk: `ACCOUNT#${accountId}`, sk: `DESIGNSTORM#${jurisdictionId}` });

export class DynamoDesignStormStore implements DesignStormStore {
  constructor(private readonly table = requiredSetting('TABLE_NAME')) {}

  async get(accountId: string, jurisdictionId: string): Promise<StoredDesignStorm | undefined> {
    const { Item } = await dynamo().send(new GetCommand({ TableName: this.table, Key: keyOf(accountId, jurisdictionId), ConsistentRead: true }));
    if (!Item) return undefined;
    const { jurisdiction_id, jurisdiction_name, design_storm, updated_at } = Item as StoredDesignStorm;
    return { jurisdiction_id, jurisdiction_name, design_storm, updated_at };
  }

  async put(accountId: string, stored: StoredDesignStorm): Promise<void> {
    await dynamo().send(new PutCommand({ TableName: this.table, Item: { ...keyOf(accountId, stored.jurisdiction_id), entity: 'design_storm', ...stored } }));
  }
}
