import { appConfig } from '../../config';
import type { ElevationSource } from '../../domain/hazards/elevation';
import path from 'node:path';
import { HttpCogElevationSource } from './cog-http';
import { CogElevationSource } from './cog-s3';
import { LayeredElevationSource, type ModelLayer } from './layered';
import { SrtmTileSource } from './srtm-tiles';
import { modelsIn, type TiledModelSource } from './tiled-model';

/** Bare-earth models bundled for the demo areas (USGS 7.5-minute quads, converted to NAVD88). */
export const BUNDLED_MODELS_DIR = path.resolve(__dirname, '../../data/dem');

let source: ElevationSource | undefined;
let bundled: TiledModelSource[] | undefined;
let operatorDems: ElevationSource | undefined;
let surface: ElevationSource | undefined;
let statewide: ElevationSource | undefined;
let statewideFromConfig = true;

const local = () => appConfig().APP_MODE === 'local';
/**
 * Locally the bundled quads are read directly until a statewide source is configured; then they are
 * read through it (the local statewide COGs are built from them), as the statewide tiles are in AWS.
 */
const bundledModels = () => (bundled ??= local() && !configuredStatewideUrl() ? modelsIn(BUNDLED_MODELS_DIR) : []);
const configuredStatewideUrl = () => appConfig().STATEWIDE_DEM_URL_TEMPLATE;

/**
 * The statewide bare-earth source, read where no account or operator model covers a point: a
 * Cloud-Optimized GeoTIFF reader of 1° tiles by HTTP range requests (USGS 3DEP 1/3 arc-second in
 * AWS, COGs of the bundled quads over 127.0.0.1 locally), from `STATEWIDE_DEM_URL_TEMPLATE` and
 * `STATEWIDE_DEM_TILES`, or the one installed with `useStatewideBareEarth`; without either, none.
 */
export function statewideBareEarth(): ElevationSource | undefined {
  if (!statewide && statewideFromConfig) statewide = configuredStatewide();
  return statewide;
}

function configuredStatewide(): ElevationSource | undefined {
  const { STATEWIDE_DEM_URL_TEMPLATE: urlTemplate, STATEWIDE_DEM_TILES: tiles } = appConfig();
  if (!urlTemplate || !tiles) return undefined;
  return new HttpCogElevationSource({
    urlTemplate,
    tiles: tiles.split(',').map((t) => t.trim()),
    elevationModelId: STATEWIDE_MODEL_ID,
    name: 'Statewide bare-earth DEM (1° Cloud-Optimized GeoTIFF tiles, NAVD88)',
    nativeResolution: 'per tile (USGS 3DEP: 1/3 arc-second)',
  });
}

/** The id answers name the statewide source by (`ground_source`, `elevation.sources`). */
export const STATEWIDE_MODEL_ID = 'statewide-cog';

/**
 * Installs (or, with undefined, removes) the statewide bare-earth source in place of the configured
 * one; the default source is rebuilt with it.
 */
export function useStatewideBareEarth(next: ElevationSource | undefined): void {
  statewide = next;
  statewideFromConfig = false;
  source = undefined;
}

/**
 * What is read after the models, in order: in AWS the operator's COG DEMs in the bucket's `dem/`
 * prefix, then the statewide bare-earth source; locally the statewide source, then the bundled SRTM
 * tiles, a surface model that the analyses use only when the caller allows it.
 */
function fallbacks(): ElevationSource[] {
  const state = statewideBareEarth();
  if (local()) return [...(state ? [state] : []), (surface ??= new SrtmTileSource())];
  return [(operatorDems ??= new CogElevationSource()), ...(state ? [state] : [])];
}

/** Ground order at a point: the bundled bare-earth models (local mode), then `fallbacks()`. */
export function defaultElevationSource(): ElevationSource {
  source ??= new LayeredElevationSource(bundledModels(), ...fallbacks());
  return source;
}

/** The default source with `leading` models (an account's own, then the operator's) read first wherever they cover the point. */
export function elevationSourceWith(leading: readonly ModelLayer[]): ElevationSource {
  return leading.length === 0 ? defaultElevationSource() : new LayeredElevationSource([...leading, ...bundledModels()], ...fallbacks());
}
