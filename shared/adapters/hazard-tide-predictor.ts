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
 * The step (whole seconds) of evenly spaced instants that start on a multiple of it — the grid the
 * predictor's timeline is built on (it floors the start to a multiple of the step) — else undefined.
 */
export function timelineStepSeconds(times: readonly Date[]): number | undefined {
  if (times.length < 2) return undefined;
  const stepMs = times[1]!.getTime() - times[0]!.getTime();
  if (stepMs <= 0 || stepMs % 1000 !== 0 || times[0]!.getTime() % stepMs !== 0) return undefined;
  for (let i = 2; i < times.length; i++) if (times[i]!.getTime() - times[i - 1]!.getTime() !== stepMs) return undefined;
  return stepMs / 1000;
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
    const step = timelineStepSeconds(times);
    // Evenly spaced instants (a year's day boundaries) in one timeline pass: the astronomy is set up
    // once instead of once per instant.
    if (step !== undefined) {
      const timeline = predictor.getTimelinePrediction({ start: times[0]!, end: times[times.length - 1]!, timeFidelity: step });
      if (timeline.length === times.length) return timeline.map((point) => point.level);
    }
    return times.map((time) => predictor.getWaterLevelAtTime({ time }).level);
  },
};
