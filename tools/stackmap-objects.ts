/**
 * `npm run stackmap-objects`: the stack map ground truth (docs/stackmaps-ground-truth.md). For each
 * of `--count` seeded modules (tools/stackmap-ir.ts) and each target llc-16 writes stack maps
 * for, it writes into `--out DIR/TARGET/`:
 *
 * - `NAME.ll`: the IR;
 * - `NAME.o`: `llc-16 -O<n> -filetype=obj` of it;
 * - `NAME.stackmaps`: the section's raw bytes (`llvm-objcopy-16 --dump-section`);
 * - `NAME.readobj.txt`: `llvm-readobj-16 --stackmap` of the object;
 *
 * and `DIR/manifest.json`, one entry per (module, target): the seed, the features, and what llc
 * did (an llc crash is recorded with its first line, not fatal: crashes are facts to report).
 * The same `--seed` and `--count` give the same IR; the objects are llc-16's. With `reference`
 * (`--reference O`, repeatable), each target's reference module (fixed IR whose functions are
 * known by name, stackmap-ir.ts) is compiled too, at each level given, as `reference-O<n>`.
 *
 * The one generator of llc-16 objects: the tests (test/stackmap/), the scoreboard and the fuzzers'
 * seeds all take theirs from here.
 *
 * `--probe` instead compiles one minimal module per (target, intrinsic) and prints which llc-16
 * takes: the table docs/stackmaps-ground-truth.md records.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readToolOptions } from './tool-options.js';
import {
  generateStackmapModule,
  objectSeed,
  referenceModule,
  STACKMAP_TARGETS,
  stackmapTarget,
  type CallKind,
  type ModuleFeatures,
  type StackmapTarget,
} from './stackmap-ir.js';

/** Where Debian's LLVM 16 is (`LLVM_BYTECODE_LLVM16` overrides, as in test/support/tools.ts). */
export function llvm16Bin(): string {
  const env = process.env['LLVM_BYTECODE_LLVM16'];
  return env !== undefined && env !== '' ? resolve(env) : '/usr/lib/llvm-16/bin';
}

export interface GeneratedObject {
  /** `NAME` of the files, unique in the run: `s<seed>-<index>`. */
  name: string;
  target: string;
  triple: string;
  format: StackmapTarget['format'];
  endian: StackmapTarget['endian'];
  seed: number;
  optLevel: number;
  /**
   * `llc -stackmap-version=N` when not 3: llc-16 then writes the version-3 layout under byte 1 or
   * 2 (it cannot write the old layouts); llvm-readobj-16 refuses such a section on ELF only.
   */
  stackmapVersion?: 1 | 2;
  /** Seeded modules' features; absent for a reference module. */
  features?: ModuleFeatures;
  /** A reference module's functions, in order (stackmap-ir.ts's referenceModule). */
  functionNames?: string[];
  /** `ok`, or why there is no object: llc's or a tool's first line of complaint. */
  status: 'ok' | 'llc-failed' | 'no-section' | 'tool-failed';
  message?: string;
  /** Paths relative to the output folder (present when status is `ok`). */
  ll: string;
  object?: string;
  section?: string;
  readobj?: string;
}

export interface GenerateOptions {
  out: string;
  count: number;
  seed: number;
  /** Target short names; default all. */
  targets?: readonly string[];
  /** Optimisation levels to compile each target's reference module at (none by default). */
  reference?: readonly number[];
  bin?: string;
  /** Progress lines to stderr. */
  verbose?: boolean;
}

interface RunResult {
  status: number | null;
  signal: string | null;
  stdout: Buffer;
  stderr: string;
}

function run(bin: string, args: readonly string[]): RunResult {
  const r = spawnSync(bin, args, { maxBuffer: 1 << 28 });
  return { status: r.status, signal: r.signal, stdout: r.stdout ?? Buffer.alloc(0), stderr: (r.stderr ?? Buffer.alloc(0)).toString('utf8') };
}

