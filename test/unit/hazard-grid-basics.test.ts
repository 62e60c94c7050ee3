import { cellIndexAt, cellSizeMetres, coveredFraction, rowCellAreas, sourceInfoFor, type ElevationGrid, type ElevationSource } from '../../shared/domain/hazards/elevation';
import { depthAtPoint, floodModel, isInundated, reachesSite, siteDepth } from '../../shared/domain/hazards/inundation';
import { gridOfPosts, sphericalCellAcres, type GridFrame } from '../helpers/test-grid';

/**
 * The grid arithmetic every answer stands on: which cell a point falls in, how large a cell is,
 * how much of a grid has data, which cells are water, and whether water reaches a site.
 */
const WEST = -82.5;
const NORTH = 27.9;
const CELL = 0.001;

const gridOf = (width: number, height: number, value: (row: number, col: number) => number, extra: Partial<ElevationGrid> = {}) => gridOfPosts({ west: WEST, north: NORTH, cell: CELL }, width, height, value, extra);

describe('the cell a point falls in', () => {
  const grid = gridOf(4, 3, () => 1);
  it('is the cell whose centre is nearest, half a cell either side', () => {
    expect(cellIndexAt(grid, NORTH, WEST)).toBe(0);
    expect(cellIndexAt(grid, NORTH - 0.4 * CELL, WEST + 0.4 * CELL)).toBe(0);
    expect(cellIndexAt(grid, NORTH - 0.6 * CELL, WEST + 0.6 * CELL)).toBe(4 + 1);
    expect(cellIndexAt(grid, NORTH - 2 * CELL, WEST + 3 * CELL)).toBe(2 * 4 + 3);
  });

  it.each([
    ['west of the first column', NORTH, WEST - 0.6 * CELL],
    ['east of the last column', NORTH, WEST + 3.6 * CELL],
    ['north of the first row', NORTH + 0.6 * CELL, WEST],
    ['south of the last row', NORTH - 2.6 * CELL, WEST],
  ])('is none %s', (_name, lat, lon) => {
    expect(cellIndexAt(grid, lat, lon)).toBeUndefined();
  });
});

describe('cell sizes', () => {
  const frame: GridFrame = { west: WEST, north: NORTH, cell: CELL, size: 50 };
  const grid = gridOf(50, 50, () => 1);

  it('give each row its area, shrinking with the cosine of latitude (within 0.5 % of the sphere\'s)', () => {
    const areas = rowCellAreas(grid);
    expect(areas).toHaveLength(50);
    for (let row = 0; row < 50; row++) {
      const sphere = sphericalCellAcres(frame, row) * 4046.8564224;
      expect(Math.abs(areas[row]! / sphere - 1)).toBeLessThan(0.005);
    }
    expect(areas[49]!).toBeGreaterThan(areas[0]!);
  });

  it('name the cell\'s side as the geometric mean of its north–south and east–west sides, to the metre', () => {
    const midLat = NORTH - 25 * CELL;
    const northSouth = CELL * (Math.PI / 180) * 6_371_008.8;
    const eastWest = northSouth * Math.cos((midLat * Math.PI) / 180);
    expect(Math.abs(cellSizeMetres(grid) - Math.sqrt(northSouth * eastWest))).toBeLessThanOrEqual(1);
  });

  it('take the east–west side at the grid\'s middle latitude: a grid of 0.01° cells from 31° N down to 21° N is named at 26° N', () => {
    const tall = gridOfPosts({ west: WEST, north: 31, cell: 0.01 }, 2, 1000, () => 1);
    const northSouth = 0.01 * (Math.PI / 180) * 6_371_008.8;
    const atMiddle = Math.sqrt(northSouth * northSouth * Math.cos((26 * Math.PI) / 180));
    expect(Math.abs(cellSizeMetres(tall) - atMiddle)).toBeLessThanOrEqual(2);
    // At its northern edge it would be 24 m off.
    expect(Math.abs(atMiddle - Math.sqrt(northSouth * northSouth * Math.cos((31 * Math.PI) / 180)))).toBeGreaterThan(20);
  });
});

describe('coverage', () => {
  it('is the share of cells with data, and 0 for an empty grid', () => {
    expect(coveredFraction(gridOf(4, 3, (row, col) => (col === 3 ? Number.NaN : row)))).toBe(0.75);
    expect(coveredFraction(gridOf(0, 0, () => 1))).toBe(0);
  });
});

describe('the source that answers for a box', () => {
  const info = (name: string) => ({ name, vertical_datum: 'NAVD88' as const, native_resolution: '1 m' });
  const plain: ElevationSource = { info: () => info('Plain'), grid: async () => undefined };
  it('is the first layer covering the box, or the source itself', () => {
    const layered: ElevationSource = { ...plain, layersFor: () => [{ ...plain, info: () => info('Lidar 2018') }, plain] };
    expect(sourceInfoFor(layered, [0, 0, 1, 1]).name).toBe('Lidar 2018');
    expect(sourceInfoFor(plain, [0, 0, 1, 1]).name).toBe('Plain');
    expect(sourceInfoFor({ ...plain, layersFor: () => [] }, [0, 0, 1, 1]).name).toBe('Plain');
  });
});

