/**
 * Stationary GEV fit by maximum likelihood (Nelder–Mead on μ, ln σ, ξ), as used for the tide-gauge
 * annual maxima: the project fits them itself from the data rather than taking fitted parameters.
 */
export interface GevParameters {
  mu: number;
  sigma: number;
  xi: number;
}

/** Negative log-likelihood of the GEV (Coles 2001, eq. 3.7; Gumbel limit for ξ → 0). */
export function gevNegativeLogLikelihood(data: readonly number[], { mu, sigma, xi }: GevParameters): number {
  if (!(sigma > 0)) return Infinity;
  let nll = data.length * Math.log(sigma);
  for (const value of data) {
    const z = (value - mu) / sigma;
    if (Math.abs(xi) < 1e-8) {
      nll += z + Math.exp(-z);
      continue;
    }
    const t = 1 + xi * z;
    if (t <= 0) return Infinity;
    nll += (1 + 1 / xi) * Math.log(t) + t ** (-1 / xi);
  }
  return nll;
}

/**
 * Nelder–Mead simplex minimisation with the standard coefficients (reflection 1, expansion 2,
 * contraction ½, shrink ½; Lagarias et al. 1998): the simplex is `start` and `start` moved by
 * `step[i]` along each axis; it stops after `iterations`, or after the 50th iteration once the
 * simplex's values agree to 1e-12 relative.
 */
export function nelderMead(f: (p: number[]) => number, start: number[], step: number[], iterations: number): number[] {
  const n = start.length;
  let simplex = [start, ...start.map((_, i) => start.map((v, j) => (i === j ? v + step[i]! : v)))].map((p) => ({ p, v: f(p) }));
  for (let it = 0; it < iterations; it++) {
    simplex.sort((a, b) => a.v - b.v);
    const best = simplex[0]!;
    const worst = simplex[n]!;
    if (it > 50 && Math.abs(worst.v - best.v) < 1e-12 * (1 + Math.abs(best.v))) break;
    const centroid = start.map((_, j) => simplex.slice(0, n).reduce((s, q) => s + q.p[j]!, 0) / n);
    const along = (t: number) => centroid.map((c, j) => c + t * (worst.p[j]! - c));
    const reflected = along(-1);
    const fr = f(reflected);
    if (fr < best.v) {
      const expanded = along(-2);
      const fe = f(expanded);
      simplex[n] = fe < fr ? { p: expanded, v: fe } : { p: reflected, v: fr };
    } else if (fr < simplex[n - 1]!.v) {
      simplex[n] = { p: reflected, v: fr };
    } else {
      const contracted = fr < worst.v ? along(-0.5) : along(0.5);
      const fc = f(contracted);
      if (fc < Math.min(fr, worst.v)) simplex[n] = { p: contracted, v: fc };
      else simplex = simplex.map((q, i) => (i === 0 ? q : { p: q.p.map((v, j) => best.p[j]! + 0.5 * (v - best.p[j]!)), v: 0 })).map((q, i) => (i === 0 ? q : { p: q.p, v: f(q.p) }));
    }
  }
  simplex.sort((a, b) => a.v - b.v);
  return simplex[0]!.p;
}

/** Maximum-likelihood GEV parameters of a sample (started from the Gumbel method-of-moments fit). */
export function fitGev(data: readonly number[]): GevParameters {
  const mean = data.reduce((s, v) => s + v, 0) / data.length;
  const sd = Math.sqrt(data.reduce((s, v) => s + (v - mean) ** 2, 0) / (data.length - 1));
  const scale = (Math.sqrt(6) * sd) / Math.PI;
  const [mu, logSigma, xi] = nelderMead(
    ([m, ls, x]) => gevNegativeLogLikelihood(data, { mu: m!, sigma: Math.exp(ls!), xi: x! }),
    [mean - 0.5772 * scale, Math.log(scale), 0.1],
    [scale * 0.5, 0.3, 0.1],
    5000,
  );
  return { mu: mu!, sigma: Math.exp(logSigma!), xi: xi! };
}
