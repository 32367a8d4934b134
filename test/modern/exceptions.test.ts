/**
 * LLVM 1.x's exception semantics survive the upgrade (docs/upgrade.md, "Exceptions"): small
 * hand-built 1.x programs that `unwind` through one or several frames, with nested invokes, with
 * no enclosing invoke, with phis in both successors, are written as bytecode, read back,
 * upgraded, and *run*: under `lli-16` (both JITs), after `opt-16 -O2`, and compiled with
 * `llc-16` + `cc` (linked with the C++ runtime for the personality). Each must end with the exit
 * status LLVM 1.x's semantics give (1.x's interpreter: `unwind` returns to the nearest
 * dynamically enclosing invoke's except label; with none, `abort()`).
 *
 * The shape of the upgraded text is checked without LLVM; the runs skip, saying so, when LLVM 16
 * (or a C compiler, for the native runs) is absent.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ModuleBuilder } from '../../src/build/index.js';
import type { TypeBuilder } from '../../src/build/types.js';
import type { ConstantBuilder } from '../../src/build/constants.js';
import type { IRBuilder } from '../../src/build/ir-builder.js';
import { writeModule } from '../../src/encode/write.js';
import type { Module } from '../../src/graph/module.js';
import type { Function } from '../../src/graph/value.js';
import { printModern, writeModern } from '../../src/modern/index.js';
import { readModule } from '../../src/read.js';
import { findCc, findTool, LLVM16 } from './llvm16.js';
import { debianLlvm, needs } from '../support/tools.js';

interface Kit {
  mb: ModuleBuilder;
  t: TypeBuilder;
  c: ConstantBuilder;
  b: IRBuilder;
  /** `internal void %thrower() { unwind }` */
  thrower: () => Function;
  /** `int %main()` with its blocks, in order. */
  main: (...blocks: string[]) => ReturnType<ModuleBuilder['addBlock']>[];
}

function kit(): Kit {
  const mb = new ModuleBuilder();
  const { types: t, constants: c } = mb;
  const b = mb.builder();
  let throwerFn: Function | undefined;
  return {
    mb,
    t,
    c,
    b,
    thrower: () => {
      if (!throwerFn) {
        throwerFn = mb.addFunction('thrower', t.function(t.void, []), { linkage: 'internal' });
        mb.builder(mb.addBlock(throwerFn, 'entry')).unwind();
      }
      return throwerFn;
    },
    main: (...blocks) => {
      const main = mb.addFunction('main', t.function(t.int, []));
      return blocks.map((name) => mb.addBlock(main, name));
    },
  };
}

/** `internal int %maybe(int %x)`: unwinds when %x is 0, else returns %x. */
function maybe(k: Kit): Function {
  const { mb, t, c, b } = k;
  const f = mb.addFunction('maybe', t.function(t.int, [t.int]), { linkage: 'internal', argNames: ['x'] });
  const [entry, raise, back] = [mb.addBlock(f, 'entry'), mb.addBlock(f, 'raise'), mb.addBlock(f, 'back')];
  const zero = b.positionAtEnd(entry!).seteq(f.args[0]!, c.int(t.int, 0), 'zero');
  b.condBr(zero, raise!, back!);
  b.positionAtEnd(raise!).unwind();
  b.positionAtEnd(back!).ret(f.args[0]!);
  return f;
}

/** A 1.x program and the exit status its semantics give (`abort`: killed by SIGABRT). */
interface Program {
  readonly name: string;
  readonly status: number | 'abort';
  readonly build: () => Module;
}

