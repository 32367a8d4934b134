/**
 * Constants in modern syntax. Most map one to one; constant expressions get the same
 * type-directed opcode choices as instructions (casts, comparisons, shifts). Where the LLVM
 * written for has no constant-expression form of the opcode (`udiv` and `fadd` since LLVM 15,
 * `sext` since 18, `icmp` since 19, `mul` since 21: llvm-versions.ts), the expression is folded
 * when its operands are plain numbers (fold-modern.ts), or computed by an instruction just before
 * its use (inside a function body, through a `Sink`; an expression with such an operand becomes
 * an instruction too); only an unfoldable one where no instruction can go (a global initializer)
 * is refused, with `UnfoldableConstantError`.
 */
import { isInteger, type Type } from '../graph/type.js';
import { isCastOpcode, type Constant, type ConstantExpr, type ConstantFP, type GlobalAlias, type GlobalValue } from '../graph/value.js';
import { planCast } from './casts.js';
import { escapeString } from './names.js';
import { acceptsConstantExpr, DEFAULT_LLVM, type LlvmVersion } from './llvm-versions.js';
import { binaryOpcode, comparison, isComparison, UpgradeError } from './ops.js';
import { foldModern, type Lit, type Operand } from './fold-modern.js';
import { UnfoldableConstantError } from './upgrade-error.js';
import { intBits, type TypePrinter } from './types.js';
import { nextIndexed, planIndex, structField } from './gep.js';

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

/** How an expression is spelled: operator and operands, as a constant expression or as an instruction. */
type Form = { kind: 'binary' } | { kind: 'cast'; to: string } | { kind: 'cmp'; pred: string } | { kind: 'list'; head?: string };

const typedText = (o: Operand): string => `${o.type} ${o.value}`;

function constantExprText(op: string, form: Form, ops: readonly Operand[]): string {
  switch (form.kind) {
    case 'binary':
      return `${op} (${typedText(ops[0]!)}, ${typedText(ops[1]!)})`;
    case 'cast':
      return `${op} (${typedText(ops[0]!)} to ${form.to})`;
    case 'cmp':
      return `${op} ${form.pred} (${typedText(ops[0]!)}, ${typedText(ops[1]!)})`;
    case 'list':
      return `${op} (${[...(form.head === undefined ? [] : [form.head]), ...ops.map(typedText)].join(', ')})`;
  }
}

function instructionText(op: string, form: Form, ops: readonly Operand[]): string {
  switch (form.kind) {
    case 'binary':
      return `${op} ${typedText(ops[0]!)}, ${ops[1]!.value}`;
    case 'cast':
      return `${op} ${typedText(ops[0]!)} to ${form.to}`;
    case 'cmp':
      return `${op} ${form.pred} ${typedText(ops[0]!)}, ${ops[1]!.value}`;
    case 'list':
      return `${op} ${[...(form.head === undefined ? [] : [form.head]), ...ops.map(typedText)].join(', ')}`;
  }
}

export class ConstPrinter {
  constructor(
    private readonly types: TypePrinter,
    private readonly globalRef: (g: GlobalValue | GlobalAlias) => string,
    /** The LLVM release written for: which constant expressions it still accepts. */
    readonly llvm: LlvmVersion = DEFAULT_LLVM,
  ) {}

  typed(c: Constant, sink?: Sink): string {
    return typedText(this.operand(c, sink));
  }

  value(c: Constant, sink?: Sink): string {
    // An integer (the commonest operand) spelled once per constant: its decimal digits.
    if (c.kind === 'int' && (c.type.kind === 'integer' || isInteger(c.type))) {
      let text = this.integers.get(c);
      if (text === undefined) this.integers.set(c, (text = c.value.toString()));
      return text;
    }
    return this.operand(c, sink).value;
  }

  /** `value`'s text of each integer constant met (the module's constants are shared by every use). */
  private readonly integers = new Map<Constant, string>();

