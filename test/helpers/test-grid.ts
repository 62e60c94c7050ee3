import type { ElevationGrid, ElevationSource, ElevationSourceInfo } from '../../shared/domain/hazards/elevation';

/** A square geographic test grid: its north-west corner post, its cell size in degrees and its size in cells. */
export interface GridFrame {
  west: number;
  north: number;
  cell: number;
  size: number;
}

export const colLonOf = (frame: GridFrame) => (col: number) => frame.west + col * frame.cell;
export const rowLatOf = (frame: GridFrame) => (row: number) => frame.north - row * frame.cell;

/** A NAVD88 grid of `width` × `height` posts from a north-west corner, `value(row, col)` at each. */
export function gridOfPosts(corner: Omit<GridFrame, 'size'>, width: number, height: number, value: (row: number, col: number) => number, extra: Partial<ElevationGrid> = {}): ElevationGrid {
  return {
    values: Float32Array.from({ length: width * height }, (_, i) => value(Math.floor(i / width), i % width)),
    width, height, west: corner.west, north: corner.north, cellLon: corner.cell, cellLat: corner.cell, verticalDatum: 'NAVD88', source: 'test', ...extra,
  };
}

/** A NAVD88 source that answers the whole grid for any box, `values(row, col)` at each post. */
export function wholeGridSource(frame: GridFrame, values: (row: number, col: number) => number, info: Partial<ElevationSourceInfo> = {}): ElevationSource {
  const { west, north, cell, size } = frame;
  const grid: ElevationGrid = {
    values: Float32Array.from({ length: size * size }, (_, i) => values(Math.floor(i / size), i % size)),
    width: size, height: size, west, north, cellLon: cell, cellLat: cell, verticalDatum: 'NAVD88', source: 'test grid',
  };
  return {
    info: () => ({ name: 'Test grid', vertical_datum: 'NAVD88', native_resolution: `${cell}°`, resolution_m: 100, ...info }),
    grid: async () => grid,
  };
}

/**
 * Area in acres of the cell centred on row `row`, on a sphere of the mean Earth radius: the band
 * between two parallels times the cell's share of the circle. Worked from first principles, not
 * with the code's own helper; the two agree within 0.5 % at these sizes.
 */
export function sphericalCellAcres(frame: GridFrame, row: number): number {
  const R = 6_371_008.8;
  const rad = Math.PI / 180;
  const lat = rowLatOf(frame)(row);
  const band = Math.sin((lat + frame.cell / 2) * rad) - Math.sin((lat - frame.cell / 2) * rad);
  return (R * R * frame.cell * rad * band) / 4046.8564224;
}

/** Acres of the cells `pick(row, col)` chooses. */
export function acresWhere(frame: GridFrame, pick: (row: number, col: number) => boolean): number {
  let acres = 0;
  for (let row = 0; row < frame.size; row++) {
    for (let col = 0; col < frame.size; col++) if (pick(row, col)) acres += sphericalCellAcres(frame, row);
  }
  return acres;
}

/** An area agrees with the expected one within `share` of it; an expectation of nothing proves nothing. */
export const expectAcresWithin = (share: number) => (actual: number, expected: number) => {
  expect(expected).toBeGreaterThan(0);
  expect(Math.abs(actual - expected)).toBeLessThan(share * expected);
};

/**
 * A NAVD88 model that answers only the posts inside the box it is asked for (as the tiled and COG
 * sources do), `value(row, col)` at each; `extra` adds port methods (an `extentAt`, say).
 */
export function croppingSource(frame: GridFrame, value: (row: number, col: number) => number, info: Partial<ElevationSourceInfo> = {}, extra: Partial<ElevationSource> = {}): ElevationSource {
  const { west, north, cell, size } = frame;
  return {
    info: () => ({ name: 'Cropping test model', vertical_datum: 'NAVD88', native_resolution: `${cell}°`, resolution_m: 50, ...info }),
    grid: async (box) => {
      const c0 = Math.max(0, Math.ceil((box[0] - west) / cell - 1e-9));
      const c1 = Math.min(size - 1, Math.floor((box[2] - west) / cell + 1e-9));
      const r0 = Math.max(0, Math.ceil((north - box[3]) / cell - 1e-9));
      const r1 = Math.min(size - 1, Math.floor((north - box[1]) / cell + 1e-9));
      if (c1 < c0 || r1 < r0) return undefined;
      const width = c1 - c0 + 1;
      const height = r1 - r0 + 1;
      return {
        values: Float32Array.from({ length: width * height }, (_, i) => value(r0 + Math.floor(i / width), c0 + (i % width))),
        width, height, west: west + c0 * cell, north: north - r0 * cell, cellLon: cell, cellLat: cell, verticalDatum: 'NAVD88', source: 'crop',
      };
    },
    ...extra,
  };
}

/** Great-circle distance in km on a sphere of the mean Earth radius, written here apart from the code's. */
export function haversineKm(a: { lat: number; lon: number }, b: { lat: number; lon: number }): number {
  const rad = Math.PI / 180;
  const s = Math.sin(((b.lat - a.lat) * rad) / 2) ** 2 + Math.cos(a.lat * rad) * Math.cos(b.lat * rad) * Math.sin(((b.lon - a.lon) * rad) / 2) ** 2;
  return 2 * 6371.0088 * Math.asin(Math.sqrt(s));
}
