import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { MultiPolygon, Polygon } from 'geojson';
import { validateBoundary } from '../../shared/domain/hazards/boundary';
import { estimateFloodAnalysisWork, SYNC_WORK_BUDGET, TIME_LIMITED_WORK } from '../../shared/domain/hazards/flood-analysis';

/**
 * Whether a flood analysis answers at once or with a job is decided by the request's size; the
 * wall-clock safety net applies only well above the documented example, so the engineer's worked
 * example (docs/examples/engineer.md) keeps its shape on a loaded machine.
 */
describe('immediate or job: decided by size for the documented example', () => {
  const examples = readFileSync(path.join(__dirname, '../../docs/examples/engineer.md'), 'utf8');
  const match = /-d '(\{[^']*\})' \$B\/hazards\/flood-analysis/.exec(examples);

  it('finds the documented flood-analysis example', () => {
    expect(match).not.toBeNull();
  });

  it('sizes the documented example far below the work held to a time limit', () => {
    const body = JSON.parse(match![1]!) as { boundary_geojson: Polygon | MultiPolygon; components: string[]; scenarios: string[]; planning_horizons: number[] };
    const validation = validateBoundary(body.boundary_geojson);
    if (!validation.ok) throw new Error('The documented boundary is invalid.');
    const work = estimateFloodAnalysisWork({
      boundary: validation.boundary, components: body.components as never, scenarios: body.scenarios as never, horizons: body.planning_horizons,
    }, 0);
    expect(work * 2).toBeLessThanOrEqual(TIME_LIMITED_WORK);
    expect(TIME_LIMITED_WORK).toBeLessThan(SYNC_WORK_BUDGET);
  });
});
