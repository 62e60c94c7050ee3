import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the stand-in answers to one call: an HTTP status and a JSON body. */
export interface StandInAnswer {
  status: number;
  body: Record<string, unknown>;
}

/**
 * An AWS JSON-protocol service on loopback, answering each call as `answer` says from the
 * operation its `X-Amz-Target` names, so a real SDK client (its error parsing included) can be
 * pointed at it with `endpoint`.
 */
export async function startAwsStandIn(contentType: string, answer: (operation: string) => StandInAnswer): Promise<{ endpoint: string; close(): Promise<void> }> {
  const server = createServer((req, res) => {
    const operation = String(req.headers['x-amz-target'] ?? '').split('.').pop() ?? '';
    req.resume();
    req.on('end', () => {
      const { status, body } = answer(operation);
      res.writeHead(status, { 'Content-Type': contentType });
      res.end(JSON.stringify(body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
