import type { MultiPolygon, Polygon } from 'geojson';
import type { StoredAsset } from '../assets/ports';
import { DESIGN_RETURN_PERIOD_YEARS } from '../hazards/vocabulary';
import { METRES_PER_FOOT } from '../hazards/units';
import type { ComponentExtent, InundationExtent } from '../hazards/inundation-extents';
import { DEPTH_CLASSES, depthClass, mapDrawing, VULNERABILITY_CLASSES, type MapAsset, type MapDrawing, type MapInput } from './maps';

/**
 * The report's maps: the assets by vulnerability level, then one map per scenario and horizon
 * with its inundated land and each asset's depth there, so maps of different scenarios differ
 * wherever their water does; then the rainfall ponding of each design storm and the compound
 * flooding (see `compoundMapExtents` for which), each asset classed by that component's depth.
 */
export interface ReportMapsInput {
  jurisdiction: string;
  boundary: Polygon | MultiPolygon;
  assets: readonly StoredAsset[];
  extents: readonly InundationExtent[];
  /** Measured as their layers are (AREA_KM2 of rainfall_ponding and compound_flooding). */
  componentExtents?: readonly ComponentExtent[];
  sources: readonly { name: string; version?: string }[];
}

/** km² to four significant figures (at least two decimals), so the printed area is within 0.05 % of the layer's. */
export function formatArea(km2: number | null): string {
  if (km2 === null) return '—';
  if (km2 === 0) return '0';
  return km2.toFixed(Math.max(2, 3 - Math.floor(Math.log10(Math.abs(km2)))));
}

/** Up to this many scenario × horizon pairs, each gets a compound flooding map. */
export const COMPOUND_MAP_LIMIT = 6;

/**
 * The compound extents the report maps: every scenario × horizon with water up to COMPOUND_MAP_LIMIT,
 * beyond it one per scenario, its horizon with the most compound land (the later on a tie), so the
 * report's pages stay bounded however many pairs were analysed.
 */
export function compoundMapExtents(extents: readonly ComponentExtent[]): ComponentExtent[] {
  const wet = extents.filter((e) => e.component === 'compound' && e.geometry.coordinates.length > 0);
  if (wet.length <= COMPOUND_MAP_LIMIT) return wet;
  const worst = new Map<string, ComponentExtent>();
  for (const e of wet) {
    const held = worst.get(e.scenario!);
    if (!held || e.area_km2 > held.area_km2 || (e.area_km2 === held.area_km2 && e.planning_horizon! > held.planning_horizon!)) worst.set(e.scenario!, e);
  }
  return wet.filter((e) => worst.get(e.scenario!) === e);
}

/** `100-year 24-hour storm (330.2 mm)`. */
export const stormLabel = (storm: ComponentExtent['storm']) => (storm ? `${storm.return_period_years}-year ${storm.duration_h}-hour storm (${storm.depth_mm} mm)` : 'design storm');

const PONDING_METHOD = 'Method: the storm\'s runoff filled into the ground grid\'s depressions by fill–spill–merge. Screening level: no pipes, no infiltration beyond the stated runoff.';
const COMPOUND_METHOD = 'Method: fill–spill–merge on the ground grid against the tailwater (MHHW; 100-yr still water), the deeper case per cell. Screening level, no pipes.';

const SCENARIO_NAMES: Record<string, string> = {
  low: 'Low', intermediate_low: 'Intermediate-Low', intermediate: 'Intermediate', intermediate_high: 'Intermediate-High', high: 'High',
};

export const scenarioName = (scenario: string) => SCENARIO_NAMES[scenario] ?? scenario;

/** `tidal + surge (100-yr)`: the components a map's water envelopes, with the event of those that have one. */
export const componentsLabel = (components: readonly string[]) => components
  .map((c) => (c === 'surge' || c === 'rainfall' ? `${c} (${DESIGN_RETURN_PERIOD_YEARS}-yr)` : c)).join(' + ');

