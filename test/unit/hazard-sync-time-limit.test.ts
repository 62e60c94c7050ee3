import { LATE, withinTimeLimit } from '../../shared/application/hazards/flood-analysis';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** An immediate flood analysis past its time limit is handed to a job and stores nothing. */
describe('withinTimeLimit', () => {
  it('answers with the result of an analysis that ends in time', async () => {
    await expect(withinTimeLimit(async (progress) => { progress(0.5); progress(1); return 'done'; }, 1000)).resolves.toBe('done');
  });

  it('gives up on a slow analysis, which stops at its next progress step before storing', async () => {
    const stored: string[] = [];
    let stopped: unknown;
    let finished!: () => void;
    const ended = new Promise<void>((resolve) => { finished = resolve; });
    const answer = await withinTimeLimit(async (progress) => {
      try {
        progress(0.2);
        await sleep(80);
        progress(0.5);
        stored.push('analysis');
        return 'done';
      } catch (error) {
        stopped = error;
        throw error;
      } finally {
        finished();
      }
    }, 20);
    expect(answer).toBe(LATE);
    await ended;
    expect(stopped).toBeInstanceOf(Error);
    expect(stored).toEqual([]);
  });

  it('stops an abandoned analysis at its next checkpoint (before another year of tide predictions)', async () => {
    let reached = 0;
    let stopped: unknown;
    let finished!: () => void;
    const ended = new Promise<void>((resolve) => { finished = resolve; });
    const answer = await withinTimeLimit(async (_progress, checkpoint) => {
      try {
        for (let year = 0; year < 10; year++) {
          checkpoint();
          reached = year;
          await sleep(15);
        }
        return 'done';
      } catch (error) {
        stopped = error;
        throw error;
      } finally {
        finished();
      }
    }, 40);
    expect(answer).toBe(LATE);
    await ended;
    expect(stopped).toBeInstanceOf(Error);
    expect(reached).toBeLessThan(9);
  });

  it('waits for an analysis that reached its end before the limit passed (it is storing)', async () => {
    const answer = await withinTimeLimit(async (progress) => {
      progress(1);
      await sleep(60);
      return 'stored once';
    }, 20);
    expect(answer).toBe('stored once');
  });

  it('passes on the failure of an analysis that fails in time', async () => {
    await expect(withinTimeLimit(async () => { throw new Error('broken'); }, 1000)).rejects.toThrow('broken');
  });
});
