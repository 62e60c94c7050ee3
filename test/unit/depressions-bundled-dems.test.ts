import { BUNDLED_MODELS_DIR } from '../../shared/adapters/elevation';
import { modelsIn } from '../../shared/adapters/elevation/tiled-model';
import { depressionHierarchy } from '../../shared/domain/hazards/depressions';
import { fillSpillMerge } from '../../shared/domain/hazards/fill-spill-merge';

const models = modelsIn(BUNDLED_MODELS_DIR);
/** Runoff depths of three storms (m): a frequent one, a 100-year-like one and an extreme one. */
const STORMS = [0.025, 0.15, 0.45];
const EARTH_RADIUS = 6_371_008.8;

describe('volume balance on the bundled DEMs (read at up to 60,000 cells)', () => {
  it.each(models.map((m) => [m.record.elevation_model_id, m] as const))('%s: runoff = ponded + to the sea + off the model (within 1 %%), for three storms', async (_id, model) => {
    const grid = (await model.grid(model.record.bbox, 60_000))!;
    // Cell areas on the sphere, computed here from the grid's frame (not with the code's helper).
    const rad = Math.PI / 180;
    const rowAreas = Float64Array.from({ length: grid.height }, (_, row) => {
      const lat = grid.north - row * grid.cellLat;
      return EARTH_RADIUS ** 2 * grid.cellLon * rad * (Math.sin((lat + grid.cellLat / 2) * rad) - Math.sin((lat - grid.cellLat / 2) * rad));
    });
    const surface = { values: grid.values, width: grid.width, height: grid.height, rowAreas, water: grid.water };
    const h = depressionHierarchy(surface);
    let land = 0;
    for (let i = 0; i < grid.values.length; i++) {
      if (!Number.isNaN(grid.values[i]!) && grid.water?.[i] !== 1) land += rowAreas[Math.floor(i / grid.width)]!;
    }
    let previous = 0;
    for (const runoff of STORMS) {
      const p = fillSpillMerge(h, runoff);
      let ponded = 0;
      let negative = 0;
      for (let i = 0; i < p.depth.length; i++) {
        const d = p.depth[i]!;
        if (d < 0) negative++;
        if (d > 0) ponded += d * rowAreas[Math.floor(i / grid.width)]!;
      }
      expect(negative).toBe(0);
      const produced = land * runoff;
      expect(Math.abs(p.runoff_m3 - produced)).toBeLessThan(1e-6 * produced);
      expect(Math.abs(ponded + p.to_sea_m3 + p.off_model_m3 - produced)).toBeLessThan(0.01 * produced);
      // A larger storm never ponds less (every depression may already be full).
      expect(ponded).toBeGreaterThanOrEqual(previous * (1 - 1e-9));
      expect(ponded).toBeGreaterThan(0);
      previous = ponded;
    }
  });
});
