import { appConfig } from '../../config';
import type { ElevationSource } from '../../domain/hazards/elevation';
import path from 'node:path';
import { CogElevationSource } from './cog-s3';
import { LayeredElevationSource } from './layered';
import { SrtmTileSource } from './srtm-tiles';
import { modelsIn, type TiledModelSource } from './tiled-model';

/** Bare-earth models bundled for the demo areas (USGS 7.5-minute quads, converted to NAVD88). */
export const BUNDLED_MODELS_DIR = path.resolve(__dirname, '../../data/dem');

let source: ElevationSource | undefined;
let bundled: TiledModelSource[] | undefined;
let fallback: ElevationSource | undefined;

const local = () => appConfig().APP_MODE === 'local';
const bundledModels = () => (bundled ??= local() ? modelsIn(BUNDLED_MODELS_DIR) : []);
const fallbackSource = () => (fallback ??= local() ? new SrtmTileSource() : new CogElevationSource());

/**
 * Local mode reads the bundled bare-earth models where they cover the point and the bundled SRTM
 * tiles (a surface model) elsewhere; AWS reads COG DEMs from the bucket's `dem/` prefix.
 */
export function defaultElevationSource(): ElevationSource {
  source ??= local() ? new LayeredElevationSource(bundledModels(), fallbackSource()) : fallbackSource();
  return source;
}

/** The default source with `leading` models (an account's own) read first wherever they cover the point. */
export function elevationSourceWith(leading: readonly TiledModelSource[]): ElevationSource {
  return leading.length === 0 ? defaultElevationSource() : new LayeredElevationSource([...leading, ...bundledModels()], fallbackSource());
}
