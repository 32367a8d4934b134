/**
 * Upgrading for a chosen LLVM (docs/upgrade.md, "LLVM versions"): what each release no longer
 * accepts as a constant expression is folded, computed by an instruction before its use, or, in a
 * global's initializer, refused naming the global and the construct. Checked on hand-made 1.x
 * modules with one of each removed expression, without LLVM; the same modules and a sample of
 * the corpus go through llvm-as-19/22 and opt-19/22 in llvm-versions-oracle.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { parseAssembly } from '../../src/asm/index.js';
import { foldModern, type Operand } from '../../src/modern/fold-modern.js';
import {
  acceptsConstantExpr,
  DEFAULT_LLVM,
  NEWEST_LLVM,
  printModern,
  removedConstantExprs,
  UnfoldableConstantError,
  UpgradeError,
} from '../../src/modern/index.js';
import { printModule, UnfoldableConstantError as PublicUnfoldableConstantError } from '../../src/index.js';
import { HAND_MADE, REFUSED_GLOBALS } from './llvm-versions-modules.js';

/** The constant-expression opcodes a text uses: `op (` or `icmp pred (`, outside instruction position. */
function constantExprOpcodes(text: string): Set<string> {
  const found = new Set<string>();
  for (const m of text.matchAll(/(?<![=%@\w.])(\w+)(?: \w+)? \(/g)) found.add(m[1]!);
  return found;
}

describe('the LLVM versions written for', () => {
  it('defaults to the newest supported, 22', () => {
    expect(DEFAULT_LLVM).toBe(22);
    expect(NEWEST_LLVM).toBe(22);
    expect(printModern(parseAssembly(HAND_MADE))).toContain('; Upgraded to LLVM 22 IR');
  });

  it("printModule's modern syntax takes the version too, and the package exports the refusal", () => {
    const m = parseAssembly(HAND_MADE);
    expect(printModule(m, { syntax: 'modern', llvm: 16 })).toBe(printModern(m, { llvm: 16 }));
    expect(printModule(m, { syntax: 'modern' })).toBe(printModern(m));
    expect(PublicUnfoldableConstantError).toBe(UnfoldableConstantError);
  });

  it('refuses a version outside 13 to 22, naming the range', () => {
    const m = parseAssembly(HAND_MADE);
    expect(() => printModern(m, { llvm: 12 })).toThrow(/LLVM 12 is not supported: choose a version from 13 to 22/);
    expect(() => printModern(m, { llvm: 23 })).toThrow(RangeError);
    expect(() => printModern(m, { llvm: 19.5 })).toThrow(RangeError);
  });

  it('knows which release removed which constant expression (measured with llvm-as-16, -19 and -22)', () => {
    expect(removedConstantExprs(16).sort()).toEqual(['fadd', 'fdiv', 'fmul', 'frem', 'fsub', 'sdiv', 'srem', 'udiv', 'urem']);
    for (const op of [
      'select',
      'and',
      'or',
      'lshr',
      'ashr',
      'zext',
      'sext',
      'fptrunc',
      'fpext',
      'fptoui',
      'fptosi',
      'uitofp',
      'sitofp',
      'icmp',
      'fcmp',
      'shl',
    ]) {
      expect([op, acceptsConstantExpr(16, op)]).toEqual([op, true]);
      expect([op, acceptsConstantExpr(19, op)]).toEqual([op, false]);
    }
    expect(acceptsConstantExpr(19, 'mul')).toBe(true);
    expect(acceptsConstantExpr(22, 'mul')).toBe(false);
    for (const op of ['add', 'sub', 'xor', 'trunc', 'ptrtoint', 'inttoptr', 'bitcast', 'getelementptr', 'extractelement', 'insertelement', 'shufflevector']) {
      expect([op, acceptsConstantExpr(22, op)]).toEqual([op, true]);
    }
  });
});

describe('expressions LLVM N no longer accepts', () => {
  const m = parseAssembly(HAND_MADE);

  it('LLVM 16 keeps them as constant expressions', () => {
    const text = printModern(m, { llvm: 16 });
    expect(text).toContain('call void @use(i64 sext (i32 ptrtoint (ptr @g to i32) to i64))');
    expect(text).toContain('call void @usei(i32 select (i1 icmp ult (ptr @g, ptr @h), i32 1, i32 2))');
  });

  for (const n of [17, 18, 19, 20, 21, 22]) {
    it(`LLVM ${n}: none is left as a constant expression`, () => {
      const text = printModern(m, { llvm: n });
      const left = [...constantExprOpcodes(text)].filter((op) => !acceptsConstantExpr(n, op));
      expect(left).toEqual([]);
    });
  }

  it('become instructions just before their use, inner ones first', () => {
    const text = printModern(m, { llvm: 22 });
    expect(text).toMatch(/ {2}(%up\.\d+) = sext i32 ptrtoint \(ptr @g to i32\) to i64\n {2}call void @use\(i64 \1\)\n/);
    expect(text).toMatch(/ {2}(%up\.\d+) = icmp ult ptr @g, @h\n {2}(%up\.\d+) = select i1 \1, i32 1, i32 2\n {2}call void @usei\(i32 \2\)\n/);
    expect(text).toMatch(/ {2}(%up\.\d+) = mul i64 ptrtoint \(ptr @g to i64\), 3\n/);
    // A getelementptr whose index became an instruction is an instruction too.
    expect(text).toMatch(
      /(%up\.\d+) = zext i32 ptrtoint \(ptr @h to i32\) to i64\n {2}(%up\.\d+) = getelementptr i32, ptr @g, i64 \1\n {2}(%up\.\d+) = ptrtoint ptr \2 to i64\n/,
    );
  });

  it("a phi entry's instructions go at the end of its incoming block", () => {
    const text = printModern(m, { llvm: 22 });
    expect(text).toMatch(/ {2}(%up\.\d+) = sext i32 ptrtoint \(ptr @g to i32\) to i64\n {2}br label %next\nnext:\n {2}%p = phi i64 \[ \1, %entry \]/);
  });

  it('LLVM 19 still takes mul; LLVM 22 does not', () => {
    expect(printModern(m, { llvm: 19 })).toContain('call void @use(i64 mul (i64 ptrtoint (ptr @g to i64), i64 3))');
    expect(printModern(m, { llvm: 22 })).not.toContain('mul (');
  });

  it('folds what numbers decide: the 64-bit extension of an integer cast to a pointer', () => {
    expect(printModern(m, { llvm: 16 })).toContain('@lit = global ptr inttoptr (i64 sext (i32 -12345678 to i64) to ptr)');
    expect(printModern(m, { llvm: 22 })).toContain('@lit = global ptr inttoptr (i64 -12345678 to ptr)');
  });

  for (const [name, construct] of REFUSED_GLOBALS) {
    it(`refuses ${name}'s initializer for LLVM 22, naming the global and the construct`, () => {
      const bad = parseAssembly(
        HAND_MADE.replace('%h = global int 1\n', `%h = global int 1\n${name.replace('@', '%')} = global ${construct.oldType} ${construct.old}\n`),
      );
      let caught: unknown;
      try {
        printModern(bad, { llvm: 22 });
      } catch (e) {
        caught = e;
      }
      expect(caught).toBeInstanceOf(UnfoldableConstantError);
      expect(caught).toBeInstanceOf(UpgradeError);
      const e = caught as UnfoldableConstantError;
      expect({ global: e.global, construct: e.construct, llvm: e.llvm }).toEqual({ global: name, construct: construct.modern, llvm: 22 });
      expect(e.message).toContain(`${name}: its initializer holds '${construct.modern}', a constant expression LLVM 22 no longer accepts`);
      // LLVM 16 still takes it.
      expect(printModern(bad, { llvm: 16 })).toContain(`${name} = global ${construct.modernType} ${construct.modern}`);
    });
  }
});

describe('folding in modern semantics', () => {
  const i = (bits: number, v: bigint): Operand => ({ type: `i${bits}`, value: String(v), lit: { kind: 'int', bits, value: BigInt.asUintN(bits, v) } });
  const d = (v: number): Operand => ({ type: 'double', value: String(v), lit: { kind: 'fp', double: true, value: v } });
  const fold = (op: string, ops: Operand[], type: string, pred?: string): string | undefined => foldModern(op, pred, ops, type)?.value;

  it('extends and truncates integers by their bits', () => {
    expect(fold('sext', [i(8, -1n)], 'i32')).toBe('-1');
    expect(fold('zext', [i(8, -1n)], 'i32')).toBe('255');
    expect(fold('trunc', [i(32, 0x1ffn)], 'i8')).toBe('-1');
    expect(fold('zext', [i(1, 1n)], 'i64')).toBe('1');
  });
  it('wraps arithmetic; a shift by the width or more is poison', () => {
    expect(fold('mul', [i(8, 100n), i(8, 3n)], 'i8')).toBe('44');
    expect(fold('shl', [i(32, 1n), i(32, 31n)], 'i32')).toBe('-2147483648');
    expect(fold('shl', [i(32, 1n), i(32, 32n)], 'i32')).toBe('poison');
    expect(fold('ashr', [i(32, -8n), i(32, 1n)], 'i32')).toBe('-4');
    expect(fold('lshr', [i(32, -8n), i(32, 28n)], 'i32')).toBe('15');
    expect(fold('and', [i(16, 0xff0n), i(16, 0x0ffn)], 'i16')).toBe('240');
  });
  it('divides as LLVM does: by zero, and INT_MIN by -1, is poison', () => {
    expect(fold('sdiv', [i(32, -7n), i(32, 2n)], 'i32')).toBe('-3');
    expect(fold('udiv', [i(32, -7n), i(32, 2n)], 'i32')).toBe('2147483644');
    expect(fold('srem', [i(32, 1n), i(32, 0n)], 'i32')).toBe('poison');
    expect(fold('sdiv', [i(32, -(1n << 31n)), i(32, -1n)], 'i32')).toBe('poison');
  });
  it('compares by predicate', () => {
    expect(fold('icmp', [i(32, -1n), i(32, 1n)], 'i1', 'slt')).toBe('true');
    expect(fold('icmp', [i(32, -1n), i(32, 1n)], 'i1', 'ult')).toBe('false');
    expect(fold('fcmp', [d(NaN), d(1)], 'i1', 'une')).toBe('true');
    expect(fold('fcmp', [d(NaN), d(1)], 'i1', 'olt')).toBe('false');
  });
  it('converts between integers and floating point, poison out of range', () => {
    expect(fold('sitofp', [i(32, -3n)], 'double')).toBe('-3.0');
    expect(fold('uitofp', [i(32, -1n)], 'float')).toBe('4294967296.0');
    expect(fold('fptosi', [d(-2.9)], 'i8')).toBe('-2');
    expect(fold('fptoui', [d(-1)], 'i8')).toBe('poison');
    expect(fold('fptrunc', [d(0.1)], 'float')).toBe('0.10000000149011612');
  });
  it('selects by a known condition whatever the other operands are', () => {
    expect(fold('select', [i(1, 1n), { type: 'ptr', value: '@a' }, { type: 'ptr', value: '@b' }], 'ptr')).toBe('@a');
    expect(fold('select', [{ type: 'i1', value: 'icmp' }, i(8, 1n), i(8, 2n)], 'i8')).toBeUndefined();
  });
  it('leaves addresses alone', () => {
    expect(fold('sext', [{ type: 'i32', value: 'ptrtoint (ptr @g to i32)' }], 'i64')).toBeUndefined();
  });
});
