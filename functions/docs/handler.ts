import path from 'node:path';
import { consoleFiles } from '../../shared/adapters/console-files';
import { HttpError } from '../../shared/http/problem';
import { createGroupHandler } from '../../shared/http/pipeline';
import { docsRoutes } from '../../shared/routes/docs';
import { defaultPipelineDeps } from '../../shared/http/deps';
import { API_TITLE, API_VERSION } from '../../shared/openapi/api-identity';
import { CONTENT_SECURITY_POLICY, DOCS_ASSETS, referencePageHtml } from '../../shared/openapi/reference-page';
import type { ConsoleFileName, getConsoleFileRoute, getDocsAssetRoute } from '../../shared/routes/docs';
import type { RouteRequest, RouteResult } from '../../shared/http/types';

interface Published {
  openApiJson: string;
  html: string;
}

let published: Published | undefined;

/**
 * Built once per container: the document only changes with a deployment. Its module (every route's
 * schemas and examples) loads with the first request for it, so health checks do not wait for it.
 */
async function publication(): Promise<Published> {
  if (!published) {
    const { buildOpenApiDocument, serializeOpenApiDocument } = await import('../../shared/openapi/document');
    published = { openApiJson: serializeOpenApiDocument(buildOpenApiDocument()), html: referencePageHtml(API_TITLE, API_VERSION) };
  }
  return published;
}

const CACHE = { 'Cache-Control': 'public, max-age=300' };
const PAGE_HEADERS = { 'Content-Security-Policy': CONTENT_SECURITY_POLICY, 'X-Content-Type-Options': 'nosniff', 'Referrer-Policy': 'no-referrer' };

/**
 * What the console may load: this API only (`connect-src 'self'`); the deliverables' signed URLs are
 * links, not fetches. Inline styles are allowed because OpenLayers and the exposure swatches set
 * `style` attributes; scripts are not.
 */
const CONSOLE_CONTENT_SECURITY_POLICY = "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'";

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

const getConsole = () => consoleFile('index.html');

const getConsoleFile = (request: RouteRequest<typeof getConsoleFileRoute>) => consoleFile(request.params.file);

export const handler = createGroupHandler(docsRoutes, {
  getHealth: async () => ({ status: 200, body: { status: 'ok', version: API_VERSION }, headers: { 'Cache-Control': 'no-store' } }),
  getOpenApi: async () => ({
    status: 200,
    rawBody: (await publication()).openApiJson,
    contentType: 'application/json; charset=utf-8',
    headers: CACHE,
  }),
  getDocs: async () => ({
    status: 200,
    rawBody: (await publication()).html,
    contentType: 'text/html; charset=utf-8',
    headers: { ...CACHE, ...PAGE_HEADERS },
  }),
  getDocsAsset: async (request: RouteRequest<typeof getDocsAssetRoute>) => {
    const asset = DOCS_ASSETS[request.params.file];
    return { status: 200, rawBody: asset.body(), contentType: asset.contentType, headers: { ...CACHE, ...PAGE_HEADERS } };
  },
  getConsole,
  getConsoleFile,
}, defaultPipelineDeps);
