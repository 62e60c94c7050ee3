import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { HttpWebhookSender, pinnedLookup, type Resolver } from '../../shared/adapters/webhook-sender';
import { checkResolvedAddresses } from '../../shared/domain/webhooks/url-rules';

interface Seen {
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
}

async function receiver(respond: (req: IncomingMessage, res: ServerResponse) => void): Promise<{ server: Server; port: number; seen: Seen[] }> {
  const seen: Seen[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => { body += chunk; });
    req.on('end', () => {
      seen.push({ path: req.url ?? '', headers: req.headers, body });
      respond(req, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as AddressInfo).port, seen };
}

const close = (server: Server) => new Promise<void>((resolve) => {
  server.closeAllConnections();
  server.close(() => resolve());
});

const headers = { 'webhook-id': 'evt_1', 'webhook-timestamp': '1', 'webhook-signature': 'v1,x' };

describe('HttpWebhookSender (local receivers on 127.0.0.1)', () => {
  const servers: Server[] = [];
  afterAll(async () => {
    await Promise.all(servers.map(close));
  });
  const start = async (respond: (req: IncomingMessage, res: ServerResponse) => void) => {
    const r = await receiver(respond);
    servers.push(r.server);
    return r;
  };

  it('posts the body and headers; 2xx is success', async () => {
    const r = await start((_req, res) => res.writeHead(204).end());
    const result = await new HttpWebhookSender({ mode: 'local' }).send(`http://127.0.0.1:${r.port}/hook?x=1`, headers, '{"a":1}');
    expect(result).toMatchObject({ ok: true, status: 204, error: null });
    expect(result.durationMs).toBeGreaterThanOrEqual(0);
    expect(r.seen[0]).toMatchObject({ path: '/hook?x=1', body: '{"a":1}' });
    expect(r.seen[0]!.headers).toMatchObject({ 'webhook-id': 'evt_1', 'content-type': 'application/json' });
  });

  it('treats a non-2xx answer as a failure', async () => {
    const r = await start((_req, res) => res.writeHead(500).end('boom'));
    expect(await new HttpWebhookSender({ mode: 'local' }).send(`http://127.0.0.1:${r.port}/`, headers, '{}')).toMatchObject({ ok: false, status: 500, error: 'http_status' });
  });

  it('does not follow redirects', async () => {
    const r = await start((req, res) => (req.url === '/moved' ? res.writeHead(302, { Location: '/target' }).end() : res.writeHead(200).end()));
    const result = await new HttpWebhookSender({ mode: 'local' }).send(`http://127.0.0.1:${r.port}/moved`, headers, '{}');
    expect(result).toMatchObject({ ok: false, status: 302, error: 'http_status' });
    expect(r.seen.map((s) => s.path)).toEqual(['/moved']);
  });

  it('stops reading an endless response body at the cap', async () => {
    const r = await start((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'text/plain' });
      const chunk = 'x'.repeat(1024);
      const pump = () => {
        while (!res.destroyed && res.write(chunk));
        if (!res.destroyed) res.once('drain', pump);
      };
      pump();
    });
    expect(await new HttpWebhookSender({ mode: 'local', maxResponseBytes: 4096 }).send(`http://127.0.0.1:${r.port}/`, headers, '{}')).toMatchObject({ ok: true, status: 200 });
  });

  it('gives up on an endpoint that does not answer', async () => {
    const r = await start(() => undefined);
    const result = await new HttpWebhookSender({ mode: 'local', timeoutMs: 300 }).send(`http://127.0.0.1:${r.port}/`, headers, '{}');
    expect(result).toMatchObject({ ok: false, status: null, error: 'timeout' });
  });

  it('reports a closed port as refused and a failed handshake as tls, never the socket error', async () => {
    const r = await start((_req, res) => res.writeHead(200).end());
    const closedPort = r.port;
    await close(r.server);
    const refused = await new HttpWebhookSender({ mode: 'local' }).send(`http://127.0.0.1:${closedPort}/`, headers, '{}');
    expect(refused).toMatchObject({ ok: false, status: null, error: 'refused' });
    // An https URL to a plain-http listener: the TLS handshake fails.
    const plain = await start((_req, res) => res.writeHead(200).end());
    const tls = await new HttpWebhookSender({ mode: 'local' }).send(`https://127.0.0.1:${plain.port}/`, headers, '{}');
    expect(tls).toMatchObject({ ok: false, status: null, error: 'tls' });
  });

  it('resolves the name once and connects to the address it checked (no second lookup to rebind)', async () => {
    const r = await start((_req, res) => res.writeHead(200).end());
    const answers = [[{ address: '127.0.0.1', family: 4 }], [{ address: '10.0.0.1', family: 4 }]];
    const resolve = jest.fn<ReturnType<Resolver>, Parameters<Resolver>>(async () => answers.shift()!);
    const result = await new HttpWebhookSender({ mode: 'local', resolve }).send(`http://localhost:${r.port}/pinned`, headers, '{}');
    expect(result.ok).toBe(true);
    expect(resolve).toHaveBeenCalledTimes(1);
    expect(resolve).toHaveBeenCalledWith('localhost');
    expect(r.seen.at(-1)).toMatchObject({ path: '/pinned', headers: { host: `localhost:${r.port}` } });
  });

  it('pinnedLookup answers the checked address for any name, in both callback forms', () => {
    const lookup = pinnedLookup({ address: '93.184.216.34', family: 4 }) as unknown as (h: string, o: object, cb: (...a: unknown[]) => void) => void;
    const single = jest.fn();
    const all = jest.fn();
    lookup('rebound.example.com', {}, single);
    lookup('rebound.example.com', { all: true }, all);
    expect(single).toHaveBeenCalledWith(null, '93.184.216.34', 4);
    expect(all).toHaveBeenCalledWith(null, [{ address: '93.184.216.34', family: 4 }]);
  });
});

