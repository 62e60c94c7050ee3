import type { downloadResourceRoute } from '../../shared/routes/library';
import type { RouteImplementation } from '../../shared/http/types';
import { HttpError } from '../../shared/http/problem';
import { resourceLibrary } from './service';
import { notFound } from './get-resource';

type DownloadRoute = typeof downloadResourceRoute;

/**
 * 302 to the stored copy or the publisher's https copy; the link may be short-lived, so neither
 * the client nor a proxy may keep the redirect. An entry with no confirmed publisher copy answers
 * 404 and says so: a third-party mirror is never handed out as the document.
 */
export const downloadResource: RouteImplementation<DownloadRoute> = async ({ params }) => {
  const download = await resourceLibrary().download(params.id);
  if (!download) throw notFound(params.id);
  if (download.kind === 'unavailable') {
    throw new HttpError('not_found', `No publisher copy of "${download.resource.title}" (${download.resource.publisher}) has been confirmed, so this library links none; get the document from its publisher.`, {
      url_status: 'unconfirmed',
    });
  }
  return { status: 302, headers: { Location: download.location, 'Cache-Control': 'no-store' } };
};
