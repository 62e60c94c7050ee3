import { appConfig } from '../../config';
import type { ElevationSource } from '../../domain/hazards/elevation';
import path from 'node:path';
import { CogElevationSource } from './cog-s3';
import { LayeredElevationSource } from './layered';
import { SrtmTileSource } from './srtm-tiles';
import { modelsIn } from './tiled-model';

/** Bare-earth models bundled for the demo areas (USGS 7.5-minute quads, converted to NAVD88). */
export const BUNDLED_MODELS_DIR = path.resolve(__dirname, '../../data/dem');

let source: ElevationSource | undefined;

/**
 * Local mode reads the bundled bare-earth models where they cover the point and the bundled SRTM
 * tiles (a surface model) elsewhere; AWS reads COG DEMs from the bucket's `dem/` prefix.
 */
export function defaultElevationSource(): ElevationSource {
  source ??= appConfig().APP_MODE === 'local'
    ? new LayeredElevationSource(modelsIn(BUNDLED_MODELS_DIR), new SrtmTileSource())
    : new CogElevationSource();
  return source;
}
