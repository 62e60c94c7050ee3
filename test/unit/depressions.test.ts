import { depressionHierarchy, OFF_MODEL, SEA, type DepressionSurface } from '../../shared/domain/hazards/depressions';
import { compoundPonding, fillSpillMerge, statusOf } from '../../shared/domain/hazards/fill-spill-merge';
import { spillLevels } from '../../shared/domain/hazards/flood-fill';
import { rainForRunoffMm, runoffMm } from '../../shared/domain/hazards/design-storm';

const W = Number.NaN;

/** A surface from rows of elevations; `sea` marks open water; every cell `cellArea` m². */
function surfaceOf(rows: number[][], cellArea: number, sea: (row: number, col: number) => boolean = () => false): DepressionSurface {
  const height = rows.length, width = rows[0]!.length;
  return {
    values: Float64Array.from(rows.flat()),
    width, height,
    rowAreas: new Float64Array(height).fill(cellArea),
    water: Uint8Array.from({ length: width * height }, (_, i) => (sea(Math.floor(i / width), i % width) ? 1 : 0)),
  };
}

const at = (s: DepressionSurface, row: number, col: number) => row * s.width + col;

describe('walled basin with a pit (10 m cells, 100 m² each)', () => {
  // 7 × 7: the model's edge at 0 (water leaves there), a wall at 5 with one notch at 3, a floor at 1
  // with a pit at 0 in its centre. Hand-computed: the basin is the 3 × 3 floor (900 m² of catchment);
  // it overflows at the notch, 3 m; below 3 m it holds 100 × 3 + 8 × 100 × 2 = 1,900 m³.
  const rows = Array.from({ length: 7 }, (_, r) => Array.from({ length: 7 }, (_, c) => {
    if (r === 0 || c === 0 || r === 6 || c === 6) return 0;
    if (r === 1 && c === 3) return 3;
    if (r === 1 || c === 1 || r === 5 || c === 5) return 5;
    return r === 3 && c === 3 ? 0 : 1;
  }));
  const surface = surfaceOf(rows, 100);
  const h = depressionHierarchy(surface);
  const basin = h.cellNode[at(surface, 3, 3)]!;

  it('finds one depression: spill at the notch, its capacity and catchment', () => {
    expect(h.leafCount).toBe(1);
    expect(h.parent[basin]).toBe(OFF_MODEL);
    expect(h.spill[basin]).toBe(3);
    expect(h.capacity[basin]).toBeCloseTo(1900, 6);
    expect(h.catchment[basin]).toBeCloseTo(900, 6);
    // The wall and the edge drain straight off the model: 24 + 16 cells.
    expect(h.catchment[OFF_MODEL]).toBeCloseTo(4000, 6);
  });

  it('partial fill within the pit: 0.1 m of runoff → 90 m³ in the 100 m² pit, 0.9 m deep', () => {
    const p = fillSpillMerge(h, 0.1);
    expect(p.level[basin]).toBeCloseTo(0.9, 9);
    expect(p.depth[at(surface, 3, 3)]).toBeCloseTo(0.9, 6);
    expect(p.depth[at(surface, 2, 2)]).toBe(0);
    expect(p.ponded_volume_m3).toBeCloseTo(90, 6);
    expect(p.ponded_area_m2).toBeCloseTo(100, 9);
    expect(statusOf(p, basin)).toBe('partial');
  });

  it('partial fill over the floor: 1 m → 900 m³; 100 h + 800 (h − 1) = 900 gives h = 17/9 m', () => {
    const p = fillSpillMerge(h, 1);
    expect(p.level[basin]).toBeCloseTo(17 / 9, 9);
    expect(p.depth[at(surface, 2, 4)]).toBeCloseTo(8 / 9, 6);
    expect(p.max_depth_m).toBeCloseTo(17 / 9, 6);
    expect(p.ponded_area_m2).toBeCloseTo(900, 6);
    expect(p.ponded_volume_m3).toBeCloseTo(900, 6);
    expect(p.off_model_m3).toBeCloseTo(4000, 6);
  });

  it('full fill with overflow over the notch: 3 m → 2,700 m³, 1,900 held at 3 m, 800 over the rim', () => {
    const p = fillSpillMerge(h, 3);
    expect(p.level[basin]).toBe(3);
    expect(statusOf(p, basin)).toBe('spilling');
    expect(p.depth[at(surface, 3, 3)]).toBeCloseTo(3, 6);
    expect(p.depth[at(surface, 2, 2)]).toBeCloseTo(2, 6);
    expect(p.depth[at(surface, 1, 3)]).toBe(0);
    expect(p.ponded_volume_m3).toBeCloseTo(1900, 6);
    expect(p.off_model_m3).toBeCloseTo(800 + 12000, 6);
    expect(p.runoff_m3).toBeCloseTo(4900 * 3, 6);
  });
});

