import type { Feature, FeatureCollection, Geometry, MultiLineString, MultiPolygon, Polygon } from 'geojson';
import type { StoredAsset } from '../assets/ports';
import { assetTypeInfo } from '../assets/classification';
import type { ComponentExtent, InundationExtent } from '../hazards/inundation-extents';
import { METRES_PER_FOOT, roundTo } from '../hazards/units';
import { FLOOD_COMPONENTS, type FloodComponent } from '../hazards/vocabulary';

/**
 * The layers of the GIS deliverable in WGS 84 (the writers project them to EPSG:3087): the
 * jurisdiction's boundary, the assets with their exposure attributes, the inundation extents per
 * scenario × horizon, the design storm's rainfall ponding and the compound flooding. Every asset is
 * in `assets` at its representative point; line and area assets are also in `asset_lines` /
 * `asset_areas` whole, with the same attributes (a Shapefile holds one shape type). Attribute names
 * fit the 10 characters of a dBASE field.
 */
export type LayerName = 'boundary' | 'assets' | 'asset_lines' | 'asset_areas' | 'inundation' | 'rainfall_ponding' | 'compound_flooding';

export interface GisLayer {
  name: LayerName;
  title: string;
  abstract: string;
  geometryType: 'POINT' | 'MULTILINESTRING' | 'MULTIPOLYGON';
  collection: FeatureCollection;
  /** Attribute definitions, in column order (FGDC `eainfo`). */
  attributes: { name: string; type: 'TEXT' | 'REAL' | 'INTEGER'; definition: string }[];
}

const SCENARIO_CODES: Record<string, string> = { low: 'L', intermediate_low: 'IL', intermediate: 'I', intermediate_high: 'IH', high: 'H' };

const comboField = (prefix: string, scenario: string, year: number) => `${prefix}_${SCENARIO_CODES[scenario] ?? scenario.slice(0, 2).toUpperCase()}_${year}`;

/** `D_IL_2046`: depth in feet for Intermediate-Low in 2046. */
export const depthField = (scenario: string, year: number) => comboField('D', scenario, year);

/** Per scenario × horizon: each component's depth in feet (`T_`, `S_`, `R_`, `C_`) and the governing component (`G_`), at most 9 characters. */
const COMPONENT_PREFIXES: Record<FloodComponent, string> = { tidal: 'T', surge: 'S', rainfall: 'R', compound: 'C' };
export const componentDepthField = (component: FloodComponent, scenario: string, year: number) => comboField(COMPONENT_PREFIXES[component], scenario, year);
export const governingField = (scenario: string, year: number) => comboField('G', scenario, year);

type Combo = { scenario: string; planning_horizon: number };

/** The per-component columns of the combinations (the package has them when some asset carries per-component depths). */
function componentAttributes(combos: readonly Combo[]): GisLayer['attributes'] {
  return combos.flatMap(({ scenario, planning_horizon: year }) => [
    ...FLOOD_COMPONENTS.map((component) => ({ name: componentDepthField(component, scenario, year), type: 'REAL' as const, definition: `${component} flood depth in feet, NOAA 2022 ${scenario} scenario, ${year} (empty: not analysed or no ground).` })),
    { name: governingField(scenario, year), type: 'TEXT' as const, definition: `Governing component (largest depth; ties: tidal, surge, rainfall, then compound), ${scenario} ${year}; empty when no depth.` },
  ]);
}

function componentValues(asset: StoredAsset, combos: readonly Combo[]): Record<string, unknown> {
  const entries = new Map((asset.exposure?.by_component ?? []).map((e) => [`${e.scenario}|${e.planning_horizon}`, e]));
  return Object.fromEntries(combos.flatMap(({ scenario, planning_horizon: year }) => {
    const entry = entries.get(`${scenario}|${year}`);
    return [
      ...FLOOD_COMPONENTS.map((component) => [componentDepthField(component, scenario, year), entry?.depth_ft[component] ?? null]),
      [governingField(scenario, year), entry?.governing_component ?? ''],
    ];
  }));
}

export function boundaryLayer(name: string, geometry: Polygon | MultiPolygon): GisLayer {
  const multi: MultiPolygon = geometry.type === 'Polygon' ? { type: 'MultiPolygon', coordinates: [geometry.coordinates] } : geometry;
  return {
    name: 'boundary',
    title: `${name} boundary`,
    abstract: `Boundary of ${name} used for the vulnerability assessment (U.S. Census Bureau cartographic boundary, 1:10,000,000, via us-atlas).`,
    geometryType: 'MULTIPOLYGON',
    collection: { type: 'FeatureCollection', features: [{ type: 'Feature', geometry: multi, properties: { NAME: name, TYPE: 'jurisdiction boundary' } }] },
    attributes: [
    { name: 'NAME', type: 'TEXT', definition: 'Name of the jurisdiction.' },
    { name: 'TYPE', type: 'TEXT', definition: 'Feature type: jurisdiction boundary.' },
    ],
  };
}

