import { createGroupHandler } from '../../shared/http/pipeline';
import { docsRoutes } from '../../shared/routes/docs';
import { defaultPipelineDeps } from '../../shared/http/deps';
import { API_TITLE, API_VERSION } from '../../shared/openapi/api-identity';
import { CONTENT_SECURITY_POLICY, DOCS_ASSETS, referencePageHtml } from '../../shared/openapi/reference-page';
import type { getDocsAssetRoute } from '../../shared/routes/docs';
import type { RouteRequest } from '../../shared/http/types';
import { getConsole, getConsoleFile } from './console';

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
