import { rainfallPonding } from '../../shared/domain/hazards/rainfall-ponding';
import { gridOfPosts } from '../helpers/test-grid';

// The walled basin of depressions.test.ts on a geographic grid: 7 × 7 posts, edge at 0, wall at 5
// with a notch at 3, floor at 1 and a pit at 0. Cell areas from the spherical band formula, which
// the code's flat-earth cell areas match within 0.5 %.
const frame = { west: -82, north: 28, cell: 0.0001 };
const grid = gridOfPosts(frame, 7, 7, (r, c) => {
  if (r === 0 || c === 0 || r === 6 || c === 6) return 0;
  if (r === 1 && c === 3) return 3;
  if (r === 1 || c === 1 || r === 5 || c === 5) return 5;
  return r === 3 && c === 3 ? 0 : 1;
});
const R = 6_371_008.8, rad = Math.PI / 180;
const cellArea = (row: number) => {
  const lat = frame.north - row * frame.cell;
  return R * R * frame.cell * rad * (Math.sin((lat + frame.cell / 2) * rad) - Math.sin((lat - frame.cell / 2) * rad));
};
// Capacity below the notch: the pit 3 m deep, the eight floor cells 2 m deep.
const capacity = 3 * cellArea(3) + 2 * (3 * cellArea(2) + 2 * cellArea(3) + 3 * cellArea(4));
const catchment = 3 * (cellArea(2) + cellArea(3) + cellArea(4));

describe('rainfall component on a grid', () => {
  it('without a storm: needs_design_storm, says where to get one, lists the depression with the rain that fills it', () => {
    const answer = rainfallPonding(grid, undefined);
    expect(answer.status).toBe('needs_design_storm');
    if (answer.status !== 'needs_design_storm') return;
    expect(answer.design_storm_needed).toMatch(/NOAA Atlas 14/);
    expect(answer.scope).toMatch(/no pipes/);
    expect(answer.count).toBe(1);
    const [d] = answer.depressions;
    expect(Math.abs(d!.capacity_m3 - capacity)).toBeLessThan(0.005 * capacity);
    expect(Math.abs(d!.catchment_area_m2 - catchment)).toBeLessThan(0.005 * catchment);
    expect(d!.spill_elevation_navd88.m).toBe(3);
    expect(Math.abs(d!.fill_rain_mm! - (1000 * capacity) / catchment)).toBeLessThan(0.5);
  });

  it('with a storm whose runoff overfills it: full at the notch, spilling, the balance closed', () => {
    const answer = rainfallPonding(grid, { depth_mm: 6000, duration_h: 24, return_period_years: 100, source: 'test storm', runoff: { runoff_coefficient: 0.5 } });
    expect(answer.status).toBe('computed');
    if (answer.status !== 'computed') return;
    expect(answer.design_storm.runoff_mm).toBe(3000);
    expect(answer.depressions[0]).toMatchObject({ status: 'spilling', water_surface_navd88: { m: 3 }, max_depth: { m: 3 } });
    expect(Math.abs(answer.ponded_volume_m3 - capacity)).toBeLessThan(0.005 * capacity);
    expect(answer.volume_balance.closure).toBeCloseTo(1, 6);
  });
});