/** A line or area asset's whole geometry as one multi-part shape; undefined for points (and multipoints or collections, kept at their point here). */
export function assetFootprint(asset: StoredAsset): MultiLineString | MultiPolygon | undefined {
  const geometry = asset.geometry;
  switch (geometry?.type) {
    case 'LineString': return { type: 'MultiLineString', coordinates: [geometry.coordinates] };
    case 'Polygon': return { type: 'MultiPolygon', coordinates: [geometry.coordinates] };
    case 'MultiLineString': case 'MultiPolygon': return geometry;
    default: return undefined;
  }
}

/** A layer without its features: what a writer needs before the first row (the asset layers are written row by row). */
export type GisLayerHead = Omit<GisLayer, 'collection'>;

/** The columns of the asset layers: per-component depths only when `withComponents` (some asset carries them). */
export interface AssetColumns {
  combos: readonly Combo[];
  withComponents: boolean;
}

/** The asset layer (every asset at its representative point, in priority order), and the line and area layers sharing its attributes. */
export type AssetLayerName = Extract<LayerName, 'assets' | 'asset_lines' | 'asset_areas'>;

export function assetLayerHeads(columns: AssetColumns): Record<AssetLayerName, GisLayerHead> {
  const points: GisLayerHead = {
    name: 'assets',
    title: 'Critical assets with flood exposure',
    abstract: 'Critical and regionally significant assets of the inventory (s. 380.093(2)(a) categories), in priority order, with the flood depth per sea level rise scenario and planning horizon, first exposed year and vulnerability score written by the flood analysis.',
    geometryType: 'POINT',
    attributes: assetAttributes(columns),
  };
  return {
    assets: points,
    asset_lines: { ...points, name: 'asset_lines', title: 'Critical assets drawn as lines', geometryType: 'MULTILINESTRING' },
    asset_areas: { ...points, name: 'asset_areas', title: 'Critical assets drawn as areas', geometryType: 'MULTIPOLYGON' },
  };
}

/** The layer an asset's footprint goes to, beside its point. */
export const footprintLayer = (footprint: MultiLineString | MultiPolygon): AssetLayerName => (footprint.type === 'MultiLineString' ? 'asset_lines' : 'asset_areas');

/** One asset's row of the asset layers (and of the workbook), at `priority` in the prioritized list. */
export function assetProperties(asset: StoredAsset, priority: number, columns: AssetColumns): Record<string, unknown> {
  const depths = new Map((asset.exposure?.depths ?? []).map((d) => [`${d.scenario}|${d.planning_horizon}`, d.depth_ft]));
  return {
    PRIORITY: priority,
    ASSET_ID: asset.asset_id,
    NAME: asset.name,
    ASSET_TYPE: asset.asset_type ? assetTypeInfo(asset.asset_type)?.label ?? asset.asset_type : 'unclassified',
    CATEGORY: asset.category,
    OWNER: asset.owner ?? '',
    ADDRESS: asset.address ?? '',
    SOURCE_ID: asset.source_id ?? '',
    VULN_SCORE: asset.vulnerability?.vulnerability_score ?? null,
    VULN_LEVEL: asset.vulnerability_level,
    TIMELINE: asset.impact_timeline,
    FIRST_EXP: asset.vulnerability?.first_exposed_year ?? asset.exposure?.first_exposed_year ?? null,
    MAX_DEP_FT: asset.exposure?.max_depth_ft ?? null,
    GROUND_M: asset.exposure?.ground_elevation_navd88_m ?? null,
    GROUND_SRC: asset.exposure?.ground_source ?? '',
    NODEP_WHY: asset.exposure?.reason ?? '',
    DATUM_CHK: asset.exposure?.tidal_datum_check?.status ?? '',
    DATUM_DM: asset.exposure?.tidal_datum_check?.difference_m ?? null,
    ...Object.fromEntries(columns.combos.map((c) => [depthField(c.scenario, c.planning_horizon), depths.get(`${c.scenario}|${c.planning_horizon}`) ?? null])),
    ...(columns.withComponents ? componentValues(asset, columns.combos) : {}),
  };
}

