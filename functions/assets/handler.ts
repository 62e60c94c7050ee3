import { createGroupHandler } from '../../shared/http/pipeline';
import { assetRoutes } from '../../shared/routes/assets';
import { withIdempotency } from '../../shared/http/idempotency';
import type { RouteImplementation, RouteRequest } from '../../shared/http/types';
import type { RouteDef } from '../../shared/routes/types';
import { assetDeps } from './deps';
import { defaultPipelineDeps } from '../../shared/http/deps';
import { readRouteForm } from '../../shared/http/multipart';
import { validateGisData } from './gis';
import { deleteAssetImport, getAssetImport, importAssets, startAssetImport } from './imports';
import { deleteAsset, listAssets, updateAssetVulnerability } from './inventory';
import { deleteJurisdictionBoundary, getJurisdictionBoundary, putJurisdictionBoundary } from './jurisdiction-boundaries';

/** Imports create records: a repeated `Idempotency-Key` replays the first answer (DESIGN §3). */
const idempotent = <R extends RouteDef>(operation: RouteImplementation<R>): RouteImplementation<R> => (request) => withIdempotency(request as RouteRequest, assetDeps.idempotency(), () => operation(request));

export const handler = createGroupHandler(assetRoutes, {
  importAssets: idempotent(importAssets),
  startAssetImport: idempotent(startAssetImport),
  getAssetImport,
  deleteAssetImport,
  deleteAsset,
  listAssets,
  updateAssetVulnerability,
  validateGisData,
  putJurisdictionBoundary,
  getJurisdictionBoundary,
  deleteJurisdictionBoundary,
}, { ...defaultPipelineDeps, readForm: readRouteForm });
