/**
 * How much of a storm's rain runs off: a rational-method coefficient (runoff = C × rain) or the
 * NRCS curve number (TR-55: S = 25400/CN − 254 mm, Ia = 0.2 S, Q = (P − Ia)² / (P + 0.8 S)).
 * Neither: all rain runs off (C = 1), the conservative screening default.
 */
export type RunoffModel = { runoff_coefficient: number } | { curve_number: number };

export const ALL_RAIN_RUNS_OFF: RunoffModel = { runoff_coefficient: 1 };

const retentionMm = (curveNumber: number) => 25400 / curveNumber - 254;

/** Runoff depth (mm) from a rain depth (mm). */
export function runoffMm(rainMm: number, model: RunoffModel): number {
  if ('runoff_coefficient' in model) return rainMm * model.runoff_coefficient;
  const s = retentionMm(model.curve_number);
  return rainMm > 0.2 * s ? (rainMm - 0.2 * s) ** 2 / (rainMm + 0.8 * s) : 0;
}

/** The rain depth (mm) that yields a runoff depth (mm): the inverse of runoffMm. */
export function rainForRunoffMm(runoff: number, model: RunoffModel): number {
  if ('runoff_coefficient' in model) return model.runoff_coefficient > 0 ? runoff / model.runoff_coefficient : Infinity;
  const s = retentionMm(model.curve_number);
  // (P − Ia)² = Q (P − Ia + S): the positive root in P − Ia.
  return 0.2 * s + (runoff + Math.sqrt(runoff * runoff + 4 * runoff * s)) / 2;
}

export function describeRunoff(model: RunoffModel): string {
  return 'runoff_coefficient' in model
    ? `runoff = ${model.runoff_coefficient} × rain (rational-method coefficient)`
    : `NRCS curve number ${model.curve_number}: S = 25400/CN − 254 mm, Ia = 0.2 S, Q = (P − Ia)² / (P + 0.8 S)`;
}
