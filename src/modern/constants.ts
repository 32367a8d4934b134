/**
 * Constants in modern syntax. Most map one to one; constant expressions get the same
 * type-directed opcode choices as instructions (casts, comparisons, shifts). Where LLVM 16 has
 * no constant-expression form (`udiv`, `fadd`, …), the expression is folded when its operands
 * are plain numbers, or computed by an instruction just before its use (inside a function body,
 * through a `Sink`); only an unfoldable one in a global initializer is an error.
 */
import type { Type } from '../graph/type.js';
import { isCastOpcode, type Constant, type ConstantExpr, type ConstantFP, type GlobalAlias, type GlobalValue } from '../graph/value.js';
import { planCast } from './casts.js';
import { escapeString } from './names.js';
import { binaryOpcode, comparison, isComparison, NO_CONSTANT_EXPR, UpgradeError } from './ops.js';
import { intBits, isSignedInt, type TypePrinter } from './types.js';

/** Where a function body lets a constant put the instructions it needs. */
export interface Sink {
  /** Adds an instruction line before the instruction being printed. */
  emit(line: string): void;
  /** A fresh local name (with `%`). */
  temp(): string;
}

/** The zero of a scalar type, as the right-hand side of a `!= 0` comparison. */
export function zeroOf(t: Type): string {
  if (t.kind === 'pointer') return 'null';
  if (t.kind === 'float' || t.kind === 'double') return '0.0';
  if (t.kind === 'bool') return 'false';
  if (t.kind === 'packed') return 'zeroinitializer';
  return '0';
}

/** Reinterprets the bits of a float as the double with the same value (NaN payloads kept). */
function floatBitsAsDouble(bits: bigint): bigint {
  const sign = (bits >> 31n) & 1n;
  const exp = (bits >> 23n) & 0xffn;
  const mant = bits & 0x7fffffn;
  if (exp === 0xffn) return (sign << 63n) | (0x7ffn << 52n) | (mant << 29n);
  const dv = new DataView(new ArrayBuffer(8));
  dv.setUint32(0, Number(bits));
  const f = dv.getFloat32(0);
  dv.setFloat64(0, f);
  return dv.getBigUint64(0);
}

/** Decimal when it reads back exactly (always, for finite values), hex for NaN and infinities. */
export function fpString(c: ConstantFP): string {
  const dv = new DataView(new ArrayBuffer(8));
  let value: number;
  let bits64: bigint;
  if (c.type.kind === 'float') {
    dv.setUint32(0, Number(c.bits & 0xffffffffn));
    value = dv.getFloat32(0);
    bits64 = floatBitsAsDouble(c.bits & 0xffffffffn);
  } else {
    dv.setBigUint64(0, c.bits & 0xffffffffffffffffn);
    value = dv.getFloat64(0);
    bits64 = c.bits & 0xffffffffffffffffn;
  }
  if (Number.isFinite(value)) {
    if (Object.is(value, -0)) return '-0.0';
    // JavaScript's shortest round-trip form, given the `.` that LLVM's lexer needs.
    const s = String(value);
    if (s.includes('.')) return s;
    return s.includes('e') ? s.replace('e', '.0e') : s + '.0';
  }
  return '0x' + bits64.toString(16).toUpperCase().padStart(16, '0');
}

function normalizeInt(v: bigint, t: Type): bigint {
  const bits = intBits(t);
  if (bits === 0) return v;
  return isSignedInt(t) ? BigInt.asIntN(bits, v) : BigInt.asUintN(bits, v);
}

export class ConstPrinter {
  constructor(
    private readonly types: TypePrinter,
    private readonly globalRef: (g: GlobalValue | GlobalAlias) => string,
  ) {}

  typed(c: Constant, sink?: Sink): string {
    return `${this.types.str(c.type)} ${this.value(c, sink)}`;
  }

