declare module 'dynalite' {
  import type { Server } from 'node:http';
  interface DynaliteOptions { path?: string; createTableMs?: number; deleteTableMs?: number; updateTableMs?: number; maxItemSizeKb?: number }
  function dynalite(options?: DynaliteOptions): Server;
  export = dynalite;
}
declare module 's3rver' {
  interface S3rverOptions { address?: string; port?: number; directory?: string; silent?: boolean; vhostBuckets?: boolean; resetOnClose?: boolean; configureBuckets?: { name: string; configs?: unknown[] }[] }
  class S3rver {
    constructor(options?: S3rverOptions);
    run(): Promise<import('node:net').AddressInfo>;
    close(): Promise<void>;
    /** The HTTP server, once `run()` has resolved. */
    httpServer: import('node:http').Server;
  }
  export = S3rver;
}
