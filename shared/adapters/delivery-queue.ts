import { SendMessageCommand } from './sqs-commands';
import { sqs } from './aws-clients';
import { requiredSetting } from '../config';
import type { DeliveryMessage } from '../domain/webhooks/delivery';
import type { DeliveryQueue } from '../domain/webhooks/ports';

/** Delivery attempts travel on the events queue; given-up deliveries go to its dead-letter queue. */
export class SqsDeliveryQueue implements DeliveryQueue {
  constructor(
    private readonly queueUrl = requiredSetting('EVENT_QUEUE_URL'),
    // Read on first use: the API only schedules, the dispatcher also dead-letters.
    private readonly deadLetterQueueUrl?: string,
  ) {}

  async schedule(message: DeliveryMessage, delaySeconds: number): Promise<void> {
    await sqs().send(new SendMessageCommand({
      QueueUrl: this.queueUrl,
      MessageBody: JSON.stringify(message),
      DelaySeconds: delaySeconds,
      MessageAttributes: { event_type: { DataType: 'String', StringValue: message.event.type } },
    }));
  }

  async deadLetter(message: DeliveryMessage, lastError: string): Promise<void> {
    await sqs().send(new SendMessageCommand({
      QueueUrl: this.deadLetterQueueUrl ?? requiredSetting('EVENT_DLQ_URL'),
      MessageBody: JSON.stringify({ ...message, last_error: lastError }),
      MessageAttributes: { event_type: { DataType: 'String', StringValue: message.event.type } },
    }));
  }
}
