import { readFileSync } from 'node:fs';
import path from 'node:path';
import { repoSource, staleRows, triageRows, withStaleMoved } from '../../scripts/mutation-survivors';

const ROOT = path.join(__dirname, '../..');

describe('the triage of surviving mutants', () => {
  it('keys every row to code its file still holds', () => {
    const rows = triageRows(readFileSync(path.join(ROOT, 'test/mutation/SURVIVORS.md'), 'utf8'));
    expect(rows.length).toBeGreaterThan(300);
    const stale = staleRows(rows, repoSource(ROOT));
    // A changed line is a different mutant: run it again, or move its row with `npm run mutation:survivors -- --write`.
    expect(stale.map((row) => `${row.file}: ${row.code}`)).toEqual([]);
  });

  const triage = [
    '# Surviving mutants', '', '### a.ts', '', '| code | mutator | replacement | status | why |', '|---|---|---|---|---|',
    '| `if (x > 1) {` | EqualityOperator | `x >= 1` | survived | Equivalent: x is never 1. |',
    '| `` const s = `${a \\|\\| b}`; `` | LogicalOperator | `a && b` | survived | Harmless: a log line. |',
    '', '## Changed since measured', '', '| file | code then | mutator | replacement | status | why |', '|---|---|---|---|---|---|', '',
  ].join('\n');

  it('reads a row\'s code from its code span, backticks and escaped pipes included', () => {
    expect(triageRows(triage).map((row) => [row.file, row.code])).toEqual([
      ['a.ts', 'if (x > 1) {'],
      ['a.ts', 'const s = `${a || b}`;'],
    ]);
  });

  it('finds the rows whose code changed, whatever its indentation, and moves them with their file named', () => {
    const source = '  if (x > 1) {\n    const s = `${a ?? b}`;\n  }\n';
    const stale = staleRows(triageRows(triage), () => source);
    expect(stale.map((row) => row.code)).toEqual(['const s = `${a || b}`;']);
    const moved = withStaleMoved(triage, stale);
    expect(triageRows(moved).map((row) => row.code)).toEqual(['if (x > 1) {']);
    expect(moved.trimEnd().split('\n').at(-1)).toBe('| `a.ts` | `` const s = `${a \\|\\| b}`; `` | LogicalOperator | `a && b` | survived | Harmless: a log line. |');
  });
});
