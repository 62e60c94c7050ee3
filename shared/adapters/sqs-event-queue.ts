import { SendMessageCommand } from './sqs-commands';
import { sqs } from './aws-clients';
import { requiredSetting } from '../config';
import type { EventQueue, QueuedEvent } from '../ports';

export class SqsEventQueue implements EventQueue {
  constructor(private readonly queueUrl = requiredSetting('EVENT_QUEUE_URL')) {}

  async send(event: QueuedEvent, delaySeconds = 0): Promise<void> {
    await sqs().send(new SendMessageCommand({
      QueueUrl: this.queueUrl,
      MessageBody: JSON.stringify(event),
      DelaySeconds: Math.min(900, Math.max(0, Math.round(delaySeconds))),
      MessageAttributes: { event_type: { DataType: 'String', StringValue: event.type } },
    }));
  }
}
