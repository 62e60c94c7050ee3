import * as z from '../schemas/zod';
import { onFirstUse } from '../on-first-use';
import { ProblemSchema } from '../schemas/common';
import { PUBLIC_ERRORS, ok, problem } from './responses';
import { defineRoute } from './types';

/** A text body (a page, a script) of at most `maxLength` characters. */
const textOf = (maxLength: number) => onFirstUse(() => z.string().max(maxLength));

/** The files the `/docs` page loads (Swagger UI and its start-up script), served by this API. */
export const DOCS_ASSET_FILES = ['swagger-ui.css', 'swagger-ui-bundle.js', 'docs.css', 'docs.js'] as const;
export type DocsAssetFile = (typeof DOCS_ASSET_FILES)[number];

export const getDocsAssetRoute = defineRoute({
  id: 'getDocsAsset', method: 'GET', path: '/docs/assets/{file}', group: 'docs', auth: 'none', minTier: 'free',
  tags: ['Meta'], summary: 'A script or style sheet of the reference page (no key needed)',
  description: 'The Swagger UI files and the page\'s own start-up script and styles, served by this API so that `/docs` loads nothing from other hosts.',
  request: { params: onFirstUse(() => z.object({ file: z.enum(DOCS_ASSET_FILES) })) },
  responses: {
    200: { description: 'The file (Swagger UI from swagger-ui-dist, or the page\'s own start-up script and styles).', contentType: 'text/javascript', schema: textOf(5_000_000) },
    404: { description: 'No such file (`not_found`).', contentType: 'application/problem+json', schema: ProblemSchema },
    ...PUBLIC_ERRORS,
  },
});

/** The console's files besides its page (lib/console-build.ts builds them from `console/`). */
export const CONSOLE_ASSET_FILES = ['main.js', 'main.css', 'jurisdictions.json'] as const;
export type ConsoleFileName = 'index.html' | (typeof CONSOLE_ASSET_FILES)[number];

export const getConsoleRoute = defineRoute({
  id: 'getConsole', method: 'GET', path: '/console', group: 'docs', auth: 'none', minTier: 'free',
  tags: ['Meta'], summary: 'The map console: a web page that works through this API (no key needed to load it)',
  description: 'A single-page app: sign in with an API key or a `/v1` account, pick a jurisdiction, see its outline and its assets by exposure, import an inventory, run a flood analysis, read the checklist and download the deliverables. Every call goes through the typed client; the page loads nothing from other hosts.',
  responses: { 200: { description: 'The console\'s HTML page.', contentType: 'text/html', schema: textOf(100_000) }, 404: problem('The console was not built into this deployment (`not_found`).'), ...PUBLIC_ERRORS },
});

export const getConsoleFileRoute = defineRoute({
  id: 'getConsoleFile', method: 'GET', path: '/console/{file}', group: 'docs', auth: 'none', minTier: 'free',
  tags: ['Meta'], summary: 'A script, style sheet or list the console loads (no key needed)',
  description: 'The console\'s bundle (its code, OpenLayers and the typed client), its styles and the jurisdictions its picker offers, served by this API so that `/console` loads nothing from other hosts.',
  request: { params: onFirstUse(() => z.object({ file: z.enum(CONSOLE_ASSET_FILES) })) },
  responses: {
    200: { description: 'The bundle, the style sheet or the jurisdiction list.', contentType: 'text/javascript', schema: textOf(5_000_000) },
    400: problem('No such file: the console has only the files named here (`invalid_request`).'),
    404: problem('The console was not built into this deployment (`not_found`).'),
    ...PUBLIC_ERRORS,
  },
});

export const docsRoutes = [
  defineRoute({
    id: 'getHealth', method: 'GET', path: '/health', group: 'docs', auth: 'none', minTier: 'free',
    tags: ['Meta'], summary: 'Liveness check (no key needed)',
    description: 'Answers `ok` with the API version when the function runs; it reads no database, so it says nothing of the services behind it. Not counted against any limit.',
    responses: { 200: ok('The service answers.', onFirstUse(() => z.object({ status: z.literal('ok'), version: z.string().max(40) }).openapi('Health'))), ...PUBLIC_ERRORS },
  }),
  defineRoute({
    id: 'getOpenApi', method: 'GET', path: '/openapi.json', group: 'docs', auth: 'none', minTier: 'free',
    tags: ['Meta'], summary: 'This OpenAPI 3.1 document (no key needed)',
    description: 'Generated from the route table and its schemas, with an example on every operation; the same document the `/docs` page renders.',
    responses: { 200: ok('The OpenAPI document.', onFirstUse(() => z.object({}).passthrough())), ...PUBLIC_ERRORS },
  }),
  defineRoute({
    id: 'getDocs', method: 'GET', path: '/docs', group: 'docs', auth: 'none', minTier: 'free',
    tags: ['Meta'], summary: 'API reference with "try it" (Swagger UI served by this API; no key needed, nothing from other hosts)',
    description: 'An HTML page rendering `/openapi.json`, with a guide to keys, limits and error codes; "try it" sends requests with the key you enter.',
    responses: { 200: { description: 'HTML reference.', contentType: 'text/html', schema: textOf(100_000) }, ...PUBLIC_ERRORS },
  }),
  getDocsAssetRoute,
  getConsoleRoute,
  getConsoleFileRoute,
];
