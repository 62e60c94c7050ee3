import { createUploadModel, deleteModel, getModel, registerCogModel, type ElevationModelDeps } from '../../shared/application/elevation-models/use-cases';
import { ConflictError, NotFoundError } from '../../shared/domain/errors';
import type { StoredElevationModel } from '../../shared/domain/elevation-models/stored-model';

const ACCOUNT = 'acct_county';
const NOW = new Date('2026-11-23T10:00:00.000Z');

/** The ports in memory: a map of models, the files deleted, the URLs signed. */
function memoryDeps() {
  const models = new Map<string, StoredElevationModel>();
  const deletedFiles: unknown[][] = [];
  let counter = 0;
  const deps: ElevationModelDeps = {
    models: {
      create: async (model) => { models.set(model.elevation_model_id, model); },
      get: async (accountId, id) => { const model = models.get(id); return model?.account_id === accountId ? model : undefined; },
      list: async () => ({ items: [...models.values()], nextCursor: undefined }),
      delete: async (_accountId, id, lostAt) => {
        const model = models.get(id);
        if (!model || (lostAt === undefined ? model.status === 'processing' : model.updated_at !== lostAt)) return false;
        return models.delete(id);
      },
    },
    files: {
      maxUploadBytes: 1000,
      uploadKey: (accountId, id, part) => `uploads/${accountId}/${id}-${part}.tif`,
      uploadUrl: async (key, seconds) => `http://127.0.0.1/${key}?expires=${seconds}`,
      deleteModelFiles: async (...args) => { deletedFiles.push(args); },
    },
    cogs: { describe: async () => ({ epsg: 4269, resolution_m: 3.05, bbox: [-83, 27, -82, 28], nodata: -9999 }) },
    signedUrlSeconds: 300,
    newId: () => `em_${String(++counter).padStart(32, '0')}`,
  };
  return { deps, models, deletedFiles };
}

const DESCRIBED = { name: 'Pinellas lidar', vertical_datum: 'NGVD29' as const, units: 'ft' as const, ngvd29_to_navd88_m: -0.25 };

describe('elevation model use cases', () => {
  it('creates a pending upload whose URL and expiry come from the signed-URL lifetime', async () => {
    const { deps, models } = memoryDeps();
    const { model, uploadUrls, maxUploadBytes } = await createUploadModel(deps, ACCOUNT, DESCRIBED, NOW);
    expect(model).toMatchObject({ source: 'upload', status: 'pending', upload_key: `uploads/${ACCOUNT}/${model.elevation_model_id}-1.tif`, upload_expires_at: '2026-11-23T10:05:00.000Z' });
    expect(model).not.toHaveProperty('upload_keys');
    expect(uploadUrls).toEqual([`http://127.0.0.1/uploads/${ACCOUNT}/${model.elevation_model_id}-1.tif?expires=300`]);
    expect(maxUploadBytes).toBe(1000);
    expect(models.get(model.elevation_model_id)).toEqual(model);
  });

  it('creates a model in parts with one key and URL per part, in order, all deleted with it', async () => {
    const { deps, models, deletedFiles } = memoryDeps();
    const { model, uploadUrls } = await createUploadModel(deps, ACCOUNT, { ...DESCRIBED, parts: 3 }, NOW);
    const id = model.elevation_model_id;
    expect(model.upload_key).toBe(`uploads/${ACCOUNT}/${id}-1.tif`);
    expect(model.upload_keys).toEqual([1, 2, 3].map((part) => `uploads/${ACCOUNT}/${id}-${part}.tif`));
    expect(uploadUrls).toEqual([1, 2, 3].map((part) => `http://127.0.0.1/uploads/${ACCOUNT}/${id}-${part}.tif?expires=300`));
    expect(models.get(id)).toEqual(model);
    await deleteModel(deps, ACCOUNT, id, NOW);
    expect(deletedFiles).toEqual([[ACCOUNT, id, model.upload_keys, null]]);
  });

  it('registers a COG ready at once from its header, with no upload key', async () => {
    const { deps, models } = memoryDeps();
    const model = await registerCogModel(deps, ACCOUNT, DESCRIBED, 'https://lidar.example.org/dem.tif', NOW);
    expect(model).toMatchObject({
      source: 'cog_url', status: 'ready', cog_url: 'https://lidar.example.org/dem.tif', nodata: -9999,
      crs: { epsg: 4269, name: 'NAD83 (geographic)' }, resolution_m: 3.05, bbox: [-83, 27, -82, 28], ngvd29_to_navd88_m: -0.25,
    });
    expect(model.vertical_conversion).toMatch(/NGVD29/);
    expect(models.get(model.elevation_model_id)).not.toHaveProperty('upload_key');
  });

  it('deletes an upload with its files and a COG without touching any file', async () => {
    const { deps, models, deletedFiles } = memoryDeps();
    const { model: upload } = await createUploadModel(deps, ACCOUNT, DESCRIBED, NOW);
    const cog = await registerCogModel(deps, ACCOUNT, DESCRIBED, 'https://lidar.example.org/dem.tif', NOW);
    await deleteModel(deps, ACCOUNT, upload.elevation_model_id, NOW);
    await deleteModel(deps, ACCOUNT, cog.elevation_model_id, NOW);
    expect(deletedFiles).toEqual([[ACCOUNT, upload.elevation_model_id, [upload.upload_key], null]]);
    expect(models.size).toBe(0);
    await expect(getModel(deps, ACCOUNT, cog.elevation_model_id)).rejects.toBeInstanceOf(NotFoundError);
  });

  it('refuses to delete a model a live worker processes, and deletes it once that worker is lost', async () => {
    const { deps, models } = memoryDeps();
    const { model } = await createUploadModel(deps, ACCOUNT, DESCRIBED, NOW);
    const lease = { owner: 'worker_a', expires_at: '2026-11-23T10:16:00.000Z', attempt: 1 };
    models.set(model.elevation_model_id, { ...model, status: 'processing', lease, updated_at: '2026-11-23T10:00:30.000Z' });
    await expect(deleteModel(deps, ACCOUNT, model.elevation_model_id, new Date('2026-11-23T10:10:00.000Z'))).rejects.toBeInstanceOf(ConflictError);
    await deleteModel(deps, ACCOUNT, model.elevation_model_id, new Date('2026-11-23T10:17:00.000Z'));
    expect(models.size).toBe(0);
  });
});
