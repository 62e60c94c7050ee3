import * as z from '../schemas/zod';
import { onFirstUse } from '../on-first-use';
import { LibraryStatsSchema, ResourceIdParams, ResourceListSchema, ResourceSchema, ResourceSearchSchema, ResourcesQuery } from '../schemas/library';
import { KEYED_ERRORS, NOT_FOUND, ok } from './responses';
import { defineRoute } from './types';

export const queryResourcesRoute = defineRoute({
  id: 'queryResources',
  method: 'GET',
  path: '/resources',
  group: 'library',
  auth: 'api_key',
  minTier: 'free',
  contractRow: 'L, 1, 2, 3',
  tags: ['Library'],
  summary: 'List, get, search or count library resources',
  description: '`action=list` (default) pages with `limit`/`offset`, filtered by `category` and `file_type`, sorted by `sort` (resources with no publication date, such as portals and living data sets, sort last either way); `action=get&id=` returns one resource and counts a view; `action=search&q=` ranks resources by full-text relevance over title, summary and tags (title and tag matches weigh more; prefix and fuzzy matching), optionally within a `category` and `file_type`, best `limit` matches after `offset`, with `total` counting all matches; `action=stats` returns the number of resources, the views and downloads counted so far and the number of resources per category (every category, 0 when empty). Parameters that do not apply to the action are ignored.',
  request: { query: ResourcesQuery },
  responses: {
    200: ok('The list (`action=list`), the resource (`get`), the ranked matches (`search`) or the statistics (`stats`).',
      onFirstUse(() => z.union([ResourceListSchema(), ResourceSchema(), ResourceSearchSchema(), LibraryStatsSchema()]))),
    ...NOT_FOUND,
    ...KEYED_ERRORS,
  },
});

export const getResourceRoute = defineRoute({
  id: 'getResource',
  method: 'GET',
  path: '/resources/{id}',
  group: 'library',
  auth: 'api_key',
  minTier: 'free',
  contractRow: '1',
  tags: ['Library'],
  summary: 'Resource details (counts a view)',
  description: 'One library entry by its id: title, publisher, year, category, summary and the publisher\'s URL, with where these were confirmed (`evidence`) and its view and download counts. Each call counts one view.',
  request: { params: ResourceIdParams },
  responses: { 200: ok('The resource.', ResourceSchema), ...NOT_FOUND, ...KEYED_ERRORS },
});

export const downloadResourceRoute = defineRoute({
  id: 'downloadResource',
  method: 'GET',
  path: '/resources/{id}/download',
  group: 'library',
  auth: 'api_key',
  minTier: 'free',
  contractRow: '–',
  tags: ['Library'],
  summary: 'Download a resource file (302 to a short-lived signed URL; counts a download)',
  description: 'Redirects to a signed URL of the stored copy when the library holds one, otherwise to the publisher\'s own https copy (`url`). Never to plain http and never to a third-party mirror: an entry whose publisher copy is not confirmed (`url_status: "unconfirmed"`) answers 404 `not_found` with `url_status` in the problem.',
  request: { params: ResourceIdParams },
  responses: {
    302: { description: 'Redirect to the file.', headers: { Location: { description: 'Short-lived signed URL (or the public URL).', schema: { type: 'string' } } } },
    ...NOT_FOUND,
    ...KEYED_ERRORS,
  },
});

export const libraryRoutes = [queryResourcesRoute, getResourceRoute, downloadResourceRoute];