/** The line of an LLVM tool's stderr that says what went wrong (not the stack dump), and how it ended. */
function firstComplaint(r: RunResult): string {
  const line = r.stderr.split('\n').find((l) => /LLVM ERROR|error:|Assertion/.test(l));
  const end = r.signal !== null ? `crashed, ${r.signal}` : `exit ${r.status}`;
  return line !== undefined ? `${line.trim()} (${end})` : end;
}

/**
 * The section's bytes from `llvm-objdump -s` (llvm-objcopy-16 has no --dump-section for COFF):
 * lines ` OFFSET WORD WORD WORD WORD  ASCII`, the words hex bytes in file order.
 */
export function parseObjdumpHex(text: string): Uint8Array {
  const bytes: number[] = [];
  for (const line of text.split('\n')) {
    const m = /^ ([0-9a-f]{4,}) ((?:[0-9a-f]{2,8} ?){1,4})/.exec(line);
    if (m === null) continue;
    if (parseInt(m[1]!, 16) !== bytes.length) throw new Error(`llvm-objdump -s: line at ${m[1]} after ${bytes.length} bytes`);
    for (const word of m[2]!.trim().split(' ')) for (let i = 0; i < word.length; i += 2) bytes.push(parseInt(word.slice(i, i + 2), 16));
  }
  return Uint8Array.from(bytes);
}

/** Writes `data` to `path` through a temporary file and a rename (a failed run leaves nothing half-written). */
function writeAtomic(path: string, data: string | Uint8Array): void {
  const tmp = `${path}.tmp-${process.pid}`;
  writeFileSync(tmp, data);
  renameSync(tmp, path);
}

