import { createGroupHandler } from '../../shared/http/pipeline';
import { defaultPipelineDeps } from '../../shared/http/deps';
import { validateGisData } from './gis';
import { getAssetImport, importAssets, startAssetImport } from './imports';
import { listAssets, updateAssetVulnerability } from './inventory';

export const handler = createGroupHandler('assets', {
  importAssets,
  startAssetImport,
  getAssetImport,
  listAssets,
  updateAssetVulnerability,
  validateGisData,
}, defaultPipelineDeps);
