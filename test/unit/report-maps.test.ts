import type { MultiPolygon } from 'geojson';
import { inflateSync } from 'node:zlib';
import { ResvgPngRenderer } from '../../shared/adapters/png-renderer';
import { DEPTH_CLASSES, depthClass, mapDrawing, roundLength, VULNERABILITY_CLASSES, type MapInput } from '../../shared/domain/deliverables/maps';
import { COMPOUND_MAP_LIMIT, compoundMapExtents, reportMaps } from '../../shared/domain/deliverables/report-maps';
import type { ComponentExtent } from '../../shared/domain/hazards/inundation-extents';
import { countyBoundaryByFips } from '../../shared/domain/hazards/florida-counties';
import type { StoredAsset } from '../../shared/domain/assets/ports';

/**
 * The report's maps as drawn: scale bars whose lengths match the ground, an arrow to true north,
 * a legend naming every layer and class, neighbours and places named, an inset on the exposed
 * assets, and maps that differ where their scenario's water does.
 */

const monroe = countyBoundaryByFips('12087')!.geometry;
const square = (west: number, south: number, size: number): number[][] => [[west, south], [west + size, south], [west + size, south + size], [west, south + size], [west, south]];
const water = (rings: number[][][]): MultiPolygon => ({ type: 'MultiPolygon', coordinates: [rings] });

const input = (overrides: Partial<MapInput> = {}): MapInput => ({
  title: 'Inundation: NOAA 2022 Intermediate, 2076', subtitle: 'Monroe County', jurisdiction: 'Monroe County', boundary: monroe,
  assets: [{ lon: -81.78, lat: 24.555, class: '1to3', exposed: true }, { lon: -80.45, lat: 25.1, class: 'dry', exposed: false }],
  classes: DEPTH_CLASSES, inundation: { geometry: water([square(-81.80, 24.55, 0.02)]), label: 'Inundated land (tidal)' }, source: 'Sources: test', ...overrides,
});

const texts = (drawing: ReturnType<typeof mapDrawing>) => drawing.texts.map((t) => t.text);
/** Screen points of an SVG path's rings. */
const ringsOf = (d: string) => d.split('M').filter(Boolean).map((sub) => [...sub.matchAll(/(-?\d+(?:\.\d+)?),(-?\d+(?:\.\d+)?)/g)].map((m) => [Number(m[1]), Number(m[2])]));
const inundationPaths = (svg: string) => [...svg.matchAll(/<path d="([^"]*)" fill="#2171b5"/g)].map((m) => m[1]!);
const screenArea = (ring: number[][]) => ring.reduce((sum, p, i) => sum + p[0]! * ring[(i + 1) % ring.length]![1]! - ring[(i + 1) % ring.length]![0]! * p[1]!, 0) / 2;

/** Great-circle distance on the 6,371 km sphere, km. */
function haversineKm(a: [number, number], b: [number, number]): number {
  const rad = Math.PI / 180;
  const h = Math.sin((b[1] - a[1]) * rad / 2) ** 2 + Math.cos(a[1] * rad) * Math.cos(b[1] * rad) * Math.sin((b[0] - a[0]) * rad / 2) ** 2;
  return 2 * 6371.0088 * Math.asin(Math.sqrt(h));
}