/** Compiles one IR text for `target` and collects the object, the section bytes and readobj's text. */
export function compileStackmapObject(
  bin: string,
  target: StackmapTarget,
  ir: string,
  optLevel: number,
  base: string,
  stackmapVersion?: 1 | 2,
): Pick<GeneratedObject, 'status' | 'message'> {
  writeAtomic(`${base}.ll`, ir);
  const version = stackmapVersion === undefined ? [] : [`-stackmap-version=${stackmapVersion}`];
  const llc = run(join(bin, 'llc'), [`-O${optLevel}`, ...version, `-mtriple=${target.triple}`, '-filetype=obj', `${base}.ll`, '-o', `${base}.o.tmp`]);
  if (llc.status !== 0) {
    rmSync(`${base}.o.tmp`, { force: true });
    return { status: 'llc-failed', message: firstComplaint(llc) };
  }
  renameSync(`${base}.o.tmp`, `${base}.o`);
  if (target.format === 'coff') {
    const dump = run(join(bin, 'llvm-objdump'), ['-s', `--section=${target.sectionName}`, `${base}.o`]);
    if (dump.status !== 0) return { status: 'tool-failed', message: firstComplaint(dump) };
    if (!dump.stdout.toString('latin1').includes(`Contents of section ${target.sectionName}:`))
      return { status: 'no-section', message: `no ${target.sectionName} section` };
    writeAtomic(`${base}.stackmaps`, parseObjdumpHex(dump.stdout.toString('latin1')));
  } else {
    const dump = run(join(bin, 'llvm-objcopy'), [`--dump-section=${target.sectionName}=${base}.stackmaps.tmp`, `${base}.o`, `${base}.objcopy-out.tmp`]);
    rmSync(`${base}.objcopy-out.tmp`, { force: true });
    if (dump.status !== 0) {
      rmSync(`${base}.stackmaps.tmp`, { force: true });
      return { status: /not found|can't find/i.test(dump.stderr) ? 'no-section' : 'tool-failed', message: firstComplaint(dump) };
    }
    renameSync(`${base}.stackmaps.tmp`, `${base}.stackmaps`);
  }
  const readobj = run(join(bin, 'llvm-readobj'), ['--stackmap', `${base}.o`]);
  if (readobj.status !== 0) return { status: 'tool-failed', message: firstComplaint(readobj) };
  writeAtomic(`${base}.readobj.txt`, readobj.stdout);
  return { status: 'ok' };
}

/** Generates `count` modules per target into `out` and returns the manifest (also written as manifest.json). */
export function generateStackmapObjects(o: GenerateOptions): GeneratedObject[] {
  const bin = o.bin ?? llvm16Bin();
  if (!existsSync(join(bin, 'llc'))) throw new Error(`llc not found in ${bin} (apt-get install llvm-16, or set LLVM_BYTECODE_LLVM16=DIR)`);
  const targets = (o.targets ?? STACKMAP_TARGETS.map((t) => t.name)).map(stackmapTarget);
  const manifest: GeneratedObject[] = [];
  for (const target of targets) {
    const dir = join(o.out, target.name);
    mkdirSync(dir, { recursive: true });
    for (let i = 0; i < o.count; i++) {
      const seed = objectSeed(o.seed, i, target);
      const module = generateStackmapModule(seed, target);
      const name = `s${o.seed}-${i}`;
      const base = join(dir, name);
      // Every seventh object is written with -stackmap-version=1 or 2 (the version-3 layout under that byte).
      const stackmapVersion = i % 7 === 6 ? ((1 + (seed & 1)) as 1 | 2) : undefined;
      const result = compileStackmapObject(bin, target, module.ir, module.optLevel, base, stackmapVersion);
      const rel = `${target.name}/${name}`;
      const entry: GeneratedObject = {
        name,
        target: target.name,
        triple: target.triple,
        format: target.format,
        endian: target.endian,
        seed,
        optLevel: module.optLevel,
        ...(stackmapVersion !== undefined ? { stackmapVersion } : {}),
        features: module.features,
        ll: `${rel}.ll`,
        ...result,
      };
      if (result.status === 'ok') Object.assign(entry, { object: `${rel}.o`, section: `${rel}.stackmaps`, readobj: `${rel}.readobj.txt` });
      manifest.push(entry);
      if (o.verbose) console.error(`${rel}: ${result.status}${result.message ? `: ${result.message}` : ''}`);
    }
    for (const optLevel of o.reference ?? []) {
      const { ir, functionNames } = referenceModule(target);
      const name = `reference-O${optLevel}`;
      const rel = `${target.name}/${name}`;
      const result = compileStackmapObject(bin, target, ir, optLevel, join(dir, name));
      const entry: GeneratedObject = {
        name,
        target: target.name,
        triple: target.triple,
        format: target.format,
        endian: target.endian,
        seed: 0,
        optLevel,
        functionNames,
        ll: `${rel}.ll`,
        ...result,
      };
      if (result.status === 'ok') Object.assign(entry, { object: `${rel}.o`, section: `${rel}.stackmaps`, readobj: `${rel}.readobj.txt` });
      manifest.push(entry);
      if (o.verbose) console.error(`${rel}: ${result.status}${result.message ? `: ${result.message}` : ''}`);
    }
  }
  writeAtomic(join(o.out, 'manifest.json'), JSON.stringify(manifest, null, 1));
  return manifest;
}

/** What `bin`'s llvm-readobj --stackmap prints for `path`, from its `LLVM StackMap Version:` line on ('' when it prints none). */
export function readobjStackmap(bin: string, path: string): string {
  const r = run(join(bin, 'llvm-readobj'), ['--stackmap', path]);
  if (r.status !== 0) throw new Error(`llvm-readobj --stackmap ${path}: ${firstComplaint(r)}`);
  const out = r.stdout.toString('latin1');
  const at = out.indexOf('LLVM StackMap Version:');
  return at < 0 ? '' : out.slice(at);
}

/** A universal Mach-O file of `objects` (`bin`'s llvm-lipo), written to `out`; its bytes. */
export function universalMachO(bin: string, objects: readonly string[], out: string): Uint8Array {
  const r = run(join(bin, 'llvm-lipo'), ['-create', ...objects, '-output', out]);
  if (r.status !== 0) throw new Error(`llvm-lipo -create: ${firstComplaint(r)}`);
  return new Uint8Array(readFileSync(out));
}

/** Reads a manifest written by {@link generateStackmapObjects}. */
export function readStackmapManifest(out: string): GeneratedObject[] {
  return JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8')) as GeneratedObject[];
}

/** The smallest module with one call of `kind` (with `anyregcc` when asked). */
function probeModule(target: StackmapTarget, kind: CallKind | 'bigvector', anyreg: boolean): string {
  const cc = anyreg ? 'anyregcc ' : '';
  const head = `target triple = "${target.triple}"\ndeclare void @callee()\n`;
  switch (kind) {
    case 'stackmap':
      return `${head}declare void @llvm.experimental.stackmap(i64, i32, ...)\ndefine void @f(i64 %a) {\n  call void (i64, i32, ...) @llvm.experimental.stackmap(i64 1, i32 0, i64 %a, i64 4294967296)\n  ret void\n}\n`;
    case 'patchpoint.void':
      return `${head}declare void @llvm.experimental.patchpoint.void(i64, i32, ptr, i32, ...)\ndefine void @f(i64 %a) {\n  call ${cc}void (i64, i32, ptr, i32, ...) @llvm.experimental.patchpoint.void(i64 2, i32 ${target.callBytes}, ptr null, i32 1, i64 %a)\n  ret void\n}\n`;
    case 'patchpoint.i64':
      return `${head}declare i64 @llvm.experimental.patchpoint.i64(i64, i32, ptr, i32, ...)\ndefine i64 @f(i64 %a) {\n  %r = call ${cc}i64 (i64, i32, ptr, i32, ...) @llvm.experimental.patchpoint.i64(i64 3, i32 ${target.callBytes}, ptr null, i32 1, i64 %a)\n  ret i64 %r\n}\n`;
    case 'statepoint':
      return `${head}declare token @llvm.experimental.gc.statepoint.p0(i64, i32, ptr, i32, i32, ...)\ndeclare ptr addrspace(1) @llvm.experimental.gc.relocate.p1(token, i32, i32)\ndefine ptr addrspace(1) @f(ptr addrspace(1) %p, i64 %a) gc "statepoint-example" {\n  %t = call token (i64, i32, ptr, i32, i32, ...) @llvm.experimental.gc.statepoint.p0(i64 4, i32 0, ptr elementtype(void ()) @callee, i32 0, i32 0, i32 0, i32 0) [ "deopt"(i64 %a), "gc-live"(ptr addrspace(1) %p) ]\n  %q = call ptr addrspace(1) @llvm.experimental.gc.relocate.p1(token %t, i32 0, i32 0)\n  ret ptr addrspace(1) %q\n}\n`;
    case 'bigvector':
      return `${head}declare token @llvm.experimental.gc.statepoint.p0(i64, i32, ptr, i32, i32, ...)\ndefine void @f(<32 x i64> %v) gc "statepoint-example" {\n  %t = call token (i64, i32, ptr, i32, i32, ...) @llvm.experimental.gc.statepoint.p0(i64 5, i32 0, ptr elementtype(void ()) @callee, i32 0, i32 0, i32 0, i32 0) [ "deopt"(<32 x i64> %v) ]\n  ret void\n}\n`;
  }
}

/** Compiles the probe modules for every target into `dir` and returns one line per (target, kind). */
export function probeTargets(bin: string, dir: string): string[] {
  mkdirSync(dir, { recursive: true });
  const lines: string[] = [];
  const kinds: [CallKind | 'bigvector', boolean][] = [
    ['stackmap', false],
    ['patchpoint.void', false],
    ['patchpoint.void', true],
    ['patchpoint.i64', false],
    ['patchpoint.i64', true],
    ['statepoint', false],
    ['bigvector', false],
  ];
  for (const target of STACKMAP_TARGETS) {
    for (const [kind, anyreg] of kinds) {
      const label = `${anyreg ? 'anyregcc ' : ''}${kind}`;
      const base = join(dir, `${target.name}-${label.replace(/\W+/g, '_')}`);
      const r = compileStackmapObject(bin, target, probeModule(target, kind, anyreg), 2, base);
      let detail = r.status === 'ok' ? 'ok' : `${r.status}: ${r.message}`;
      if (r.status === 'ok') {
        const text = readFileSync(`${base}.readobj.txt`, 'utf8');
        const address = /Function address: (\d+)/.exec(text)?.[1];
        detail += ` (readobj: ${/LLVM StackMap Version: \d+/.exec(text)?.[0] ?? 'no version line'}, function address ${address ?? '?'})`;
      }
      lines.push(`${target.name}\t${label}\t${detail}`);
    }
  }
  return lines;
}

const USAGE = `usage: npm run stackmap-objects -- [--out DIR] [--count N] [--seed S] [--target NAME]... [--reference O]... [--probe] [--verbose]

Writes N seeded IR modules per target, compiled by llc-16, with each object's stack map section
(llvm-objcopy-16 --dump-section) and llvm-readobj-16 --stackmap text, and DIR/manifest.json.
  --out DIR      output folder (default stackmap-objects/ in the working directory)
  --count N      modules per target (default 20)
  --seed S       run seed (default 1): the same seed gives the same IR
  --target NAME  only this target (repeatable): ${STACKMAP_TARGETS.map((t) => t.name).join(', ')}
  --reference O  also each target's reference module (fixed IR, known function names) at -O<O> (repeatable)
  --probe        compile one minimal module per target and intrinsic and print what llc-16 takes
LLVM 16 is looked for in LLVM_BYTECODE_LLVM16, else /usr/lib/llvm-16/bin.`;

function optLevelOption(text: string): number {
  const n = Number(text);
  if (!Number.isInteger(n) || n < 0 || n > 3) throw new Error(`--reference takes an optimisation level 0-3, not ${text}`);
  return n;
}

function main(argv: readonly string[]): number {
  let out = 'stackmap-objects';
  let count = 20;
  let seed = 1;
  let probe = false;
  let verbose = false;
  const targets: string[] = [];
  const reference: number[] = [];
  readToolOptions(argv, USAGE, (option, value) => {
    if (option === '--out') out = value();
    else if (option === '--count') count = Number(value());
    else if (option === '--seed') seed = Number(value());
    else if (option === '--target') targets.push(stackmapTarget(value()).name);
    else if (option === '--reference') reference.push(optLevelOption(value()));
    else if (option === '--probe') probe = true;
    else if (option === '--verbose') verbose = true;
    else return false;
    return true;
  });
  if (!Number.isInteger(count) || count < 0) throw new Error('--count must be a whole number');
  if (!Number.isInteger(seed)) throw new Error('--seed must be an integer');
  if (probe) {
    for (const line of probeTargets(llvm16Bin(), join(out, 'probe'))) console.log(line);
    return 0;
  }
  const manifest = generateStackmapObjects({ out, count, seed, ...(targets.length > 0 ? { targets } : {}), reference, verbose });
  const byTarget = new Map<string, Map<string, number>>();
  for (const m of manifest) {
    const counts = byTarget.get(m.target) ?? new Map<string, number>();
    counts.set(m.status, (counts.get(m.status) ?? 0) + 1);
    byTarget.set(m.target, counts);
  }
  for (const [target, counts] of byTarget) console.log(`${target}: ${[...counts].map(([s, n]) => `${n} ${s}`).join(', ')}`);
  console.log(`manifest: ${join(out, 'manifest.json')}`);
  return 0;
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    process.exitCode = main(process.argv.slice(2));
  } catch (e) {
    console.error(`stackmap-objects: error: ${(e as Error).message}`);
    process.exitCode = 1;
  }
}
