import { gevNegativeLogLikelihood, nelderMead } from '../../shared/domain/hazards/gev-fit';

/**
 * The GEV likelihood and the simplex minimiser the tide-gauge fits use, checked against the
 * textbook formulas (Coles 2001, eq. 3.7 and 3.9) and the standard Nelder–Mead step (Lagarias et
 * al. 1998: reflection 1, expansion 2, contraction ½, shrink ½), written out here point by point.
 */

const sample = [1.2, 0.9, 1.6, 1.1, 2.3, 1.4, 0.8];

describe('GEV negative log-likelihood', () => {
  it('is n ln σ + Σ (1 + 1/ξ) ln t + t^(−1/ξ), t = 1 + ξ (x − μ)/σ, inside the support', () => {
    const [mu, sigma, xi] = [1.1, 0.4, 0.2];
    let expected = sample.length * Math.log(sigma);
    for (const x of sample) {
      const t = 1 + (xi * (x - mu)) / sigma;
      expected += (1 + 1 / xi) * Math.log(t) + Math.pow(t, -1 / xi);
    }
    expect(gevNegativeLogLikelihood(sample, { mu, sigma, xi })).toBeCloseTo(expected, 12);
  });

  it('takes the Gumbel form n ln σ + Σ z + e^(−z) at ξ = 0, and joins it continuously', () => {
    const [mu, sigma] = [1.1, 0.4];
    let gumbel = sample.length * Math.log(sigma);
    for (const x of sample) gumbel += (x - mu) / sigma + Math.exp(-(x - mu) / sigma);
    expect(gevNegativeLogLikelihood(sample, { mu, sigma, xi: 0 })).toBeCloseTo(gumbel, 12);
    expect(gevNegativeLogLikelihood(sample, { mu, sigma, xi: -0 })).toBeCloseTo(gumbel, 12);
    // Just outside the Gumbel branch the GEV formula itself gives nearly the same value.
    expect(gevNegativeLogLikelihood(sample, { mu, sigma, xi: 1e-6 })).toBeCloseTo(gumbel, 4);
    expect(gevNegativeLogLikelihood(sample, { mu, sigma, xi: -1e-6 })).toBeCloseTo(gumbel, 4);
  });

  it.each([0, -0.4, Number.NaN])('is infinite for a scale σ = %p (no distribution)', (sigma) => {
    expect(gevNegativeLogLikelihood(sample, { mu: 1.1, sigma, xi: 0.2 })).toBe(Infinity);
    // Values all above μ: nothing else in the formula would turn a zero scale into Infinity.
    expect(gevNegativeLogLikelihood([1.2, 1.6], { mu: 1.1, sigma, xi: 0.2 })).toBe(Infinity);
  });

  it('is finite for a small positive scale that keeps every value in the support', () => {
    expect(Number.isFinite(gevNegativeLogLikelihood([1, 1.000001], { mu: 1, sigma: 1e-3, xi: 0.2 }))).toBe(true);
  });

  it('is infinite when a value lies outside the support (1 + ξ (x − μ)/σ ≤ 0)', () => {
    // ξ = −0.5, σ = 0.4: the upper end point is μ + σ/0.5 = 1.9, below the sample's 2.3.
    expect(gevNegativeLogLikelihood(sample, { mu: 1.1, sigma: 0.4, xi: -0.5 })).toBe(Infinity);
    // ξ = 0.5: the lower end point is μ − σ/0.5 = 0.3; a value below it.
    expect(gevNegativeLogLikelihood([0.2, 1.2], { mu: 1.1, sigma: 0.4, xi: 0.5 })).toBe(Infinity);
    // The same values with the end point moved past them are inside the support again.
    expect(Number.isFinite(gevNegativeLogLikelihood(sample, { mu: 1.1, sigma: 0.4, xi: -0.3 }))).toBe(true);
  });
});

/** Runs the minimiser and records every point it evaluates, in order. */
function traced(f: (p: number[]) => number, start: number[], step: number[], iterations: number) {
  const calls: number[][] = [];
  const result = nelderMead((p) => {
    calls.push([...p]);
    return f(p);
  }, start, step, iterations);
  return { result, calls };
}

const plus = (a: number[], b: number[]) => a.map((v, i) => v + b[i]!);
const times = (t: number, a: number[]) => a.map((v) => t * v);
/** centroid + t · (worst − centroid): t = −1 reflects, −2 expands, −½ contracts outside, ½ inside. */
const along = (centroid: number[], worst: number[], t: number) => plus(centroid, times(t, plus(worst, times(-1, centroid))));