  value(c: Constant, sink?: Sink): string {
    switch (c.kind) {
      case 'bool':
        return c.value ? 'true' : 'false';
      case 'int':
        if (c.type.kind === 'bool') return c.value !== 0n ? 'true' : 'false';
        return c.value.toString();
      case 'fp':
        return fpString(c);
      case 'null':
        return 'null';
      case 'zeroinitializer':
        return 'zeroinitializer';
      case 'undef':
        return 'undef';
      case 'array': {
        const el = c.type.kind === 'array' ? c.type.element : undefined;
        const bytes = el !== undefined && (el.kind === 'sbyte' || el.kind === 'ubyte' || (el.kind === 'integer' && el.bits === 8));
        if (bytes && c.elements.every((e) => e.kind === 'int')) {
          let s = '';
          for (const e of c.elements) s += escapeString(String.fromCharCode(Number(BigInt.asUintN(8, (e as { value: bigint }).value))));
          return `c"${s}"`;
        }
        return `[${c.elements.map((e) => this.typed(e, sink)).join(', ')}]`;
      }
      case 'struct':
        return c.elements.length === 0 ? '{}' : `{ ${c.elements.map((e) => this.typed(e, sink)).join(', ')} }`;
      case 'packed':
        return `<${c.elements.map((e) => this.typed(e, sink)).join(', ')}>`;
      case 'expr':
        return this.expr(c, sink);
      case 'inlineasm':
        throw new UpgradeError('inline asm used as a value (not as a callee) has no modern form');
      case 'global':
      case 'function':
        return this.globalRef(c);
      case 'alias':
        return this.globalRef(c);
    }
  }

  /** Index list of a getelementptr walking `sourceElement` (see `gepIndex`). */
  gepIndices(sourceElement: Type, indices: Constant[], sink?: Sink): string[] {
    const out: string[] = [];
    let cur: Type | undefined = sourceElement;
    indices.forEach((idx, i) => {
      if (i > 0 && cur?.kind === 'struct') {
        const field = idx.kind === 'int' ? Number(idx.value) : 0;
        out.push(`i32 ${field}`);
        cur = cur.elements[field];
        return;
      }
      out.push(this.seqIndex(idx, sink));
      if (i > 0) cur = cur && (cur.kind === 'array' || cur.kind === 'packed') ? cur.element : undefined;
    });
    return out;
  }

  /**
   * A sequential index. Modern GEP sign-extends indices narrower than the pointer, 1.x read
   * unsigned index types as unsigned: those become i64 (value kept) so large ones stay large.
   */
  private seqIndex(idx: Constant, sink?: Sink): string {
    // Version 7's indices are signless and LLVM 2.0 sign-extended them, as LLVM 16 does.
    if (idx.type.kind === 'integer') return this.typed(idx, sink);
    const bits = intBits(idx.type);
    if (bits === 64 || isSignedInt(idx.type) || bits === 0) return this.typed(idx, sink);
    if (idx.kind === 'int') return `i64 ${BigInt.asUintN(bits, idx.value)}`;
    if (idx.kind === 'bool') return `i64 ${idx.value ? 1 : 0}`;
    return `i64 zext (${this.typed(idx, sink)} to i64)`;
  }

  private expr(e: ConstantExpr, sink?: Sink): string {
    const ops = e.operands;
    const op = e.opcode;
    if (op === 'cast') return this.cast(ops[0]!, e.type, sink);
    // Version 7's own opcodes are LLVM 16's.
    if (isCastOpcode(op)) return `${op} (${this.typed(ops[0]!, sink)} to ${this.types.str(e.type)})`;
    if (op === 'icmp' || op === 'fcmp') return `${op} ${e.predicate} (${this.typed(ops[0]!, sink)}, ${this.typed(ops[1]!, sink)})`;
    if (op === 'getelementptr') {
      const base = ops[0]!;
      const src = base.type.kind === 'pointer' ? base.type.element : base.type;
      const parts = [this.types.str(src), this.typed(base, sink), ...this.gepIndices(src, ops.slice(1), sink)];
      return `getelementptr (${parts.join(', ')})`;
    }
    if (isComparison(op)) {
      const { inst, pred } = comparison(op, ops[0]!.type);
      return `${inst} ${pred} (${this.typed(ops[0]!, sink)}, ${this.typed(ops[1]!, sink)})`;
    }
    if (op === 'select') return `select (${ops.map((o) => this.typed(o, sink)).join(', ')})`;
    if (op === 'extractelement' || op === 'insertelement' || op === 'shufflevector') {
      return `${op} (${ops.map((o) => this.typed(o, sink)).join(', ')})`;
    }
    if (op === 'shl' || op === 'shr') {
      const mop = binaryOpcode(op, ops[0]!.type);
      return `${mop} (${this.typed(ops[0]!, sink)}, ${this.shiftAmount(ops[1]!, ops[0]!.type, sink)})`;
    }
    const mop = binaryOpcode(op, ops[0]!.type);
    if (!NO_CONSTANT_EXPR.has(mop)) return `${mop} (${this.typed(ops[0]!, sink)}, ${this.typed(ops[1]!, sink)})`;
    const folded = this.fold(mop, e);
    if (folded !== undefined) return folded;
    if (!sink) throw new UpgradeError(`a constant '${mop}' expression over non-literal operands has no LLVM 16 form outside a function`);
    const tmp = sink.temp();
    sink.emit(`${tmp} = ${mop} ${this.types.str(e.type)} ${this.value(ops[0]!, sink)}, ${this.value(ops[1]!, sink)}`);
    return tmp;
  }

