import { geoConicEqualArea, geoPath } from 'd3-geo';
import type { Feature, FeatureCollection, MultiPolygon, Polygon, Position } from 'geojson';
import { floridaCountyBoundaries } from '../hazards/florida-counties';

/**
 * Maps of the report, drawn server-side: d3-geo paths in Florida GDL Albers (the deliverable's
 * projection) → SVG, rasterised to PNG by the `PngRenderer` port (resvg, no browser). The base is the county outlines; on it the
 * jurisdiction's boundary, the inundation of one scenario and horizon, and the assets coloured by
 * vulnerability level. Titles and legends go in the report's text.
 */
export const LEVEL_COLOURS: Record<string, string> = {
  very_high: '#b2182b', high: '#ef8a62', moderate: '#fddbc7', low: '#67a9cf', not_assessed: '#999999',
};

export interface MapInput {
  boundary: Polygon | MultiPolygon;
  assets: readonly { lon: number; lat: number; level: string }[];
  inundation?: MultiPolygon;
}

/** d3-geo reads rings spherically: exteriors must wind clockwise (RFC 7946 has them counter-clockwise), else a polygon means the rest of the globe. */
function forD3(geometry: MultiPolygon): MultiPolygon {
  const area = (ring: Position[]) => ring.reduce((sum, p, i) => (i === 0 ? 0 : sum + (ring[i - 1]![0]! * p[1]! - p[0]! * ring[i - 1]![1]!)), 0);
  return { type: 'MultiPolygon', coordinates: geometry.coordinates.map((polygon) => polygon.map((ring, i) => ((area(ring) > 0) === (i === 0) ? [...ring].reverse() : ring))) };
}

const WIDTH = 1200;
const HEIGHT = 800;

export function mapSvg(input: MapInput): string {
  const frame: Feature = { type: 'Feature', geometry: input.boundary, properties: {} };
  const projection = geoConicEqualArea().parallels([24, 31.5]).rotate([84, 0]).center([0, 24]).fitExtent([[20, 20], [WIDTH - 20, HEIGHT - 20]], frame);
  const path = geoPath(projection);
  const counties: FeatureCollection = { type: 'FeatureCollection', features: floridaCountyBoundaries().map((c) => ({ type: 'Feature', geometry: c.geometry, properties: {} })) };
  const dots = input.assets.map((a) => {
    const point = projection([a.lon, a.lat]);
    return point ? `<circle cx="${point[0].toFixed(1)}" cy="${point[1].toFixed(1)}" r="6" fill="${LEVEL_COLOURS[a.level] ?? LEVEL_COLOURS.not_assessed}" stroke="#222" stroke-width="1"/>` : '';
  }).join('');
  const water = input.inundation && input.inundation.coordinates.length > 0
    ? `<path d="${path({ type: 'Feature', geometry: forD3(input.inundation), properties: {} }) ?? ''}" fill="#2166ac" fill-opacity="0.65" stroke="none"/>`
    : '';
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}" viewBox="0 0 ${WIDTH} ${HEIGHT}">`
    + `<rect width="${WIDTH}" height="${HEIGHT}" fill="#eaf2f8"/>`
    + `<path d="${path(counties) ?? ''}" fill="#f7f4ea" stroke="#b9b4a5" stroke-width="1"/>`
    + `<path d="${path(frame) ?? ''}" fill="#fffdf5" stroke="#333" stroke-width="2.5"/>`
    + water + dots + '</svg>';
}