describe('Nelder–Mead minimiser', () => {
  it('starts from the start point and one step along each axis', () => {
    const { calls } = traced(([x, y, z]) => x! + 2 * y! + 4 * z!, [1, 2, 3], [0.5, -0.25, 2], 0);
    expect(calls).toEqual([[1, 2, 3], [1.5, 2, 3], [1, 1.75, 3], [1, 2, 5]]);
  });

  it('with no iteration, answers the best point of the starting simplex', () => {
    const { result } = traced(([x, y]) => -x! + 3 * y!, [0, 0], [1, 1], 0);
    expect(result).toEqual([1, 0]);
  });

  // f = x + 2y from (0, 0) with unit steps: values 0, 1, 2; the worst is (0, 1) and the centroid of the others (½, 0).
  const linear = ([x, y]: number[]) => x! + 2 * y!;
  const centroid = [0.5, 0];
  const worst = [0, 1];

  it('expands a reflection that beats the best point, and keeps the expansion when it is better still', () => {
    const { result, calls } = traced(linear, [0, 0], [1, 1], 1);
    const reflected = along(centroid, worst, -1);
    const expanded = along(centroid, worst, -2);
    expect(reflected).toEqual([1, -1]);
    expect(calls.slice(3)).toEqual([reflected, expanded]);
    expect(result).toEqual(expanded);
  });

  it('keeps the reflection when the expansion is worse than it', () => {
    // Same simplex, but f rises again beyond y = −1: the expansion (1.5, −2) scores worse than the reflection (1, −1).
    const f = ([x, y]: number[]) => x! + 2 * y! + (y! < -1.5 ? 100 : 0);
    const { result, calls } = traced(f, [0, 0], [1, 1], 1);
    expect(calls.slice(3)).toEqual([[1, -1], [1.5, -2]]);
    expect(result).toEqual([1, -1]);
  });

  it('accepts a reflection between the best and the second-worst point without expanding', () => {
    // Values: (0,0) → 0, (1,0) → 3, (0,1) → 4; the reflection (1,−1) scores 1: not below the best, below the second worst.
    const f = ([x, y]: number[]) => (x === 1 && y === -1 ? 1 : 3 * x! + 4 * y!);
    const { calls } = traced(f, [0, 0], [1, 1], 2);
    expect(calls[3]).toEqual([1, -1]);
    // Iteration 2 works on the simplex (0,0), (1,−1), (1,0): its worst is (1,0) and its centroid (½, −½).
    expect(calls[4]).toEqual(along([0.5, -0.5], [1, 0], -1));
  });

  it('contracts outside when the reflection beats only the worst point, and keeps the contraction when it beats the reflection', () => {
    // Values 0, 1, 2 at (0,0), (1,0), (0,1); the reflection (1,−1) scores 1.5: between the second worst (1) and the worst (2).
    const scores = new Map([['1,-1', 1.5], ['0.75,-0.5', 0.5]]);
    const f = ([x, y]: number[]) => scores.get(`${x},${y}`) ?? x! + 2 * y!;
    const { result, calls } = traced(f, [0, 0], [1, 1], 1);
    const contracted = along(centroid, worst, -0.5);
    expect(contracted).toEqual([0.75, -0.5]);
    expect(calls.slice(3)).toEqual([[1, -1], contracted]);
    // The contraction (scoring 0.5) replaced the worst point; the best is still (0,0) at 0, and the
    // next iteration reflects the new worst, (1,0), through the centroid of (0,0) and the contraction.
    expect(result).toEqual([0, 0]);
    const { calls: two } = traced(f, [0, 0], [1, 1], 2);
    expect(two[5]).toEqual(along([0.375, -0.25], [1, 0], -1));
  });

  it.each([5, 2])('contracts inside when the reflection is no better than the worst point (2): reflection scoring %p', (reflection) => {
    const scores = new Map([['1,-1', reflection], ['0.25,0.5', 0.5]]);
    const f = ([x, y]: number[]) => scores.get(`${x},${y}`) ?? x! + 2 * y!;
    const { calls } = traced(f, [0, 0], [1, 1], 2);
    const contracted = along(centroid, worst, 0.5);
    expect(contracted).toEqual([0.25, 0.5]);
    expect(calls.slice(3, 5)).toEqual([[1, -1], contracted]);
    // Accepted: the next iteration's worst is (1,0), its centroid that of (0,0) and (¼, ½).
    expect(calls[5]).toEqual(along([0.125, 0.25], [1, 0], -1));
  });

  it('shrinks every point but the best halfway towards it when the contraction fails', () => {
    // From (2, 1): values −6, −5, −4 at (2,1), (3,1), (2,2); the reflection (3,0) scores 5 and the
    // inside contraction (2.25, 1.5) scores 3, no better than the worst (−4): shrink.
    const scores = new Map([['3,0', 5], ['2.25,1.5', 3]]);
    const f = ([x, y]: number[]) => scores.get(`${x},${y}`) ?? x! + 2 * y! - 10;
    const { result, calls } = traced(f, [2, 1], [1, 1], 1);
    expect(calls.slice(3)).toEqual([[3, 0], [2.25, 1.5], [2.5, 1], [2, 1.5]]);
    // The best point keeps its own value (−6), below the shrunk points' −5.5 and −5.
    expect(result).toEqual([2, 1]);
  });

  it('runs at least 51 iterations, then stops once the simplex values agree', () => {
    // A constant function: the values agree from the start. Each iteration then evaluates a
    // reflection, an inside contraction and a shrink of the two other points: 4 calls.
    const { calls } = traced(() => 7, [0, 0], [1, 1], 5000);
    expect(calls).toHaveLength(3 + 51 * 4);
    // With fewer iterations allowed, it stops there.
    expect(traced(() => 7, [0, 0], [1, 1], 10).calls).toHaveLength(3 + 10 * 4);
  });

  it('does not stop before the simplex values agree: a far minimum is reached to 1e-5', () => {
    const { result } = traced(([x, y]) => (x! - 100) ** 2 + (y! + 50) ** 2, [0, 0], [1, 1], 5000);
    expect(result[0]).toBeCloseTo(100, 5);
    expect(result[1]).toBeCloseTo(-50, 5);
  });

  it('finds the Rosenbrock minimum (1, 1) from the classic start (−1.2, 1)', () => {
    const { result } = traced(([x, y]) => 100 * (y! - x! ** 2) ** 2 + (1 - x!) ** 2, [-1.2, 1], [0.5, 0.5], 5000);
    expect(result[0]).toBeCloseTo(1, 4);
    expect(result[1]).toBeCloseTo(1, 4);
  });
});
