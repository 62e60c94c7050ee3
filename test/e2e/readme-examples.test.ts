import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startTestApp } from '../helpers/local-app';

/**
 * The worked examples of docs/examples/, run as written: every ```bash block that calls the API
 * (`curl` with `$B`), file by file in the order of EXAMPLE_FILES, runs in one shell against a fresh
 * local app, `$B`, `$FREE`, `$PRO` and
 * `$ENTERPRISE` set to it. Each curl must answer the status its comment documents (`# 409 …`),
 * or else 2xx/3xx; a ```json answer shown after a block must have the live answer's top-level
 * keys (all of them, unless the example shortens it with `…`). A curl in an `until`/`while` loop
 * polls: it may answer any number of times, each 2xx/3xx. New examples are picked up as they are
 * added.
 */

type Expected = number | 'ok' | 'poll';

interface Example {
  /** The markdown file (from the repository root) and the line where the block starts. */
  file: string;
  line: number;
  script: string;
  /** Expected status of each curl call, in order: a number, 'ok' for any 2xx/3xx, 'poll' for a loop's. */
  expected: Expected[];
  /** The ```json answer shown right after the block. */
  answer?: string;
}

const ROOT = path.join(__dirname, '..', '..');
const EXAMPLES_DIR = 'docs/examples';
/** In the order they run: a later file may use what an earlier one set (the keys, the account's assets). */
const EXAMPLE_FILES = ['analyst.md', 'engineer.md', 'integrator.md', 'resident.md', 'staff.md'];
// These are the shell variables the test provides; the examples' own assignments point at npm start.
const PROVIDED = /^(B|FREE|PRO|ENTERPRISE)=/;
/** All files' blocks run as one script; two county-wide jobs among them take minutes on a loaded machine. */
const SCRIPT_TIMEOUT_MS = 540_000;

function workedExamples(file: string, markdown: string): Example[] {
  const examples: Example[] = [];
  const blocks = [...markdown.matchAll(/```(\w*)\n([\s\S]*?)```/g)];
  blocks.forEach((block, i) => {
    const [, language, body] = block;
    if (language !== 'bash' || !/\bcurl\b/.test(body!) || !body!.includes('$B')) return;
    const next = blocks[i + 1];
    const between = next ? markdown.slice(block.index! + block[0].length, next.index) : '';
    const lines = body!.replace(/\\\n/g, ' ').split('\n');
    const expected = lines.flatMap((text, j): Expected[] => {
      if (text.trimStart().startsWith('#') || !/\bcurl\b/.test(text)) return [];
      if (/^\s*(until|while)\b/.test(text)) return ['poll'];
      const documented = /#\s*(\d{3})\b/.exec(text.slice(text.indexOf(' #') + 1)) ?? /^#\s*(\d{3})\b/.exec(lines[j + 1]?.trim() ?? '');
      return [text.includes(' #') || documented ? (documented ? Number(documented[1]) : 'ok' as const) : 'ok' as const];
    });
    examples.push({
      file,
      line: markdown.slice(0, block.index).split('\n').length,
      script: body!.split('\n').filter((text) => !PROVIDED.test(text)).join('\n'),
      expected,
      answer: next && next[1] === 'json' && between.trim() === '' ? next[2] : undefined,
    });
  });
  return examples;
}

/** Top-level keys of a documented answer, which may elide with `…` (so it is not always valid JSON). */
function shownKeys(text: string): { keys: string[]; elided: boolean } {
  const keys: string[] = [];
  let depth = 0;
  let elided = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text[i]!;
    if (c === '"') {
      const end = text.indexOf('"', i + 1);
      if (depth === 1 && /^\s*:/.test(text.slice(end + 1))) keys.push(text.slice(i + 1, end));
      i = end;
    } else if (c === '{' || c === '[') depth += 1;
    else if (c === '}' || c === ']') depth -= 1;
    else if (c === '…' && depth === 1) elided = true;
  }
  return { keys, elided };
}

/** The last JSON object a block printed (answers are printed back to back, without newlines). */
function lastJsonObject(output: string): unknown {
  let depth = 0;
  let start = -1;
  let last: string | undefined;
  for (let i = 0; i < output.length; i += 1) {
    const c = output[i]!;
    if (c === '"' && depth > 0) {
      for (i += 1; i < output.length && output[i] !== '"'; i += output[i] === '\\' ? 2 : 1);
    } else if (c === '{') {
      if (depth === 0) start = i;
      depth += 1;
    } else if (c === '}' && depth > 0) {
      depth -= 1;
      if (depth === 0) last = output.slice(start, i + 1);
    }
  }
  return last === undefined ? undefined : JSON.parse(last);
}

const answered = (status: number) => status >= 200 && status < 400;

