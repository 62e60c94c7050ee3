import { createGroupHandler } from '../../shared/http/pipeline';
import { assetRoutes } from '../../shared/routes/assets';
import { withIdempotency, type IdempotencyStore } from '../../shared/http/idempotency';
import { HttpError } from '../../shared/http/problem';
import { currentETag } from '../../shared/http/domain-problems';
import type { RouteImplementation, RouteRequest, RouteResult } from '../../shared/http/types';
import type { RouteDef } from '../../shared/routes/types';
import { defaultPipelineDeps } from '../../shared/http/deps';
import { readRouteForm } from '../../shared/http/multipart';
import { AssetFileError } from '../../shared/domain/assets/file-error';
import type { AssetDeps } from '../../shared/application/assets/ports';
import { validateGisData } from '../../shared/application/assets/gis-validation';
import { deleteAssetImport, getAssetImport, importAssets, startAssetImport } from '../../shared/application/assets/imports';
import { deleteAsset, listAssets, StaleAssetError, updateAssetVulnerability } from '../../shared/application/assets/inventory';
import { deleteJurisdictionBoundary, getJurisdictionBoundary, putJurisdictionBoundary } from '../../shared/application/assets/boundaries';
import { assetDeps, idempotencyStore } from './deps';

/** A file refused as a whole is a 400 (413 when too large) with the reason code. */
function fileProblem(error: AssetFileError): HttpError {
  if (error.code === 'file_too_large') return new HttpError('payload_too_large', error.message, { reason: error.code, ...error.extra });
  return new HttpError('invalid_request', error.message, {
    reason: error.code,
    errors: [{ field: 'file', in: 'body', message: error.message }],
    ...error.extra,
  });
}

/** Runs a use case that reads a file, turning its AssetFileError into the HTTP problem. */
async function readingFile<T>(step: () => Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (error) {
    if (error instanceof AssetFileError) throw fileProblem(error);
    throw error;
  }
}

/** A stale asset version is a 409 with the current ETag (docs/decisions/0005-stale-if-match-409.md). */
async function atCurrentVersion<T>(step: () => Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (error) {
    if (error instanceof StaleAssetError) throw new HttpError('conflict', error.message, { headers: { ETag: currentETag(error.currentVersion) } });
    throw error;
  }
}

/** One of the assets routes, by id. */
type AssetRoute<Id extends (typeof assetRoutes)[number]['id']> = Extract<(typeof assetRoutes)[number], { id: Id }>;

const importUrl = (request: RouteRequest, importId: string) => ({ Location: `${request.baseUrl}/assets/imports/${importId}` });

/** The assets API over its use cases; tests pass their own deps. */
export function createAssetsHandler(deps: () => AssetDeps, idempotency: () => IdempotencyStore) {
  /** Imports create records: a repeated `Idempotency-Key` replays the first answer (DESIGN §3). */
  const idempotent = <R extends RouteDef>(operation: RouteImplementation<R>): RouteImplementation<R> => (request) => withIdempotency(request as RouteRequest, idempotency(), () => operation(request));
  const caller = (request: RouteRequest) => ({ accountId: request.account!.accountId, now: request.now });

  return createGroupHandler(assetRoutes, {
    /** 201 with the report when imported within the request; 202 with the import when it continues in the background. */
    importAssets: idempotent(async (request: RouteRequest<AssetRoute<'importAssets'>>) => {
      const { fields, file } = request.form;
      const imported = await readingFile(() => importAssets(deps(), caller(request), fields, file));
      const headers = importUrl(request, imported.view.import_id);
      if (imported.outcome === 'queued') return { status: 202, body: { ...imported.view, reason: imported.reason }, headers };
      return { status: 201, body: imported.view, headers };
    }),
    startAssetImport: idempotent(async (request) => {
      const started = await readingFile(() => startAssetImport(deps(), caller(request), request.body));
      return { status: 201, body: started, headers: importUrl(request, started.import_id) };
    }),
    getAssetImport: async (request) => ({ status: 200, body: await getAssetImport(deps(), caller(request), request.params.import_id) }),
    deleteAssetImport: async (request) => {
      await deleteAssetImport(deps(), request.account!.accountId, request.params.import_id);
      return { status: 204 };
    },
    deleteAsset: async (request) => {
      await deleteAsset(deps(), request.account!.accountId, request.params.asset_id);
      return { status: 204 };
    },
    listAssets: async (request): Promise<RouteResult> => {
      const listing = await listAssets(deps(), request.account!.accountId, request.query);
      if (listing.kind === 'page') return { status: 200, body: listing.page };
      if (listing.kind === 'link') return { status: 303, headers: { Location: listing.url } };
      return {
        status: 200,
        rawBody: listing.content,
        contentType: listing.contentType,
        headers: { 'Content-Disposition': `attachment; filename="${listing.filename}"` },
      };
    },
    updateAssetVulnerability: async (request) => {
      const updated = await atCurrentVersion(() => updateAssetVulnerability(deps(), request.account!.accountId, request.params.asset_id, request.body, request.ifMatch, request.now));
      return { status: 200, body: updated.view, headers: { ETag: currentETag(updated.version) } };
    },
    /** Findings are the report (200); only an unreadable file is a 400. */
    validateGisData: async (request: RouteRequest<AssetRoute<'validateGisData'>>) => {
      const { fields, file, files } = request.form;
      return { status: 200, body: await readingFile(() => validateGisData(fields, file, files.find((f) => f.field === 'metadata'))) };
    },
    putJurisdictionBoundary: async (request) => ({
      status: 200, body: await putJurisdictionBoundary(deps(), request.account!.accountId, request.params.jurisdiction, request.body, request.now),
    }),
    getJurisdictionBoundary: async (request) => ({ status: 200, body: await getJurisdictionBoundary(deps(), request.account!.accountId, request.params.jurisdiction) }),
    deleteJurisdictionBoundary: async (request) => {
      await deleteJurisdictionBoundary(deps(), request.account!.accountId, request.params.jurisdiction);
      return { status: 204 };
    },
  }, { ...defaultPipelineDeps, readForm: readRouteForm });
}

export const handler = createAssetsHandler(assetDeps, idempotencyStore);
