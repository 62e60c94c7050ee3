import type { MultiPolygon, Polygon } from 'geojson';
import type { StoredAsset } from '../assets/ports';
import { DESIGN_RETURN_PERIOD_YEARS } from '../hazards/vocabulary';
import type { InundationExtent } from './inundation-extents';
import { DEPTH_CLASSES, depthClass, mapDrawing, VULNERABILITY_CLASSES, type MapDrawing } from './maps';

/**
 * The report's maps: the assets by vulnerability level, then one map per scenario and horizon
 * with its inundated land and each asset's depth there, so maps of different scenarios differ
 * wherever their water does.
 */
export interface ReportMapsInput {
  jurisdiction: string;
  boundary: Polygon | MultiPolygon;
  assets: readonly StoredAsset[];
  extents: readonly InundationExtent[];
  sources: readonly { name: string; version?: string }[];
}

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

export function reportMaps(input: ReportMapsInput): MapDrawing[] {
  const source = sourceLine(input.sources);
  const overview = mapDrawing({
    title: `${input.jurisdiction}: critical assets by vulnerability level`,
    subtitle: 'Vulnerability over every scenario and horizon analysed (section 7 lists them in priority order).',
    jurisdiction: input.jurisdiction,
    boundary: input.boundary,
    assets: input.assets.map((a) => ({ lon: a.lon, lat: a.lat, class: a.vulnerability_level, exposed: (a.exposure?.max_depth_ft ?? 0) > 0 })),
    classes: VULNERABILITY_CLASSES,
    source,
  });
  return [overview, ...input.extents.map((extent) => {
    // Null (no depth: grey) for an asset not analysed or without ground; 0 where the water stops short of it.
    const depthAt = (asset: StoredAsset) => asset.exposure?.depths.find((d) => d.scenario === extent.scenario && d.planning_horizon === extent.planning_horizon)?.depth_ft ?? null;
    return mapDrawing({
      title: `Inundation: NOAA 2022 ${scenarioName(extent.scenario)}, ${extent.planning_horizon}`,
      subtitle: `${input.jurisdiction}. Water: ${componentsLabel(extent.components)}, the highest level in each cell. Assets by their flood depth here.`,
      jurisdiction: input.jurisdiction,
      boundary: input.boundary,
      assets: input.assets.map((a) => {
        const depth = depthAt(a);
        return { lon: a.lon, lat: a.lat, class: depthClass(depth), exposed: (depth ?? 0) > 0 };
      }),
      classes: DEPTH_CLASSES,
      inundation: { geometry: extent.geometry, label: `Inundated land (${componentsLabel(extent.components)})` },
      source,
    });
  })];
}
