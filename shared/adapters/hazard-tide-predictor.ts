import type { Gauge } from '../domain/hazards/gauges';
import type { TidePredictor } from '../domain/hazards/tide-flood-days';

type Predictor = typeof import('@neaps/tide-predictor');
let module_: Promise<Predictor> | undefined;

async function predictorFor(gauge: Gauge) {
  module_ ??= import('@neaps/tide-predictor');
  const { createTidePredictor } = await module_;
  return createTidePredictor(gauge.constituents);
}

/**
 * Tides from a gauge's NOAA harmonic constituents with `@neaps/tide-predictor` (levels relative to
 * mean sea level). The package is ESM-only, hence the dynamic import.
 */
export const harmonicTides: TidePredictor = {
  async highWaters(gauge, start, end) {
    return (await predictorFor(gauge))
      .getExtremesPrediction({ start, end })
      .filter((extreme) => extreme.high)
      .map((extreme) => ({ time: extreme.time, level: extreme.level }));
  },
  async levelsAt(gauge, times) {
    const predictor = await predictorFor(gauge);
    return times.map((time) => predictor.getWaterLevelAtTime({ time }).level);
  },
};
