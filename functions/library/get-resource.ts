import type { getResourceRoute } from '../../shared/routes/library';
import type { RouteImplementation } from '../../shared/http/types';
import type { Resource } from '../../shared/schemas/library';
import { HttpError } from '../../shared/http/problem';
import { resourceLibrary } from './service';

type GetRoute = typeof getResourceRoute;

/** The resource, counting one view (`action=get` and `GET /resources/{id}` alike). */
export async function viewResource(id: string): Promise<Resource> {
  const resource = await resourceLibrary().view(id);
  if (!resource) throw notFound(id);
  return resource;
}

export const notFound = (id: string) => new HttpError('not_found', `No resource with id "${id}".`);

export const getResource: RouteImplementation<GetRoute> = async ({ params }) => ({ status: 200, body: await viewResource(params.id) });
