import type { NoGroundReason, SiteGround } from './ground';
import type { FloodModel } from './inundation';
import type { AssetPoint } from './spatial-index';
import type { WaterSurface } from './flood-surfaces';
import type { WetCells } from './rainfall-component';
import type { DesignStorm } from './rainfall-ponding';
import type { ScenarioId } from './vocabulary';

/**
 * What a flood analysis hands to those who build on its grids (exposure on assets, inundation
 * extents): its own module, so they need not import the analysis that calls them.
 */
export interface AssetSite {
  asset: AssetPoint;
  /** The asset's cell of the analysis grid (for its connection to open water); for a surveyed asset, the cell around it water reaches first (see surveyedSiteCell). */
  cell: number | undefined;
  /** Its own ground (surveyed, else the DEM at its location at native resolution), NAVD88 m. */
  ground: number | undefined;
  ground_basis?: SiteGround['basis'];
  /** `surveyed` or the elevation model that gave the ground; absent without ground. */
  ground_source?: string;
  /** Without ground: whether only a surface model covers the asset (`no_bare_earth`) or none (`outside_model`). */
  no_ground_reason?: NoGroundReason;
  /** The DEM marks the asset's own location as open water (and no surveyed elevation says otherwise); absent: judged by its cell. */
  open_water?: boolean;
  surface_flag?: boolean;
}

/** What `onSurfaces` receives; `surfaces` are keyed `<component>|<scenario>|<year>` (surge and rainfall: the 100-year event). */
export interface AnalysedSurfaces {
  model: FloodModel | undefined;
  mask: Uint8Array | undefined;
  sites: readonly AssetSite[];
  surfaces: ReadonlyMap<string, WaterSurface>;
  /** The MHHW (NAVD88, m) the tidal levels stand on at a place: its local station's, else its own gauges' (`mhhwAt`). */
  mhhwAt: (lon: number, lat: number) => number;
  /**
   * The design storm's ponding on the analysis grid (rainfall computed there, not read from layers):
   * the rainfall alone per cell (m, 0 where dry) and, with the compound component, the compound depth
   * at a cell of an asset per scenario × horizon (undefined where no coastal tailwater was computed).
   */
  ponding?: {
    storm: DesignStorm;
    rainfall: Float32Array;
    compoundAt?: (scenario: ScenarioId, year: number, cell: number) => number | undefined;
    /** The scenarios × horizons asked for: a storm's ponding stands in each, with or without coastal levels. */
    scenarioHorizons: readonly { scenario: ScenarioId; year: number }[];
  };
  /**
   * With the compound component computed on the grid: per scenario × horizon, its wet cells (the deeper of
   * the tidal and surge cases, depth > 0) with the area and depth the compound answer reports (`combined`).
   */
  compound?: { storm: DesignStorm; cases: readonly { scenario: string; year: number; wet: WetCells }[] };
}
