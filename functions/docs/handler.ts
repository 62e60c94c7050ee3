import { createGroupHandler } from '../../shared/http/pipeline';
import { defaultPipelineDeps } from '../../shared/http/deps';
import { API_VERSION, buildOpenApiDocument, serializeOpenApiDocument } from '../../shared/openapi/document';
import { renderReferencePage, type ReferencePage } from '../../shared/openapi/html';

interface Published {
  openApiJson: string;
  page: ReferencePage;
}

let published: Published | undefined;

/** Built once per container: the document only changes with a deployment. */
function publication(): Published {
  if (!published) {
    const document = buildOpenApiDocument();
    published = { openApiJson: serializeOpenApiDocument(document), page: renderReferencePage(document) };
  }
  return published;
}

const CACHE = { 'Cache-Control': 'public, max-age=300' };

export const handler = createGroupHandler('docs', {
  getHealth: async () => ({ status: 200, body: { status: 'ok', version: API_VERSION }, headers: { 'Cache-Control': 'no-store' } }),
  getOpenApi: async () => ({
    status: 200,
    rawBody: publication().openApiJson,
    contentType: 'application/json; charset=utf-8',
    headers: CACHE,
  }),
  getDocs: async () => {
    const { page } = publication();
    return {
      status: 200,
      rawBody: page.html,
      contentType: 'text/html; charset=utf-8',
      headers: { ...CACHE, 'Content-Security-Policy': page.contentSecurityPolicy, 'X-Content-Type-Options': 'nosniff', 'Referrer-Policy': 'no-referrer' },
    };
  },
}, defaultPipelineDeps);
