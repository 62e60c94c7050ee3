import { geoConicEqualArea, geoPath, type GeoProjection } from 'd3-geo';
import type { Feature, MultiPolygon, Polygon, Position } from 'geojson';
import { floridaCountyBoundaries } from '../hazards/florida-counties';
import { placeBoundaryByGeoid } from '../hazards/florida-places';
import type { BBox } from '../hazards/geo';
import { floridaPlaces } from '../jurisdictions';

/**
 * The report's maps, drawn server-side: d3-geo paths in Florida GDL Albers (the deliverable's
 * projection) → SVG, rasterised to PNG by the `PngRenderer` port (no browser). A map is a
 * letter-page panel: an overview of the jurisdiction among its neighbouring counties, an inset
 * zoomed on the exposed assets, a legend, scale bars in kilometres and miles, a north arrow and
 * the largest places. The drawing carries no text: its words (title, legend, labels, source) come
 * back as positioned runs the PDF sets in its own fonts, so they stay sharp and searchable and the
 * WebAssembly renderer needs no font file.
 */
export const LEVEL_COLOURS: Record<string, string> = {
  very_high: '#b2182b', high: '#ef8a62', moderate: '#fddbc7', low: '#67a9cf', not_assessed: '#999999',
};

/** A class of assets on a map: the legend's wording and the dots' colour. */
export interface MapClass {
  key: string;
  label: string;
  colour: string;
}

export const VULNERABILITY_CLASSES: readonly MapClass[] = [
  { key: 'very_high', label: 'Very high vulnerability', colour: LEVEL_COLOURS.very_high! },
  { key: 'high', label: 'High vulnerability', colour: LEVEL_COLOURS.high! },
  { key: 'moderate', label: 'Moderate vulnerability', colour: LEVEL_COLOURS.moderate! },
  { key: 'low', label: 'Low vulnerability', colour: LEVEL_COLOURS.low! },
  { key: 'not_assessed', label: 'Not assessed', colour: LEVEL_COLOURS.not_assessed! },
];

/** Flood depth at an asset, feet: the classes a planner reads (ankle, knee, waist, above head height). */
export const DEPTH_CLASSES: readonly MapClass[] = [
  { key: 'dry', label: 'Not reached (0 ft)', colour: '#ffffff' },
  { key: 'lt1', label: 'Depth under 1 ft', colour: '#fee391' },
  { key: '1to3', label: 'Depth 1 to 3 ft', colour: '#fe9929' },
  { key: '3to6', label: 'Depth 3 to 6 ft', colour: '#cc4c02' },
  { key: 'ge6', label: 'Depth 6 ft or more', colour: '#662506' },
  { key: 'no_depth', label: 'No depth (reason in the list)', colour: '#999999' },
];

export function depthClass(depthFt: number | null | undefined): string {
  if (depthFt === null || depthFt === undefined) return 'no_depth';
  if (depthFt <= 0) return 'dry';
  return depthFt < 1 ? 'lt1' : depthFt < 3 ? '1to3' : depthFt < 6 ? '3to6' : 'ge6';
}

export interface MapAsset {
  lon: number;
  lat: number;
  /** A key of the map's classes. */
  class: string;
  /** Reached by the water in this map's scenario and horizon: the inset is drawn around these. */
  exposed: boolean;
}

export interface MapInput {
  title: string;
  subtitle: string;
  jurisdiction: string;
  boundary: Polygon | MultiPolygon;
  assets: readonly MapAsset[];
  classes: readonly MapClass[];
  inundation?: { geometry: MultiPolygon; label: string };
  /** How the water was computed, on its own line above the sources (component maps). */
  method?: string;
  source: string;
}

/** A run of text on the map, in the drawing's points from its top left. */
export interface MapText {
  x: number;
  y: number;
  text: string;
  size: number;
  bold?: boolean;
  anchor: 'start' | 'middle' | 'end';
}

export interface MapDrawing {
  /** Points: the panel fills the letter page's 512 pt text width. */
  width: number;
  height: number;
  svg: string;
  texts: MapText[];
}

/** Twice a ring's signed area in square degrees (shoelace): positive when it turns counter-clockwise. */
const doubleArea = (ring: Position[]) => ring.reduce((sum, p, i) => (i === 0 ? 0 : sum + (ring[i - 1]![0]! * p[1]! - p[0]! * ring[i - 1]![1]!)), 0);

