/**
 * The 1.x → version 7 conversion (src/convert) does what `llvm-upgrade` (r36867) did to LLVM 1.9
 * assembly: signless types, the sign moved into the operations, casts split by kind, shift
 * amounts widened, colliding names renamed with one module-wide `.upgrd.N` counter. Where the
 * r36867 tools are present, the converted module written as version 7 is compared with what
 * `llvm-upgrade | llvm-as` made of the same text.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseAssembly } from '../../src/asm/index.js';
import { convertToVersion7, ConversionError } from '../../src/convert/to-version7.js';
import { writeModule } from '../../src/encode/write.js';
import { readModule } from '../../src/read.js';
import { integerType, type Type } from '../../src/graph/type.js';
import type { Instruction } from '../../src/graph/value.js';
import type { Module } from '../../src/graph/module.js';
import { LLVM19, needs, R36867 } from '../support/tools.js';

function body(m: Module, fn = 0): Instruction[] {
  return m.functions[fn]!.blocks.flatMap((b) => b.instructions);
}

/** Every unsuffixed 1.x intrinsic LLVM 1.9's reader renamed, each called once. */
const OLD_INTRINSICS = `declare void %llvm.memcpy(sbyte*, sbyte*, uint, uint)
declare void %llvm.memmove(sbyte*, sbyte*, ulong, uint)
declare void %llvm.memset(sbyte*, ubyte, uint, uint)
declare bool %llvm.isunordered(double, double)
declare int %llvm.ctpop(int)
declare ushort %llvm.bswap(ushort)
declare float %llvm.sqrt(float)
void %f(sbyte* %p, sbyte* %q, double %x) {
  call void %llvm.memcpy(sbyte* %p, sbyte* %q, uint 4, uint 1)
  call void %llvm.memmove(sbyte* %p, sbyte* %q, ulong 8, uint 1)
  call void %llvm.memset(sbyte* %p, ubyte 0, uint 4, uint 1)
  %u = call bool %llvm.isunordered(double %x, double %x)
  %n = call int %llvm.ctpop(int 5)
  %b = call ushort %llvm.bswap(ushort 7)
  %s = call float %llvm.sqrt(float 2.0)
  ret void
}
`;

function convert(text: string): Module {
  return convertToVersion7(parseAssembly(text));
}

