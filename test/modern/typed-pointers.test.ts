/**
 * Upgrading for LLVM 13 and 14 (docs/upgrade.md, "Typed pointers"): those releases know no opaque
 * `ptr` in bitcode (13 refuses it, 14 needs `-opaque-pointers`), so the text and the bitcode carry
 * the pointee types the 1.x module had: `i32*`, `%T*`, `void (i32)*`, with the bitcasts typed IR
 * needs. From LLVM 15 on the output is unchanged (opaque). Checked without LLVM; the oracles are
 * in typed-pointers-oracle.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { parseAssembly } from '../../src/asm/index.js';
import { parseModernIr } from '../../src/modern/bitcode/index.js';
import { LAST_TYPED_POINTERS, OLDEST_LLVM } from '../../src/modern/llvm-versions.js';
import { printModern, UpgradeError, writeModern } from '../../src/modern/index.js';

const MODULE = `
%list = type { int, %list* }
%g = global int 5
%msg = internal constant [3 x sbyte] c"hi\\00"
%head = global %list* null
%fp = global void (int)* %sink
declare int %printf(sbyte*, ...)
void %sink(int %x) {
  ret void
}
int %main() {
entry:
  %n = malloc %list
  %f = getelementptr %list* %n, uint 0, uint 0
  store int 7, int* %f
  %b = cast %list* %n to sbyte*
  %s = getelementptr [3 x sbyte]* %msg, long 0, long 0
  %r = call int (sbyte*, ...)* %printf(sbyte* %s)
  %fn = load void (int)** %fp
  call void %fn(int %r)
  free %list* %n
  ret int 0
}
`;

const typedText = (llvm = 13): string => printModern(parseAssembly(MODULE), { llvm });

describe('typed pointers for LLVM 13 and 14', () => {
  it('supports LLVM 13 and 14, the last releases written with typed pointers', () => {
    expect(OLDEST_LLVM).toBe(13);
    expect(LAST_TYPED_POINTERS).toBe(14);
    expect(typedText(13)).toContain('; Upgraded to LLVM 13 IR');
  });

  it('spells every pointer with its pointee: globals, struct fields, function pointers', () => {
    const text = typedText();
    expect(text).toContain('%list = type { i32, %list* }');
    expect(text).toContain('@head = global %list* null');
    expect(text).toContain('@fp = global void (i32)* @sink');
    expect(text).toContain('declare i32 @printf(i8*, ...)');
    expect(text).not.toMatch(/\bptr\b/);
  });

  it('writes getelementptr with typed base pointers, loads and stores through them', () => {
    const text = typedText();
    expect(text).toContain('%f = getelementptr %list, %list* %n, i64 0, i32 0');
    expect(text).toContain('store i32 7, i32* %f');
    expect(text).toContain('%s = getelementptr [3 x i8], [3 x i8]* @msg, i64 0, i64 0');
    expect(text).toContain('%fn = load void (i32)*, void (i32)** @fp');
  });

  it('keeps a 1.x cast between pointer types as a bitcast, and calls through typed function pointers', () => {
    const text = typedText();
    expect(text).toContain('%b = bitcast %list* %n to i8*');
    expect(text).toContain('%r = call i32 (i8*, ...) @printf(i8* %s)');
    expect(text).toContain('call void %fn(i32 %r)');
  });

  it("lowers malloc to malloc's i8* and a bitcast to the 1.x result's type, free through an i8* cast", () => {
    const text = typedText();
    expect(text).toMatch(
      /(%malloc[.\d]*) = call i8\* @malloc\(i64 ptrtoint \(%list\* getelementptr \(%list, %list\* null, i32 1\) to i64\)\)\n {2}%n = bitcast i8\* \1 to %list\*/,
    );
    expect(text).toMatch(/(%up[.\d]*) = bitcast %list\* %n to i8\*\n {2}call void @free\(i8\* \1\)/);
    expect(text).toContain('declare i8* @malloc(i64)');
  });

  it('casts a constant between pointer types with a bitcast expression', () => {
    const text = printModern(parseAssembly('%g = global int 0\n%p = global sbyte* cast (int* %g to sbyte*)\n'), { llvm: 13 });
    expect(text).toContain('@p = global i8* bitcast (i32* @g to i8*)');
    expect(printModern(parseAssembly('%g = global int 0\n%p = global sbyte* cast (int* %g to sbyte*)\n'), { llvm: 15 })).toContain('@p = global ptr @g');
  });

  it("spells intrinsics as LLVM 13 and 14 declared them (memcpy's p0i8 overloads)", () => {
    const m = parseAssembly(`
declare void %llvm.memcpy(sbyte*, sbyte*, uint, uint)
void %copy(sbyte* %d, sbyte* %s) {
  call void %llvm.memcpy(sbyte* %d, sbyte* %s, uint 8, uint 4)
  ret void
}
`);
    const text = printModern(m, { llvm: 13 });
    expect(text).toContain('call void @llvm.memcpy.p0i8.p0i8.i32(i8* align 4 %d, i8* align 4 %s, i32 8, i1 false)');
    expect(text).toContain('declare void @llvm.memcpy.p0i8.p0i8.i32(i8*, i8*, i32, i1)');
    expect(printModern(m, { llvm: 15 })).toContain('@llvm.memcpy.p0.p0.i32(ptr align 4 %d');
  });

  it('names an unnamed struct that a typed pointer makes recursive, and refuses a pointer cycle with no struct', () => {
    // 1.x's up-references: a struct holding a pointer to itself, and a pointer to itself.
    const viaStruct = printModern(parseAssembly('%g = global { int, \\2* }* null\n'), { llvm: 13 });
    expect(viaStruct).toContain('%struct.0 = type { i32, %struct.0* }');
    expect(viaStruct).toContain('@g = global %struct.0* null');
    const bare = parseAssembly('%t = type \\1*\n%g = global %t null\n');
    expect(() => printModern(bare, { llvm: 13 })).toThrow(UpgradeError);
    expect(() => printModern(bare, { llvm: 13 })).toThrow(/refers to itself through pointers with no structure on the way.*LLVM 15 or later/);
    expect(printModern(bare, { llvm: 15 })).toContain('@g = global ptr null');
  });

  it('keeps to the constant expressions LLVM 22 still reads, so that every release from 13 to 22 reads the bitcode', () => {
    // LLVM 19 on refuse to read a removed expression (sext, since 18) in a global's initializer.
    const m = parseAssembly('%g = global long cast (int -5 to long)\n%h = global int 0\n%p = global long cast (int cast (int* %h to int) to long)\n');
    expect(() => printModern(m, { llvm: 13 })).toThrow(/@p: its initializer holds 'sext \(i32 ptrtoint \(i32\* @h to i32\) to i64\)'/);
    const folded = printModern(parseAssembly('%g = global long cast (int -5 to long)\n'), { llvm: 13 });
    expect(folded).toContain('@g = global i64 -5');
  });

  it('leaves the output for LLVM 15 on opaque, as before', () => {
    const text = printModern(parseAssembly(MODULE), { llvm: 15 });
    expect(text).toContain('%list = type { i32, ptr }');
    expect(text).toContain('%n = call ptr @malloc(');
    expect(text).not.toMatch(/\w\*/);
  });
});