describe('a report map', () => {
  it('draws two scale bars, kilometres and miles, of round lengths that measure the ground they stand for', () => {
    const drawing = mapDrawing(input());
    const labels = drawing.texts.filter((t) => / (km|mi)$/.test(t.text));
    // Overview and inset each have both.
    expect(labels.map((t) => t.text.split(' ')[1])).toEqual(['km', 'mi', 'km', 'mi']);
    for (const label of labels) expect(label.text).toMatch(/^(1|2|5)0* (km|mi)$/);
    // The bars: two halves each, black then white; a bar's length is from the first half's left to the second's right.
    const halves = [...drawing.svg.matchAll(/<rect x="([\d.]+)" y="([\d.]+)" width="([\d.]+)" height="4"/g)].map((m) => ({ x: Number(m[1]), y: Number(m[2]), w: Number(m[3]) }));
    expect(halves).toHaveLength(8);
    const bars = [0, 2, 4, 6].map((i) => halves[i + 1]!.x + halves[i + 1]!.w - halves[i]!.x);
    // Points per km on the overview, from the inset map's own two assets: the exposed asset and the dry one 140 km east.
    const dots = [...drawing.svg.matchAll(/<circle cx="([\d.]+)" cy="([\d.]+)" r="2.6"/g)].map((m) => [Number(m[1]), Number(m[2])]);
    expect(dots).toHaveLength(2);
    const perKm = Math.hypot(dots[0]![0]! - dots[1]![0]!, dots[0]![1]! - dots[1]![1]!) / haversineKm([-81.78, 24.555], [-80.45, 25.1]);
    const [km, mi] = [Number(labels[2]!.text.split(' ')[0]), Number(labels[3]!.text.split(' ')[0])];
    // The overview's bars are drawn after the inset's; the conic is within 1 % of true scale this far south.
    expect(bars[2]! / (km * perKm)).toBeCloseTo(1, 1);
    expect(bars[3]! / (mi * 1.609344 * perKm)).toBeCloseTo(1, 1);
    // Round, and at most a quarter of the 512 pt frame.
    expect(Math.max(bars[2]!, bars[3]!)).toBeLessThanOrEqual(128.5);
    expect(roundLength(37)).toBe(20);
    expect(roundLength(0.6)).toBe(0.5);
    expect(roundLength(1)).toBe(1);
  });

  it('points to true north: the meridian through the arrow leans by the conic\'s convergence', () => {
    const drawing = mapDrawing(input());
    const angle = Number(/rotate\((-?[\d.]+)\)/.exec(drawing.svg)![1]);
    expect(texts(drawing)).toContain('N');
    // Albers on the sphere: meridians turn by n·Δλ, n = (sin 24° + sin 31.5°) / 2; east of 84° W they lean
    // west going north (towards the cone's apex), so the arrow turns anticlockwise (a negative SVG rotation).
    const n = (Math.sin(24 * Math.PI / 180) + Math.sin(31.5 * Math.PI / 180)) / 2;
    // The arrow stands near the frame's top right, at about 80.3° W over Monroe.
    expect(angle).toBeLessThan(-n * (84 - 80.8));
    expect(angle).toBeGreaterThan(-n * (84 - 79.8));
  });

  it('names every layer and class in its legend, and the title, source and projection', () => {
    const words = texts(mapDrawing(input()));
    for (const entry of ['Legend', 'Monroe County (jurisdiction boundary)', 'Neighbouring counties (Census)', 'Inundated land (tidal)', 'Largest Census places (2019 population)', 'Extent of the inset', ...DEPTH_CLASSES.map((c) => `Asset: ${c.label}`)]) {
      expect(words).toContain(entry);
    }
    expect(words.slice(0, 2)).toEqual(['Inundation: NOAA 2022 Intermediate, 2076', 'Monroe County']);
    expect(words).toContain('Sources: test');
    expect(words.some((w) => w.includes('EPSG:3087'))).toBe(true);
    // Without inundation, no water in the legend; the vulnerability classes when the map is of levels.
    const levels = texts(mapDrawing(input({ inundation: undefined, classes: VULNERABILITY_CLASSES })));
    expect(levels.some((w) => w.startsWith('Inundated'))).toBe(false);
    expect(levels).toContain('Asset: Very high vulnerability');
  });

  it('names the neighbouring counties (not its own) and the largest places in view, each label once and apart', () => {
    const drawing = mapDrawing(input());
    const words = texts(drawing);
    expect(words).toContain('MIAMI-DADE CO.');
    expect(words).not.toContain('MONROE CO.');
    // Key West, Monroe's most populous place (Vintage 2019), is labelled on the overview and the inset.
    expect(words.filter((w) => w === 'Key West')).toHaveLength(2);
    // No two labels of the same size overlap (0.5 em a character is narrower than Helvetica's average, so this is lenient).
    const labels = drawing.texts.filter((t) => t.size === 6.5 && t.anchor === 'start' && !t.text.startsWith('Asset') && t.y < 430);
    labels.forEach((a, i) => labels.slice(i + 1).forEach((b) => {
      const apart = Math.abs(a.y - b.y) >= 6.5 || a.x + a.text.length * 3.25 <= b.x || b.x + b.text.length * 3.25 <= a.x;
      expect(apart).toBe(true);
    }));
  });

  it('zooms its inset on the exposed assets, outlined on the overview', () => {
    const drawing = mapDrawing(input());
    const insetKm = Number(drawing.texts.filter((t) => t.text.endsWith(' km'))[0]!.text.split(' ')[0]);
    const overviewKm = Number(drawing.texts.filter((t) => t.text.endsWith(' km'))[1]!.text.split(' ')[0]);
    expect(overviewKm / insetKm).toBeGreaterThanOrEqual(10);
    expect(drawing.svg).toContain('stroke="#c51b8a"');
    // The exposed asset in the inset: a larger dot inside the inset's frame (0–250 × 434–614).
    const insetDots = [...drawing.svg.matchAll(/<circle cx="([\d.]+)" cy="([\d.]+)" r="3.4"/g)].map((m) => [Number(m[1]), Number(m[2])]);
    expect(insetDots.some(([x, y]) => x! > 0 && x! < 250 && y! > 434 && y! < 614)).toBe(true);
    // Nothing exposed: the inset zooms on the largest flooded polygon and what lies near it, not on a far-off speck.
    const flooding = water([square(-81.60, 24.60, 0.05)]);
    flooding.coordinates.push([square(-80.40, 25.20, 0.002)]);
    const dry = mapDrawing(input({ assets: [], inundation: { geometry: flooding, label: 'w' } }));
    expect(texts(dry)).toContain('Inset: where the flooding is largest (no asset exposed)');
    const insetPath = ringsOf(inundationPaths(dry.svg)[1]!);
    const xs = insetPath[0]!.map((p) => p[0]!);
    // Padded 0.02° each side, the fit is set by the 164 pt of the inset's height for 0.09° of latitude: the
    // 0.05° square (cos 24.6° narrower) is about 83 pt wide; zoomed out to the speck as well, it would be under 10.
    expect(Math.max(...xs) - Math.min(...xs)).toBeGreaterThan(75);
    expect(Math.min(...xs)).toBeGreaterThan(0);
    expect(Math.max(...xs)).toBeLessThan(250);
    // Nothing exposed and no water: no inset, said so.
    const none = mapDrawing(input({ assets: [], inundation: undefined }));
    expect(texts(none)).toContain('No exposed asset or flooding to zoom on');
  });

  it('draws inundation the same whatever its ring order, keeps holes holes, and draws nothing for an empty extent', () => {
    const outer = square(-81.60, 24.60, 0.2);
    const hole = [[-81.55, 24.65], [-81.55, 24.75], [-81.45, 24.75], [-81.45, 24.65], [-81.55, 24.65]];
    for (const rings of [[outer, hole], [[...outer].reverse(), [...hole].reverse()]]) {
      // The overview's path (the first): two rings winding against each other, the hole a quarter of the square.
      const drawn = ringsOf(inundationPaths(mapDrawing(input({ inundation: { geometry: water(rings), label: 'w' } })).svg)[0]!);
      expect(drawn).toHaveLength(2);
      const [a, b] = drawn.map(screenArea) as [number, number];
      expect(Math.sign(a)).toBe(-Math.sign(b));
      expect(Math.abs(b) / Math.abs(a)).toBeCloseTo(0.25, 1);
    }
    expect(inundationPaths(mapDrawing(input({ inundation: { geometry: { type: 'MultiPolygon', coordinates: [] }, label: 'w' } })).svg)).toEqual([]);
  });

  it('renders at about 216 dpi across the 512 pt text width of a letter page, the flooding visible', async () => {
    const png = await new ResvgPngRenderer().render(mapDrawing(input()).svg);
    // PNG header: width and height at bytes 16–23.
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([1536, 1920]);
    // Count the inundation's blue among the pixels (8-bit RGBA, filter byte per row).
    const raw = inflateSync(Buffer.concat(chunksOf(png, 'IDAT')));
    const stride = 1536 * 4 + 1;
    let blue = 0;
    for (let row = 0; row < 1920; row++) {
      const pixels = unfilterRow(raw, row, stride);
      for (let x = 0; x < 1536; x++) if (pixels[x * 4]! < 80 && pixels[x * 4 + 2]! > 140 && pixels[x * 4 + 1]! < 140) blue++;
    }
    // A 2 km square at county scale is a few points wide; with the inset it covers thousands of pixels.
    expect(blue).toBeGreaterThan(2000);
  });
});

