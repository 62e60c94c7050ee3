import { PutCommand, QueryCommand } from './dynamo-commands';
import { dynamo } from './aws-clients';
import { requiredSetting } from '../config';
import { decodeCursor, encodeCursor } from './dynamo-cursor';
import { SECURITY_EVENT_RETENTION_DAYS, type SecurityEvent } from '../domain/identity/security-events';
import type { SecurityEventStore } from '../domain/identity/ports';
import { logger } from '../observability/logger';

const eventPartition = (userId: string) => `USER#${userId}`;

/**
 * Security events under their user's partition, newest first, expiring after a year (readers skip
 * expired items: TTL deletion is lazy). Each is also logged as one structured, CloudTrail-style
 * line (`eventName`, `eventTime`, `userIdentity`, `sourceIPAddress`, `userAgent`).
 */
export class DynamoSecurityEventStore implements SecurityEventStore {
  constructor(private readonly tableName = requiredSetting('TABLE_NAME')) {}

  async append(event: SecurityEvent): Promise<void> {
    const expiresAt = Math.floor(Date.parse(event.occurred_at) / 1000) + SECURITY_EVENT_RETENTION_DAYS * 86400;
    await dynamo().send(new PutCommand({
      TableName: this.tableName,
      Item: {
        pk: eventPartition(event.user_id),
        sk: `EVENT#${event.occurred_at}#${event.event_id}`,
        type: 'security_event',
        event_id: event.event_id,
        event_type: event.type,
        occurred_at: event.occurred_at,
        user_id: event.user_id,
        client_ip: event.client_ip,
        user_agent: event.user_agent,
        details: event.details,
        expires_at: expiresAt,
      },
    }));
    logger.info('security event', {
      eventSource: 'identity.va-compliance-api',
      eventName: event.type,
      eventTime: event.occurred_at,
      eventID: event.event_id,
      userIdentity: { type: 'CognitoUser', principalId: event.user_id },
      sourceIPAddress: event.client_ip,
      userAgent: event.user_agent,
      additionalEventData: event.details,
    });
  }

  async list(userId: string, limit: number, cursor: string | undefined): Promise<{ data: SecurityEvent[]; next_cursor: string | null }> {
    const page = await dynamo().send(new QueryCommand({
      TableName: this.tableName,
      KeyConditionExpression: 'pk = :p AND begins_with(sk, :e)',
      FilterExpression: 'expires_at > :now',
      ExpressionAttributeValues: { ':p': eventPartition(userId), ':e': 'EVENT#', ':now': Math.floor(Date.now() / 1000) },
      ScanIndexForward: false,
      Limit: limit,
      ExclusiveStartKey: decodeCursor(cursor, { pk: eventPartition(userId) }),
    }));
    return {
      data: (page.Items ?? []).map((item) => ({
        event_id: item.event_id as string,
        type: item.event_type as SecurityEvent['type'],
        occurred_at: item.occurred_at as string,
        user_id: item.user_id as string,
        client_ip: item.client_ip as string,
        user_agent: (item.user_agent as string | null | undefined) ?? null,
        details: (item.details as SecurityEvent['details'] | undefined) ?? {},
      })),
      next_cursor: encodeCursor(page.LastEvaluatedKey) ?? null,
    };
  }
}
