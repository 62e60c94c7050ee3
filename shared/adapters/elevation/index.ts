import { appConfig } from '../../config';
import type { ElevationSource } from '../../domain/hazards/elevation';
import { CogElevationSource } from './cog-s3';
import { SrtmTileSource } from './srtm-tiles';

let source: ElevationSource | undefined;

/** Local mode reads the bundled SRTM tiles; AWS reads COG DEMs from the bucket's `dem/` prefix. */
export function defaultElevationSource(): ElevationSource {
  source ??= appConfig().APP_MODE === 'local' ? new SrtmTileSource() : new CogElevationSource();
  return source;
}
