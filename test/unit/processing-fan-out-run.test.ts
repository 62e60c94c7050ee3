import {
  InProcessProcessingFanOut, runModelProcessing, type InProcessRunDeps, type ProcessingOutcome, type ProcessingRun,
} from '../../shared/application/elevation-models/processing-fan-out';
import { RasterError, UploadReadError } from '../../shared/domain/elevation-models/raster-error';
import type { WindowBatch } from '../../shared/domain/elevation-models/windows';

/**
 * A fanned-out processing run in this process, with steps that only record what they are asked:
 * batches at most `concurrency` at once, then the join; the outcome recorded either way, or the
 * lease let go when the process stops.
 */
const RUN = { account_id: 'acct_a', elevation_model_id: 'em_a', run_id: 'proc_a', lease: { owner: 'worker_a', attempt: 1, expires_at: '' } } as ProcessingRun;
const BATCHES: WindowBatch[] = [0, 4, 8, 12, 16].map((first) => ({ first, count: 4 }));
const READY: ProcessingOutcome = { ready: { crs: { epsg: 26917, name: 'UTM 17N' }, resolution_m: 1, bbox: [0, 0, 1, 1], vertical_conversion: 'none', model_key: 'k' } };

function recorder(batch: (b: WindowBatch) => Promise<void> = async () => undefined, clock = () => new Date('2026-11-29T12:00:00Z')) {
  const log: string[] = [];
  let running = 0, most = 0;
  const deps: InProcessRunDeps = {
    concurrency: 2,
    now: clock,
    steps: {
      batch: async (_run, b) => {
        running++; most = Math.max(most, running);
        try {
          await batch(b);
          log.push(`batch ${b.first}`);
        } finally {
          running--;
        }
      },
      join: async (_run, batches) => { log.push(`join ${batches.length}`); return READY; },
    },
    record: async (_run, outcome) => { log.push(`record ${'ready' in outcome ? 'ready' : 'error' in outcome ? outcome.error.code : `unreadable: ${outcome.unreadable}`}`); },
    discard: async (_run, batches) => { log.push(`discard ${batches.length}`); },
    letGo: async (run) => { log.push(`let go ${run.lease.owner}`); },
  };
  return { deps, log, most: () => most };
}

describe('a processing run in this process', () => {
  it('runs every batch, at most `concurrency` at once, then the join, and records its outcome', async () => {
    const { deps, log, most } = recorder(() => new Promise((resolve) => setTimeout(resolve, 5)));
    await runModelProcessing(deps, { run: RUN, batches: BATCHES }, 60_000);
    expect(log.filter((line) => line.startsWith('batch')).sort()).toEqual(['batch 0', 'batch 12', 'batch 16', 'batch 4', 'batch 8']);
    expect(log.slice(-2)).toEqual(['join 5', 'record ready']);
    expect(most()).toBe(2);
  });

  it('records a storage failure as unreadable and any other error as an internal one, after removing what the batches left', async () => {
    for (const [error, outcome] of [
      [new UploadReadError('Reading the stored upload failed: Slow Down'), 'unreadable: Reading the stored upload failed: Slow Down'],
      [new Error('socket hang up'), 'internal_error'],
      [new RasterError('too high', 'elevation_out_of_range'), 'elevation_out_of_range'],
    ] as const) {
      const { deps, log } = recorder(async (b) => { if (b.first === 8) throw error; });
      await runModelProcessing(deps, { run: RUN, batches: BATCHES }, 60_000);
      expect(log.slice(-2)).toEqual(['discard 5', `record ${outcome}`]);
      expect(log).not.toContain('join 5');
    }
  });

  it('refuses a run past its time limit, checked before each batch (a batch starting at the limit still runs)', async () => {
    let now = Date.parse('2026-11-29T12:00:00Z');
    // Each batch takes 20 minutes of the clock; the limit is 40: the third starts at 40 minutes.
    const { deps, log } = recorder(async () => { now += 20 * 60_000; }, () => new Date(now));
    const recorded: ProcessingOutcome[] = [];
    deps.record = async (_run, outcome) => { recorded.push(outcome); };
    deps.concurrency = 1;
    await runModelProcessing(deps, { run: RUN, batches: BATCHES }, 40 * 60_000);
    expect(log.filter((line) => line.startsWith('batch'))).toEqual(['batch 0', 'batch 4', 'batch 8']);
    expect(recorded).toEqual([{ error: { code: 'processing_limit_exceeded', detail: 'Processing the raster took longer than 40 minutes and was stopped; split it into smaller tiles.' } }]);
  });

  it('lets the lease go, recording nothing, when its process stops; a run started after that is let go at once', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => { release = resolve; });
    const { deps, log } = recorder(async (b) => { if (b.first === 0) await held; });
    deps.concurrency = 1;
    const fanOut = new InProcessProcessingFanOut(deps);
    await fanOut.start({ run: RUN, batches: BATCHES });
    fanOut.stop();
    release();
    await fanOut.idle();
    expect(log).toEqual(['batch 0', 'discard 5', 'let go worker_a']);
    await fanOut.start({ run: { ...RUN, lease: { ...RUN.lease, owner: 'worker_b' } }, batches: BATCHES });
    expect(log.at(-1)).toBe('let go worker_b');
    expect(fanOut.leaseMs).toBe(130 * 60_000);
  });
});