describe('two depressions that spill into each other and merge (1 m² cells)', () => {
  // A: two cells at 0; a saddle at 2; B: two cells at 1; a rim at 10 all round (the model's edge).
  // Hand-computed: A holds 4 m³ below 2 m and drains 3 m² (its cells and the saddle); B holds 2 m³
  // and drains 2 m²; above 2 m they are one lake of 5 m².
  const surface = surfaceOf([
    [10, 10, 10, 10, 10, 10, 10],
    [10, 0, 0, 2, 1, 1, 10],
    [10, 10, 10, 10, 10, 10, 10],
  ], 1);
  const h = depressionHierarchy(surface);
  const a = h.cellNode[at(surface, 1, 1)]!, b = h.cellNode[at(surface, 1, 4)]!;
  const joint = h.parent[a]!;

  it('builds A and B joined at the saddle into one parent that overflows at the rim', () => {
    expect(h.leafCount).toBe(2);
    expect(h.parent[b]).toBe(joint);
    expect([h.spill[a], h.spill[b], h.spill[joint]]).toEqual([2, 2, 10]);
    expect([h.capacity[a], h.capacity[b]]).toEqual([4, 2]);
    expect(h.capacity[joint]).toBeCloseTo(20 + 8 + 18, 9);
    expect([h.catchment[a], h.catchment[b], h.catchment[joint]]).toEqual([3, 2, 5]);
  });

  it('1.1 m of runoff: B (2.2 m³) overflows 0.2 m³ into A (3.3 + 0.2 = 3.5 m³ over 2 m² → 1.75 m)', () => {
    const p = fillSpillMerge(h, 1.1);
    expect(statusOf(p, b)).toBe('spilling');
    expect(statusOf(p, a)).toBe('partial');
    expect(p.level[a]).toBeCloseTo(1.75, 9);
    expect(p.level[b]).toBe(2);
    expect(p.depth[at(surface, 1, 2)]).toBeCloseTo(1.75, 6);
    expect(p.depth[at(surface, 1, 5)]).toBeCloseTo(1, 6);
    expect(p.ponded_volume_m3).toBeCloseTo(5.5, 6);
  });

  it('1.5 m of runoff: both fill and merge; the 1.5 m³ beyond 6 m³ spreads over 5 m² → 2.3 m', () => {
    const p = fillSpillMerge(h, 1.5);
    expect(p.level[joint]).toBeCloseTo(2.3, 9);
    expect(p.level[a]).toBeCloseTo(2.3, 9);
    expect(statusOf(p, joint)).toBe('partial');
    expect(p.depth[at(surface, 1, 1)]).toBeCloseTo(2.3, 6);
    expect(p.depth[at(surface, 1, 3)]).toBeCloseTo(0.3, 6);
    expect(p.depth[at(surface, 1, 4)]).toBeCloseTo(1.3, 6);
    expect(p.ponded_volume_m3).toBeCloseTo(7.5, 6);
    expect(p.off_model_m3).toBeCloseTo(16 * 1.5, 6);
  });
});