  /** 1.x shift amounts are ubyte; modern ones have the shifted value's type. */
  shiftAmount(amount: Constant, valueType: Type, sink?: Sink): string {
    const ty = this.types.str(valueType);
    if (amount.kind === 'int') return `${ty} ${amount.value}`;
    const from = intBits(amount.type);
    const to = intBits(valueType);
    if (from === to) return `${ty} ${this.value(amount, sink)}`;
    return `${ty} ${from < to ? 'zext' : 'trunc'} (${this.typed(amount, sink)} to ${ty})`;
  }

  private cast(v: Constant, to: Type, sink?: Sink): string {
    const plan = planCast(v.type, to);
    if (plan.kind === 'noop') return this.value(v, sink);
    if (plan.kind === 'nonzero') {
      const ty = this.types.str(v.type);
      return `${plan.fp ? 'fcmp une' : 'icmp ne'} (${ty} ${this.value(v, sink)}, ${ty} ${zeroOf(v.type)})`;
    }
    let cur = this.typed(v, sink);
    let last = '';
    for (const step of plan.steps) {
      const toStr = step.to === 'i64' ? 'i64' : this.types.str(step.to);
      last = `${step.op} (${cur} to ${toStr})`;
      cur = `${toStr} ${last}`;
    }
    return last;
  }

  /** Folds an arithmetic expression whose operands are plain numbers; undefined if it cannot. */
  private fold(mop: string, e: ConstantExpr): string | undefined {
    const [a, b] = e.operands;
    // Version 7's i1 constants are bools; their bits are read like any integer's.
    const bitsOf = (c: Constant | undefined): bigint | undefined => (c?.kind === 'int' ? c.value : c?.kind === 'bool' ? (c.value ? 1n : 0n) : undefined);
    const ra = bitsOf(a);
    const rb = bitsOf(b);
    if (ra !== undefined && rb !== undefined) {
      const width = intBits(a!.type);
      const signed = mop.startsWith('s');
      const x = signed ? BigInt.asIntN(width, ra) : BigInt.asUintN(width, ra);
      const y = signed ? BigInt.asIntN(width, rb) : BigInt.asUintN(width, rb);
      if (y === 0n) return 'poison';
      // The one signed quotient that overflows (INT_MIN / -1) is poison in LLVM 16 too.
      if (signed && mop.endsWith('div') && y === -1n && x === -(1n << BigInt(width - 1))) return 'poison';
      const r = normalizeInt(mop.endsWith('div') ? x / y : x % y, e.type);
      if (e.type.kind === 'integer' && e.type.bits === 1) return r === 0n ? 'false' : 'true';
      return r.toString();
    }
    if (a?.kind === 'fp' && b?.kind === 'fp') {
      const x = a.value;
      const y = b.value;
      let r: number;
      switch (mop) {
        case 'fadd': r = x + y; break;
        case 'fsub': r = x - y; break;
        case 'fmul': r = x * y; break;
        case 'fdiv': r = x / y; break;
        default: r = x % y;
      }
      if (e.type.kind === 'float') r = Math.fround(r);
      const dv = new DataView(new ArrayBuffer(8));
      let bits: bigint;
      if (e.type.kind === 'float') {
        dv.setFloat32(0, r);
        bits = BigInt(dv.getUint32(0));
      } else {
        dv.setFloat64(0, r);
        bits = dv.getBigUint64(0);
      }
      return fpString({ kind: 'fp', type: e.type, value: r, bits });
    }
    return undefined;
  }
}
