import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildSync } from 'esbuild';
import { sourceMappedStack } from '../../shared/http/source-mapped-stack';

describe('stack traces of a minified bundle, mapped on demand', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'mapped-stack-'));
  const source = path.join(dir, 'thrower.ts');
  const bundle = path.join(dir, 'thrower.js');
  // The throw is on line 4, column 9 of the source; minified, the bundle is one line.
  writeFileSync(source, ['export function fail(reason: string): never {', '  const detail = `failed: ${reason}`;', '  // the next line throws', '  throw new Error(detail);', '}', ''].join('\n'));
  buildSync({ entryPoints: [source], bundle: true, minify: true, sourcemap: true, platform: 'node', format: 'cjs', outfile: bundle, logLevel: 'silent' });

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  // In a plain Node process: the test runner maps stacks itself.
  const stackOfFailure = (): string => execFileSync(process.execPath, ['-e', `try { require(${JSON.stringify(bundle)}).fail('x') } catch (e) { process.stdout.write(e.stack) }`], {
    encoding: 'utf8',
    env: { ...process.env, NODE_OPTIONS: '' },
  });

  it('points the bundle frame at the TypeScript line and column', () => {
    const raw = stackOfFailure();
    expect(raw.split('\n')[1]).toContain('thrower.js:1:');
    const mapped = sourceMappedStack(raw).split('\n');
    expect(mapped[0]).toBe('Error: failed: x');
    expect(mapped[1]).toMatch(/thrower\.ts:4:9\)$/);
  });

  it('leaves frames of files without a map as they are', () => {
    const stack = 'Error: x\n    at f (/nowhere/lib.js:10:5)\n    at node:internal/process/task_queues:95:5';
    expect(sourceMappedStack(stack)).toBe(stack);
  });
});
