import type { DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { jobInsertConsumer } from '../../shared/adapters/job-stream';

/** A stream record as DynamoDB sends it (NEW_IMAGE), in the wire's attribute-value form. */
function record(sequence: string, eventName: DynamoDBRecord['eventName'], image: DynamoDBRecord['dynamodb']): DynamoDBRecord {
  return { eventID: sequence, eventName, eventSource: 'aws:dynamodb', dynamodb: { ...image, SequenceNumber: sequence } };
}

const jobImage = (type: string, jobId: string) => ({
  NewImage: {
    type: { S: type },
    job_id: { S: jobId },
    progress: { N: '0.5' },
    job: { M: { account_id: { S: 'acct_1' }, deliverable_id: { S: jobId } } },
  },
});

describe('jobs started by the insert of their item on the table stream', () => {
  it('runs each inserted item of its type, read with the SDK\'s unmarshall, and nothing else', async () => {
    const seen: Record<string, unknown>[] = [];
    const consumer = jobInsertConsumer('deliverable_job', async (item) => {
      seen.push(item);
    });
    const event: DynamoDBStreamEvent = {
      Records: [
        record('1', 'INSERT', jobImage('deliverable_job', 'job_a')),
        record('2', 'MODIFY', jobImage('deliverable_job', 'job_b')),
        record('3', 'INSERT', jobImage('hazard_job', 'job_c')),
        record('4', 'REMOVE', {}),
      ],
    };
    const answer = await consumer(event);
    expect(answer.batchItemFailures).toEqual([]);
    expect(seen).toEqual([{ type: 'deliverable_job', job_id: 'job_a', progress: 0.5, job: { account_id: 'acct_1', deliverable_id: 'job_a' } }]);
  });

  it('reports only the record whose run threw, so only it is retried', async () => {
    const ran: string[] = [];
    const consumer = jobInsertConsumer('hazard_job', async (item) => {
      ran.push(String(item.job_id));
      if (item.job_id === 'job_bad') throw new Error('the table was unreachable');
    });
    const answer = await consumer({
      Records: [record('10', 'INSERT', jobImage('hazard_job', 'job_ok')), record('11', 'INSERT', jobImage('hazard_job', 'job_bad')), record('12', 'INSERT', jobImage('hazard_job', 'job_next'))],
    });
    expect(ran).toEqual(['job_ok', 'job_bad', 'job_next']);
    expect(answer.batchItemFailures).toEqual([{ itemIdentifier: '11' }]);
  });

  it('fails the whole invocation when every record failed, so the event source retries it', async () => {
    const consumer = jobInsertConsumer('hazard_job', async () => {
      throw new Error('down');
    });
    await expect(consumer({ Records: [record('20', 'INSERT', jobImage('hazard_job', 'job_x'))] })).rejects.toThrow();
  });
});
