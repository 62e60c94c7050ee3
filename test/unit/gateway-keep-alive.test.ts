import { startGateway } from '../../local/gateway';
import type { AccountStore } from '../../shared/ports';

/**
 * A server that closes an idle connection before its client does races the client's next request on
 * that socket (ECONNRESET). Node's fetch keeps a socket for the advertised timeout less one second.
 */
describe('local gateway keep-alive', () => {
  let gateway: Awaited<ReturnType<typeof startGateway>>;
  beforeAll(async () => {
    gateway = await startGateway({ port: 0, accounts: {} as AccountStore, bearer: async () => { throw new Error('unused'); } });
  });
  afterAll(() => gateway.close());

  it('keeps idle connections longer than clients reuse them, and reads headers for longer still', async () => {
    const response = await fetch(`${gateway.url}/no-such-route`);
    await response.text();
    const advertised = Number(/timeout=(\d+)/.exec(response.headers.get('keep-alive') ?? '')?.[1]);
    expect(advertised).toBeGreaterThanOrEqual(60);
    expect(gateway.server.headersTimeout).toBeGreaterThan(gateway.server.keepAliveTimeout);
  });
});
