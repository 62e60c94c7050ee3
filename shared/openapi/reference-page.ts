import { readFileSync } from 'node:fs';
import path from 'node:path';
import { PROBLEM_TYPES, type ProblemCode } from '../http/problem';
import type { DocsAssetFile } from '../routes/docs';
import { ERROR_GUIDANCE } from './api-guide';

/**
 * The `/docs` page: Swagger UI (swagger-ui-dist, served by this API from its own origin, no CDN)
 * over `/openapi.json`, with "try it" for the API key and bearer schemes, and the table of problem
 * codes the problem `type` URIs point to (`/docs#error-<code>`). No inline script or style: the
 * page loads only the files below, under a Content-Security-Policy that allows nothing else.
 */

export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** Starts Swagger UI: the document from this origin, no external validator, requests to this origin only. */
const INIT_SCRIPT = `window.addEventListener('load', function () {
  window.ui = SwaggerUIBundle({
    url: 'openapi.json',
    dom_id: '#swagger-ui',
    deepLinking: true,
    validatorUrl: null,
    tryItOutEnabled: false,
    persistAuthorization: false,
    displayRequestDuration: true,
    defaultModelsExpandDepth: 0,
  });
});
`;

const PAGE_STYLE = `body { margin: 0; font: 15px/1.5 system-ui, -apple-system, "Segoe UI", sans-serif; color: #1b1f24; }
.errors { max-width: 1460px; margin: 0 auto 4rem; padding: 0 20px; }
.errors table { border-collapse: collapse; width: 100%; font-size: .9rem; }
.errors th, .errors td { border: 1px solid #d0d7de; padding: .3rem .5rem; text-align: left; vertical-align: top; }
.errors tr:target { outline: 2px solid #0b5cad; }
.errors code { font: .85em ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
`;

interface Asset {
  contentType: string;
  body: () => string;
}

const swaggerUiDir = () => path.dirname(require.resolve('swagger-ui-dist/package.json'));
const cached = (read: () => string) => {
  let text: string | undefined;
  return () => (text ??= read());
};

/** The files the page loads from `/docs/assets/{file}`. */
export const DOCS_ASSETS: Record<DocsAssetFile, Asset> = {
  'swagger-ui.css': { contentType: 'text/css; charset=utf-8', body: cached(() => readFileSync(path.join(swaggerUiDir(), 'swagger-ui.css'), 'utf8')) },
  'swagger-ui-bundle.js': { contentType: 'text/javascript; charset=utf-8', body: cached(() => readFileSync(path.join(swaggerUiDir(), 'swagger-ui-bundle.js'), 'utf8')) },
  'docs.css': { contentType: 'text/css; charset=utf-8', body: () => PAGE_STYLE },
  'docs.js': { contentType: 'text/javascript; charset=utf-8', body: () => INIT_SCRIPT },
};

export function referencePageHtml(title: string, version: string): string {
  const rows = (Object.keys(PROBLEM_TYPES) as ProblemCode[]).map((code) => `<tr id="error-${code}"><td><code>${code}</code></td><td>${PROBLEM_TYPES[code].status}</td><td>${esc(PROBLEM_TYPES[code].title)}</td><td>${codeSpans(ERROR_GUIDANCE[code])}</td></tr>`);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(title)} ${esc(version)} — API reference</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="docs/assets/swagger-ui.css">
<link rel="stylesheet" href="docs/assets/docs.css">
</head>
<body>
<div id="swagger-ui"></div>
<section class="errors" id="errors">
<h2>Errors</h2>
<p>Every error is an RFC 9457 <code>application/problem+json</code> body with <code>type</code> (a link to its row below), <code>title</code>, <code>status</code>, <code>detail</code>, <code>instance</code> (the request id) and a stable <code>code</code>; invalid input adds <code>errors: [{field, in, message}]</code>.</p>
<table><thead><tr><th>Code</th><th>Status</th><th>Title</th><th>Meaning</th></tr></thead><tbody>
${rows.join('\n')}
</tbody></table>
</section>
<script src="docs/assets/swagger-ui-bundle.js"></script>
<script src="docs/assets/docs.js"></script>
</body>
</html>
`;
}

function codeSpans(text: string): string {
  return esc(text).replace(/`([^`]+)`/g, (_, code: string) => `<code>${code}</code>`);
}

export function esc(value: unknown): string {
  return String(value ?? '').replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}