/** d3-geo reads rings spherically: exteriors must wind clockwise (RFC 7946 has them counter-clockwise), else a polygon means the rest of the globe. */
function forD3(geometry: Polygon | MultiPolygon): MultiPolygon {
  const polygons = geometry.type === 'Polygon' ? [geometry.coordinates] : geometry.coordinates;
  return { type: 'MultiPolygon', coordinates: polygons.map((polygon) => polygon.map((ring, i) => ((doubleArea(ring) > 0) === (i === 0) ? [...ring].reverse() : ring))) };
}

const feature = (geometry: Polygon | MultiPolygon): Feature => ({ type: 'Feature', geometry: forD3(geometry), properties: {} });
const corners = (b: BBox): Feature => ({ type: 'Feature', geometry: { type: 'MultiPoint', coordinates: [[b[0], b[1]], [b[2], b[3]], [b[0], b[3]], [b[2], b[1]]] }, properties: {} });

const WIDTH = 512;
const HEIGHT = 640;
/** Rendered at three pixels a point: about 216 dpi on the printed page. */
const PIXELS_PER_POINT = 3;
const OVERVIEW = { x: 0, y: 44, w: 512, h: 380 };
const INSET = { x: 0, y: 434, w: 250, h: 180 };
const LEGEND = { x: 262, y: 434, w: 250, h: 180 };
const METRES_PER_MILE = 1609.344;
const EARTH_RADIUS_M = 6_371_008.8;

type Frame = typeof OVERVIEW;

function projectionFor(frame: Frame, extent: Feature): GeoProjection {
  return geoConicEqualArea().parallels([24, 31.5]).rotate([84, 0]).center([0, 24])
    .fitExtent([[frame.x + 8, frame.y + 8], [frame.x + frame.w - 8, frame.y + frame.h - 8]], extent);
}

/** The largest round length (1, 2 or 5 × 10ⁿ) not longer than `max`. */
export function roundLength(max: number): number {
  const power = 10 ** Math.floor(Math.log10(max));
  return [5, 2, 1].map((m) => m * power).find((l) => l <= max) ?? power;
}

/** Points per metre on the ground at the frame's centre, measured along its parallel. */
function pointsPerMetre(projection: GeoProjection, frame: Frame): number {
  const [lon, lat] = projection.invert!([frame.x + frame.w / 2, frame.y + frame.h / 2])!;
  const step = 0.01;
  const a = projection([lon, lat])!;
  const b = projection([lon + step, lat])!;
  const metres = (step * Math.PI / 180) * EARTH_RADIUS_M * Math.cos(lat * Math.PI / 180);
  return Math.hypot(b[0] - a[0], b[1] - a[1]) / metres;
}

/** Two bars, kilometres over miles, each a round length of at most a quarter of the frame's width. */
function scaleBars(projection: GeoProjection, frame: Frame, texts: MapText[]): string {
  const perMetre = pointsPerMetre(projection, frame);
  const x = frame.x + 12;
  let svg = `<rect x="${x - 6}" y="${frame.y + frame.h - 46}" width="${frame.w / 4 + 44}" height="40" fill="#ffffff" fill-opacity="0.85"/>`;
  ([['km', 1000, frame.y + frame.h - 36], ['mi', METRES_PER_MILE, frame.y + frame.h - 18]] as const).forEach(([unit, metres, y]) => {
    const length = roundLength(frame.w / 4 / perMetre / metres);
    const bar = length * metres * perMetre;
    svg += `<rect x="${x}" y="${y}" width="${(bar / 2).toFixed(2)}" height="4" fill="#222"/><rect x="${(x + bar / 2).toFixed(2)}" y="${y}" width="${(bar / 2).toFixed(2)}" height="4" fill="#fff" stroke="#222" stroke-width="0.6"/>`;
    texts.push({ x, y: y - 2, text: '0', size: 6, anchor: 'middle' }, { x: x + bar + 3, y: y + 5, text: `${length} ${unit}`, size: 6.5, anchor: 'start' });
  });
  return svg;
}

/** An arrow to true north at the frame's top right (the conic's meridians converge, so it leans off the edge's vertical). */
function northArrow(projection: GeoProjection, frame: Frame, texts: MapText[]): string {
  const [cx, cy] = [frame.x + frame.w - 24, frame.y + 34];
  const [lon, lat] = projection.invert!([cx, cy])!;
  const a = projection([lon, lat])!;
  const b = projection([lon, lat + 0.05])!;
  const angle = Math.atan2(b[0] - a[0], a[1] - b[1]) * 180 / Math.PI;
  texts.push({ x: cx, y: cy - 16, text: 'N', size: 9, bold: true, anchor: 'middle' });
  return `<g transform="translate(${cx} ${cy}) rotate(${angle.toFixed(2)})"><path d="M0,-14 L7,10 L0,5 Z" fill="#222"/><path d="M0,-14 L-7,10 L0,5 Z" fill="#fff" stroke="#222" stroke-width="0.8"/></g>`;
}