describe('convertToVersion7', () => {
  it('maps integer types to signless ones and unifies what differs only in sign', () => {
    const m = convert('%a = global { int, uint } { int -1, uint 4294967295 }\n%b = global { uint, int } zeroinitializer\n');
    const [a, b] = m.globals;
    expect(a!.valueType).toBe(b!.valueType);
    const t = a!.valueType as { elements: Type[] };
    expect(t.elements).toEqual([integerType(32), integerType(32)]);
    // Constants keep their bits, read signed as LLVM 2.0 printed them.
    const init = a!.initializer as { elements: { value: bigint }[] };
    expect(init.elements.map((e) => e.value)).toEqual([-1n, -1n]);
    expect(m.dataLayout).toBe('');
  });

  it('moves the sign into comparisons, shifts, divisions and casts', () => {
    const m = convert(`
int %f(int %a, uint %b, float %x, ubyte %s) {
  %c1 = setlt int %a, 0
  %c2 = setlt uint %b, 0
  %c3 = setne float %x, 0.0
  %s1 = shr int %a, ubyte %s
  %s2 = shr uint %b, ubyte 3
  %d = div uint %b, 7
  %e = cast int %a to long
  %g = cast uint %b to long
  %h = cast int %a to bool
  %i = cast float %x to int
  ret int %a
}`);
    const insts = body(m);
    const byName = new Map(insts.map((i) => [i.name, i]));
    expect([byName.get('c1')!.opcode, byName.get('c1')!.predicate]).toEqual(['icmp', 'slt']);
    expect(byName.get('c2')!.predicate).toBe('ult');
    expect([byName.get('c3')!.opcode, byName.get('c3')!.predicate]).toEqual(['fcmp', 'une']);
    expect(byName.get('s1')!.opcode).toBe('ashr');
    // A variable shift amount is widened by an instruction named as llvm-upgrade named it.
    const widened = byName.get('s1')!.operands[1] as Instruction;
    expect([widened.opcode, widened.name, widened.type]).toEqual(['zext', 'shift.upgrd.1', integerType(32)]);
    expect(byName.get('s2')!.opcode).toBe('lshr');
    expect(byName.get('s2')!.operands[1]).toMatchObject({ kind: 'int', value: 3n, type: integerType(32) });
    expect(byName.get('d')!.opcode).toBe('udiv');
    expect(byName.get('e')!.opcode).toBe('sext');
    expect(byName.get('g')!.opcode).toBe('zext');
    expect([byName.get('h')!.opcode, byName.get('h')!.predicate]).toEqual(['icmp', 'ne']);
    expect(byName.get('i')!.opcode).toBe('fptosi');
  });

  it('renames values whose names collide once the type planes are gone', () => {
    const m = convert(`
void %f(int %x) {
  %y = add int %x, 1
  %y = add uint 2, 3
  ret void
}`);
    expect(
      body(m)
        .map((i) => i.name)
        .filter(Boolean),
    ).toEqual(['y', 'y.upgrd.1']);
  });

  it('rewrites calls of the intrinsics LLVM 2.0 changed, as upgradeIntrinsicCall did', () => {
    const m = convert(`declare bool %llvm.isunordered.f32(float, float)
declare uint %llvm.ctpop.i32(uint)
declare ushort %llvm.bswap.i16(ushort)
declare void %llvm.va_start(sbyte**)
int %f(float %a, uint %x, ushort %h, ...) {
  %ap = alloca sbyte*
  call void %llvm.va_start(sbyte** %ap)
  %c = call bool %llvm.isunordered.f32(float %a, float %a)
  %n = tail call uint %llvm.ctpop.i32(uint %x)
  %s = call ushort %llvm.bswap.i16(ushort %h)
  ret int 0
}
`);
    const f = m.functions.find((fn) => fn.name === 'f')!;
    const insts = f.blocks[0]!.instructions;
    // isunordered is an unordered comparison, named as the call was.
    const c = insts.find((i) => i.name === 'c')!;
    expect([c.opcode, c.predicate]).toEqual(['fcmp', 'uno']);
    // ctpop returns i32 now: the old declaration is moved aside, the call goes to a new one (not
    // tail any more) and a cast gives the type the text expected.
    expect(m.functions.map((fn) => fn.name)).toEqual([
      'llvm.isunordered.f32',
      'upgrd.rm.llvm.ctpop.i32',
      'llvm.bswap.i16',
      'llvm.va_start',
      'f',
      'llvm.ctpop.i32',
      'llvm.bswap.i16.i16',
    ]);
    const n = insts.find((i) => i.name === 'n')!;
    expect(n.opcode).toBe('bitcast');
    const call = n.operands[0] as Instruction;
    expect([call.opcode, call.isTailCall, (call.operands[0] as { name?: string }).name]).toEqual(['call', undefined, 'llvm.ctpop.i32']);
    // bswap.iN gets a name carrying the argument width.
    expect((insts.find((i) => i.name === 's')!.operands[0] as { name?: string }).name).toBe('llvm.bswap.i16.i16');
    // va_start takes an i8*: the argument goes through a bit cast named by makeNameUnique.
    const cast = insts.find((i) => i.name === 'va.upgrd.1')!;
    expect([cast.opcode, cast.type]).toEqual(['bitcast', { kind: 'pointer', element: integerType(8) }]);
    expect(m.functions[3]!.functionType.params).toEqual([cast.type]);
  });

  it('refuses what llvm-upgrade rewrote in ways not reproduced, naming it', () => {
    const text =
      'declare bool %llvm.isunordered.f32(float, float)\nbool %f(float %a) {\n  %c = invoke bool %llvm.isunordered.f32(float %a, float %a) to label %ok unwind label %ok\nok:\n  ret bool false\n}\n';
    expect(() => convert(text)).toThrow(ConversionError);
    expect(() => convert(text)).toThrow(/an invoke of llvm\.isunordered\.f32/);
  });

  it("first renames the unsuffixed 1.x intrinsics as LLVM 1.9's reader did, then rewrites them as llvm-upgrade did", () => {
    // Read as bytecode: 1.9's reader renamed them (its assembler did too, so 1.3 text keeps them).
    const m = convertToVersion7(readModule(writeModule(parseAssembly(OLD_INTRINSICS, { dialect: '1.3' }), { bytecodeVersion: 3 })));
    // The old declarations stay behind unnamed; the typed ones follow the function, those
    // llvm-upgrade declared anew while reading its body (ctpop, bswap) first.
    expect(m.functions.map((fn) => fn.name)).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
      'f',
      'llvm.ctpop.i32',
      'llvm.bswap.i16.i16',
      'llvm.memcpy.i32',
      'llvm.memmove.i64',
      'llvm.memset.i32',
      'llvm.isunordered.f64',
      'llvm.bswap.i16',
      'llvm.sqrt.f32',
    ]);
    const insts = body(m, 7);
    const callee = (i: Instruction): string | undefined => (i.operands[0] as { name?: string }).name;
    expect(insts.slice(0, 3).map(callee)).toEqual(['llvm.memcpy.i32', 'llvm.memmove.i64', 'llvm.memset.i32']);
    // isunordered became an unordered comparison; the renamed call's name took 1.9's suffix.
    const u = insts.find((i) => i.name === 'u1')!;
    expect([u.opcode, u.predicate]).toEqual(['fcmp', 'uno']);
    expect(callee(insts.find((i) => i.name === 's4')!)).toBe('llvm.sqrt.f32');
  });

  it("refuses the old debugger intrinsics that returned a chain, on which LLVM 1.9's reader failed", () => {
    const text = 'declare {}* %llvm.dbg.stoppoint({}*, uint, uint, {}*)\n';
    const m = parseAssembly(text, { dialect: '1.3' });
    expect(() => convertToVersion7(m)).toThrow(ConversionError);
    expect(() => convertToVersion7(m)).toThrow(/llvm\.dbg\.stoppoint of the old signature that returns a value.*LLVM 1\.9's reader failed/);
  });

  it('writes a converted module as version 7 that reads back', () => {
    const m = convert('%g = global int 5\nint %f(int %a) {\n  %b = mul int %a, 3\n  ret int %b\n}\n');
    const bytes = writeModule(m, { bytecodeVersion: 7 });
    const back = readModule(bytes);
    expect(back.source?.bytecodeVersion).toBe(7);
    expect(back.globals[0]!.valueType).toBe(integerType(32));
    expect(writeModule(back, { bytecodeVersion: 7 })).toEqual(bytes);
  });
});