describe('water and its reach', () => {
  // Sea in column 0 (−1 m); land at 1 m; a pit at 0.2 m walled by 3 m in the middle of a 7 × 7 grid; a gap.
  const pitWall = (row: number, col: number) => row >= 2 && row <= 4 && col >= 2 && col <= 4 && !(row === 3 && col === 3);
  const grid = gridOf(7, 7, (row, col) => (col === 0 ? -1 : row === 3 && col === 3 ? 0.2 : pitWall(row, col) ? 3 : row === 6 && col === 6 ? Number.NaN : 1));
  const model = floodModel(grid, 0);
  const at = (row: number, col: number) => row * 7 + col;
  const point = (row: number, col: number) => ({ lat: NORTH - row * CELL, lon: WEST + col * CELL });

  it('is ground at or below the sea surface, compared in the grid\'s float32 precision, unless the grid flags water itself', () => {
    const edge = gridOf(3, 1, (_row, col) => [0.1, 0.1000001, 0.05][col]!);
    expect(Array.from(floodModel(edge, 0.1).water)).toEqual([1, 0, 1]);
    const flagged = gridOf(3, 1, () => 5, { water: Uint8Array.from([0, 1, 0]) });
    expect(Array.from(floodModel(flagged, 0.1).water)).toEqual([0, 1, 0]);
  });

  it('inundates land connected to the sea below the level, not the sea, not a gap, not the walled pit below the wall', () => {
    expect(isInundated(model, at(0, 1), 1.5)).toBe(true);
    expect(isInundated(model, at(0, 1), 1)).toBe(false);
    expect(isInundated(model, at(0, 0), 1.5)).toBe(false);
    expect(isInundated(model, at(6, 6), 1.5)).toBe(false);
    expect(isInundated(model, at(3, 3), 1.5)).toBe(false);
    expect(isInundated(model, at(3, 3), 3.5)).toBe(true);
  });

  it('gives the depth at a point: open water, new water, and isolated low ground', () => {
    expect(depthAtPoint(model, point(0, 0), 1.5)).toEqual({ ground_navd88_m: -1, depth_m: 0, isolated_low_ground: false, open_water: true });
    expect(depthAtPoint(model, point(0, 1), 1.5)).toEqual({ ground_navd88_m: 1, depth_m: 0.5, isolated_low_ground: false, open_water: false });
    const pit = depthAtPoint(model, point(3, 3), 1.5)!;
    expect(pit).toMatchObject({ depth_m: 0, isolated_low_ground: true, open_water: false });
    expect(pit.ground_navd88_m).toBeCloseTo(0.2, 6);
    expect(depthAtPoint(model, point(6, 6), 1.5)).toBeUndefined();
    expect(depthAtPoint(model, point(-2, 0), 1.5)).toBeUndefined();
    // Ground at or above the level is not low ground, cut off or not: the wall at 3 m, at a level of 2 m and of 3 m.
    expect(depthAtPoint(model, point(2, 2), 2)).toEqual({ ground_navd88_m: 3, depth_m: 0, isolated_low_ground: false, open_water: false });
    expect(depthAtPoint(model, point(2, 2), 3)).toEqual({ ground_navd88_m: 3, depth_m: 0, isolated_low_ground: false, open_water: false });
  });

  it('reaches a site in open water or connected below the level; where the grid says nothing, the level applies', () => {
    expect(siteDepth(model, at(0, 1), 0.8, 1.5)).toEqual({ depth_m: 0.7, connected: true });
    expect(siteDepth(model, at(0, 0), -1, 0.5)).toEqual({ depth_m: 1.5, connected: true });
    expect(siteDepth(model, at(3, 3), 0.2, 1.5)).toEqual({ depth_m: 0, connected: false });
    expect(siteDepth(model, at(0, 1), 2, 1.5)).toEqual({ depth_m: 0, connected: true });
    // Unknown connection: no model, no cell, or a cell without data.
    expect(siteDepth(undefined, undefined, 0.5, 1.5).connected).toBe(true);
    expect(siteDepth(model, undefined, 0.5, 1.5)).toEqual({ depth_m: 1, connected: true });
    expect(reachesSite(model, at(6, 6), 1.5)).toBe(true);
    expect(reachesSite(model, at(0, 1), 1)).toBe(false);
    // Open water the model flags itself reaches a site in it whatever its surface (a lake standing 4 m above a 1 m level).
    const lake = floodModel(gridOf(3, 1, () => 4, { water: Uint8Array.from([0, 1, 0]) }), 0);
    expect(siteDepth(lake, 1, 4, 1)).toEqual({ depth_m: 0, connected: true });
    expect(siteDepth(lake, 0, 4, 1)).toEqual({ depth_m: 0, connected: false });
  });
});