/** Whether the statuses answer the expected ones in order, a poll taking any number of 2xx/3xx. */
function fits(expected: readonly Expected[], statuses: readonly number[]): boolean {
  const [head, ...rest] = expected;
  if (head === undefined) return statuses.length === 0;
  if (head === 'poll') {
    for (let taken = 0; taken <= statuses.length; taken++) {
      if (taken > 0 && !answered(statuses[taken - 1]!)) return false;
      if (fits(rest, statuses.slice(taken))) return true;
    }
    return false;
  }
  const [first, ...after] = statuses;
  return first !== undefined && (head === 'ok' ? answered(first) : first === head) && fits(rest, after);
}

function runShell(script: string, cwd: string, env: Record<string, string>): Promise<{ stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile('bash', ['-c', script], { cwd, env: { ...process.env, ...env }, timeout: SCRIPT_TIMEOUT_MS, maxBuffer: 64 * 1024 * 1024 }, (_error, stdout, stderr) => resolve({ stdout, stderr }));
  });
}

describe('worked examples of docs/examples against a live local app', () => {
  const examples = EXAMPLE_FILES.flatMap((name) => {
    const file = `${EXAMPLES_DIR}/${name}`;
    return workedExamples(file, readFileSync(path.join(ROOT, file), 'utf8'));
  });
  let app: Awaited<ReturnType<typeof startTestApp>>;
  let work: string;
  const outputs = new Map<number, { stdout: string; statuses: number[] }>();

  beforeAll(async () => {
    // Job workers only, no webhook deliveries or reminders: nothing may leave loopback.
    app = await startTestApp({ backgroundWorkers: 'jobs' });
    work = mkdtempSync(path.join(tmpdir(), 'vac-examples-'));
    // The examples run from the repository root; what they read of it (a fixture, the installed
    // packages a `node -e` example imports) is linked in.
    mkdirSync(path.join(work, 'test/fixtures'), { recursive: true });
    symlinkSync(path.join(__dirname, '../fixtures/dem'), path.join(work, 'test/fixtures/dem'));
    symlinkSync(path.join(ROOT, 'node_modules'), path.join(work, 'node_modules'));
    // Each curl reports its status on stderr, after the block's marker; the output stays as written.
    const prelude = "curl() { command curl \"$@\" --write-out '%{stderr}@@STATUS %{http_code}\\n'; }\n";
    // A marker on a line of its own, whether or not the previous answer ended its line.
    const script = prelude + examples.map((example, i) => `printf '\\n@@BLOCK ${i}\\n'; printf '\\n@@BLOCK ${i}\\n' >&2\n${example.script}\n`).join('');
    const { stdout, stderr } = await runShell(script, work, { B: app.baseUrl, FREE: app.keys.free, PRO: app.keys.pro, ENTERPRISE: app.keys.enterprise });
    const split = (text: string) => text.split(/^@@BLOCK (\d+)\n/m).slice(1);
    const out = split(stdout);
    const err = split(stderr);
    examples.forEach((_, i) => outputs.set(i, { stdout: '', statuses: [] }));
    for (let i = 0; i < out.length; i += 2) outputs.get(Number(out[i]))!.stdout = out[i + 1]!;
    for (let i = 0; i < err.length; i += 2) {
      outputs.get(Number(err[i]))!.statuses = [...err[i + 1]!.matchAll(/^@@STATUS (\d{3})$/gm)].map((match) => Number(match[1]));
    }
    if (process.env.README_EXAMPLES_TRACE) process.stderr.write(`${stdout}\n----\n${stderr}\n`);
  }, SCRIPT_TIMEOUT_MS + 120_000);
  afterAll(async () => {
    await app.stop();
    rmSync(work, { recursive: true, force: true });
  });

  it('finds the worked examples', () => {
    expect(examples.length).toBeGreaterThan(10);
  });

  it('runs every example file of docs/examples', () => {
    const files = readdirSync(path.join(ROOT, EXAMPLES_DIR)).filter((name) => name.endsWith('.md') && name !== 'README.md');
    expect([...EXAMPLE_FILES].sort()).toEqual(files.sort());
  });

  it.each(examples.map((example, i) => [`${example.file} line ${example.line}`, i, example] as const))('%s answers as documented', (_name, i, example) => {
    const { stdout, statuses } = outputs.get(i)!;
    if (example.expected.includes('poll')) {
      expect({ statuses, asDocumented: fits(example.expected, statuses) }).toEqual({ statuses, asDocumented: true });
    } else {
      const matched = statuses.map((status, j) => {
        const expected = example.expected[j] ?? 'ok';
        return expected === 'ok' ? (answered(status) ? 'ok' : status) : status;
      });
      expect({ statuses: matched }).toEqual({ statuses: example.expected.slice(0, Math.max(statuses.length, example.expected.length)) });
    }
    if (example.answer) {
      const live = lastJsonObject(stdout) as Record<string, unknown>;
      const { keys, elided } = shownKeys(example.answer);
      if (elided) expect(Object.keys(live)).toEqual(expect.arrayContaining(keys));
      else expect(Object.keys(live).sort()).toEqual([...keys].sort());
    }
  });
});