describe('typed-pointer bitcode', () => {
  it('reads typed pointers back only where the text is written for LLVM 13 or 14', () => {
    const text = typedText();
    const m = parseModernIr(text, { typedPointers: true });
    expect(m.globals.find((g) => g.name === 'n:head')!.valueType).toMatchObject({ kind: 'pointer', element: { kind: 'named', name: 'n:list' } });
    expect(() => parseModernIr(text)).toThrow(/typed pointers are not part of the IR for LLVM 15 on/);
  });

  it('gives a constant callee (null, a global) the type of a pointer to the function type called', () => {
    const m = parseModernIr('declare void @f(i8*)\ndefine void @g() {\n  call void null(i8* null)\n  call void @f(i8* null)\n  ret void\n}\n', {
      typedPointers: true,
    });
    const [viaNull, viaGlobal] = m.functions[1]!.blocks![0]!.instructions;
    for (const call of [viaNull!, viaGlobal!]) {
      const callee = call.operands[0]!;
      expect(callee.type).toMatchObject({ kind: 'pointer', element: { kind: 'function' } });
      expect(callee.value.kind === 'const' && callee.value.constant.type).toBe(callee.type);
    }
  });

  it('bounds the nesting of pointers as of other types', () => {
    expect(() => parseModernIr(`@g = external global i8${'*'.repeat(600)}\n`, { typedPointers: true })).toThrow(/nested deeper than 512/);
  });

  it('writes TYPE_CODE_POINTER [pointee, address space 0] records and no opaque pointer type', () => {
    const types = typeRecords(writeModern(parseAssembly(MODULE), { llvm: 13 }));
    expect(types.filter(([code]) => code === 25)).toEqual([]); // no OPAQUE_POINTER
    const pointers = types.filter(([code]) => code === 8);
    expect(pointers.length).toBeGreaterThan(4);
    // One record a type: a pointer to a named struct whose body points back is numbered once.
    expect(new Set(pointers.map(([, ops]) => ops.join(','))).size).toBe(pointers.length);
    for (const [, ops] of pointers) {
      expect(ops.length).toBe(2);
      expect(ops[1]).toBe(0);
      expect(ops[0]).toBeLessThan(types.length - 1); // a type of the table (a forward one only for a named struct)
    }
    // The opaque output keeps its one OPAQUE_POINTER record and no typed ones.
    const opaque = typeRecords(writeModern(parseAssembly(MODULE), { llvm: 15 }));
    expect(opaque.filter(([code]) => code === 8)).toEqual([]);
    expect(opaque.filter(([code]) => code === 25)).toEqual([[25, [0]]]);
  });
});

