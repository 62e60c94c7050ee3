import { readFileSync } from 'node:fs';
import path from 'node:path';
import proj4 from 'proj4';
import { fromArrayBuffer, writeArrayBuffer } from 'geotiff';
import fl2237 from 'epsg-index/s/2237.json';
import { processDem, type ProcessedDem } from '../../shared/adapters/elevation/geotiff-dem';
import { readWindow, sampleBilinear, tileKey, TILE_SIZE } from '../../shared/domain/elevation-models/pyramid';
import { RasterError } from '../../shared/domain/elevation-models/reproject';
import { VerticalReferenceError, verticalConversion } from '../../shared/domain/elevation-models/vertical';
import type { ElevationGrid } from '../../shared/domain/hazards/elevation';

const FIXTURE = path.join(__dirname, '../fixtures/dem/tampa_clip_fl_west_ftus_ngvd29.tif');
const US_FT = 1200 / 3937;
/** TAMPA quad metadata: NGVD29 → NAVD88 = −0.87 ft. */
const SHIFT_M = -0.87 * US_FT;

/** The test's own reader: the fixture's samples by file row/column, in NGVD29 feet. */
async function readFixture() {
  const bytes = readFileSync(FIXTURE);
  const image = await (await fromArrayBuffer(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength))).getImage();
  const [band] = await image.readRasters({ interleave: false }) as unknown as [Float32Array];
  const [ox, oy] = image.getOrigin() as [number, number];
  const [sx, sy] = image.getResolution() as [number, number];
  const width = image.getWidth(), height = image.getHeight();
  const toFt = proj4(fl2237.proj4);
  /** Bilinear between cell centres (PixelIsArea), or undefined near the edge. */
  const feetAt = (lon: number, lat: number): { bilinear: number; nearest: number } | undefined => {
    const [x, y] = toFt.forward([lon, lat]) as [number, number];
    const fc = (x - ox) / sx - 0.5, fr = (y - oy) / sy - 0.5;
    const c = Math.floor(fc), r = Math.floor(fr);
    if (c < 0 || r < 0 || c + 1 >= width || r + 1 >= height) return undefined;
    const v = (rr: number, cc: number) => band[rr * width + cc]!;
    const tx = fc - c, ty = fr - r;
    return {
      bilinear: (v(r, c) * (1 - tx) + v(r, c + 1) * tx) * (1 - ty) + (v(r + 1, c) * (1 - tx) + v(r + 1, c + 1) * tx) * ty,
      nearest: v(Math.round(fr), Math.round(fc)),
    };
  };
  return { band, feetAt, corners: [toFt.inverse([ox, oy]), toFt.inverse([ox + width * sx, oy + height * sy])] as [number, number][] };
}

function tileLoader(model: ProcessedDem) {
  return async (key: string) => model.tiles.get(key)!;
}

/** The fixture processed, in each test (a mutation run switches a mutant on per test; the file is small). */
async function processed(): Promise<{ fixture: Awaited<ReturnType<typeof readFixture>>; model: ProcessedDem; grid: ElevationGrid }> {
  const fixture = await readFixture();
  const model = await processDem(readFileSync(FIXTURE), { vertical_datum: 'NGVD29', units: 'ft', ngvd29_to_navd88_m: SHIFT_M, water_raw_value: 0 });
  const grid = (await readWindow(model.index, model.index.bbox, 1e9, tileLoader(model), 'clip'))!;
  return { fixture, model, grid };
}

