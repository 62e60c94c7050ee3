import { DeleteMessageCommand, ReceiveMessageCommand } from '@aws-sdk/client-sqs';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { Context, DynamoDBStreamEvent } from 'aws-lambda';
import { dynamo, sqs } from '../../shared/adapters/aws-clients';
import { DynamoAssessmentStore, newAssessmentId } from '../../shared/adapters/assessment-store';
import { S3BlobStore } from '../../shared/adapters/s3-blob-store';
import { AssessmentService } from '../../shared/application/assessments/assessment-service';
import type { EventQueue } from '../../shared/ports';
import type { CreateAssessmentInput } from '../../shared/schemas/assessments';
import { startOutboxSweeper } from '../../local/outbox-sweeper';
import { startTestApp } from '../helpers/local-app';
import { newAssessmentBody } from '../helpers/assessment-fixtures';

/** The outbox when the queue is down at completion time: the event waits in the item, then a relay sends it. */
describe('assessment_complete outbox', () => {
  let app: Awaited<ReturnType<typeof startTestApp>>;
  const accountId = 'acct_outbox_test';

  beforeAll(async () => {
    app = await startTestApp({ backgroundWorkers: false });
  });
  afterAll(async () => {
    await app.stop();
  });

  const unreachableQueue: EventQueue = { send: async () => { throw new Error('queue unreachable'); } };
  const warnings: string[] = [];
  const service = () => new AssessmentService({
    store: new DynamoAssessmentStore(),
    blobs: new S3BlobStore(),
    queue: unreachableQueue,
    newAssessmentId,
    warn: (message) => warnings.push(message),
  });

  /** Completes an assessment while the queue is unreachable; the stored item keeps the event. */
  async function completedWithPendingEvent(): Promise<{ id: string; key: { pk: string; sk: string } }> {
    const assessments = service();
    const created = await assessments.create(accountId, newAssessmentBody() as CreateAssessmentInput, new Date());
    const done = await assessments.update(accountId, created.assessment_id, { phase: 'final_report', completion_percentage: 100 }, undefined, new Date());
    expect(done.status).toBe('complete');
    const key = { pk: `ACCOUNT#${accountId}`, sk: `ASSESSMENT#${created.assessment_id}` };
    const { Item } = await dynamo().send(new GetCommand({ TableName: app.resources.tableName, Key: key }));
    expect(Item).toMatchObject({ gsi2pk: 'OUTBOX', outbox: { type: 'assessment_complete', data: { assessment_id: created.assessment_id } } });
    return { id: created.assessment_id, key };
  }

  async function receivedFor(assessmentId: string): Promise<unknown[]> {
    const found: unknown[] = [];
    for (let i = 0; i < 3; i++) {
      const { Messages } = await sqs().send(new ReceiveMessageCommand({ QueueUrl: app.resources.queueUrl, MaxNumberOfMessages: 10, WaitTimeSeconds: 1 }));
      for (const message of Messages ?? []) {
        const event = JSON.parse(message.Body!);
        if (event.data?.assessment_id === assessmentId) found.push(event);
        await sqs().send(new DeleteMessageCommand({ QueueUrl: app.resources.queueUrl, ReceiptHandle: message.ReceiptHandle! }));
      }
    }
    return found;
  }

  const pendingOf = async (key: { pk: string; sk: string }) => (await dynamo().send(new GetCommand({ TableName: app.resources.tableName, Key: key }))).Item?.outbox;

  it('keeps the state and the event together when the inline relay fails', async () => {
    await completedWithPendingEvent();
    expect(warnings).toContain('Event left in the outbox for the relay');
  });

  it('lets the local sweeper relay a pending event once and clear it', async () => {
    const { id, key } = await completedWithPendingEvent();
    const sweeper = startOutboxSweeper({ intervalMs: 60_000, graceMs: 0 });
    try {
      expect(await sweeper.sweep()).toBeGreaterThanOrEqual(1);
      expect(await sweeper.sweep()).toBe(0);
    } finally {
      await sweeper.stop();
    }
    expect(await pendingOf(key)).toBeUndefined();
    const events = await receivedFor(id);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ type: 'assessment_complete', account_id: accountId });
  });

  it('lets the stream consumer relay a pending event and skip a cleared one', async () => {
    const { id, key } = await completedWithPendingEvent();
    const { handler } = await import('../../functions/outbox-relay/handler');
    const record = (eventID: string) => ({ eventID, eventName: 'MODIFY' as const, dynamodb: { NewImage: { pk: { S: key.pk }, sk: { S: key.sk }, outbox: { M: {} } } } });
    const event = { Records: [record('1')] } as unknown as DynamoDBStreamEvent;
    const context = { getRemainingTimeInMillis: () => 30_000 } as unknown as Context;
    expect(await handler(event, context)).toEqual({ batchItemFailures: [] });
    expect(await pendingOf(key)).toBeUndefined();
    // A replay of the same stream record finds nothing pending and sends nothing.
    expect(await handler({ Records: [record('2')] } as unknown as DynamoDBStreamEvent, context)).toEqual({ batchItemFailures: [] });
    expect(await receivedFor(id)).toHaveLength(1);
  });
});