const intersects = (a: BBox, b: BBox) => a[0] <= b[2] && b[0] <= a[2] && a[1] <= b[3] && b[1] <= a[3];

/** The frame's geographic extent, from its corners and edge midpoints taken back through the projection. */
function frameBBox(projection: GeoProjection, frame: Frame): BBox {
  const points = [[0, 0], [0.5, 0], [1, 0], [0, 0.5], [1, 0.5], [0, 1], [0.5, 1], [1, 1]].map(([u, v]) => projection.invert!([frame.x + u! * frame.w, frame.y + v! * frame.h])!);
  return [Math.min(...points.map((p) => p[0])), Math.min(...points.map((p) => p[1])), Math.max(...points.map((p) => p[0])), Math.max(...points.map((p) => p[1]))];
}

/** Florida's places inside the frame, most populous first, at the centre of their Census boundary's extent. */
function largestPlaces(extent: BBox, count: number): { name: string; lon: number; lat: number }[] {
  return floridaPlaces()
    .filter((p) => p.population_2019 !== null)
    .sort((a, b) => b.population_2019! - a.population_2019!)
    .flatMap((p) => {
      const boundary = placeBoundaryByGeoid(p.geoid);
      if (!boundary) return [];
      const [lon, lat] = [(boundary.bbox[0] + boundary.bbox[2]) / 2, (boundary.bbox[1] + boundary.bbox[3]) / 2];
      return lon > extent[0] && lon < extent[2] && lat > extent[1] && lat < extent[3] ? [{ name: p.name, lon, lat }] : [];
    })
    .slice(0, count);
}

interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}

/** A run's box, from an average Helvetica advance of 0.55 em. */
function textBox(text: MapText): Box {
  const w = text.text.length * text.size * 0.55;
  return { x: text.anchor === 'start' ? text.x : text.anchor === 'middle' ? text.x - w / 2 : text.x - w, y: text.y - text.size, w, h: text.size * 1.2 };
}

const overlaps = (a: Box, b: Box) => a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;

interface Panel {
  frame: Frame;
  projection: GeoProjection;
  places: number;
  dotRadius: number;
}

/** One frame: neighbouring counties (named), the jurisdiction, the flooding, the assets and the largest places, clipped to the frame. */
function drawPanel(input: MapInput, panel: Panel, id: string, texts: MapText[]): string {
  const { frame, projection } = panel;
  const path = geoPath(projection);
  const extent = frameBBox(projection, frame);
  const counties = floridaCountyBoundaries().filter((c) => intersects(c.bbox, extent));
  const colours = new Map(input.classes.map((c) => [c.key, c.colour]));
  let body = `<rect x="${frame.x}" y="${frame.y}" width="${frame.w}" height="${frame.h}" fill="#dbe9f4"/>`;
  body += counties.map((c) => `<path d="${path(feature(c.geometry)) ?? ''}" fill="#f2efe6" stroke="#9c9788" stroke-width="0.6"/>`).join('');
  body += `<path d="${path(feature(input.boundary)) ?? ''}" fill="#fffdf5" stroke="none"/>`;
  if (input.inundation && input.inundation.geometry.coordinates.length > 0) {
    // The outline keeps strips narrower than a printed point visible at county scale.
    body += `<path d="${path(feature(input.inundation.geometry)) ?? ''}" fill="#2171b5" fill-opacity="0.8" stroke="#08519c" stroke-width="0.7" stroke-linejoin="round"/>`;
  }
  body += `<path d="${path(feature(input.boundary)) ?? ''}" fill="none" stroke="#111" stroke-width="1.6"/>`;
  // Dry assets first, so the exposed ones are drawn on top.
  for (const asset of [...input.assets].sort((a, b) => Number(a.exposed) - Number(b.exposed))) {
    const point = projection([asset.lon, asset.lat]);
    if (point) body += `<circle cx="${point[0].toFixed(2)}" cy="${point[1].toFixed(2)}" r="${panel.dotRadius}" fill="${colours.get(asset.class) ?? '#999999'}" stroke="#222" stroke-width="0.6"/>`;
  }
  // Labels that would leave the frame, cover the arrow or the scale bars, or overlap a label already set are left out.
  const taken: Box[] = [{ x: frame.x + frame.w - 44, y: frame.y, w: 44, h: 56 }, { x: frame.x, y: frame.y + frame.h - 50, w: frame.w / 4 + 50, h: 50 }];
  const place = (text: MapText): boolean => {
    const box = textBox(text);
    if (box.x < frame.x + 2 || box.x + box.w > frame.x + frame.w - 2 || box.y < frame.y + 2 || box.y + box.h > frame.y + frame.h - 2 || taken.some((t) => overlaps(t, box))) return false;
    taken.push(box);
    texts.push(text);
    return true;
  };
  for (const town of largestPlaces(extent, panel.places * 6)) {
    const [x, y] = projection([town.lon, town.lat])!;
    if (taken.length - 2 >= panel.places || !place({ x: x + 3, y: y - 2, text: town.name, size: 6.5, anchor: 'start' })) continue;
    body += `<rect x="${(x - 1.6).toFixed(2)}" y="${(y - 1.6).toFixed(2)}" width="3.2" height="3.2" fill="#111"/>`;
  }
  for (const county of counties) {
    const centre = projection([(county.bbox[0] + county.bbox[2]) / 2, (county.bbox[1] + county.bbox[3]) / 2]);
    if (centre && `${county.name} County` !== input.jurisdiction) place({ x: centre[0], y: centre[1], text: `${county.name.toUpperCase()} CO.`, size: 6, anchor: 'middle' });
  }
  return `<clipPath id="${id}"><rect x="${frame.x}" y="${frame.y}" width="${frame.w}" height="${frame.h}"/></clipPath><g clip-path="url(#${id})">${body}</g>`
    + `<rect x="${frame.x}" y="${frame.y}" width="${frame.w}" height="${frame.h}" fill="none" stroke="#333" stroke-width="0.8"/>`;
}

