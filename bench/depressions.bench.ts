/**
 * The depression hierarchy of a 10⁷-cell synthetic surface (coastal slope, rolling relief and
 * closed hollows; 30 m cells) against the project's plain priority-flood fill (spillLevels) on the
 * same grid, one core: times, their ratio, the depressions found and one storm's fill–spill–merge.
 */
import { performance } from 'node:perf_hooks';
import { depressionHierarchy } from '../shared/domain/hazards/depressions';
import { fillSpillMerge } from '../shared/domain/hazards/fill-spill-merge';
import { spillLevels } from '../shared/domain/hazards/flood-fill';
import type { ElevationGrid } from '../shared/domain/hazards/elevation';

const SIDE = 3163;
const CELL_M = 30;

function syntheticGrid(): ElevationGrid {
  const values = new Float32Array(SIDE * SIDE);
  const water = new Uint8Array(SIDE * SIDE);
  for (let row = 0; row < SIDE; row++) {
    for (let col = 0; col < SIDE; col++) {
      const x = col / SIDE, y = row / SIDE;
      // Rising inland from the sea along the west edge, with ridges and hollows at several scales.
      const z = 8 * x - 0.5 + 1.5 * Math.sin(37 * x) * Math.cos(29 * y) + 0.6 * Math.sin(151 * x + 2) * Math.sin(173 * y) + 0.2 * Math.cos(613 * x) * Math.sin(587 * y + 1);
      values[row * SIDE + col] = z;
      if (z <= 0 && x < 0.1) water[row * SIDE + col] = 1;
    }
  }
  return { values, water, width: SIDE, height: SIDE, west: -82, north: 28, cellLon: 0.0003, cellLat: 0.0003, verticalDatum: 'NAVD88', source: 'synthetic' };
}

function main(): void {
  const grid = syntheticGrid();
  const rowAreas = new Float64Array(SIDE).fill(CELL_M * CELL_M);
  const t0 = performance.now();
  spillLevels(grid, (i) => grid.water![i] === 1);
  const fill = (performance.now() - t0) / 1000;
  const t1 = performance.now();
  const h = depressionHierarchy({ values: grid.values, width: SIDE, height: SIDE, rowAreas, water: grid.water });
  const hierarchy = (performance.now() - t1) / 1000;
  const t2 = performance.now();
  const storm = fillSpillMerge(h, 0.15);
  const filling = (performance.now() - t2) / 1000;
  const balance = (storm.ponded_volume_m3 + storm.to_sea_m3 + storm.off_model_m3) / storm.runoff_m3;
  console.log(`grid ${SIDE} × ${SIDE} = ${(SIDE * SIDE / 1e6).toFixed(2)} M cells`);
  console.log(`priority-flood fill (spillLevels): ${fill.toFixed(2)} s`);
  console.log(`depression hierarchy: ${hierarchy.toFixed(2)} s (${h.leafCount} depressions, ${h.count - 2 - h.leafCount} merged); ratio ${(hierarchy / fill).toFixed(2)} × the fill`);
  console.log(`fill–spill–merge, 150 mm of runoff: ${filling.toFixed(2)} s; ponded ${(storm.ponded_area_m2 / 1e6).toFixed(2)} km², ${(storm.ponded_volume_m3 / 1e6).toFixed(2)} Mm³; volume balance ${balance.toFixed(6)}`);
  console.log(`peak RSS ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB`);
}

main();
