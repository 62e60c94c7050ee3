import { createGroupHandler } from '../../shared/http/pipeline';
import { libraryRoutes, type queryResourcesRoute } from '../../shared/routes/library';
import type { RouteImplementation } from '../../shared/http/types';
import { defaultPipelineDeps } from '../../shared/http/deps';
import { HttpError } from '../../shared/http/problem';
import type { ResourceLibrary } from '../../shared/application/library/resource-library';
import type { Resource } from '../../shared/schemas/library';
import { resourceLibrary } from './deps';

const notFound = (id: string) => new HttpError('not_found', `No resource with id "${id}".`);

/** The library API over its use cases; tests pass their own library. */
export function createLibraryHandler(library: () => ResourceLibrary) {
  /** The resource, counting one view (`action=get` and `GET /resources/{id}` alike). */
  async function viewResource(id: string): Promise<Resource> {
    const resource = await library().view(id);
    if (!resource) throw notFound(id);
    return resource;
  }

  /** `GET /resources?action=…`: one route, four answers (DESIGN rows L, 1, 2, 3). */
  const queryResources: RouteImplementation<typeof queryResourcesRoute> = async ({ query }) => {
    switch (query.action) {
      case 'get':
        return { status: 200, body: await viewResource(query.id!) };
      case 'search':
        return { status: 200, body: await library().search({ q: query.q!, category: query.category, file_type: query.file_type, limit: query.limit, offset: query.offset }) };
      case 'stats':
        return { status: 200, body: await library().stats() };
      case 'list':
        return { status: 200, body: await library().list(query) };
    }
  };

  return createGroupHandler(libraryRoutes, {
    queryResources,

    getResource: async ({ params }) => ({ status: 200, body: await viewResource(params.id) }),

    /**
     * 302 to the stored copy or the publisher's https copy; the link may be short-lived, so neither
     * the client nor a proxy may keep the redirect. An entry with no confirmed publisher copy answers
     * 404 and says so: a third-party mirror is never handed out as the document.
     */
    downloadResource: async ({ params }) => {
      const download = await library().download(params.id);
      if (!download) throw notFound(params.id);
      if (download.kind === 'unavailable') {
        throw new HttpError('not_found', `No publisher copy of "${download.resource.title}" (${download.resource.publisher}) has been confirmed, so this library links none; get the document from its publisher.`, {
          url_status: 'unconfirmed',
        });
      }
      return { status: 302, headers: { Location: download.location, 'Cache-Control': 'no-store' } };
    },
  }, defaultPipelineDeps);
}

export const handler = createLibraryHandler(resourceLibrary);
