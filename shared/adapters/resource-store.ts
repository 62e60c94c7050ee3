import { GetCommand, UpdateCommand } from './dynamo-commands';
import { dynamo } from './aws-clients';
import { isConditionalCheckFailed } from './conditional-write';
import { queryAll } from './query-all';
import { requiredSetting } from '../config';
import type { Resource } from '../schemas/library';
import { urlStatusOf, type CatalogueEntry } from '../domain/library/catalogue';
import type { ResourceStore } from '../domain/library/ports';

/** All resources share one partition of gsi1, sorted by id: the catalogue is one Query. */
const CATALOGUE_PARTITION = 'RESOURCES';
const resourceKey = (id: string) => ({ pk: `RESOURCE#${id}`, sk: 'RESOURCE' });

/** Catalogue fields written by an upsert (everything but the counters and the stored copy). */
const CATALOGUE_FIELDS = ['title', 'category', 'file_type', 'publisher', 'published', 'url', 'summary', 'tags', 'evidence', 'notes'] as const;

/** Parallel upserts: enough to load the catalogue quickly without throttling an on-demand table. */
const UPSERT_CONCURRENCY = 8;

export class DynamoResourceStore implements ResourceStore {
  constructor(private readonly tableName = requiredSetting('TABLE_NAME')) {}

  async listAll(): Promise<Resource[]> {
    const items = await queryAll({
      TableName: this.tableName,
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :p',
      ExpressionAttributeValues: { ':p': CATALOGUE_PARTITION },
    });
    return items.map(toResource);
  }

  async get(id: string): Promise<Resource | undefined> {
    const { Item } = await dynamo().send(new GetCommand({ TableName: this.tableName, Key: resourceKey(id) }));
    return Item ? toResource(Item) : undefined;
  }

  recordView(id: string): Promise<Resource | undefined> {
    return this.increment(id, 'views');
  }

  recordDownload(id: string): Promise<Resource | undefined> {
    return this.increment(id, 'downloads');
  }

  async upsert(entries: readonly CatalogueEntry[]): Promise<void> {
    const queue = [...entries];
    const worker = async () => {
      for (let entry = queue.shift(); entry; entry = queue.shift()) await this.upsertOne(entry);
    };
    await Promise.all(Array.from({ length: Math.min(UPSERT_CONCURRENCY, queue.length) }, worker));
  }

  /** One UpdateItem: the catalogue fields are set, counters start at 0 only if absent. */
  private async upsertOne(entry: CatalogueEntry): Promise<void> {
    const fields: Record<string, unknown> = { gsi1pk: CATALOGUE_PARTITION, gsi1sk: entry.id, type: 'resource', id: entry.id };
    for (const field of CATALOGUE_FIELDS) fields[field] = entry[field];
    const names: Record<string, string> = { '#views': 'views', '#downloads': 'downloads', '#file_path': 'file_path' };
    const values: Record<string, unknown> = { ':zero': 0, ':file_path': entry.file_path };
    const sets = ['#views = if_not_exists(#views, :zero)', '#downloads = if_not_exists(#downloads, :zero)'];
    for (const [name, value] of Object.entries(fields)) {
      names[`#${name}`] = name;
      values[`:${name}`] = value;
      sets.push(`#${name} = :${name}`);
    }
    // A catalogue without a stored copy must not erase one an operator uploaded earlier.
    sets.push(entry.file_path === null ? '#file_path = if_not_exists(#file_path, :file_path)' : '#file_path = :file_path');
    await dynamo().send(new UpdateCommand({
      TableName: this.tableName,
      Key: resourceKey(entry.id),
      UpdateExpression: `SET ${sets.join(', ')}`,
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
    }));
  }

  /** ADD on the item itself, conditional on its existence, so a missing id creates nothing. */
  private async increment(id: string, counter: 'views' | 'downloads'): Promise<Resource | undefined> {
    try {
      const { Attributes } = await dynamo().send(new UpdateCommand({
        TableName: this.tableName,
        Key: resourceKey(id),
        UpdateExpression: 'ADD #counter :one',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeNames: { '#counter': counter },
        ExpressionAttributeValues: { ':one': 1 },
        ReturnValues: 'ALL_NEW',
      }));
      return Attributes ? toResource(Attributes) : undefined;
    } catch (error) {
      if (isConditionalCheckFailed(error)) return undefined;
      throw error;
    }
  }
}

function toResource(item: Record<string, unknown>): Resource {
  return {
    id: item.id as string,
    title: item.title as string,
    file_path: (item.file_path as string | null | undefined) ?? null,
    category: item.category as Resource['category'],
    file_type: item.file_type as Resource['file_type'],
    publisher: item.publisher as string,
    published: (item.published as string | null | undefined) ?? null,
    url: (item.url as string | null | undefined) ?? null,
    url_status: urlStatusOf((item.url as string | null | undefined) ?? null),
    summary: item.summary as string,
    tags: (item.tags as string[] | undefined) ?? [],
    evidence: (item.evidence as string | null | undefined) ?? null,
    notes: (item.notes as string | null | undefined) ?? null,
    views: Number(item.views ?? 0),
    downloads: Number(item.downloads ?? 0),
  };
}