const PROGRAMS: Program[] = [
  {
    name: 'unwind through one frame to the invoking function',
    status: 42,
    build: () => {
      const k = kit();
      const [entry, ok, caught] = k.main('entry', 'ok', 'caught');
      k.b.positionAtEnd(entry!).invoke(k.thrower(), [], ok!, caught!);
      k.b.positionAtEnd(ok!).ret(k.c.int(k.t.int, 1));
      k.b.positionAtEnd(caught!).ret(k.c.int(k.t.int, 42));
      return k.mb.build();
    },
  },
  {
    name: 'unwind through several frames that have no invoke',
    status: 43,
    build: () => {
      const k = kit();
      const { mb, t, c, b } = k;
      // c unwinds; b and a call it with plain calls (their code after the call never runs).
      const fc = mb.addFunction('c', t.function(t.int, [t.int]), { linkage: 'internal', argNames: ['x'] });
      b.positionAtEnd(mb.addBlock(fc, 'entry')).unwind();
      const fb = mb.addFunction('b', t.function(t.int, [t.int]), { linkage: 'internal', argNames: ['x'] });
      const r = b.positionAtEnd(mb.addBlock(fb, 'entry')).call(fc, [fb.args[0]!], 'r');
      b.ret(b.add(r, c.int(t.int, 1), 's'));
      const fa = mb.addFunction('a', t.function(t.int, [t.int]), { linkage: 'internal', argNames: ['x'] });
      b.positionAtEnd(mb.addBlock(fa, 'entry'));
      b.ret(b.call(fb, [fa.args[0]!], 'r'));
      const [entry, ok, caught] = k.main('entry', 'ok', 'caught');
      b.positionAtEnd(entry!).invoke(fa, [c.int(t.int, 1)], ok!, caught!, 'v');
      b.positionAtEnd(ok!).ret(c.int(t.int, 1));
      b.positionAtEnd(caught!).ret(c.int(t.int, 43));
      return mb.build();
    },
  },
  {
    name: 'nested invokes: the innermost catches',
    status: 20,
    build: () => {
      const k = kit();
      const { mb, t, c, b } = k;
      const inner = mb.addFunction('inner', t.function(t.int, []), { linkage: 'internal' });
      const [ie, iok, icaught] = [mb.addBlock(inner, 'entry'), mb.addBlock(inner, 'ok'), mb.addBlock(inner, 'caught')];
      b.positionAtEnd(ie!).invoke(k.thrower(), [], iok!, icaught!);
      b.positionAtEnd(iok!).ret(c.int(t.int, 1));
      b.positionAtEnd(icaught!).ret(c.int(t.int, 20));
      const [entry, ok, caught] = k.main('entry', 'ok', 'caught');
      const r = b.positionAtEnd(entry!).invoke(inner, [], ok!, caught!, 'r');
      b.positionAtEnd(ok!).ret(r);
      b.positionAtEnd(caught!).ret(c.int(t.int, 99));
      return mb.build();
    },
  },
  {
    name: 'an unwind in an except block goes to the next enclosing invoke',
    status: 44,
    build: () => {
      const k = kit();
      const { mb, t, c, b } = k;
      const inner = mb.addFunction('inner', t.function(t.int, []), { linkage: 'internal' });
      const [ie, iok, icaught] = [mb.addBlock(inner, 'entry'), mb.addBlock(inner, 'ok'), mb.addBlock(inner, 'caught')];
      b.positionAtEnd(ie!).invoke(k.thrower(), [], iok!, icaught!);
      b.positionAtEnd(iok!).ret(c.int(t.int, 1));
      b.positionAtEnd(icaught!).unwind();
      const [entry, ok, caught] = k.main('entry', 'ok', 'caught');
      b.positionAtEnd(entry!).invoke(inner, [], ok!, caught!, 'r');
      b.positionAtEnd(ok!).ret(c.int(t.int, 1));
      b.positionAtEnd(caught!).ret(c.int(t.int, 44));
      return mb.build();
    },
  },
  {
    name: "a frame's finished invoke does not catch a later unwind from a plain call",
    status: 45,
    build: () => {
      const k = kit();
      const { mb, t, c, b } = k;
      const seven = mb.addFunction('seven', t.function(t.int, []), { linkage: 'internal' });
      b.positionAtEnd(mb.addBlock(seven, 'entry')).ret(c.int(t.int, 7));
      const middle = mb.addFunction('middle', t.function(t.int, []), { linkage: 'internal' });
      const [me, mcont, mnever] = [mb.addBlock(middle, 'entry'), mb.addBlock(middle, 'cont'), mb.addBlock(middle, 'never')];
      const v = b.positionAtEnd(me!).invoke(seven, [], mcont!, mnever!, 'v');
      b.positionAtEnd(mcont!).call(k.thrower(), []);
      b.ret(v);
      b.positionAtEnd(mnever!).ret(c.int(t.int, 98));
      const [entry, ok, caught] = k.main('entry', 'ok', 'caught');
      b.positionAtEnd(entry!).invoke(middle, [], ok!, caught!, 'r');
      b.positionAtEnd(ok!).ret(c.int(t.int, 1));
      b.positionAtEnd(caught!).ret(c.int(t.int, 45));
      return mb.build();
    },
  },
  {
    name: 'an unwind with no enclosing invoke aborts, as LLVM 1.x did',
    status: 'abort',
    build: () => {
      const k = kit();
      const [entry] = k.main('entry');
      k.b.positionAtEnd(entry!).call(k.thrower(), []);
      k.b.ret(k.c.int(k.t.int, 0));
      return k.mb.build();
    },
  },
  {
    name: 'an unwind in main itself aborts',
    status: 'abort',
    build: () => {
      const k = kit();
      const [entry] = k.main('entry');
      k.b.positionAtEnd(entry!).unwind();
      return k.mb.build();
    },
  },
  {
    name: 'an invoke of a function that returns normally takes the normal edge',
    status: 37,
    build: () => {
      const k = kit();
      const { mb, t, c, b } = k;
      const seven = mb.addFunction('seven', t.function(t.int, []), { linkage: 'internal' });
      b.positionAtEnd(mb.addBlock(seven, 'entry')).ret(c.int(t.int, 7));
      const [entry, ok, caught] = k.main('entry', 'ok', 'caught');
      const r = b.positionAtEnd(entry!).invoke(seven, [], ok!, caught!, 'r');
      b.positionAtEnd(ok!).ret(b.add(r, c.int(t.int, 30), 's'));
      b.positionAtEnd(caught!).ret(c.int(t.int, 99));
      return mb.build();
    },
  },
  ...[0, 5].map(
    (first): Program => ({
      name: `phis in both successors (${first === 0 ? 'first' : 'second'} invoke unwinds)`,
      status: first === 0 ? 41 : 45,
      build: () => {
        const k = kit();
        const { t, c, b } = k;
        const m = maybe(k);
        // entry: %a = invoke maybe(first) to second except caught
        // second: %b = invoke maybe(0) to done except caught
        // done: %p = phi [%b, second]; ret %p
        // caught: %q = phi [1, entry], [%a, second]; ret %q + 40
        const [entry, second, done, caught] = k.main('entry', 'second', 'done', 'caught');
        const a = b.positionAtEnd(entry!).invoke(m, [c.int(t.int, first)], second!, caught!, 'a');
        const bv = b.positionAtEnd(second!).invoke(m, [c.int(t.int, 0)], done!, caught!, 'b');
        b.positionAtEnd(done!).ret(b.phi(t.int, [[bv, second!]], 'p'));
        const q = b.positionAtEnd(caught!).phi(
          t.int,
          [
            [c.int(t.int, 1), entry!],
            [a, second!],
          ],
          'q',
        );
        b.ret(b.add(q, c.int(t.int, 40), 's'));
        return k.mb.build();
      },
    }),
  ),
  {
    name: 'phis in the normal destination join the invoke result with other edges',
    status: 15,
    build: () => {
      const k = kit();
      const { t, c, b } = k;
      const m = maybe(k);
      // A loop: %i counts 1, 2, …, 5 through invokes that return normally; the sum is 15.
      const [entry, loop, next, done, caught] = k.main('entry', 'loop', 'next', 'done', 'caught');
      b.positionAtEnd(entry!).br(loop!);
      b.positionAtEnd(loop!);
      const i = b.phi(t.int, [[c.int(t.int, 1), entry!]], 'i');
      const sum = b.phi(t.int, [[c.int(t.int, 0), entry!]], 'sum');
      const v = b.invoke(m, [i], next!, caught!, 'v');
      b.positionAtEnd(next!);
      const sum2 = b.add(sum, v, 'sum2');
      const i2 = b.add(i, c.int(t.int, 1), 'i2');
      b.addIncoming(i, i2, next!);
      b.addIncoming(sum, sum2, next!);
      b.condBr(b.setgt(i2, c.int(t.int, 5), 'end'), done!, loop!);
      b.positionAtEnd(done!).ret(sum2);
      b.positionAtEnd(caught!).ret(c.int(t.int, 99));
      return k.mb.build();
    },
  },
  {
    name: "an invoke's result used past both of its edges (kept in a stack slot)",
    status: 9,
    build: () => {
      const k = kit();
      const { mb, t, c, b } = k;
      const seven = mb.addFunction('seven', t.function(t.int, []), { linkage: 'internal' });
      b.positionAtEnd(mb.addBlock(seven, 'entry')).ret(c.int(t.int, 7));
      // entry dominates join, the normal edge does not: 1.x allowed %a there.
      const [entry, ok, bad, join] = k.main('entry', 'ok', 'bad', 'join');
      const a = b.positionAtEnd(entry!).invoke(seven, [], ok!, bad!, 'a');
      b.positionAtEnd(ok!).br(join!);
      b.positionAtEnd(bad!).br(join!);
      const p = b.positionAtEnd(join!).phi(
        t.int,
        [
          [c.int(t.int, 2), ok!],
          [c.int(t.int, 3), bad!],
        ],
        'p',
      );
      b.ret(b.add(a, p, 's'));
      return mb.build();
    },
  },
  {
    name: 'a hundred unwinds caught in a loop',
    status: 100,
    build: () => {
      const k = kit();
      const { t, c, b } = k;
      const [entry, loop, body, never, caught, done] = k.main('entry', 'loop', 'body', 'never', 'caught', 'done');
      b.positionAtEnd(entry!).br(loop!);
      const i = b.positionAtEnd(loop!).phi(t.int, [[c.int(t.int, 0), entry!]], 'i');
      b.condBr(b.setlt(i, c.int(t.int, 100), 'more'), body!, done!);
      b.positionAtEnd(body!).invoke(k.thrower(), [], never!, caught!);
      b.positionAtEnd(never!).ret(c.int(t.int, 99));
      const i1 = b.positionAtEnd(caught!).add(i, c.int(t.int, 1), 'i1');
      b.addIncoming(i, i1, caught!);
      b.br(loop!);
      b.positionAtEnd(done!).ret(i);
      return k.mb.build();
    },
  },
];

