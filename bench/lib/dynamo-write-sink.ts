import { Agent, createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A DynamoDB endpoint whose storage costs nothing: every BatchWriteItem is read in full and
 * answered as DynamoDB answers a call it processed whole (`UnprocessedItems` empty), and its items
 * are dropped; every other call goes to the emulator at `upstream` unchanged. It measures what an
 * import's write pass does when the database keeps up (as DynamoDB in a region does), which the
 * local emulator cannot: it stores a few thousand items a second.
 */
export async function startWriteSink(upstream: string): Promise<{ endpoint: string; stop(): Promise<void> }> {
  const target = new URL(upstream);
  const agent = new Agent({ keepAlive: true });
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      if (String(req.headers['x-amz-target']).endsWith('.BatchWriteItem')) {
        const answer = '{"UnprocessedItems":{}}';
        res.writeHead(200, { 'content-type': 'application/x-amz-json-1.0', 'content-length': Buffer.byteLength(answer) });
        res.end(answer);
        return;
      }
      const forwarded = request({ host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers, agent }, (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      });
      forwarded.on('error', (error) => {
        res.writeHead(502, { 'content-type': 'text/plain' });
        res.end(String(error));
      });
      forwarded.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    stop: async () => {
      agent.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
