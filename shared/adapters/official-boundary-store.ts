import { DeleteCommand, GetCommand, PutCommand } from './dynamo-commands';
import { dynamo } from './aws-clients';
import { requiredSetting } from '../config';
import type { OfficialBoundary, OfficialBoundaryStore } from '../domain/jurisdiction-boundaries';

/**
 * An account's official boundaries live in its partition: pk `ACCOUNT#{account}`, sk
 * `BOUNDARY#{jurisdiction id}`; the geometry is kept as JSON text (one item, under 400 KB by the
 * vertex budget).
 */
const keyOf = (accountId: string, jurisdictionId: string) => ({ pk: `ACCOUNT#${accountId}`, sk: `BOUNDARY#${jurisdictionId}` });

export class DynamoOfficialBoundaryStore implements OfficialBoundaryStore {
  constructor(private readonly tableName = requiredSetting('TABLE_NAME')) {}

  async get(accountId: string, jurisdictionId: string): Promise<OfficialBoundary | undefined> {
    const { Item } = await dynamo().send(new GetCommand({ TableName: this.tableName, Key: keyOf(accountId, jurisdictionId) }));
    if (!Item) return undefined;
    return { jurisdiction_id: Item.jurisdiction_id, geometry: JSON.parse(Item.geometry as string), source_note: Item.source_note ?? null, updated_at: Item.updated_at };
  }

  async put(accountId: string, boundary: OfficialBoundary): Promise<void> {
    await dynamo().send(new PutCommand({
      TableName: this.tableName,
      Item: { ...keyOf(accountId, boundary.jurisdiction_id), type: 'official_boundary', ...boundary, geometry: JSON.stringify(boundary.geometry) },
    }));
  }

  async delete(accountId: string, jurisdictionId: string): Promise<boolean> {
    const { Attributes } = await dynamo().send(new DeleteCommand({ TableName: this.tableName, Key: keyOf(accountId, jurisdictionId), ReturnValues: 'ALL_OLD' }));
    return Attributes !== undefined;
  }
}