/**
 * The records of the first TYPE_BLOCK (id 17) in unabbreviated form: [code, operands]. Our writer
 * defines no abbreviations there (DEFINE_ABBREV would fail the walk: the test then says so).
 */
function typeRecords(bc: Uint8Array): [number, number[]][] {
  let bit = 32;
  const read = (n: number): number => {
    let v = 0;
    for (let i = 0; i < n; i++, bit++) v |= ((bc[bit >> 3]! >> (bit & 7)) & 1) << i;
    return v >>> 0;
  };
  const vbr = (n: number): number => {
    let v = 0;
    let shift = 0;
    for (;;) {
      const chunk = read(n);
      v += (chunk & ((1 << (n - 1)) - 1)) * 2 ** shift;
      shift += n - 1;
      if (!(chunk & (1 << (n - 1)))) return v;
    }
  };
  const skipBlock = (): void => {
    vbr(4);
    bit = (bit + 31) & ~31;
    const words = read(32);
    bit += words * 32;
  };
  // Top level: abbrev width 2. IDENTIFICATION (13) skipped, then MODULE (8) entered.
  expect(read(2)).toBe(1);
  expect(vbr(8)).toBe(13);
  skipBlock();
  expect(read(2)).toBe(1);
  expect(vbr(8)).toBe(8);
  const moduleWidth = vbr(4);
  bit = (bit + 31) & ~31;
  read(32);
  for (;;) {
    const id = read(moduleWidth);
    if (id === 1) {
      const block = vbr(8);
      if (block !== 17) {
        skipBlock();
        continue;
      }
      const width = vbr(4);
      bit = (bit + 31) & ~31;
      read(32);
      const out: [number, number[]][] = [];
      for (;;) {
        const a = read(width);
        if (a === 0) return out; // END_BLOCK
        expect(a, 'an unabbreviated record').toBe(3);
        const code = vbr(6);
        const n = vbr(6);
        const ops: number[] = [];
        for (let i = 0; i < n; i++) ops.push(vbr(6));
        out.push([code, ops]);
      }
    }
    expect(id, 'an unabbreviated record in the module block').toBe(3);
    vbr(6);
    const n = vbr(6);
    for (let i = 0; i < n; i++) vbr(6);
  }
}