  /** A constant as an operand: spelled, with its number when it is one, marked when an instruction computes it. */
  operand(c: Constant, sink?: Sink): Operand {
    const type = this.types.str(c.type);
    switch (c.kind) {
      case 'bool':
        return { type, value: c.value ? 'true' : 'false', lit: { kind: 'int', bits: 1, value: c.value ? 1n : 0n } };
      case 'int': {
        const bits = c.type.kind === 'bool' ? 1 : intBits(c.type);
        const lit: Lit | undefined = bits > 0 ? { kind: 'int', bits, value: BigInt.asUintN(bits, c.value) } : undefined;
        const value = c.type.kind === 'bool' ? (c.value !== 0n ? 'true' : 'false') : c.value.toString();
        return lit ? { type, value, lit } : { type, value };
      }
      case 'fp':
        return { type, value: fpString(c), lit: { kind: 'fp', double: c.type.kind === 'double', value: c.value } };
      case 'null':
        return { type, value: 'null' };
      case 'zeroinitializer':
        return { type, value: 'zeroinitializer' };
      case 'undef':
        return { type, value: 'undef' };
      case 'array': {
        const el = c.type.kind === 'array' ? c.type.element : undefined;
        const bytes = el !== undefined && (el.kind === 'sbyte' || el.kind === 'ubyte' || (el.kind === 'integer' && el.bits === 8));
        if (bytes && c.elements.every((e) => e.kind === 'int')) {
          let s = '';
          for (const e of c.elements) s += escapeString(String.fromCharCode(Number(BigInt.asUintN(8, (e as { value: bigint }).value))));
          return { type, value: `c"${s}"` };
        }
        return { type, value: `[${this.elements(c.elements, sink)}]` };
      }
      case 'struct':
        return { type, value: c.elements.length === 0 ? '{}' : `{ ${this.elements(c.elements, sink)} }` };
      case 'packed':
        return { type, value: `<${this.elements(c.elements, sink)}>` };
      case 'expr':
        return this.expr(c, sink);
      case 'inlineasm':
        throw new UpgradeError('inline asm used as a value (not as a callee) has no modern form');
      case 'global':
      case 'function':
      case 'alias':
        return { type, value: this.globalRef(c) };
    }
  }

  /** The elements of an aggregate constant, which must stay constants. */
  private elements(elements: readonly Constant[], sink?: Sink): string {
    return elements
      .map((e) => {
        const o = this.operand(e, sink);
        if (o.local)
          throw new UpgradeError(`an aggregate constant holds an expression LLVM ${this.llvm} computes only as an instruction; upgrade for an older LLVM`);
        return typedText(o);
      })
      .join(', ');
  }

  /**
   * The expression `op` over `ops`: as a constant expression when LLVM accepts it, else folded
   * when its value is known, else an instruction before the current one (there must be one).
   */
  private build(op: string, form: Form, ops: Operand[], type: string, sink?: Sink): Operand {
    const mustBeInstruction = ops.some((o) => o.local === true);
    if (!mustBeInstruction && acceptsConstantExpr(this.llvm, op)) return { type, value: constantExprText(op, form, ops) };
    if (!mustBeInstruction) {
      const folded = foldModern(op, form.kind === 'cmp' ? form.pred : undefined, ops, type);
      if (folded !== undefined) return folded;
    }
    if (!sink) throw new UnfoldableConstantError(constantExprText(op, form, ops), this.llvm);
    const tmp = sink.temp();
    sink.emit(`${tmp} = ${instructionText(op, form, ops)}`);
    return { type, value: tmp, local: true };
  }

  /** Index list of a getelementptr walking `sourceElement` (see `seqIndex`). */
  gepIndices(sourceElement: Type, indices: Constant[], sink?: Sink): Operand[] {
    const out: Operand[] = [];
    let cur: Type | undefined = sourceElement;
    indices.forEach((idx, i) => {
      const field = structField(cur, i + 1, idx);
      out.push(field >= 0 ? { type: 'i32', value: String(field) } : this.seqIndex(idx, sink));
      cur = nextIndexed(cur, i + 1, field);
    });
    return out;
  }

  /**
   * A sequential index. Modern GEP sign-extends indices narrower than the pointer, 1.x read
   * unsigned index types as unsigned: those become i64 (value kept) so large ones stay large.
   */
  private seqIndex(idx: Constant, sink?: Sink): Operand {
    // Only a damaged file indexes with anything but an integer (LLVM 1.x's reader did not check constants'; no LLVM parses one).
    if (idx.type.kind !== 'integer' && intBits(idx.type) === 0)
      throw new UpgradeError(`a getelementptr indexed by a value of type ${this.types.str(idx.type)}: indices are integers`);
    const plan = planIndex(idx.type, idx);
    if (plan.kind === 'same') return this.operand(idx, sink);
    if (plan.kind === 'constant') return { type: 'i64', value: plan.text };
    return this.build('zext', { kind: 'cast', to: 'i64' }, [this.operand(idx, sink)], 'i64', sink);
  }

