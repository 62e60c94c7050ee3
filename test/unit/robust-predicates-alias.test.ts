import path from 'node:path';
import { runInNewContext } from 'node:vm';
import { buildSync } from 'esbuild';
import { createRequire } from 'node:module';
import { BUNDLE_ALIASES, PROJECT_ROOT } from '../../lib/app-function';

type Orient2d = (ax: number, ay: number, bx: number, by: number, cx: number, cy: number) => number;

// The copy @turf/line-intersect pins, as its own `main` resolves it.
const { orient2d: pinned, orient2dfast } = createRequire(__filename)('../../node_modules/@turf/boolean-disjoint/node_modules/robust-predicates/umd/predicates.js') as Record<'orient2d' | 'orient2dfast', Orient2d>;

/**
 * The bundles alias robust-predicates to the version already bundled for another package
 * (lib/app-function.ts). What @turf/line-intersect gets through the alias, bundled as the stack
 * bundles it, must give its pinned orient2d's value for every input — general positions,
 * collinear points, and near-degenerate ones where the exact arithmetic decides the sign.
 */
function aliasedOrient2d(): Orient2d {
  const { outputFiles } = buildSync({
    stdin: { contents: 'import { orient2d } from "robust-predicates"; module.exports = orient2d;', resolveDir: path.join(PROJECT_ROOT, 'node_modules/@turf/boolean-disjoint/node_modules/@turf/line-intersect'), loader: 'js' },
    absWorkingDir: PROJECT_ROOT, bundle: true, format: 'cjs', platform: 'node', alias: { ...BUNDLE_ALIASES }, write: false, logLevel: 'silent',
  });
  const module = { exports: undefined as unknown };
  runInNewContext(outputFiles[0]!.text, { module, exports: {}, Math });
  return module.exports as Orient2d;
}

describe('the robust-predicates alias', () => {
  it('gives the pinned version\'s orient2d value for value', () => {
    const bundled = aliasedOrient2d();
    let seed = 7;
    const random = () => ((seed = (seed * 16807) % 2147483647) / 2147483647 - 0.5) * 200;
    const cases: Array<Parameters<Orient2d>> = [];
    for (let i = 0; i < 20_000; i++) cases.push([random(), random(), random(), random(), random(), random()]);
    for (let i = 0; i < 20_000; i++) {
      // Three points on a line through Florida coordinates, the last nudged by a few ulps or not at all.
      const [ax, ay, t] = [-82 + random() / 1000, 27 + random() / 1000, random() / 100];
      const [dx, dy] = [random() / 100, random() / 100];
      cases.push([ax, ay, ax + dx, ay + dy, ax + t * dx, ay + t * dy + (i % 3) * Number.EPSILON * 64]);
    }
    cases.push([0, 0, 1, 1, 2, 2], [0, 0, 0, 0, 0, 0], [1, 0, 0, 1, 0, 0]);
    const differing = cases.filter((c) => !Object.is(bundled(...c), pinned(...c)));
    expect(differing).toEqual([]);
    // The near-degenerate cases reach the exact arithmetic: the plain determinant gets their sign wrong.
    expect(cases.filter((c) => Math.sign(orient2dfast(...c)) !== Math.sign(pinned(...c))).length).toBeGreaterThan(10);
  });
});