/** Written as version-6 bytecode and read back, as a real 1.x file would be, then upgraded. */
function upgraded(p: Program, exceptions?: 'native' | 'abort', llvm = 16): string {
  const bytes = writeModule(p.build(), { bytecodeVersion: 6 });
  return printModern(readModule(bytes), exceptions ? { exceptions, llvm } : { llvm });
}

describe('upgraded exception handling (text)', () => {
  const text = upgraded(PROGRAMS[2]!);
  it('keeps invokes, with a catch-all landing pad that releases the exception and branches to the except label', () => {
    expect(text).toMatch(/%r = invoke i32 @inner\(\) to label %ok unwind label %lpad ; LLVM 1.x: except label %caught\n/);
    expect(text).toContain(
      'lpad:\n  %exn = landingpad { ptr, i32 } catch ptr null\n  %exn.1 = extractvalue { ptr, i32 } %exn, 0\n  call void @_Unwind_DeleteException(ptr %exn.1)\n  br label %caught\n',
    );
    expect(text).toContain('define i32 @main() personality ptr @__gxx_personality_v0 {');
    expect(text).toContain('declare i32 @__gxx_personality_v0(...)');
  });
  it('raises unwind through the platform unwinder, aborting when nothing catches it', () => {
    expect(text).toContain('  call void @llvm1.unwind() ; LLVM 1.x: unwind\n  unreachable\n');
    expect(text).toContain('define internal void @llvm1.unwind() noreturn {');
    expect(text).toMatch(/call i32 @_Unwind_RaiseException\(ptr %exn\)\n {2}br label %uncaught\nuncaught:\n {2}call void @abort\(\)/);
  });
  it('gives phi entries on an unwind edge the landing pad as their block', () => {
    const phis = upgraded(PROGRAMS.find((p) => p.name.startsWith('phis in both'))!);
    expect(phis).toContain('%q = phi i32 [ 1, %lpad ], [ %a, %lpad.1 ]');
    expect(phis).toContain('%p = phi i32 [ %b, %second ]');
  });
  it("keeps an invoke's result in a stack slot where the normal edge does not dominate a use", () => {
    const slot = upgraded(PROGRAMS.find((p) => p.name.includes('stack slot'))!);
    expect(slot).toContain('%a.slot = alloca i32');
    expect(slot).toContain('ok:\n  store i32 %a, ptr %a.slot\n');
    expect(slot).toMatch(/%a\.1 = load i32, ptr %a\.slot\n {2}%s = add i32 %a\.1, %p/);
  });
  it('the abort model flattens invokes and aborts at unwind', () => {
    const flat = upgraded(PROGRAMS[2]!, 'abort');
    expect(flat).not.toContain('landingpad');
    expect(flat).not.toContain('personality');
    expect(flat).toContain('%r = call i32 @inner() ; LLVM 1.x: invoke, unwind to %caught');
    expect(flat).toContain('call void @abort() ; LLVM 1.x: unwind');
  });
});