describe('the report\'s maps', () => {
  const asset = (name: string, depths: [string, number, number | null][], level = 'high'): StoredAsset => ({
    name, lon: -81.78, lat: 24.555, vulnerability_level: level,
    exposure: { depths: depths.map(([scenario, planning_horizon, depth_ft]) => ({ scenario, planning_horizon, depth_ft })), max_depth_ft: Math.max(0, ...depths.map((d) => d[2] ?? 0)) },
  }) as unknown as StoredAsset;
  const extent = (scenario: string, planning_horizon: number, size: number) => ({ scenario, planning_horizon, components: ['surge', 'tidal'], area_km2: 1, area_m2: 1e6, geometry: water([square(-81.80, 24.55, size)]) });

  it('give one map of levels, then one per scenario and horizon, its assets classed by their depth there, differing where the water does', () => {
    const assets = [asset('a', [['intermediate', 2046, 0.5], ['high', 2076, 4]]), asset('b', [['intermediate', 2046, 0], ['high', 2076, null]])];
    const drawings = reportMaps({ jurisdiction: 'Monroe County', boundary: monroe, assets, extents: [extent('intermediate', 2046, 0.01), extent('high', 2076, 0.03)], sources: [] });
    expect(drawings.map((d) => d.texts[0]!.text)).toEqual(['Monroe County: critical assets by vulnerability level', 'Inundation: NOAA 2022 Intermediate, 2046', 'Inundation: NOAA 2022 High, 2076']);
    expect(drawings[1]!.texts[1]!.text).toContain('Water: surge (100-yr) + tidal');
    const fills = (svg: string) => [...svg.matchAll(/r="2.6" fill="(#[0-9a-f]{6})"/g)].map((m) => m[1]);
    const colour = (key: string) => DEPTH_CLASSES.find((c) => c.key === key)!.colour;
    // Dry ones first (drawn under), then the exposed.
    expect(fills(drawings[1]!.svg)).toEqual([colour('dry'), colour('lt1')]);
    expect(fills(drawings[2]!.svg)).toEqual([colour('no_depth'), colour('3to6')]);
    expect(drawings[1]!.svg).not.toBe(drawings[2]!.svg);
    // The same data draw the same map.
    expect(reportMaps({ jurisdiction: 'Monroe County', boundary: monroe, assets, extents: [extent('intermediate', 2046, 0.01)], sources: [] })[1]!.svg).toBe(drawings[1]!.svg);
  });

  const STORM = { return_period_years: 100, depth_mm: 330.2, duration_h: 24 };
  const componentExtent = (component: 'rainfall' | 'compound', scenario: string | null, year: number | null, size: number, areaKm2: number): ComponentExtent => ({
    component, scenario, planning_horizon: year, storm: STORM, area_km2: areaKm2, area_m2: areaKm2 * 1e6, max_depth_m: 0.9144, geometry: water([square(-81.80, 24.55, size)]),
  });
  const byComponent = (name: string, entries: [string, number, { rainfall: number | null; compound: number | null }][]): StoredAsset => ({
    name, lon: -81.78, lat: 24.555, vulnerability_level: 'high',
    exposure: { depths: [], max_depth_ft: 1, by_component: entries.map(([scenario, planning_horizon, d]) => ({ scenario, planning_horizon, depth_ft: { tidal: null, surge: null, ...d } })) },
  }) as unknown as StoredAsset;

  it('add a ponding map per storm and a compound map per scenario and horizon, named, measured and explained, assets classed by that component', () => {
    const assets = [byComponent('a', [['high', 2076, { rainfall: 0.5, compound: 4 }], ['low', 2046, { rainfall: 0.5, compound: 0 }]])];
    const drawings = reportMaps({
      jurisdiction: 'Monroe County', boundary: monroe, assets, extents: [extent('high', 2076, 0.03)], sources: [],
      componentExtents: [
        componentExtent('compound', 'high', 2076, 0.02, 0.123456),
        componentExtent('rainfall', null, null, 0.01, 0.0456789),
        // Dry: no map.
        { ...componentExtent('compound', 'low', 2030, 0.01, 0), geometry: { type: 'MultiPolygon', coordinates: [] } },
        componentExtent('compound', 'low', 2046, 0.015, 12.3456),
      ],
    });
    expect(drawings.map((d) => d.texts[0]!.text)).toEqual([
      'Monroe County: critical assets by vulnerability level', 'Inundation: NOAA 2022 High, 2076',
      'Rainfall ponding: 100-year 24-hour storm (330.2 mm)',
      'Compound flooding: NOAA 2022 High, 2076, 100-year 24-hour storm (330.2 mm)',
      'Compound flooding: NOAA 2022 Low, 2046, 100-year 24-hour storm (330.2 mm)',
    ]);
    // Four significant figures of the layer's AREA_KM2; 0.9144 m is 3 ft.
    expect(drawings.slice(2).map((d) => d.texts[1]!.text)).toEqual([
      'Monroe County. Ponded land 0.04568 km², deepest 3.00 ft (layer rainfall_ponding). Assets by their rainfall depth here.',
      'Monroe County. Wet land 0.1235 km², deepest 3.00 ft (layer compound_flooding). Assets by their compound depth here.',
      'Monroe County. Wet land 12.35 km², deepest 3.00 ft (layer compound_flooding). Assets by their compound depth here.',
    ]);
    expect(texts(drawings[2]!)).toContain('Rainfall ponding, depth above 0 (layer rainfall_ponding)');
    expect(texts(drawings[3]!)).toContain('Compound flooding, depth above 0 (layer compound_flooding)');
    for (const label of DEPTH_CLASSES.map((c) => `Asset: ${c.label}`)) expect(texts(drawings[3]!)).toContain(label);
    expect(texts(drawings[2]!).some((t) => /^Method: .*fill–spill–merge.*Screening level/.test(t))).toBe(true);
    expect(texts(drawings[4]!).some((t) => /^Method: fill–spill–merge on the ground grid against the tailwater/.test(t))).toBe(true);
    expect(texts(drawings[1]!).some((t) => t.startsWith('Method:'))).toBe(false);
    // The asset: 0.5 ft of ponding, 4 ft compound in High 2076, dry in Low 2046.
    const fill = (svg: string) => /r="2.6" fill="(#[0-9a-f]{6})"/.exec(svg)![1];
    const colour = (key: string) => DEPTH_CLASSES.find((c) => c.key === key)!.colour;
    expect([fill(drawings[2]!.svg), fill(drawings[3]!.svg), fill(drawings[4]!.svg)]).toEqual([colour('lt1'), colour('3to6'), colour('dry')]);
  });

  it('map every compound pair up to the limit, beyond it each scenario\'s horizon with the most compound land', () => {
    const pairs = (scenarios: string[], years: number[]) => scenarios.flatMap((s, i) => years.map((y, j) => componentExtent('compound', s, y, 0.01, [[1, 3, 2], [5, 5, 1], [1, 1, 1]][i]![j]!)));
    const few = pairs(['high', 'low'], [2040, 2070, 2100]);
    expect(few).toHaveLength(COMPOUND_MAP_LIMIT);
    expect(compoundMapExtents(few)).toEqual(few);
    const many = pairs(['high', 'low', 'intermediate'], [2040, 2070, 2100]);
    // high: 3 km² in 2070; low: 5 and 5, the later 2070; intermediate: all 1, the latest 2100.
    expect(compoundMapExtents(many).map((e) => `${e.scenario} ${e.planning_horizon}`)).toEqual(['high 2070', 'low 2070', 'intermediate 2100']);
  });

  it('class depths at 0, 1, 3 and 6 ft, an unknown depth apart', () => {
    expect([null, undefined, 0, 0.01, 0.99, 1, 2.99, 3, 5.99, 6, 12].map(depthClass)).toEqual(['no_depth', 'no_depth', 'dry', 'lt1', 'lt1', '1to3', '1to3', '3to6', '3to6', 'ge6', 'ge6']);
  });
});

