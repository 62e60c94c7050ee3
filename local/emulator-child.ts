/**
 * The emulators as a process of their own (see `emulator-process.ts`): started on their parent's
 * message, stopped on its stop message or when the parent is gone. Signals are the parent's to act
 * on: a Ctrl-C reaches the whole process group, and the API still writes to the emulators while
 * it stops (usage counts, import checkpoints), so they stay up until the parent says so.
 */
import { DataDirectoryInUseError, startEmulators, type Emulators } from './emulators';
import type { EmulatorChildMessage, EmulatorParentMessage } from './emulator-process';
import { HeapCompaction } from './heap-compaction';

/** Writes since the last compaction that make a burst worth compacting after (2,500 imported rows, in batches of 25). */
const BURST_WRITES = 100;
/** Writes in a second at or under which a burst is over: the server's own upkeep (leases, sweeps) writes less. */
const QUIET_WRITES_PER_SECOND = 1;
const WRITE = /\.(BatchWriteItem|PutItem|UpdateItem|DeleteItem|TransactWriteItems)$/;

let emulators: Emulators | undefined;

/**
 * After a burst of writes (a large import) dynalite's V8 heap keeps the pages the burst used: its
 * resident memory tracks the heap's committed size, LevelDB's native part staying flat (its caches
 * are bounded in emulators.ts). Once a second passes with (almost) no write after such a burst, the
 * heap is compacted (heap-compaction.ts), as the API's was when the emulators ran in it. The server
 * reads DynamoDB all the time (the upload watcher polls twice a second), so the burst's end is read
 * from the writes alone.
 */
function compactAfterWriteBursts(): (target: string) => void {
  const heap = new HeapCompaction();
  let writes = 0;
  let lastSecond = 0;
  let atCompaction = 0;
  setInterval(() => {
    const thisSecond = writes - lastSecond;
    lastSecond = writes;
    if (writes - atCompaction >= BURST_WRITES && thisSecond <= QUIET_WRITES_PER_SECOND) {
      atCompaction = writes;
      heap.compactSoon();
    }
  }, 1_000).unref();
  return (target) => {
    if (WRITE.test(target)) writes += 1;
  };
}

const reply = (message: EmulatorChildMessage, then?: () => void) => process.send!(message, undefined, undefined, then);

async function stop(): Promise<void> {
  await emulators?.stop().catch(() => undefined);
  process.exit(0);
}

process.on('message', (message: EmulatorParentMessage) => {
  if (message.type === 'stop') {
    void stop();
    return;
  }
  startEmulators({ ...message.options, onDynamoRequest: compactAfterWriteBursts() }).then(
    (started) => {
      emulators = started;
      reply({ type: 'ready', endpoints: started.endpoints });
    },
    (error: unknown) => {
      reply({ type: 'failed', message: (error as Error).message, dataDirectoryInUse: error instanceof DataDirectoryInUseError }, () => process.exit(1));
    },
  );
});
process.on('disconnect', () => void stop());
process.on('SIGINT', () => undefined);
process.on('SIGTERM', () => undefined);
