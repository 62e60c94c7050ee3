import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startEmulators, type Emulators } from '../../local/emulators';

/**
 * An emulator that closes an idle connection before its client does races the client's next request
 * on that socket: a download from S3 failed with ECONNRESET that way while the test reading the
 * previous file kept the event loop busy. Each emulator advertises a keep-alive longer than clients keep.
 */
describe('the emulators keep idle connections open longer than their clients do', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'vac-emulator-keep-alive-'));
  let emulators: Emulators;
  beforeAll(async () => {
    emulators = await startEmulators({ dataDir });
  }, 60_000);
  afterAll(async () => {
    await emulators?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it.each(['dynamodb', 's3', 'sqs'] as const)('%s advertises at least 60 s', async (service) => {
    const response = await fetch(`${emulators.endpoints[service]}/`);
    await response.arrayBuffer();
    const advertised = Number(/timeout=(\d+)/.exec(response.headers.get('keep-alive') ?? '')?.[1]);
    expect(advertised).toBeGreaterThanOrEqual(60);
  });
});