const TOOLS = R36867.dir;
// r36867's llvm-as output depends on heap addresses: reproducible only with address randomisation
// off (setarch -R), which a container may not allow. Not a tool set of ours: an untagged skip.
const HAVE_SETARCH = spawnSync('setarch', ['x86_64', '-R', 'true']).status === 0;
if (!HAVE_SETARCH) console.warn('setarch -R unavailable: the comparison with r36867 llvm-as is skipped');

describe.skipIf(!HAVE_SETARCH)('against llvm-upgrade | llvm-as (r36867)', needs(R36867), () => {
  const cases: Record<string, string> = {
    arithmetic: 'int %f(int %a, uint %b) {\n  %c = setgt uint %b, 10\n  %d = select bool %c, int %a, int 7\n  %e = shl int %d, ubyte 2\n  ret int %e\n}\n',
    globals: '%s = internal constant [4 x sbyte] c"abc\\00"\n%p = global sbyte* getelementptr ([4 x sbyte]* %s, long 0, long 1)\n',
  };
  for (const [label, text] of Object.entries(cases)) {
    it(`gives llvm-as's bytes for the ${label} example`, () => {
      const dir = mkdtempSync(join(tmpdir(), 'to-v7-'));
      try {
        const up = spawnSync(join(TOOLS, 'llvm-upgrade'), ['-o', '-'], { input: text });
        expect(up.status).toBe(0);
        const as = spawnSync('setarch', ['x86_64', '-R', join(TOOLS, 'llvm-as'), '-o', 'ref.bc', '-f'], { input: up.stdout, cwd: dir });
        expect(as.status).toBe(0);
        const theirs = new Uint8Array(readFileSync(join(dir, 'ref.bc')));
        const ours = writeModule(convert(text), { bytecodeVersion: 7 });
        writeFileSync(join(dir, 'ours.bc'), ours);
        expect(Buffer.from(ours).equals(Buffer.from(theirs))).toBe(true);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });
  }
});

const LLVM19_TOOLS = LLVM19.dir;

describe.skipIf(!HAVE_SETARCH)('against llvm-dis-1.9 | llvm-upgrade | llvm-as (r36867)', needs(LLVM19, R36867), () => {
  it("prints, converted, as LLVM's path printed a version-3 file of every old intrinsic", () => {
    const dir = mkdtempSync(join(tmpdir(), 'to-v7-'));
    try {
      const v3 = writeModule(parseAssembly(OLD_INTRINSICS, { dialect: '1.3' }), { bytecodeVersion: 3 });
      writeFileSync(join(dir, 'old.bc'), v3);
      const dis = spawnSync(join(LLVM19_TOOLS, 'llvm-dis'), ['-f', '-o', '-', 'old.bc'], { cwd: dir });
      expect(dis.status).toBe(0);
      const up = spawnSync(join(TOOLS, 'llvm-upgrade'), ['-o', '-'], { input: dis.stdout });
      expect(up.status).toBe(0);
      const as = spawnSync('setarch', ['x86_64', '-R', join(TOOLS, 'llvm-as'), '-o', 'ref.bc', '-f'], { input: up.stdout, cwd: dir });
      expect(as.status).toBe(0);
      writeFileSync(join(dir, 'ours.bc'), writeModule(convertToVersion7(readModule(v3)), { bytecodeVersion: 7 }));
      // The symbol table's plane order may differ (heap addresses): the printed text is compared.
      const print = (file: string): string => {
        const r = spawnSync(join(TOOLS, 'llvm-dis'), ['-f', '-o', '-', file], { cwd: dir });
        expect(r.status).toBe(0);
        return r.stdout.toString('latin1').replace(/^; ModuleID = .*\n/, '');
      };
      const theirs = print('ref.bc');
      expect(theirs).toContain('fcmp uno double');
      expect(print('ours.bc')).toBe(theirs);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