describe('HttpWebhookSender in AWS mode refuses SSRF targets before connecting', () => {
  const resolving = (...addresses: string[]) => jest.fn<ReturnType<Resolver>, Parameters<Resolver>>(async () => addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 })));

  it.each([
    ['https://hooks.example.com/x', ['10.0.0.7'], /private/],
    ['https://hooks.example.com/x', ['93.184.216.34', '127.0.0.1'], /loopback/],
    ['https://hooks.example.com/x', ['169.254.169.254'], /metadata/],
    ['https://hooks.example.com/x', ['::1'], /loopback/],
    ['https://hooks.example.com/x', ['::ffff:192.168.0.10'], /private/],
    ['https://hooks.example.com/x', ['fd00:ec2::254'], /metadata/],
    ['https://hooks.example.com/x', ['100.64.3.4'], /carrier-grade NAT/],
  ])('%s resolving to %j', async (url, addresses, reason) => {
    const resolve = resolving(...addresses);
    const result = await new HttpWebhookSender({ mode: 'aws', resolve }).send(url, headers, '{}');
    // The delivery log says only `blocked`; the rule that blocked it is the one below.
    expect(result).toMatchObject({ ok: false, status: null, error: 'blocked' });
    expect(resolve).toHaveBeenCalledTimes(1);
    expect(checkResolvedAddresses(new URL(url), addresses, 'aws')).toMatch(reason);
  });

  it.each(['https://169.254.169.254/latest/meta-data/', 'https://10.1.1.1/', 'https://127.0.0.1/', 'https://[::1]/', 'http://127.0.0.1/', 'https://localhost/'])('refuses the literal %s without resolving', async (url) => {
    const resolve = resolving('93.184.216.34');
    const result = await new HttpWebhookSender({ mode: 'aws', resolve }).send(url, headers, '{}');
    expect(result.error).toBe('blocked');
    expect(resolve).not.toHaveBeenCalled();
  });

  it('reports a failed DNS lookup', async () => {
    const resolve = jest.fn(async () => {
      throw Object.assign(new Error('getaddrinfo ENOTFOUND'), { code: 'ENOTFOUND' });
    });
    expect(await new HttpWebhookSender({ mode: 'aws', resolve }).send('https://nowhere.example.com/', headers, '{}')).toMatchObject({ ok: false, error: 'dns' });
  });
});