/**
 * The extent the inset zooms on: the exposed assets, else the flooding's largest polygon with the
 * polygons around it; padded by about 2 km. None when there is neither.
 */
function insetExtent(input: MapInput): BBox | undefined {
  const exposed = input.assets.filter((a) => a.exposed).map((a) => [a.lon, a.lat]);
  const polygons = input.inundation?.geometry.coordinates ?? [];
  let points: Position[] = exposed;
  if (points.length === 0 && polygons.length > 0) {
    const largest = polygons.reduce((best, p) => (Math.abs(doubleArea(p[0] ?? [])) > Math.abs(doubleArea(best[0] ?? [])) ? p : best))[0] ?? [];
    const [x, y] = [largest.reduce((s, p) => s + p[0]!, 0) / largest.length, largest.reduce((s, p) => s + p[1]!, 0) / largest.length];
    // Within 0.15° (about 15 km) of it: a town's worth of flooding, not the whole county's scatter.
    points = polygons.flatMap((p) => p[0] ?? []).filter((p) => Math.abs(p[0]! - x) < 0.15 && Math.abs(p[1]! - y) < 0.15);
  }
  if (points.length === 0) return undefined;
  const [west, south, east, north] = [Math.min(...points.map((p) => p[0]!)), Math.min(...points.map((p) => p[1]!)), Math.max(...points.map((p) => p[0]!)), Math.max(...points.map((p) => p[1]!))];
  const pad = 0.02;
  return [west - pad, south - pad, east + pad, north + pad];
}

function legend(input: MapInput, texts: MapText[]): string {
  const { x, y, w, h } = LEGEND;
  let svg = `<rect x="${x}" y="${y}" width="${w}" height="${h}" fill="#fff" stroke="#333" stroke-width="0.8"/>`;
  texts.push({ x: x + 8, y: y + 14, text: 'Legend', size: 8, bold: true, anchor: 'start' });
  let row = y + 22;
  const entry = (swatch: string, label: string) => {
    svg += swatch.replace(/\{x\}/g, String(x + 10)).replace(/\{y\}/g, String(row));
    texts.push({ x: x + 30, y: row + 7, text: label, size: 6.5, anchor: 'start' });
    row += 11.5;
  };
  entry('<rect x="{x}" y="{y}" width="14" height="8" fill="#fffdf5" stroke="#111" stroke-width="1.6"/>', `${input.jurisdiction} (jurisdiction boundary)`);
  entry('<rect x="{x}" y="{y}" width="14" height="8" fill="#f2efe6" stroke="#9c9788" stroke-width="0.6"/>', 'Neighbouring counties (Census)');
  if (input.inundation) entry('<rect x="{x}" y="{y}" width="14" height="8" fill="#2171b5" fill-opacity="0.8" stroke="#08519c" stroke-width="0.7"/>', input.inundation.label);
  entry('<rect x="{x}" y="{y}" width="14" height="8" fill="#dbe9f4"/>', 'Open water, outside Florida');
  entry('<rect x="{x}" y="{y}" width="3.2" height="3.2" transform="translate(5.4 2.4)" fill="#111"/>', 'Largest Census places (2019 population)');
  entry('<rect x="{x}" y="{y}" width="14" height="8" fill="none" stroke="#c51b8a" stroke-width="1.2"/>', 'Extent of the inset');
  for (const c of input.classes) entry(`<circle cx="{x}" cy="{y}" r="3.4" transform="translate(7 4)" fill="${c.colour}" stroke="#222" stroke-width="0.6"/>`, `Asset: ${c.label}`);
  return svg;
}