describe('a depression draining to the sea, its outlet blocked by a rising tailwater (1 m² cells)', () => {
  // The sea at −1 (open water), a sill at 1.0, three cells at 0, a rim at 10 (the model's edge).
  const rows = [
    [10, 10, 10, 10, 10, 10],
    [-1, 1, 0, 0, 0, 10],
    [10, 10, 10, 10, 10, 10],
  ];
  const surface = surfaceOf(rows, 1, (r, c) => r === 1 && c === 0);
  const hollow = at(surface, 1, 3);

  it('without a tailwater: it holds 3 m³ below the 1.0 m sill; 1 m of runoff fills it and the sill drains to the sea', () => {
    const h = depressionHierarchy(surface);
    const node = h.cellNode[hollow]!;
    expect(h.parent[node]).toBe(SEA);
    expect(h.spill[node]).toBe(1);
    expect(h.capacity[node]).toBeCloseTo(3, 9);
    const p = fillSpillMerge(h, 1);
    expect(p.depth[hollow]).toBeCloseTo(1, 6);
    expect(p.to_sea_m3).toBeCloseTo(1, 6);
  });

  it('with the sea at 1.5 m the outlet cannot drain below 1.5: the sill joins the hollow (4 m²) and 4 m³ stand at 1.25 m', () => {
    const h = depressionHierarchy(surface, 1.5);
    const node = h.cellNode[hollow]!;
    expect(h.spill[node]).toBe(1.5);
    // 3 × 1.5 + 0.5 below 1.5 m.
    expect(h.capacity[node]).toBeCloseTo(5, 9);
    expect(h.catchment[node]).toBeCloseTo(4, 9);
    const p = fillSpillMerge(h, 1);
    expect(p.level[node]).toBeCloseTo(1.25, 9);
    expect(p.depth[hollow]).toBeCloseTo(1.25, 6);
    expect(p.depth[at(surface, 1, 1)]).toBeCloseTo(0.25, 6);
    expect(p.to_sea_m3).toBeCloseTo(0, 9);
    const full = fillSpillMerge(h, 2);
    expect(full.depth[hollow]).toBeCloseTo(1.5, 6);
    expect(full.to_sea_m3).toBeCloseTo(3, 6);
  });
});

describe('cells without data are where water leaves the model', () => {
  it('a hollow beside a void drains off the model instead of ponding', () => {
    const surface = surfaceOf([
      [10, 10, 10, 10, 10],
      [10, 0, 0, W, 10],
      [10, 10, 10, 10, 10],
    ], 1);
    const h = depressionHierarchy(surface);
    // A flat beside the void may count as a depression, but one that holds nothing.
    for (let node = 2; node < h.count; node++) expect(h.capacity[node]).toBe(0);
    const p = fillSpillMerge(h, 1);
    expect(p.ponded_volume_m3).toBe(0);
    expect(p.off_model_m3).toBeCloseTo(14, 9);
  });
});

describe('runoff from rain', () => {
  it('NRCS curve number 80: S = 63.5 mm, Ia = 12.7 mm; 100 mm of rain gives (87.3)² / 150.8 mm of runoff', () => {
    expect(runoffMm(100, { curve_number: 80 })).toBeCloseTo(87.3 ** 2 / 150.8, 9);
    expect(runoffMm(10, { curve_number: 80 })).toBe(0);
    expect(rainForRunoffMm(87.3 ** 2 / 150.8, { curve_number: 80 })).toBeCloseTo(100, 9);
  });
  it('a coefficient scales the rain', () => {
    expect(runoffMm(200, { runoff_coefficient: 0.4 })).toBeCloseTo(80, 12);
    expect(rainForRunoffMm(80, { runoff_coefficient: 0.4 })).toBeCloseTo(200, 12);
  });
});

describe('compound flooding: the ponding held against the tailwater beside the coastal water', () => {
  // A sealed hollow (rim 2.0, floor 0, four cells) beside a low flat (0.5) joined to the sea:
  // with the sea at 1.0 the flat is coastal water 0.5 m deep; 0.25 m of runoff over the hollow's
  // 6 m² catchment (its floor and its rim) stands 1.5 / 4 = 0.375 m deep on its 4 m² floor. Neither alone wets anything the other misses.
  const rows = [
    [10, 10, 10, 10, 10, 10, 10],
    [-1, 0.5, 0.5, 2, 0, 0, 10],
    [10, 10, 10, 2, 0, 0, 10],
    [10, 10, 10, 10, 10, 10, 10],
  ];
  const surface = surfaceOf(rows, 1, (r, c) => r === 1 && c === 0);
  const grid = { values: Float32Array.from(surface.values), width: surface.width, height: surface.height, west: 0, north: 0, cellLon: 1e-5, cellLat: 1e-5, verticalDatum: 'NAVD88' as const, source: 'test' };
  const coastal = spillLevels(grid, (i) => surface.water![i] === 1);

  it('takes the deeper of the two at each cell and finds no extent beyond both alone', () => {
    const rain = fillSpillMerge(depressionHierarchy(surface), 0.25);
    const c = compoundPonding(depressionHierarchy(surface, 1), 0.25, rain.depth, coastal);
    expect(c.depth[at(surface, 1, 1)]).toBeCloseTo(0.5, 6);
    expect(c.depth[at(surface, 1, 4)]).toBeCloseTo(0.375, 6);
    expect(c.extent_m2).toBeCloseTo(2 + 4, 9);
    expect(c.beyond_either_m2).toBe(0);
  });
});