const LLVM_AS = findTool('llvm-as');
const OPT = findTool('opt');
const LLI = findTool('lli');
const LLC = findTool('llc');
const CC = findCc();
// A C compiler is no oracle set of ours: the native tests skip, untagged and named in the summary, without one.
if (CC === undefined) console.warn('no C compiler (cc, gcc or clang): the natively compiled exception programs are not run.');

const work = mkdtempSync(join(tmpdir(), 'llvm-bytecode-exceptions-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

function run(cmd: string, args: string[]): { status: number | null; signal: NodeJS.Signals | null; stderr: string } {
  const r = spawnSync(cmd, args, { encoding: 'utf8', timeout: 30_000, stdio: ['ignore', 'ignore', 'pipe'] });
  return { status: r.status, signal: r.signal, stderr: r.stderr ?? '' };
}

function expectStatus(r: ReturnType<typeof run>, want: number | 'abort'): void {
  if (want === 'abort') expect({ signal: r.signal, status: r.status }).toEqual({ signal: 'SIGABRT', status: null });
  else expect({ status: r.status, stderr: r.stderr }).toEqual({ status: want, stderr: '' });
}

function mustSucceed(cmd: string, args: string[]): void {
  const r = run(cmd, args);
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed: ${r.stderr}`);
}

/** Writes, assembles and verifies a program's upgrade, plus its `opt-16 -O2` form (verified too). */
function prepare(p: Program, i: number): { bc: string; o2: string } {
  const ll = join(work, `p${i}.ll`);
  writeFileSync(ll, upgraded(p));
  const bc = join(work, `p${i}.bc`);
  const o2 = join(work, `p${i}.O2.bc`);
  mustSucceed(LLVM_AS, [ll, '-o', bc]);
  mustSucceed(OPT, ['-passes=verify', '-disable-output', bc]);
  mustSucceed(OPT, ['-O2', bc, '-o', o2]);
  mustSucceed(OPT, ['-passes=verify', '-disable-output', o2]);
  return { bc, o2 };
}

describe('upgraded exception programs run with LLVM 1.x semantics', needs(LLVM16), () => {
  PROGRAMS.forEach((p, i) => {
    it(`${p.name}: exit ${p.status} under lli-16 (ORC and MCJIT), also after opt-16 -O2`, () => {
      const { bc, o2 } = prepare(p, i);
      expectStatus(run(LLI, [bc]), p.status);
      expectStatus(run(LLI, ['-jit-kind=mcjit', bc]), p.status);
      expectStatus(run(LLI, [o2]), p.status);
    }, 60_000);

    it.skipIf(CC === undefined)(
      `${p.name}: exit ${p.status} compiled with llc-16 and cc`,
      () => {
        const { bc } = prepare(p, i);
        const obj = join(work, `p${i}.o`);
        const exe = join(work, `p${i}.exe`);
        mustSucceed(LLC, ['-relocation-model=pic', '-filetype=obj', bc, '-o', obj]);
        // The personality (__gxx_personality_v0) is the C++ runtime's; the unwinder comes with it.
        mustSucceed(CC!, [obj, '-o', exe, '-lstdc++']);
        expectStatus(run(exe, []), p.status);
      },
      60_000,
    );
  });
});

/** A C++ `throw 7;` in modern IR (libstdc++'s `int` type info), linked with an upgraded 1.x module. */
const CXX_THROW = `@_ZTIi = external constant ptr
declare ptr @__cxa_allocate_exception(i64)
declare void @__cxa_throw(ptr, ptr, ptr)
define void @cxx_throw() {
  %e = call ptr @__cxa_allocate_exception(i64 4)
  store i32 7, ptr %e
  call void @__cxa_throw(ptr %e, ptr @_ZTIi, ptr null)
  unreachable
}
`;

const LLVM_LINK = findTool('llvm-link');

describe('foreign exceptions', needs(LLVM16), () => {
  /** An upgraded 1.x main whose invoke of a C++ thrower unwinds to a block returning 46, linked with the thrower. */
  const linkedProgram = (): string => {
    const mb = new ModuleBuilder();
    const { types: t, constants: c } = mb;
    const cxxThrow = mb.addFunction('cxx_throw', t.function(t.void, []));
    const main = mb.addFunction('main', t.function(t.int, []));
    const [entry, ok, caught] = [mb.addBlock(main, 'entry'), mb.addBlock(main, 'ok'), mb.addBlock(main, 'caught')];
    const b = mb.builder(entry);
    b.invoke(cxxThrow, [], ok, caught);
    b.positionAtEnd(ok).ret(c.int(t.int, 1));
    b.positionAtEnd(caught).ret(c.int(t.int, 46));
    const upgradedLl = join(work, 'foreign.ll');
    const cxxLl = join(work, 'cxx-throw.ll');
    const linked = join(work, 'foreign.bc');
    writeFileSync(upgradedLl, printModern(readModule(writeModule(mb.build(), { bytecodeVersion: 6 }))));
    writeFileSync(cxxLl, CXX_THROW);
    mustSucceed(LLVM_LINK, [upgradedLl, cxxLl, '-o', linked]);
    return linked;
  };

  it('a C++ exception thrown through an upgraded invoke is caught by it and released (lli-16, ORC and MCJIT)', () => {
    const linked = linkedProgram();
    expectStatus(run(LLI, [linked]), 46);
    expectStatus(run(LLI, ['-jit-kind=mcjit', linked]), 46);
  }, 60_000);

  it.skipIf(CC === undefined)(
    'the same, compiled with llc-16 and cc',
    () => {
      const linked = linkedProgram();
      const obj = join(work, 'foreign.o');
      const exe = join(work, 'foreign.exe');
      mustSucceed(LLC, ['-relocation-model=pic', '-filetype=obj', linked, '-o', obj]);
      mustSucceed(CC!, [obj, '-o', exe, '-lstdc++']);
      expectStatus(run(exe, []), 46);
    },
    60_000,
  );
});

const LLVM16_SET = debianLlvm(16);

/**
 * Issue 33 item 4: the same programs upgraded for LLVM 22 end the same way under lli-22 as under
 * lli-16, from the text and from the bitcode `writeModern` writes; and upgraded for LLVM 14 (typed
 * pointers: the landing pad's `{ i8*, i32 }`, the personality cast to i8*) under lli-14.
 */
for (const n of [22, 14] as const) {
  const other = debianLlvm(n);
  describe.skipIf(!LLVM16_SET.present || !other.present)(`upgraded exception programs under lli-${n}`, needs(LLVM16_SET, other), () => {
    PROGRAMS.forEach((p, i) => {
      it(`${p.name}: lli-${n} (ORC and MCJIT) ends as lli-16 does, exit ${p.status}`, () => {
        const runs: Record<string, { status: number | null; signal: NodeJS.Signals | null }> = {};
        for (const version of [16, n]) {
          const ll = join(work, `p${i}.for${version}.ll`);
          writeFileSync(ll, upgraded(p, undefined, version));
          for (const engine of [[], ['-jit-kind=mcjit']]) {
            const r = run((version === 16 ? LLVM16_SET : other).path('lli'), [...engine, ll]);
            expectStatus(r, p.status);
            runs[`lli-${version}${engine.length ? ' mcjit' : ''}`] = { status: r.status, signal: r.signal };
          }
        }
        expect(runs[`lli-${n}`]).toEqual(runs['lli-16']);
        expect(runs[`lli-${n} mcjit`]).toEqual(runs['lli-16 mcjit']);
        // And from our bitcode (issue 33 items 2 and 4): the landing pads and the unwind helper as records.
        const bc = join(work, `p${i}.for${n}.bc`);
        writeFileSync(bc, writeModern(readModule(writeModule(p.build(), { bytecodeVersion: 6 })), { llvm: n }));
        for (const engine of [[], ['-jit-kind=mcjit']]) {
          const r = run(other.path('lli'), [...engine, bc]);
          expect({ status: r.status, signal: r.signal }, `lli-${n} ${engine.join(' ')} of the bitcode`).toEqual(
            runs[`lli-${n}${engine.length ? ' mcjit' : ''}`],
          );
        }
      }, 60_000);
    });
  });
}
