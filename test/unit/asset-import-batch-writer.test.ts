import { dynamo } from '../../shared/adapters/aws-clients';
import { BatchWriter, type WriteRequest } from '../../shared/adapters/batch-writer';

type Sent = { RequestItems: Record<string, WriteRequest[]> };

const put = (n: number): WriteRequest => ({ PutRequest: { Item: { pk: 'p', sk: `s${n}` } } });
const keyOf = (request: WriteRequest) => ('PutRequest' in request ? request.PutRequest.Item.sk : request.DeleteRequest.Key.sk) as string;

/** The write side of the import: BatchWriteItem calls, bounded in flight, unprocessed items sent again. */
describe('BatchWriter', () => {
  const client = dynamo();
  afterEach(() => jest.restoreAllMocks());

  it('sends 25 requests per call with at most 8 calls in flight, and reports each batch once written', async () => {
    let inFlight = 0;
    let most = 0;
    const sent: string[][] = [];
    jest.spyOn(client, 'send').mockImplementation((async (command: { input: Sent }) => {
      inFlight++;
      most = Math.max(most, inFlight);
      sent.push(command.input.RequestItems.t!.map(keyOf));
      await new Promise((resolve) => setTimeout(resolve, 5));
      inFlight--;
      return {};
    }) as never);
    const written: string[] = [];
    const writer = new BatchWriter('t', (requests) => written.push(...requests.map(keyOf)));
    for (let n = 0; n < 1010; n++) await writer.add(put(n));
    await writer.drain();
    expect(sent.map((batch) => batch.length)).toEqual([...Array(40).fill(25), 10]);
    expect(most).toBe(8);
    expect(new Set(written).size).toBe(1010);
    expect(writer.pending).toBe(0);
  });

  it('sends unprocessed items again until none is left', async () => {
    const sent: string[][] = [];
    jest.spyOn(client, 'send').mockImplementation((async (command: { input: Sent }) => {
      const requests = command.input.RequestItems.t!;
      sent.push(requests.map(keyOf));
      // The service takes the first two of each call.
      return { UnprocessedItems: requests.length > 2 ? { t: requests.slice(2) } : {} };
    }) as never);
    const writer = new BatchWriter('t');
    for (let n = 0; n < 7; n++) await writer.add(put(n));
    await writer.drain();
    expect(sent).toEqual([['s0', 's1', 's2', 's3', 's4', 's5', 's6'], ['s2', 's3', 's4', 's5', 's6'], ['s4', 's5', 's6'], ['s6']]);
  });

  it('gives up after ten calls that leave items unprocessed, and says so on drain', async () => {
    const send = jest.spyOn(client, 'send').mockImplementation((async (command: { input: Sent }) => ({ UnprocessedItems: command.input.RequestItems })) as never);
    const writer = new BatchWriter('t');
    await writer.add(put(1));
    await expect(writer.drain()).rejects.toThrow('DynamoDB kept returning unprocessed items');
    expect(send).toHaveBeenCalledTimes(10);
  }, 30_000);

  it('throws a failed call on the next add, so an import stops instead of writing on', async () => {
    jest.spyOn(client, 'send').mockImplementation((async () => {
      throw new Error('ProvisionedThroughputExceeded');
    }) as never);
    const writer = new BatchWriter('t');
    for (let n = 0; n < 25; n++) await writer.add(put(n));
    await new Promise((resolve) => setTimeout(resolve, 10));
    await expect(writer.add(put(99))).resolves.toBeUndefined();
    await expect((async () => { for (let n = 100; n < 125; n++) await writer.add(put(n)); })()).rejects.toThrow('ProvisionedThroughputExceeded');
  });
});
