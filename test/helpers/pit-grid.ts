import type { Polygon } from 'geojson';
import { validateBoundary } from '../../shared/domain/hazards/boundary';
import type { TidePredictor } from '../../shared/domain/hazards/tide-flood-days';
import { colLonOf, rowLatOf, type GridFrame } from './test-grid';

/**
 * A graded grid near Tampa Bay with one pit: five columns of bay at −1 m, then land rising 0.1 m a
 * column from 0.2 m, and the cell at row 20, column 30 cut to 1.5 m NAVD88 among 2.6–2.8 m ground. A
 * 2 m runoff fills the pit to its lowest rim (column 29, 2.6 m): 1.1 m of water, on that cell alone.
 */
export const PIT_FRAME: GridFrame = { west: -82.47, north: 27.92, cell: 0.001, size: 40 };
export const colLon = colLonOf(PIT_FRAME);
export const rowLat = rowLatOf(PIT_FRAME);
export const pitGround = (row: number, col: number) => (row === 20 && col === 30 ? 1.5 : col < 5 ? -1 : 0.2 + 0.1 * (col - 5));
export const noTides: TidePredictor = { highWaters: async () => [], levelsAt: async (_g, times) => times.map(() => 0) };
export const pitStorm = { depth_mm: 2000, duration_h: 24, return_period_years: 100, source: 'stated for the test' };

/** The whole grid as the analysed boundary (its outer cell edges). */
export function pitGridBoundary() {
  const edge = (i: number) => i - 0.5;
  const ring = [[colLon(edge(0)), rowLat(edge(40))], [colLon(edge(40)), rowLat(edge(40))], [colLon(edge(40)), rowLat(edge(0))], [colLon(edge(0)), rowLat(edge(0))], [colLon(edge(0)), rowLat(edge(40))]];
  const validation = validateBoundary({ type: 'Polygon', coordinates: [ring] } as Polygon);
  if (!validation.ok) throw new Error('bad test boundary');
  return validation.boundary;
}
