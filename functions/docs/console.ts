import path from 'node:path';
import { consoleFiles } from '../../shared/adapters/console-files';
import { HttpError } from '../../shared/http/problem';
import type { RouteRequest, RouteResult } from '../../shared/http/types';
import type { ConsoleFileName, getConsoleFileRoute } from '../../shared/routes/docs';

/**
 * What the console may load: this API only (`connect-src 'self'`); the deliverables' signed URLs are
 * links, not fetches. Inline styles are allowed because OpenLayers and the exposure swatches set
 * `style` attributes; scripts are not.
 */
export const CONSOLE_CONTENT_SECURITY_POLICY = "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'";

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
};

/**
 * The file names carry no content hash, so the browser asks again on every load (`no-cache`): the
 * page and its bundle of one deployment are never mixed with another's.
 */
const HEADERS = {
  'Cache-Control': 'no-cache', 'Content-Security-Policy': CONSOLE_CONTENT_SECURITY_POLICY, 'X-Content-Type-Options': 'nosniff', 'Referrer-Policy': 'no-referrer',
};

async function consoleFile(name: ConsoleFileName): Promise<RouteResult> {
  const body = await consoleFiles()(name);
  if (!body) throw new HttpError('not_found', `The console's ${name} is not built into this deployment.`);
  return { status: 200, rawBody: body.toString('utf8'), contentType: CONTENT_TYPES[path.extname(name)], headers: HEADERS };
}

export const getConsole = () => consoleFile('index.html');

export const getConsoleFile = (request: RouteRequest<typeof getConsoleFileRoute>) => consoleFile(request.params.file);
