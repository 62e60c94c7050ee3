import type { downloadResourceRoute } from '../../shared/routes/library';
import type { RouteImplementation } from '../../shared/http/types';
import { resourceLibrary } from './service';
import { notFound } from './get-resource';

type DownloadRoute = typeof downloadResourceRoute;

/** 302 to the file; the link is short-lived, so neither the client nor a proxy may keep the redirect. */
export const downloadResource: RouteImplementation<DownloadRoute> = async ({ params }) => {
  const location = await resourceLibrary().download(params.id);
  if (!location) throw notFound(params.id);
  return { status: 302, headers: { Location: location, 'Cache-Control': 'no-store' } };
};