  private expr(e: ConstantExpr, sink?: Sink): Operand {
    const ops = e.operands;
    const op = e.opcode;
    const type = this.types.str(e.type);
    const all = (): Operand[] => ops.map((o) => this.operand(o, sink));
    if (op === 'cast') return this.cast(ops[0]!, e.type, sink);
    // Version 7's own opcodes are the modern ones.
    if (isCastOpcode(op)) return this.build(op, { kind: 'cast', to: type }, [this.operand(ops[0]!, sink)], type, sink);
    if (op === 'icmp' || op === 'fcmp') return this.build(op, { kind: 'cmp', pred: e.predicate ?? '' }, all(), type, sink);
    if (op === 'getelementptr') {
      const base = ops[0]!;
      const src = base.type.kind === 'pointer' ? base.type.element : base.type;
      const operands = [this.operand(base, sink), ...this.gepIndices(src, ops.slice(1), sink)];
      return this.build(op, { kind: 'list', head: this.types.str(src) }, operands, type, sink);
    }
    if (isComparison(op)) {
      const { inst, pred } = comparison(op, ops[0]!.type);
      return this.build(inst, { kind: 'cmp', pred }, all(), type, sink);
    }
    if (op === 'shufflevector') {
      const [a, b] = [this.operand(ops[0]!, sink), this.operand(ops[1]!, sink)];
      return this.build(op, { kind: 'list' }, [a, b, this.shuffleMask(ops[2]!, ops[0]!.type)], type, sink);
    }
    if (op === 'select' || op === 'extractelement' || op === 'insertelement') {
      return this.build(op, { kind: 'list' }, all(), type, sink);
    }
    if (op === 'shl' || op === 'shr') {
      const value = this.operand(ops[0]!, sink);
      const amount = this.shiftAmountOperand(ops[1]!, ops[0]!.type, sink);
      return this.build(binaryOpcode(op, ops[0]!.type), { kind: 'binary' }, [value, amount], type, sink);
    }
    return this.build(binaryOpcode(op, ops[0]!.type), { kind: 'binary' }, all(), type, sink);
  }

  /**
   * A shufflevector's mask (a constant: LLVM 1.x's verifier asked no more) for vectors of type
   * `vector`. An element that picks none of the two vectors' elements (one at or past twice their
   * length) gave an undefined element in LLVM 1.x, which checked no range; modern LLVM refuses
   * the index, and an `undef` element means what it meant.
   */
  shuffleMask(mask: Constant, vector: Type): Operand {
    const o = this.operand(mask);
    if (mask.kind !== 'packed' || vector.kind !== 'packed') return o;
    const limit = BigInt(vector.length) * 2n;
    if (!mask.elements.some((e) => e.kind === 'int' && BigInt.asUintN(32, e.value) >= limit)) return o;
    const elements = mask.elements.map((e) => (e.kind === 'int' && BigInt.asUintN(32, e.value) >= limit ? `${this.types.str(e.type)} undef` : this.typed(e)));
    return { type: o.type, value: `<${elements.join(', ')}>` };
  }

  /** 1.x shift amounts are ubyte; modern ones have the shifted value's type. */
  shiftAmount(amount: Constant, valueType: Type, sink?: Sink): string {
    return typedText(this.shiftAmountOperand(amount, valueType, sink));
  }

  private shiftAmountOperand(amount: Constant, valueType: Type, sink?: Sink): Operand {
    const ty = this.types.str(valueType);
    const to = intBits(valueType);
    if (amount.kind === 'int') {
      const lit: Lit | undefined = to > 0 ? { kind: 'int', bits: to, value: BigInt.asUintN(to, amount.value) } : undefined;
      return lit ? { type: ty, value: amount.value.toString(), lit } : { type: ty, value: amount.value.toString() };
    }
    const from = intBits(amount.type);
    const a = this.operand(amount, sink);
    if (from === to) return { ...a, type: ty };
    return this.build(from < to ? 'zext' : 'trunc', { kind: 'cast', to: ty }, [a], ty, sink);
  }

  private cast(v: Constant, to: Type, sink?: Sink): Operand {
    const plan = planCast(v.type, to);
    if (plan.kind === 'noop') {
      const same = { ...this.operand(v, sink), type: this.types.str(to) };
      // Typed pointers keep a cast between pointer types (or vectors of them) as a bitcast.
      const from = this.types.str(v.type);
      if (!this.types.typed || from === same.type) return same;
      return this.build('bitcast', { kind: 'cast', to: same.type }, [this.operand(v, sink)], same.type, sink);
    }
    if (plan.kind === 'nonzero') {
      const ty = this.types.str(v.type);
      const zero = {
        type: ty,
        value: zeroOf(v.type),
        ...(plan.fp
          ? { lit: { kind: 'fp', double: v.type.kind === 'double', value: 0 } as Lit }
          : intBits(v.type) > 0
            ? { lit: { kind: 'int', bits: intBits(v.type), value: 0n } as Lit }
            : {}),
      };
      return this.build(plan.fp ? 'fcmp' : 'icmp', { kind: 'cmp', pred: plan.fp ? 'une' : 'ne' }, [this.operand(v, sink), zero], 'i1', sink);
    }
    let cur = this.operand(v, sink);
    for (const step of plan.steps) {
      const toStr = step.to === 'i64' ? 'i64' : this.types.str(step.to);
      cur = this.build(step.op, { kind: 'cast', to: toStr }, [cur], toStr, sink);
    }
    return cur;
  }
}
