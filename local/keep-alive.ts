import type { Server } from 'node:http';

/**
 * Keeps a loopback server's idle connections open longer than any client keeps them (undici keeps a
 * socket 4 s, the SDK's agent longer): a server closing an idle socket first races the client's next
 * request on it, which then fails with ECONNRESET — more often when a busy event loop delays both
 * sides' timers. Headers must outlast the keep-alive, or Node refuses the setting.
 */
export function outlastClientKeepAlive<S extends Pick<Server, 'keepAliveTimeout' | 'headersTimeout'>>(server: S): S {
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  return server;
}