/** The asset layers of assets already in priority order, whole (the package writes the same rows one at a time). */
export function assetLayers(assets: readonly StoredAsset[], combos: readonly Combo[]): GisLayer[] {
  const columns: AssetColumns = { combos, withComponents: assets.some((a) => a.exposure?.by_component) };
  const heads = assetLayerHeads(columns);
  const features: Record<AssetLayerName, Feature[]> = { assets: [], asset_lines: [], asset_areas: [] };
  assets.forEach((asset, index) => {
    const properties = assetProperties(asset, index + 1, columns);
    features.assets.push({ type: 'Feature', geometry: { type: 'Point', coordinates: [asset.lon, asset.lat] }, properties });
    const shape = assetFootprint(asset);
    if (shape) features[footprintLayer(shape)].push({ type: 'Feature', geometry: shape, properties });
  });
  return (Object.keys(heads) as AssetLayerName[])
    .filter((name) => name === 'assets' || features[name].length > 0)
    .map((name) => ({ ...heads[name], collection: { type: 'FeatureCollection', features: features[name] } }));
}

export function assetLayer(assets: readonly StoredAsset[], combos: readonly Combo[]): GisLayer {
  return assetLayers(assets, combos)[0]!;
}

function assetAttributes({ combos, withComponents }: AssetColumns): GisLayer['attributes'] {
  return [
    { name: 'PRIORITY', type: 'INTEGER', definition: 'Rank in the prioritized list (1 = highest vulnerability score).' },
    { name: 'ASSET_ID', type: 'TEXT', definition: 'Identifier of the asset in the inventory.' },
    { name: 'NAME', type: 'TEXT', definition: 'Asset name.' },
    { name: 'ASSET_TYPE', type: 'TEXT', definition: 'Statute asset type (s. 380.093(2)(a)).' },
    { name: 'CATEGORY', type: 'TEXT', definition: 'Statute category.' },
    { name: 'OWNER', type: 'TEXT', definition: 'Owner as imported.' },
    { name: 'ADDRESS', type: 'TEXT', definition: 'Address as imported.' },
    { name: 'SOURCE_ID', type: 'TEXT', definition: 'Identifier in the source file.' },
    { name: 'VULN_SCORE', type: 'REAL', definition: 'Vulnerability = exposure × sensitivity × (1 − adaptive capacity), 0–1.' },
    { name: 'VULN_LEVEL', type: 'TEXT', definition: 'Vulnerability level (low, moderate, high, very_high, not_assessed).' },
    { name: 'TIMELINE', type: 'TEXT', definition: 'Impact timeline from the first exposed year.' },
    { name: 'FIRST_EXP', type: 'INTEGER', definition: 'Earliest planning horizon with a flood depth above 0.' },
    { name: 'MAX_DEP_FT', type: 'REAL', definition: 'Largest flood depth over scenarios and horizons, feet.' },
    { name: 'GROUND_M', type: 'REAL', definition: 'Ground elevation at the asset, metres NAVD88 (screening-level DEM).' },
    { name: 'GROUND_SRC', type: 'TEXT', definition: 'The ground the depths stand on: surveyed (the asset\'s own surveyed elevation) or the id of the elevation model read at the asset.' },
    { name: 'NODEP_WHY', type: 'TEXT', definition: 'Why no flood depth is given: not_connected (no design water surface reaches it), open_water, no_bare_earth (only a surface model covers it), outside_model (no elevation and nothing surveyed), above_water_level; empty when exposed.' },
    { name: 'DATUM_CHK', type: 'TEXT', definition: 'Local tidal datum check at the asset (agrees, differs, no_station_nearby): the MHHW of its sea level gauges against that of the nearest NOAA reference station within 10 km; empty without tidal levels.' },
    { name: 'DATUM_DM', type: 'REAL', definition: 'That station\'s MHHW minus the MHHW used, metres: below -0.1 the tidal depths may be too deep by about that much, above 0.1 too shallow.' },
    ...combos.map((c) => ({ name: depthField(c.scenario, c.planning_horizon), type: 'REAL' as const, definition: `Flood depth in feet, NOAA 2022 ${c.scenario} scenario, ${c.planning_horizon}.` })),
    ...(withComponents ? componentAttributes(combos) : []),
  ];
}

export function inundationLayer(extents: readonly InundationExtent[]): GisLayer {
  return {
    name: 'inundation',
    title: 'Inundation extents per scenario and planning horizon',
    abstract: 'Land inundated by the highest design water level of the flood components analysed (tidal: projected MHHW; surge and rainfall: the 100-year event), per NOAA 2022 sea level rise scenario and planning horizon, traced on the elevation grid of the analysis. Screening level.',
    geometryType: 'MULTIPOLYGON',
    collection: {
      type: 'FeatureCollection',
      features: extents.filter((e) => e.geometry.coordinates.length > 0).map((e) => ({
        type: 'Feature',
        geometry: e.geometry as Geometry,
        properties: { NAME: `${e.scenario} ${e.planning_horizon} inundation`, TYPE: 'inundation extent', SCENARIO: e.scenario, HORIZON: e.planning_horizon, COMPONENTS: e.components.join('+'), AREA_KM2: e.area_km2 },
      })),
    },
    attributes: [
    { name: 'NAME', type: 'TEXT', definition: 'Scenario, horizon and layer.' },
    { name: 'TYPE', type: 'TEXT', definition: 'Feature type: inundation extent.' },
    { name: 'SCENARIO', type: 'TEXT', definition: 'NOAA 2022 sea level rise scenario.' },
    { name: 'HORIZON', type: 'INTEGER', definition: 'Planning horizon (year).' },
    { name: 'COMPONENTS', type: 'TEXT', definition: 'Flood components enveloped.' },
    { name: 'AREA_KM2', type: 'REAL', definition: 'Inundated land area, km².' },
    ],
  };
}