function sourceLine(sources: ReportMapsInput['sources']): string {
  // The first, named up to its first parenthesis or comma: the line fits the page; the appendix has them all.
  const first = sources[0]?.name.replace(/\s*[(,].*$/, '');
  return `Sources: U.S. Census Bureau counties (2010 tracts), places (2018) and population (Vintage 2019)${first ? `; ${first}` : ''}; the others and their versions in the appendix.`;
}

/** One map of the report: its wording and water, and how it classes an asset. */
export interface ReportMapSpec extends Omit<MapInput, 'jurisdiction' | 'boundary' | 'assets'> {
  classify(asset: StoredAsset): { class: string; exposed: boolean };
}

/** The report's maps without their assets: an overview by vulnerability, one per scenario × horizon, then the component maps. */
export function reportMapSpecs(input: Omit<ReportMapsInput, 'assets' | 'boundary'>): ReportMapSpec[] {
  const source = sourceLine(input.sources);
  const overview: ReportMapSpec = {
    title: `${input.jurisdiction}: critical assets by vulnerability level`,
    subtitle: 'Vulnerability over every scenario and horizon analysed (section 7 lists them in priority order).',
    classes: VULNERABILITY_CLASSES,
    source,
    classify: (a) => ({ class: a.vulnerability_level, exposed: (a.exposure?.max_depth_ft ?? 0) > 0 }),
  };
  const envelopes = input.extents.map((extent): ReportMapSpec => {
    // Null (no depth: grey) for an asset not analysed or without ground; 0 where the water stops short of it.
    const depthAt = (asset: StoredAsset) => asset.exposure?.depths.find((d) => d.scenario === extent.scenario && d.planning_horizon === extent.planning_horizon)?.depth_ft ?? null;
    return {
      title: `Inundation: NOAA 2022 ${scenarioName(extent.scenario)}, ${extent.planning_horizon}`,
      subtitle: `${input.jurisdiction}. Water: ${componentsLabel(extent.components)}, the highest level in each cell. Assets by their flood depth here.`,
      classes: DEPTH_CLASSES,
      inundation: { geometry: extent.geometry, label: `Inundated land (${componentsLabel(extent.components)})` },
      source,
      classify: (a) => depthDot(depthAt(a)),
    };
  });
  return [overview, ...envelopes, ...componentMaps(input, source)];
}

const depthDot = (depth: number | null) => ({ class: depthClass(depth), exposed: (depth ?? 0) > 0 });

/**
 * Every asset's place and class on each map, a few numbers an asset, gathered as the inventory is
 * read page by page; a map's dots are made when it is drawn.
 */
export class ReportMapDots {
  private readonly lons: number[] = [];
  private readonly lats: number[] = [];
  /** Per map and asset: the class's index times two, plus one when exposed. */
  private readonly codes: number[][];

  constructor(readonly specs: readonly ReportMapSpec[]) {
    this.codes = specs.map(() => []);
  }

  add(asset: StoredAsset): void {
    this.lons.push(asset.lon);
    this.lats.push(asset.lat);
    this.specs.forEach((spec, i) => {
      const dot = spec.classify(asset);
      // A class outside the legend is kept as the index past its end (drawn grey).
      const index = spec.classes.findIndex((c) => c.key === dot.class);
      this.codes[i]!.push((index < 0 ? spec.classes.length : index) * 2 + (dot.exposed ? 1 : 0));
    });
  }

  dots(map: number): MapAsset[] {
    const { classes } = this.specs[map]!;
    return this.codes[map]!.map((code, i) => ({ lon: this.lons[i]!, lat: this.lats[i]!, class: classes[code >> 1]?.key ?? '', exposed: (code & 1) === 1 }));
  }
}

export function drawReportMap(spec: ReportMapSpec, place: Pick<MapInput, 'jurisdiction' | 'boundary'>, assets: readonly MapAsset[]): MapDrawing {
  const { classify: _classify, ...wording } = spec;
  return mapDrawing({ ...wording, ...place, assets });
}

/** The report's maps of assets held whole. */
export function reportMaps(input: ReportMapsInput): MapDrawing[] {
  const dots = new ReportMapDots(reportMapSpecs(input));
  for (const asset of input.assets) dots.add(asset);
  return dots.specs.map((spec, i) => drawReportMap(spec, input, dots.dots(i)));
}

/** The component's depth (ft) at the asset: rainfall is the storm's alone, compound the pair's; null without one. */
function componentDepthFt(asset: StoredAsset, extent: ComponentExtent): number | null {
  const entries = asset.exposure?.by_component ?? [];
  if (extent.component === 'compound') return entries.find((e) => e.scenario === extent.scenario && e.planning_horizon === extent.planning_horizon)?.depth_ft.compound ?? null;
  return entries.find((e) => e.depth_ft.rainfall !== null)?.depth_ft.rainfall ?? null;
}

function componentMaps(input: Pick<ReportMapsInput, 'jurisdiction' | 'componentExtents'>, source: string): ReportMapSpec[] {
  const extents = input.componentExtents ?? [];
  const ponding = extents.filter((e) => e.component === 'rainfall' && e.geometry.coordinates.length > 0);
  return [...ponding, ...compoundMapExtents(extents)].map((extent) => {
    const rainfall = extent.component === 'rainfall';
    const layer = rainfall ? 'rainfall_ponding' : 'compound_flooding';
    const land = `${formatArea(extent.area_km2)} km², deepest ${(extent.max_depth_m / METRES_PER_FOOT).toFixed(2)} ft (layer ${layer})`;
    return {
      title: rainfall
        ? `Rainfall ponding: ${stormLabel(extent.storm)}`
        : `Compound flooding: NOAA 2022 ${scenarioName(extent.scenario!)}, ${extent.planning_horizon}, ${stormLabel(extent.storm)}`,
      subtitle: `${input.jurisdiction}. ${rainfall ? 'Ponded' : 'Wet'} land ${land}. Assets by their ${extent.component} depth here.`,
      classes: DEPTH_CLASSES,
      inundation: { geometry: extent.geometry, label: `${rainfall ? 'Rainfall ponding' : 'Compound flooding'}, depth above 0 (layer ${layer})` },
      method: rainfall ? PONDING_METHOD : COMPOUND_METHOD,
      source,
      classify: (a) => depthDot(componentDepthFt(a, extent)),
    };
  });
}
