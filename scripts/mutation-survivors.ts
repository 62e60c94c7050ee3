/**
 * The triage of surviving mutants (test/mutation/SURVIVORS.md) is keyed by the line of code each
 * mutant changes, not by its line number, which moves with every edit above it. This reads the
 * triage, finds rows whose code is no longer in their file (edited since their run), and with
 * `--write` moves them to the "Changed since measured" section, where they wait for a new run.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export interface TriageRow {
  file: string;
  code: string;
  /** The row as written, for moving it. */
  text: string;
}

const CHANGED_HEADING = '## Changed since measured';

/** The code of a table row's first cell: a Markdown code span with its pipes escaped. */
function codeOf(cell: string): string | undefined {
  const span = /^(`+) ?(.*?) ?\1$/.exec(cell.trim());
  return span ? span[2]!.replace(/\\\|/g, '|') : undefined;
}

/** The rows of the per-file tables, before the changed section. */
export function triageRows(markdown: string): TriageRow[] {
  const rows: TriageRow[] = [];
  let file: string | undefined;
  for (const line of markdown.split('\n')) {
    if (line.startsWith(CHANGED_HEADING)) break;
    const heading = /^### (\S+)/.exec(line);
    if (heading) file = heading[1];
    else if (file && line.startsWith('| `')) {
      const code = codeOf(line.slice(1).split(/(?<!\\)\|/)[0]!);
      if (code !== undefined) rows.push({ file, code, text: line });
    }
  }
  return rows;
}

/** Rows whose code no line of their file holds any more. */
export function staleRows(rows: readonly TriageRow[], readSource: (file: string) => string): TriageRow[] {
  const lines = new Map<string, Set<string>>();
  const linesOf = (file: string) => {
    if (!lines.has(file)) lines.set(file, new Set(readSource(file).split('\n').map((l) => l.trim())));
    return lines.get(file)!;
  };
  return rows.filter((row) => !linesOf(row.file).has(row.code));
}

/** The triage with the stale rows moved under the changed section, their file named. */
export function withStaleMoved(markdown: string, stale: readonly TriageRow[]): string {
  const moved = new Set(stale.map((row) => row.text));
  const [tables, changed = ''] = markdown.split(`\n${CHANGED_HEADING}`);
  const kept = tables!.split('\n').filter((line) => !moved.has(line)).join('\n');
  const added = stale.map((row) => `| \`${row.file}\` |${row.text.slice(1)}`);
  return `${kept}\n${CHANGED_HEADING}${changed.trimEnd()}\n${added.join('\n')}${added.length ? '\n' : ''}`;
}

/** A repository file's text, empty once the file is gone (every row of a removed file is stale). */
export const repoSource = (root: string) => (file: string): string => {
  const full = path.join(root, file);
  return existsSync(full) ? readFileSync(full, 'utf8') : '';
};

if (require.main === module) {
  const root = path.join(__dirname, '..');
  const triage = path.join(root, 'test/mutation/SURVIVORS.md');
  const markdown = readFileSync(triage, 'utf8');
  const stale = staleRows(triageRows(markdown), repoSource(root));
  for (const row of stale) console.log(`${row.file}: ${row.code}`);
  if (process.argv.includes('--write')) {
    writeFileSync(triage, withStaleMoved(markdown, stale));
    console.log(`Moved ${stale.length} row(s) to "${CHANGED_HEADING.slice(3)}".`);
  } else {
    console.log(`${stale.length} row(s) whose code changed since their run${stale.length ? ' (move them with --write)' : ''}.`);
  }
}
