import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { App } from 'aws-cdk-lib';
import { Architecture } from 'aws-cdk-lib/aws-lambda';
import { AppFunction, handlerEntry, PROJECT_ROOT, type EntryResolver } from '../../lib/app-function';
import { ComplianceApiStack } from '../../lib/stack';
import { STAGES } from '../../lib/stage-config';

process.env.CDK_DISABLE_CLI_TELEMETRY = 'true';

/**
 * No function asset carries a native module built for another architecture than its function's.
 * The bundle itself is JavaScript (esbuild has no loader for `.node` files in the stack's settings);
 * what npm installs beside it — each `nodeModules` package and its dependencies, as resolved on
 * this machine, the synthesizing one — is searched for `.node` files, whose ELF header names the
 * machine they run on.
 */

/** ELF `e_machine` of each Lambda architecture. */
const ELF_MACHINE: Record<string, number> = { [Architecture.ARM_64.name]: 183, [Architecture.X86_64.name]: 62 };

/** The ELF machine a native module was built for, or a reason it runs on no Linux at all. */
export function elfMachine(bytes: Buffer): number | string {
  if (bytes.length < 20 || bytes.readUInt32BE(0) !== 0x7f454c46) return 'not an ELF file';
  return bytes[5] === 2 ? bytes.readUInt16BE(18) : bytes.readUInt16LE(18);
}

/** Where Node finds `name` from the package at `from`: the nearest `node_modules/<name>` up the tree (exports maps aside). */
function packageDir(name: string, from: string): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'node_modules', name);
    if (existsSync(path.join(candidate, 'package.json'))) return candidate;
    if (dir === path.dirname(dir)) throw new Error(`${name} is not installed (from ${from})`);
  }
}

/** A package and everything npm installs with it (dependencies and the optional ones present here). */
function installedClosure(names: readonly string[]): Set<string> {
  const dirs = new Set<string>();
  const visit = (name: string, from: string, optional: boolean) => {
    let dir: string;
    try {
      dir = packageDir(name, from);
    } catch (error) {
      if (optional) return; // An optional package for another platform is not installed here.
      throw error;
    }
    if (dirs.has(dir)) return;
    dirs.add(dir);
    const manifest = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as { dependencies?: object; optionalDependencies?: object };
    for (const dep of Object.keys(manifest.dependencies ?? {})) visit(dep, dir, false);
    for (const dep of Object.keys(manifest.optionalDependencies ?? {})) visit(dep, dir, true);
  };
  for (const name of names) visit(name, PROJECT_ROOT, false);
  return dirs;
}

function nativeFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.node'))
    .map((file) => path.join(dir, file))
    .filter((file) => statSync(file).isFile());
}

const entry: EntryResolver = (name) => (existsSync(handlerEntry(name)) ? handlerEntry(name) : handlerEntry('docs'));

describe('native modules in function assets', () => {
  it('reads the machine from an ELF header, either byte order, and refuses what is not ELF', () => {
    const header = (machine: number, bigEndian = false) => {
      const bytes = Buffer.alloc(64);
      bytes.writeUInt32BE(0x7f454c46, 0);
      bytes[5] = bigEndian ? 2 : 1;
      if (bigEndian) bytes.writeUInt16BE(machine, 18); else bytes.writeUInt16LE(machine, 18);
      return bytes;
    };
    expect([elfMachine(header(62)), elfMachine(header(183)), elfMachine(header(183, true))]).toEqual([62, 183, 183]);
    expect(elfMachine(Buffer.from('\xcf\xfa\xed\xfe\x07\x00\x00\x01', 'latin1').subarray(0, 8))).toBe('not an ELF file');
  });

  it('no function carries a .node file built for another machine than its architecture', () => {
    const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
    const stack = new ComplianceApiStack(app, 'Arch', { config: STAGES.dev, entry });
    const functions = stack.node.findAll().filter((c): c is AppFunction => c instanceof AppFunction);
    expect(functions.length).toBeGreaterThan(10);
    const mismatches: { fn: string; file: string; machine: number | string; expected: number }[] = [];
    for (const fn of functions) {
      const expected = ELF_MACHINE[fn.architecture.name]!;
      for (const dir of installedClosure(fn.installedModules)) {
        for (const file of nativeFiles(dir)) {
          const machine = elfMachine(readFileSync(file));
          if (machine !== expected) mismatches.push({ fn: fn.node.path, file: path.relative(PROJECT_ROOT, file), machine, expected });
        }
      }
    }
    expect(mismatches).toEqual([]);
  });

  it('the deliverables worker renders and writes GeoPackages with WebAssembly builds installed beside it', () => {
    const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
    const stack = new ComplianceApiStack(app, 'Arch', { config: STAGES.dev, entry });
    const worker = stack.node.findAll().find((c): c is AppFunction => c instanceof AppFunction && c.node.id === 'DeliverablesWorker')!;
    expect(worker.architecture).toBe(Architecture.ARM_64);
    expect(worker.installedModules).toEqual(expect.arrayContaining(['@resvg/resvg-wasm', 'sql.js']));
    // The WebAssembly the adapters load at run time is in the installed packages.
    expect(existsSync(path.join(packageDir('@resvg/resvg-wasm', PROJECT_ROOT), 'index_bg.wasm'))).toBe(true);
    expect(existsSync(path.join(packageDir('sql.js', PROJECT_ROOT), 'dist', 'sql-wasm.wasm'))).toBe(true);
  });
});