export function mapDrawing(input: MapInput): MapDrawing {
  const texts: MapText[] = [
    { x: 0, y: 14, text: input.title, size: 11, bold: true, anchor: 'start' },
    { x: 0, y: 30, text: input.subtitle, size: 8, anchor: 'start' },
  ];
  const overview = projectionFor(OVERVIEW, feature(input.boundary));
  let svg = drawPanel(input, { frame: OVERVIEW, projection: overview, places: 8, dotRadius: 2.6 }, 'overview', texts);
  const zoom = insetExtent(input);
  if (zoom) {
    const inset = projectionFor(INSET, corners(zoom));
    svg += drawPanel(input, { frame: INSET, projection: inset, places: 4, dotRadius: 3.4 }, 'inset', texts);
    svg += scaleBars(inset, INSET, texts);
    // Where the inset lies, on the overview.
    const [a, b] = [overview([zoom[0], zoom[3]])!, overview([zoom[2], zoom[1]])!];
    svg += `<rect x="${Math.min(a[0], b[0]).toFixed(2)}" y="${Math.min(a[1], b[1]).toFixed(2)}" width="${Math.max(2, Math.abs(b[0] - a[0])).toFixed(2)}" height="${Math.max(2, Math.abs(b[1] - a[1])).toFixed(2)}" fill="none" stroke="#c51b8a" stroke-width="1.2"/>`;
    texts.push({ x: INSET.x + 4, y: INSET.y - 2, text: input.assets.some((a) => a.exposed) ? 'Inset: where the exposed assets are' : 'Inset: where the flooding is largest (no asset exposed)', size: 6.5, bold: true, anchor: 'start' });
  } else {
    texts.push({ x: INSET.x + INSET.w / 2, y: INSET.y + INSET.h / 2, text: 'No exposed asset or flooding to zoom on', size: 7, anchor: 'middle' });
  }
  svg += scaleBars(overview, OVERVIEW, texts) + northArrow(overview, OVERVIEW, texts) + legend(input, texts);
  if (input.method) texts.push({ x: 0, y: HEIGHT - 20, text: input.method, size: 6, anchor: 'start' });
  texts.push({ x: 0, y: HEIGHT - 12, text: input.source, size: 6, anchor: 'start' });
  texts.push({ x: 0, y: HEIGHT - 4, text: 'Projection: NAD83(HARN) / Florida GDL Albers (EPSG:3087). Screening level: not a survey or a FEMA flood zone determination.', size: 6, anchor: 'start' });
  return {
    width: WIDTH,
    height: HEIGHT,
    svg: `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH * PIXELS_PER_POINT}" height="${HEIGHT * PIXELS_PER_POINT}" viewBox="0 0 ${WIDTH} ${HEIGHT}"><rect width="${WIDTH}" height="${HEIGHT}" fill="#fff"/>${svg}</svg>`,
    texts,
  };
}

const escapeXml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** The drawing with its words as SVG text, for a renderer given a font (the committed page image of the docs). */
export function svgWithTexts(drawing: MapDrawing, fontFamily: string): string {
  const runs = drawing.texts.map((t) => `<text x="${t.x.toFixed(2)}" y="${t.y.toFixed(2)}" font-family="${fontFamily}" font-size="${t.size}"${t.bold ? ' font-weight="bold"' : ''} text-anchor="${t.anchor}" fill="#111">${escapeXml(t.text)}</text>`).join('');
  return drawing.svg.replace(/<\/svg>$/, `${runs}</svg>`);
}
