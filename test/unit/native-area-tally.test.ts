import type { ElevationGrid, ElevationSource } from '../../shared/domain/hazards/elevation';
import { MARGIN_CELLS, nativeCellCount, SpillTally, tallyAtNativeResolution, WINDOW_CELLS } from '../../shared/domain/hazards/native-area';

/** Areas at a DEM's native resolution: the count of native cells, the windows, and the tally's lookups. */
const M_PER_DEG = 111_320;

describe('native cells of a box', () => {
  it('is the box\'s north–south and east–west extent in metres (east–west shrunk by the cosine of its middle latitude) over the resolution squared', () => {
    const source = (resolution_m?: number): ElevationSource => ({ info: () => ({ name: 'm', vertical_datum: 'NAVD88', native_resolution: '-', ...(resolution_m ? { resolution_m } : {}) }), grid: async () => undefined });
    const box: [number, number, number, number] = [-82.5, 27.5, -82.4, 27.7];
    const ns = 0.2 * M_PER_DEG;
    const ew = 0.1 * M_PER_DEG * Math.cos((27.6 * Math.PI) / 180);
    expect(nativeCellCount(source(3), box)).toBeCloseTo((ns / 3) * (ew / 3), 3);
    expect(nativeCellCount(source(), box)).toBe(0);
  });
});

describe('the spill tally', () => {
  it('gives the land below any level to the millimetre, all of it above the highest bin', () => {
    const tally = new SpillTally();
    tally.add(-6, 1);
    tally.add(0.5, 10);
    tally.add(0.5004, 100);
    tally.add(34.9, 1000);
    tally.add(35, 10_000);
    tally.add(Number.POSITIVE_INFINITY, 100_000);
    expect(tally.areaBelow(-10)).toBe(0);
    expect(tally.areaBelow(-4.9)).toBe(1);
    expect(tally.areaBelow(0.5)).toBe(1);
    expect(tally.areaBelow(0.501)).toBe(111);
    expect(tally.areaBelow(34.95)).toBe(1111);
    expect(tally.areaBelow(1000)).toBe(1111);
  });
});

describe('windows of the native pass', () => {
  // A 2 m model that answers only what is asked: land at 1 m cut by a canal every tenth column, so every window holds open water.
  const WEST = -82.5;
  const NORTH = 27.95;
  const STEP = 2 / M_PER_DEG;
  const CELL = 0.0005;
  /** The model, ending after column `lastCol` of its lattice when given; each read's budget and box kept in `reads`. */
  const fineModel = (lastCol = Number.POSITIVE_INFINITY) => {
    const reads: { box: [number, number, number, number]; maxCells: number }[] = [];
    const source: ElevationSource = {
      info: () => ({ name: 'fine', vertical_datum: 'NAVD88', native_resolution: '2 m', resolution_m: 2 }),
      grid: async (box, maxCells) => {
        reads.push({ box, maxCells });
        // Decimated to a 0.0005° lattice (what a pyramid would serve for a large request), aligned to the model's origin.
        const c0 = Math.ceil((box[0] - WEST) / CELL);
        const c1 = Math.min(lastCol, Math.floor((box[2] - WEST) / CELL));
        const r0 = Math.ceil((NORTH - box[3]) / CELL);
        const r1 = Math.floor((NORTH - box[1]) / CELL);
        const width = c1 - c0 + 1;
        const height = r1 - r0 + 1;
        if (width <= 0 || height <= 0) return undefined;
        const grid: ElevationGrid = {
          values: Float32Array.from({ length: width * height }, (_, i) => ((c0 + (i % width)) % 10 === 0 ? -1 : 1)),
          width, height, west: WEST + c0 * CELL, north: NORTH - r0 * CELL, cellLon: CELL, cellLat: CELL, verticalDatum: 'NAVD88', source: 'fine',
        };
        return grid;
      },
    };
    return { source, reads };
  };
  // Edges a quarter of a lattice cell off the cell centres, so no centre lies on one.
  const box: [number, number, number, number] = [-82.50012, 27.91012, -82.45012, 27.95012];
  const ring = [[box[0], box[1]], [box[2], box[1]], [box[2], box[3]], [box[0], box[3]], [box[0], box[1]]];
  const cellM2 = (lat: number) => (CELL * M_PER_DEG) ** 2 * Math.cos((lat * Math.PI) / 180);
  /** Land and canal area of the lattice cells in the box: rows 0–79, columns 0 to `lastCol` (at most 99), every tenth column a canal. */
  const expectedAreas = (lastCol: number) => {
    let land = 0;
    let water = 0;
    for (let row = 0; row < 80; row++) {
      for (let col = 0; col <= Math.min(lastCol, 99); col++) {
        const lat = NORTH - row * CELL;
        if (col % 10 === 0) water += cellM2(lat); else land += cellM2(lat);
      }
    }
    return { land, water };
  };

  it('tile the box in cores of WINDOW_CELLS native cells, each read with its margin, every cell counted once', async () => {
    const { source } = fineModel();
    const tally = await tallyAtNativeResolution(source, { type: 'Polygon', coordinates: [ring] }, box, 0, async () => {});
    const stepLat = WINDOW_CELLS * STEP;
    const stepLon = stepLat / Math.cos((27.93 * Math.PI) / 180);
    expect(tally.windows).toBe(Math.ceil(0.04 / stepLat) * Math.ceil(0.05 / stepLon));
    expect(tally.cellSizeM).toBe(2);
    // Each window reads its core and a margin of MARGIN_CELLS native cells all round, clipped to nothing here (the model has no edge).
    const marginLat = MARGIN_CELLS * STEP;
    expect(tally.cellsRead).toBeGreaterThan(((0.04 + 2 * marginLat) / CELL) * ((0.05 + 2 * marginLat) / CELL));
    const { land, water } = expectedAreas(99);
    expect(tally.openWaterM2 / water).toBeCloseTo(1, 4);
    expect(tally.areaBelow(2) / land).toBeCloseTo(1, 4);
    expect(tally.areaBelow(0.9)).toBe(0);
  });

  it('counts each cell of a model that ends inside the boundary\'s box once, none past its east edge', async () => {
    // The model's last column is column 59 of the lattice; the box reaches on to column 99.
    const { source } = fineModel(59);
    const tally = await tallyAtNativeResolution(source, { type: 'Polygon', coordinates: [ring] }, box, 0, async () => {});
    const { land, water } = expectedAreas(59);
    expect(tally.openWaterM2 / water).toBeCloseTo(1, 4);
    expect(tally.areaBelow(2) / land).toBeCloseTo(1, 4);
  });

  it('asks for each window with a budget that holds it at native resolution', async () => {
    const { source, reads } = fineModel();
    await tallyAtNativeResolution(source, { type: 'Polygon', coordinates: [ring] }, box, 0, async () => {});
    expect(reads.length).toBeGreaterThan(0);
    for (const read of reads) {
      const midLat = ((read.box[1] + read.box[3]) / 2) * (Math.PI / 180);
      const nativeCells = ((read.box[3] - read.box[1]) / STEP) * (((read.box[2] - read.box[0]) * Math.cos(midLat)) / STEP);
      // A budget below the window's native cells would have a real model serve a coarser level;
      // at most twice a full window's, so a read stays bounded in memory.
      expect(read.maxCells).toBeGreaterThanOrEqual(nativeCells);
      expect(read.maxCells).toBeLessThanOrEqual(2 * (WINDOW_CELLS + 2 * MARGIN_CELLS) ** 2);
    }
  });
});
