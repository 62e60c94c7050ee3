import { BatchWriteCommand } from './dynamo-commands';
import { dynamo } from './aws-clients';
import { queryAll } from './query-all';
import { requiredSetting } from '../config';
import type { FloodEvent, FloodEventStore } from '../domain/hazards/flood-events';

const BATCH_SIZE = 25;
const partition = (fips: string) => `FLOODEVENTS#${fips}`;

/**
 * One partition per county, items sorted by date then event id: a location query reads only the
 * counties within its radius and the dates in range (Query, never Scan).
 */
export class DynamoFloodEventStore implements FloodEventStore {
  constructor(private readonly tableName = requiredSetting('TABLE_NAME')) {}

  async eventsInCounties(countyFips: readonly string[], from?: string, to?: string): Promise<FloodEvent[]> {
    const pages = await Promise.all(countyFips.map((fips) => this.queryCounty(fips, from, to)));
    return pages.flat();
  }

  private async queryCounty(fips: string, from?: string, to?: string): Promise<FloodEvent[]> {
    const items = await queryAll({
      TableName: this.tableName,
      KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
      ExpressionAttributeValues: { ':pk': partition(fips), ':from': from ?? '0000', ':to': `${to ?? '9999-12-31'}~` },
      ProjectionExpression: 'event',
    });
    return items.map((item) => item.event as FloodEvent);
  }

  async putEvents(events: readonly FloodEvent[]): Promise<number> {
    const located = events.filter((e) => e.location.county_fips);
    for (let i = 0; i < located.length; i += BATCH_SIZE) {
      let requests: Record<string, unknown>[] = located.slice(i, i + BATCH_SIZE).map((event) => ({
        PutRequest: { Item: { pk: partition(event.location.county_fips!), sk: `${event.date}#${event.event_id}`, type: 'flood_event', event } },
      }));
      for (let attempt = 0; requests.length > 0; attempt++) {
        if (attempt === 8) throw new Error('DynamoDB kept returning unprocessed items');
        if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, 50 * 2 ** attempt));
        const result = await dynamo().send(new BatchWriteCommand({ RequestItems: { [this.tableName]: requests } }));
        requests = (result.UnprocessedItems?.[this.tableName] ?? []) as Record<string, unknown>[];
      }
    }
    return located.length;
  }
}
