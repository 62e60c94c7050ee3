/**
 * A county-wide flood analysis at the DEM's native resolution: Monroe County (us-atlas boundary,
 * the Keys and the mainland Everglades) over the bundled SRTM 1″ tiles, tidal and gauge-surge
 * components, the statute's two scenarios and two horizons. Reports wall-clock time, peak resident
 * memory, windows and cells read, and the exposed areas.
 */
import { performance } from 'node:perf_hooks';
import { LayeredElevationSource } from '../shared/adapters/elevation/layered';
import { SrtmTileSource } from '../shared/adapters/elevation/srtm-tiles';
import { modelsIn } from '../shared/adapters/elevation/tiled-model';
import { BUNDLED_MODELS_DIR } from '../shared/adapters/elevation';
import { harmonicTides } from '../shared/adapters/hazard-tide-predictor';
import { validateBoundary } from '../shared/domain/hazards/boundary';
import { analyzeFlooding } from '../shared/domain/hazards/flood-analysis';
import { countyBoundaryByFips } from '../shared/domain/hazards/florida-counties';

interface TidalResult { scenario: string; planning_horizon: number; exposed_area: { acres: number } | null; existing_water: { land_below_mhhw: { acres: number } | null } }

async function main(): Promise<void> {
  const monroe = validateBoundary(countyBoundaryByFips('12087')!.geometry);
  if (!monroe.ok) throw new Error('Monroe County boundary did not validate');
  const elevation = new LayeredElevationSource(modelsIn(BUNDLED_MODELS_DIR), new SrtmTileSource());
  const rssBefore = process.memoryUsage().rss;
  const start = performance.now();
  const result = await analyzeFlooding({
    boundary: monroe.boundary,
    components: ['tidal', 'surge'],
    scenarios: ['intermediate_low', 'intermediate'],
    horizons: [2046, 2076],
    currentYear: 2026,
  }, { elevation, layers: { layersFor: async () => [] }, tides: harmonicTides, assets: [] });
  const seconds = (performance.now() - start) / 1000;
  const elevationAnswer = result.elevation as { cell_size_m: number; native_resolution_areas?: { cell_size_m: number; windows: number; cells_read: number } };
  const native = elevationAnswer.native_resolution_areas;
  console.log(`Monroe County: ${monroe.boundary.area_km2.toFixed(0)} km², ${monroe.boundary.vertex_count} vertices`);
  console.log(`time ${seconds.toFixed(1)} s; peak RSS ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB (${(rssBefore / 2 ** 20).toFixed(0)} MB before the analysis)`);
  console.log(`areas at ${native?.cell_size_m ?? elevationAnswer.cell_size_m} m cells: ${native?.windows ?? 0} windows, ${native?.cells_read ?? 0} cells read; asset connection grid ${elevationAnswer.cell_size_m} m`);
  for (const component of ['tidal', 'surge'] as const) {
    for (const r of (result.components[component] as { results: (TidalResult & { return_period_years?: number })[] }).results) {
      const event = r.return_period_years ? ` ${r.return_period_years}-year` : '';
      console.log(`${component}${event} ${r.scenario} ${r.planning_horizon}: newly exposed ${r.exposed_area?.acres} acres; land below today's MHHW ${r.existing_water.land_below_mhhw?.acres} acres`);
    }
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