const COMPONENT_LAYERS = {
  rainfall: {
    name: 'rainfall_ponding',
    title: 'Rainfall ponding per design storm',
    abstract: 'Land where the design storm\'s runoff ponds (ponded depth above 0): depression storage on the elevation grid of the analysis filled by fill–spill–merge (each depression from its own catchment, overflow spilling downstream until it leaves the model or reaches open water), one feature per design storm, over the analysis grid (the boundary\'s bounding box). Screening level: not a hydraulic model, no pipes, culverts or pumps, no infiltration beyond the stated runoff.',
  },
  compound: {
    name: 'compound_flooding',
    title: 'Compound flooding per scenario and planning horizon',
    abstract: 'Land wet when the design storm\'s runoff ponds against a coastal tailwater (projected MHHW, and the 100-year still-water level), combined with the coastal water itself: at each place the deeper of the tidal and surge cases (compound depth above 0), one feature per NOAA 2022 sea level rise scenario and planning horizon, over the analysis grid (the boundary\'s bounding box). Screening level: level-pool, no joint probability of rain and tide or surge, no pipes.',
  },
} as const;

/**
 * The layer of one component's extents (`rainfall` ponding or `compound` flooding). `area_km2` is
 * taken as given: the package measures each extent in EPSG:3087 (albersAreaM2) before it builds the layers.
 */
export function componentExtentLayer(component: 'rainfall' | 'compound', extents: readonly ComponentExtent[]): GisLayer {
  const { name, title, abstract } = COMPONENT_LAYERS[component];
  const label = (e: ComponentExtent) => (e.scenario === null ? `${e.storm?.return_period_years}-year ${e.storm?.duration_h}-hour storm` : `${e.scenario} ${e.planning_horizon}`);
  return {
    name,
    title,
    abstract,
    geometryType: 'MULTIPOLYGON',
    collection: {
      type: 'FeatureCollection',
      features: extents.filter((e) => e.component === component && e.geometry.coordinates.length > 0).map((e) => ({
        type: 'Feature',
        geometry: e.geometry as Geometry,
        properties: {
          NAME: `${label(e)} ${component === 'rainfall' ? 'rainfall ponding' : 'compound flooding'}`,
          COMPONENT: component,
          SCENARIO: e.scenario ?? '',
          HORIZON: e.planning_horizon,
          STORM_RP: e.storm?.return_period_years ?? null,
          STORM_MM: e.storm?.depth_mm ?? null,
          STORM_H: e.storm?.duration_h ?? null,
          AREA_KM2: e.area_km2,
          MAX_DEP_M: e.max_depth_m,
          MAX_DEP_FT: roundTo(e.max_depth_m / METRES_PER_FOOT, 3),
        },
      })),
    },
    attributes: [
    { name: 'NAME', type: 'TEXT', definition: 'Storm or scenario and horizon, and layer.' },
    { name: 'COMPONENT', type: 'TEXT', definition: `Flood component: ${component}.` },
    { name: 'SCENARIO', type: 'TEXT', definition: 'NOAA 2022 sea level rise scenario; empty for rainfall ponding (the storm alone).' },
    { name: 'HORIZON', type: 'INTEGER', definition: 'Planning horizon (year); empty for rainfall ponding.' },
    { name: 'STORM_RP', type: 'INTEGER', definition: 'Design storm return period, years.' },
    { name: 'STORM_MM', type: 'REAL', definition: 'Design storm rainfall depth, mm.' },
    { name: 'STORM_H', type: 'REAL', definition: 'Design storm duration, hours.' },
    { name: 'AREA_KM2', type: 'REAL', definition: 'Area of the polygons in EPSG:3087 (equal-area), km².' },
    { name: 'MAX_DEP_M', type: 'REAL', definition: 'Deepest water on the extent, metres.' },
    { name: 'MAX_DEP_FT', type: 'REAL', definition: 'Deepest water on the extent, feet.' },
    ],
  };
}
