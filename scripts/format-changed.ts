/**
 * Prettier over the files a branch changed (against `main`, or FORMAT_BASE), not the whole tree:
 * formatting is applied as files are touched. `--write` formats them; otherwise it only checks.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const base = process.env.FORMAT_BASE ?? 'main';
const git = (...args: string[]) => execFileSync('git', args, { encoding: 'utf8' });
const mergeBase = git('merge-base', 'HEAD', base).trim();
const changed = new Set([
  ...git('diff', '--name-only', '--diff-filter=ACMR', mergeBase).split('\n'),
  ...git('ls-files', '--others', '--exclude-standard').split('\n'),
]);
const files = [...changed].filter((file) => /\.(ts|mjs|cjs|js|json)$/.test(file) && existsSync(file));
if (files.length === 0) {
  console.log(`No changed source files since ${base}.`);
} else {
  const mode = process.argv.includes('--write') ? '--write' : '--check';
  try {
    execFileSync('npx', ['prettier', mode, '--ignore-unknown', ...files], { stdio: 'inherit' });
  } catch {
    // Prettier has listed the files; its exit status is the verdict.
    process.exitCode = 1;
  }
}
