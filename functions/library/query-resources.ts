import type { queryResourcesRoute } from '../../shared/routes/library';
import type { RouteImplementation } from '../../shared/http/types';
import { resourceLibrary } from './service';
import { viewResource } from './get-resource';

type QueryRoute = typeof queryResourcesRoute;

/** `GET /resources?action=…`: one route, four answers (DESIGN rows L, 1, 2, 3). */
export const queryResources: RouteImplementation<QueryRoute> = async ({ query }) => {
  const library = resourceLibrary();
  switch (query.action) {
    case 'get':
      return { status: 200, body: await viewResource(query.id!) };
    case 'search':
      return { status: 200, body: await library.search({ q: query.q!, category: query.category, file_type: query.file_type, limit: query.limit, offset: query.offset }) };
    case 'stats':
      return { status: 200, body: await library.stats() };
    case 'list':
      return { status: 200, body: await library.list(query) };
  }
};