describe('DEM processing: State Plane West (US ft), NGVD29 feet → lon/lat NAVD88 metres', () => {
  it('records the CRS, the native resolution (100 US ft) and the box', async () => {
    const { fixture, model } = await processed();
    expect(model.crs.epsg).toBe(2237);
    expect(model.index.resolution_m).toBeCloseTo(100 * US_FT, 0);
    const [[w, n], [e, s]] = fixture.corners;
    const [bw, bs, be, bn] = model.index.bbox;
    // Lattice cell centres lie within the file's extent, at most a cell inside its edges.
    for (const [inner, outer] of [[bw, w], [bn, n]] as const) expect(Math.abs(inner - outer)).toBeLessThan(0.0005);
    for (const [inner, outer] of [[be, e], [bs, s]] as const) expect(Math.abs(inner - outer)).toBeLessThan(0.0005);
    expect(model.index.vertical_datum).toBe('NAVD88');
    expect(model.vertical_conversion).toContain('NGVD29');
  });

  it('gives ground at sampled cells equal to the file read independently, converted with the stated shift', async () => {
    const { fixture, grid } = await processed();
    let checked = 0;
    for (let i = 0; i < grid.values.length; i += 37) {
      const row = Math.floor(i / grid.width), col = i % grid.width;
      const expected = fixture.feetAt(grid.west + col * grid.cellLon, grid.north - row * grid.cellLat);
      if (!expected) continue;
      expect(grid.values[i]).toBeCloseTo(expected.bilinear * US_FT + SHIFT_M, 4);
      checked++;
    }
    expect(checked).toBeGreaterThan(100);
  });

  it('keeps fractional values: points between posts interpolate, no whole-foot steps', async () => {
    const { fixture, grid } = await processed();
    const lon = grid.west + 10.37 * grid.cellLon, lat = grid.north - 20.61 * grid.cellLat;
    const expected = fixture.feetAt(lon, lat)!;
    expect(sampleBilinear(grid, lat, lon)).toBeCloseTo(expected.bilinear * US_FT + SHIFT_M, 1);
    const fractionalFeet = [...grid.values].filter((v) => !Number.isNaN(v)).map((v) => (v - SHIFT_M) / US_FT).filter((ft) => Math.abs(ft - Math.round(ft)) > 0.01);
    expect(fractionalFeet.length).toBeGreaterThan(grid.values.length / 4);
  });

  it('flags as water the cells whose nearest post is the source sea value, and only those', async () => {
    const { fixture, grid } = await processed();
    let water = 0, land = 0;
    for (let i = 0; i < grid.values.length; i += 11) {
      const row = Math.floor(i / grid.width), col = i % grid.width;
      const expected = fixture.feetAt(grid.west + col * grid.cellLon, grid.north - row * grid.cellLat);
      if (!expected || Number.isNaN(grid.values[i])) continue;
      // Cells within rounding of a half-cell boundary may pick either post; compare only clear cases.
      if (expected.nearest === 0) { expect(grid.water![i]).toBe(1); water++; } else if (expected.bilinear > 1) { expect(grid.water![i]).toBe(0); land++; }
    }
    expect(water).toBeGreaterThan(20);
    expect(land).toBeGreaterThan(20);
  });

  it('builds overview levels that halve the lattice and windows that pick the level by cell budget', async () => {
    const { model, grid } = await processed();
    const [l0, l1] = model.index.levels;
    expect(l1!.width).toBe(Math.ceil(l0!.width / 2));
    expect(l1!.cell_lat).toBeCloseTo(l0!.cell_lat * 2, 12);
    expect(model.tiles.has(tileKey(0, '0-0'))).toBe(true);
    const coarse = (await readWindow(model.index, model.index.bbox, (l0!.width * l0!.height) / 3, tileLoader(model), 'clip'))!;
    expect(coarse.cellLat).toBeCloseTo(l1!.cell_lat, 12);
    expect(coarse.values[coarse.width + 1]).toBe(grid.values[2 * grid.width + 2]);
    expect(await readWindow(model.index, [-80.2, 25.7, -80.1, 25.8], 1e6, tileLoader(model), 'clip')).toBeUndefined();
    expect(TILE_SIZE).toBe(256);
  });
});

describe('DEM processing: what it refuses, with a reason', () => {
  it('needs the NGVD29 shift and refuses an implausible one', () => {
    expect(() => verticalConversion({ vertical_datum: 'NGVD29', units: 'ft' })).toThrow(VerticalReferenceError);
    expect(() => verticalConversion({ vertical_datum: 'NGVD29', units: 'm', ngvd29_to_navd88_m: -26.5 })).toThrow(/plausible/);
    expect(verticalConversion({ vertical_datum: 'EGM96', units: 'm' })).toMatchObject({ stored_datum: 'EGM96', offset_m: 0, scale_to_m: 1 });
  });

  it('refuses a file that is not a GeoTIFF', async () => {
    await expect(processDem(new TextEncoder().encode('not a tiff'), { vertical_datum: 'NAVD88', units: 'm' })).rejects.toThrow(RasterError);
  });

  it('refuses a GeoTIFF without an EPSG CRS, or in a CRS it does not know', async () => {
    const base = { width: 4, height: 4, ModelPixelScale: [1, 1, 0], ModelTiepoint: [0, 0, 0, 0, 0, 0], GTModelTypeGeoKey: 1 };
    const userDefined = writeArrayBuffer(new Float32Array(16), { ...base, ProjectedCSTypeGeoKey: 32767 }) as ArrayBuffer;
    await expect(processDem(new Uint8Array(userDefined), { vertical_datum: 'NAVD88', units: 'm' })).rejects.toThrow(/names no EPSG/);
    const webMercator = writeArrayBuffer(new Float32Array(16), { ...base, ProjectedCSTypeGeoKey: 3857 }) as ArrayBuffer;
    await expect(processDem(new Uint8Array(webMercator), { vertical_datum: 'NAVD88', units: 'm' })).rejects.toThrow(/EPSG:3857/);
  });
});

describe('a window reaching past the model', () => {
  it('spans the whole box, the cells past the edge without data, so another source can complete them', async () => {
    const { model, grid } = await processed();
    const [w, s, e, n] = model.index.bbox;
    const half = (e - w) / 2;
    const wide = (await readWindow(model.index, [w - half, s, e, n], 1e9, tileLoader(model), 'clip'))!;
    expect(wide.west).toBeLessThan(w - half + wide.cellLon);
    expect(wide.width).toBeGreaterThan(grid.width * 1.4);
    const offset = Math.round((grid.west - wide.west) / wide.cellLon);
    for (let row = 0; row < grid.height; row += 17) {
      expect(Number.isNaN(wide.values[row * wide.width])).toBe(true);
      for (let col = 0; col < grid.width; col += 13) {
        const inside = grid.values[row * grid.width + col]!;
        if (!Number.isNaN(inside)) expect(wide.values[row * wide.width + offset + col]).toBe(inside);
      }
    }
  });
});