function chunksOf(png: Buffer, type: string): Buffer[] {
  const chunks: Buffer[] = [];
  for (let at = 8; at < png.length;) {
    const length = png.readUInt32BE(at);
    if (png.toString('latin1', at + 4, at + 8) === type) chunks.push(png.subarray(at + 8, at + 8 + length));
    at += length + 12;
  }
  return chunks;
}

/** One row of an RGBA PNG, its filter undone in place (the rows above already undone). */
function unfilterRow(raw: Buffer, row: number, stride: number): Buffer {
  const start = row * stride;
  const filter = raw[start]!;
  const line = raw.subarray(start + 1, start + stride);
  const previous = row > 0 ? raw.subarray(start - stride + 1, start) : Buffer.alloc(stride - 1);
  for (let i = 0; i < line.length; i++) {
    const left = i >= 4 ? line[i - 4]! : 0;
    const up = previous[i]!;
    const upLeft = i >= 4 ? previous[i - 4]! : 0;
    const predictor = filter === 1 ? left : filter === 2 ? up : filter === 3 ? Math.floor((left + up) / 2) : filter === 4 ? paeth(left, up, upLeft) : 0;
    line[i] = (line[i]! + predictor) & 0xff;
  }
  return line;
}

function paeth(a: number, b: number, c: number): number {
  const p = a + b - c;
  const [pa, pb, pc] = [Math.abs(p - a), Math.abs(p - b), Math.abs(p - c)];
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}
