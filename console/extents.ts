import type { components } from '../clients/typescript/src';

export type ComponentExtent = components['schemas']['ComponentExtent'];
type FloodComponent = ComponentExtent['component'];

/** One scenario × horizon of the analysis: the inundated land of all components (their envelope), as the API traced it. */
export interface InundationExtent {
  type: 'Feature';
  properties: { scenario: string; planning_horizon: number; km2?: number };
  geometry: object | null;
}

/** The flood-analysis answer's extents (`include_extents: true`). */
export interface AnalysisExtents {
  inundation_extents?: InundationExtent[];
  component_extents?: ComponentExtent[];
}

/** What the component selector offers: the envelope, then each component's own extent. */
export type ExtentLayer = 'envelope' | FloodComponent;

export const EXTENT_LAYERS: { value: ExtentLayer; label: string; colour: string }[] = [
  { value: 'envelope', label: 'All components (envelope)', colour: '#2471a3' },
  { value: 'tidal', label: 'Tidal', colour: '#148f77' },
  { value: 'surge', label: 'Storm surge', colour: '#7d3c98' },
  { value: 'rainfall', label: 'Rainfall ponding', colour: '#b7950b' },
  { value: 'compound', label: 'Compound', colour: '#ba4a00' },
];

/** The extent drawn on the map and described in the legend; `feature` is null when there is none to draw. */
export interface ShownExtent {
  layer: ExtentLayer;
  colour: string;
  description: string;
  feature: object | null;
}

const words = (value: string) => value.replaceAll('_', ' ');

function stormWords(storm: NonNullable<ComponentExtent['storm']>): string {
  return `${storm.return_period_years}-year ${storm.duration_h} h storm (${storm.depth_mm} mm)`;
}

/** "Tidal, intermediate 2050: 1.2345 km², deepest 0.8 m"; rainfall ponding names its storm instead of a scenario. */
function componentDescription(label: string, extent: ComponentExtent): string {
  const when = extent.scenario === null ? [] : [`${words(extent.scenario)} ${extent.planning_horizon}`];
  const storm = extent.storm ? [stormWords(extent.storm)] : [];
  return `${label}, ${[...when, ...storm].join(', ')}: ${extent.area_km2} km², deepest ${extent.max_depth_m} m`;
}

/**
 * The extent of a layer at one scenario × horizon. Rainfall ponding has one extent per design storm,
 * whatever the sea level, so it is the same at every step of the slider. A component the analysis
 * did not trace (no design storm for rainfall and compound, or no data) is said so, not drawn.
 */
export function extentAt(layer: ExtentLayer, envelope: InundationExtent | undefined, componentExtents: readonly ComponentExtent[]): ShownExtent {
  const { label, colour } = EXTENT_LAYERS.find((candidate) => candidate.value === layer)!;
  if (layer === 'envelope') {
    if (!envelope) return { layer, colour, description: `${label}: no extent`, feature: null };
    const { scenario, planning_horizon: horizon, km2 } = envelope.properties;
    return { layer, colour, description: `${label}, ${words(scenario)} ${horizon}${km2 === undefined ? '' : `: ${km2} km²`}`, feature: envelope.geometry ? envelope : null };
  }
  const extent = componentExtents.find((candidate) => candidate.component === layer
    && (layer === 'rainfall' || (candidate.scenario === envelope?.properties.scenario && candidate.planning_horizon === envelope?.properties.planning_horizon)));
  if (!extent) {
    const needsStorm = layer === 'rainfall' || layer === 'compound' ? ' (it needs a design storm: give one above, or store the jurisdiction\'s)' : '';
    return { layer, colour, description: `${label}: not traced by this analysis${needsStorm}`, feature: null };
  }
  return { layer, colour, description: componentDescription(label, extent), feature: { type: 'Feature', geometry: extent.geometry, properties: {} } };
}
