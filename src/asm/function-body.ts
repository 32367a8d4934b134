/**
 * A function body from its parsed text, written straight into the graph's compact form
 * (graph/compact-body.ts: numbers in a few flat arrays, not one object per instruction and one
 * array per operand list), as the bytecode reader writes the bodies it reads. The writer and the
 * printer walk that form as it is, the verifier checks it once and keeps its verdict, and anyone
 * who looks at `fn.blocks` gets the plain objects, built then.
 *
 * Two passes, as LLVM's parser resolved forward references: the first gives every instruction
 * its number, opcode, result type and name (so every local value and label exists), the second
 * writes the operands. Value codes are the compact form's: instruction `n` is `n * 4 + 1`, block
 * `b` is `b * 4 + 2`, any other value (constants, globals, arguments) `i * 4` for its index in
 * `values`, numbered in the order the operands name them, as `compactFromBlocks` numbers them.
 */
import {
  installCompactBody,
  OPCODE_NUMBER,
  TAG_BLOCK,
  TAG_INSTRUCTION,
  TAG_VALUE,
  type CompactBody,
  type InstructionExtras,
} from '../graph/compact-body.js';
import { integerBits, isFirstClassType, isFloatingPoint, isInteger, isSigned, primitiveTypes, type FunctionType, type PointerType, type Type } from '../graph/type.js';
import type { Argument, Constant, Function, Instruction, Opcode, Value } from '../graph/value.js';
import { uniqueName } from '../graph/symbol-names.js';
import type { FunctionItem, InstAst, TypedValue, ValueRef } from './ast.js';
import type { VarArgsState } from './obsolete-varargs.js';

/** What a body needs of the module being built (build-module.ts). */
export interface BodyHost {
  readonly legacyVarArgs: boolean;
  readonly varArgs: VarArgsState;
  typeOf(node: number): Type;
  pointerTo(t: Type): PointerType;
  functionType(ret: Type, params: readonly Type[], varArg: boolean): FunctionType;
  describe(t: Type): string;
  error(message: string, at: number): never;
  markTypes(mark: number): void;
  lookupGlobal(type: Type, ref: ValueRef & ({ k: 'name' } | { k: 'num' })): Value | undefined;
  moduleCount(type: Type): number;
  constant(t: Type, ref: ValueRef, scope: LocalScope | null): Constant;
  integer(t: Type, text: string, at: number): bigint;
  indexedType(base: Type, indices: readonly Value[], at: number): Type;
  getOrInsertFunctionWhileParsing(name: string, functionType: FunctionType, inside: Function, at: number): Function;
}

/** A function's local names, as the constant builder asks about them (for its error message). */
export interface LocalScope {
  isLocal(t: Type, ref: ValueRef & ({ k: 'name' } | { k: 'num' })): boolean;
}

/** Builds `fn`'s body from `item` and installs it in compact form. */
export function buildFunctionBody(host: BodyHost, fn: Function, item: FunctionItem): void {
  new FunctionBodyBuilder(host, fn, item).build();
}

/** An argument's code in the local symbol table until an operand names it (then it gets a value index). */
const argumentCode = (index: number): number => -2 - index;

/** `vaarg %ap, T` / `vanext %ap, T` of 1.6+ text, expanded (see `expandObsoleteVarArg`). */
interface ObsoleteExpansion {
  readonly op: 'obsolete vaarg';
  readonly ast: Extract<InstAst, { op: 'vaarg' }>;
  readonly copy: Function;
  /** The alloca's instruction number; the call, the store and the rest follow it. */
  readonly first: number;
}

const OP = OPCODE_NUMBER;

class FunctionBodyBuilder implements LocalScope {
  /** Local values by plane: value codes (an argument's is `argumentCode`). */
  private readonly named = new Map<Type, Map<string, number>>();
  private readonly numbered = new Map<Type, number[]>();
  private readonly namedBlocks = new Map<string, number>();
  private readonly numberedBlocks: number[] = [];

  // The compact body, as it grows.
  private readonly words = new IntBuffer();
  private readonly instTypes: Type[] = [];
  private readonly types: Type[] = [];
  private readonly typeIndex = new Map<Type, number>();
  private readonly blockEnds = new IntBuffer();
  private readonly operandEnds = new IntBuffer();
  private readonly operands = new IntBuffer();
  private readonly values: Value[] = [];
  private readonly valueIndex = new Map<Value, number>();
  private readonly extraAt: number[] = [];
  private readonly extras: InstructionExtras[] = [];
  private readonly nameCodes: number[] = [];
  private readonly names: string[] = [];

  /** The numbers of the `llvm.va_copy` calls the parser made (`expandObsoleteVarArg`). */
  private readonly parserCalls: number[] = [];

  /** This function's symbol-table counter, as LLVM's made names unique with it (obsolete-varargs.ts). */
  private readonly lastUnique = { value: 0 };

  constructor(
    private readonly m: BodyHost,
    private readonly fn: Function,
    private readonly item: FunctionItem,
  ) {}

  build(): void {
    const { fn, item, m } = this;
    // Arguments: a later definition's names replace a declaration's.
    fn.args = item.args.map((a, index): Argument => {
      const type = fn.functionType.params[index]!;
      const arg: Argument = { kind: 'argument', type, index };
      if (a.name !== undefined) arg.name = a.name;
      this.define(argumentCode(index), type, a.name, a.at);
      return arg;
    });
    // First pass: blocks and instructions exist, with their types and names. (Each pass is a
    // method of its own: a long body's loop is optimized on the stack, and one method per loop
    // keeps the next loop from throwing that code away.)
    const pending = this.declareAll();
    if (this.lastUnique.value > 0) m.varArgs.lastUnique.set(fn, this.lastUnique.value);
    this.fillAll(pending);
    this.install();
    // The old-varargs rewrite after parsing (obsolete-varargs.ts) tells the parser's own calls
    // apart by identity: those need the body as objects.
    for (const n of this.parserCalls) m.varArgs.parserCalls.push(instructionAt(fn, n));
  }

  /** The first pass: what each instruction writes in the second (the text's, or an expansion). */
  private declareAll(): (InstAst | ObsoleteExpansion)[] {
    const m: BodyHost = this.m;
    const pending: (InstAst | ObsoleteExpansion)[] = [];
    const blocks = this.item.blocks;
    for (let b = 0; b < blocks.length; b++) {
      const block = blocks[b]!;
      if (block.name !== undefined) {
        if (this.namedBlocks.has(block.name)) m.error(`redefinition of the label '${block.name}'`, block.at);
        this.namedBlocks.set(block.name, b);
        if (block.name !== '') this.nameCodes.push(b * 4 + TAG_BLOCK), this.names.push(block.name);
      } else this.numberedBlocks.push(b);
      const instructions = block.instructions;
      for (let i = 0; i < instructions.length; i++) {
        const ast = instructions[i]!;
        if (ast.op === 'vaarg' && ast.legacy !== null && !m.legacyVarArgs) {
          pending.push(this.expandObsoleteVarArg(ast));
          continue;
        }
        if (ast.op === 'vaarg' && ast.legacy === null) m.varArgs.sawNew = true;
        const n = this.words.length;
        const type = this.shell(ast);
        if (type.kind !== 'void' || ast.name === undefined) this.define(n * 4 + TAG_INSTRUCTION, type, ast.name, ast.at);
        else m.error(`'%${ast.name}' names an instruction that produces no value`, ast.at);
        pending.push(ast);
      }
      this.blockEnds.push(this.words.length);
    }
    return pending;
  }

  /** The second pass: operands, in the order of the instructions. */
  private fillAll(pending: readonly (InstAst | ObsoleteExpansion)[]): void {
    for (let p = 0; p < pending.length; p++) {
      const a = pending[p]!;
      if (a.op === 'obsolete vaarg') this.fillExpansion(a);
      else {
        this.fill(a, this.operandEnds.length);
        this.operandEnds.push(this.operands.length);
      }
    }
  }

  private install(): void {
    const n = this.words.length;
    const blockCount = this.blockEnds.length;
    const data = new Int32Array(2 * n + blockCount + this.operands.length);
    data.set(this.words.view(), 0);
    data.set(this.operandEnds.view(), n);
    data.set(this.blockEnds.view(), 2 * n);
    data.set(this.operands.view(), 2 * n + blockCount);
    const body: CompactBody = {
      instructionCount: n,
      blockCount,
      data,
      types: this.types,
      values: this.values,
      extraAt: this.extraAt,
      extras: this.extras,
      nameCodes: this.nameCodes,
      names: this.names,
      layout: undefined,
    };
    installCompactBody(this.fn, body);
  }

  // -------------------------------------------------------------------------------------------
  // The local symbol table

  private define(code: number, type: Type, name: string | undefined, at: number): void {
    if (name === undefined) {
      if (type.kind === 'void') return;
      const plane = this.numbered.get(type);
      if (plane === undefined) this.numbered.set(type, [code]);
      else plane.push(code);
      return;
    }
    let plane = this.named.get(type);
    if (plane === undefined) this.named.set(type, (plane = new Map()));
    if (plane.has(name)) this.m.error(`redefinition of '%${name}' of type ${this.m.describe(type)}`, at);
    plane.set(name, code);
  }

  private hasLocalName(type: Type, name: string): boolean {
    return this.named.get(type)?.has(name) === true;
  }

  /** The code of a local value, or undefined. */
  private local(t: Type, ref: ValueRef & ({ k: 'name' } | { k: 'num' })): number | undefined {
    if (ref.k === 'name') return this.named.get(t)?.get(ref.name);
    const moduleCount = this.m.moduleCount(t);
    if (ref.n < moduleCount) return undefined;
    return this.numbered.get(t)?.[ref.n - moduleCount];
  }

  isLocal(t: Type, ref: ValueRef & ({ k: 'name' } | { k: 'num' })): boolean {
    if (ref.k === 'name') return this.hasLocalName(t, ref.name) || this.m.lookupGlobal(t, ref) !== undefined;
    if (ref.n < this.m.moduleCount(t)) return this.m.lookupGlobal(t, ref) !== undefined;
    return this.local(t, ref) !== undefined;
  }

  // -------------------------------------------------------------------------------------------
  // Value codes

  /** The code of a value that is not one of the body's instructions or blocks. */
  private valueCode(v: Value): number {
    let i = this.valueIndex.get(v);
    if (i === undefined) {
      i = this.values.length;
      this.values.push(v);
      this.valueIndex.set(v, i);
    }
    return i * 4 + TAG_VALUE;
  }

  /** A local code as an operand: an argument becomes its value code. */
  private operandCode(code: number): number {
    return code < 0 ? this.valueCode(this.fn.args[-2 - code]!) : code;
  }

  private typeOfCode(code: number): Type {
    return (code & 3) === TAG_INSTRUCTION ? this.instTypes[code >>> 2]! : this.values[code >>> 2]!.type;
  }

  /** `value` in an operand position: its code. */
  private value(t: Type, ref: ValueRef): number {
    if (t.kind === 'label') this.m.error('a basic block cannot be used here', ref.at);
    if (ref.k === 'name' || ref.k === 'num') {
      const local = this.local(t, ref);
      if (local !== undefined) return this.operandCode(local);
      const global = this.m.lookupGlobal(t, ref);
      if (global === undefined) this.m.error(`use of undefined value '${refText(ref)}' of type ${this.m.describe(t)}`, ref.at);
      return this.valueCode(global);
    }
    return this.valueCode(this.m.constant(t, ref, this));
  }

  private typed(tv: TypedValue): number {
    return this.value(this.m.typeOf(tv.type), tv.ref);
  }

  private block(ref: ValueRef): number {
    let b: number | undefined;
    if (ref.k === 'name') b = this.namedBlocks.get(ref.name);
    else if (ref.k === 'num') b = this.numberedBlocks[ref.n];
    else this.m.error('expected a label', ref.at);
    if (b === undefined) this.m.error(`use of undefined label '${refText(ref)}'`, ref.at);
    return b * 4 + TAG_BLOCK;
  }

  // -------------------------------------------------------------------------------------------
  // First pass

  /** Appends an instruction (opcode, result type, name, extra fields); returns its number. */
  private emit(opcode: Opcode, type: Type, name: string | undefined, extras?: InstructionExtras): number {
    const n = this.words.length;
    let ti = this.typeIndex.get(type);
    if (ti === undefined) {
      ti = this.types.length;
      this.types.push(type);
      this.typeIndex.set(type, ti);
    }
    this.words.push(OP[opcode] | (ti << 6));
    this.instTypes.push(type);
    if (extras !== undefined) {
      this.extraAt.push(n);
      this.extras.push(extras);
    }
    if (name !== undefined && name !== '') {
      this.nameCodes.push(n * 4 + TAG_INSTRUCTION);
      this.names.push(name);
    }
    return n;
  }

  /** The instruction with its opcode and result type (returned); operands come in `fill`. */
  private shell(a: InstAst): Type {
    const m: BodyHost = this.m;
    m.markTypes(a.mark);
    const name = a.name;
    let type: Type;
    switch (a.op) {
      case 'binary': {
        const t = m.typeOf(a.type);
        const opcode = upgradeBinaryOpcode(a.opcode, t);
        type = opcode.startsWith('set') ? (t.kind === 'packed' ? m.error('setcc of packed values', a.at) : primitiveTypes.bool) : t;
        this.emit(opcode, type, name);
        return type;
      }
      case 'not':
        type = m.typeOf(a.value.type);
        this.emit('xor', type, name);
        return type;
      case 'shift':
        type = m.typeOf(a.value.type);
        this.emit(a.opcode, type, name);
        return type;
      case 'cast':
        type = m.typeOf(a.to);
        this.emit('cast', type, name);
        return type;
      case 'select':
        type = m.typeOf(a.operands[1]!.type);
        this.emit('select', type, name);
        return type;
      case 'vector': {
        const t = m.typeOf(a.operands[0]!.type);
        if (t.kind !== 'packed') m.error(`${a.opcode} of a non-packed value`, a.at);
        type = a.opcode === 'extractelement' ? t.element : t;
        this.emit(a.opcode, type, name);
        return type;
      }
      case 'vaarg': {
        if (a.legacy === null) {
          type = m.typeOf(a.type);
          this.emit('vaarg', type, name);
        } else if (a.legacy === 'vanext') {
          // `vanext %ap, T` steps the va_list over a T: the result is the va_list's type.
          type = m.typeOf(a.value.type);
          this.emit('vanext', type, name, { argType: m.typeOf(a.type) });
        } else {
          type = m.typeOf(a.type);
          this.emit('vaarg', type, name, { legacyVarArgs: true });
        }
        return type;
      }
      case 'phi':
        type = m.typeOf(a.type);
        this.emit('phi', type, name);
        return type;
      case 'call':
      case 'invoke': {
        const ft = this.calleeType(a.type, a.args, a.at);
        type = ft.returnType;
        this.emit(a.op, type, name, a.op === 'call' ? { callingConv: a.callingConv, isTailCall: a.tail } : { callingConv: a.callingConv });
        return type;
      }
      case 'alloc': {
        const t = m.typeOf(a.type);
        type = m.pointerTo(t);
        this.emit(a.opcode, type, name, { allocatedType: t, alignment: a.alignment });
        return type;
      }
      case 'free':
        this.emit('free', primitiveTypes.void, name);
        return primitiveTypes.void;
      case 'load': {
        const pt = m.typeOf(a.type);
        if (pt.kind !== 'pointer') m.error(`load through ${m.describe(pt)}, which is not a pointer`, a.at);
        if (!isFirstClassType(pt.element)) m.error(`load of a value of type ${m.describe(pt.element)}`, a.at);
        this.emit('load', pt.element, name, a.volatile ? { isVolatile: true } : undefined);
        return pt.element;
      }
      case 'store':
        this.emit('store', primitiveTypes.void, name, a.volatile ? { isVolatile: true } : undefined);
        return primitiveTypes.void;
      case 'getelementptr': {
        const pt = m.typeOf(a.type);
        if (pt.kind !== 'pointer') m.error(`getelementptr of ${m.describe(pt)}, which is not a pointer`, a.at);
        // Structure indices are constants, so the result type follows from the text alone.
        const indices = a.indices.map((i): Value => {
          const t = m.typeOf(i.type);
          return i.ref.k === 'int' && isInteger(t) ? { kind: 'int', type: t, value: m.integer(t, i.ref.text, i.ref.at) } : { kind: 'undef', type: t };
        });
        type = m.pointerTo(m.indexedType(pt, indices, a.at));
        this.emit('getelementptr', type, name);
        return type;
      }
      case 'ret':
        this.emit('ret', primitiveTypes.void, name);
        return primitiveTypes.void;
      case 'br':
      case 'condbr':
        this.emit('br', primitiveTypes.void, name);
        return primitiveTypes.void;
      case 'switch':
        this.emit('switch', primitiveTypes.void, name);
        return primitiveTypes.void;
      case 'unwind':
      case 'unreachable':
        this.emit(a.op, primitiveTypes.void, name);
        return primitiveTypes.void;
    }
  }

  /** `call`/`invoke`'s written type: the function pointer type, or the return type alone. */
  private calleeType(typeNode: number, args: readonly TypedValue[], at: number): FunctionType {
    const m: BodyHost = this.m;
    const t = m.typeOf(typeNode);
    if (t.kind === 'pointer' && t.element.kind === 'function') return t.element;
    if (!isFirstClassType(t) && t.kind !== 'void') m.error(`a call returning ${m.describe(t)}`, at);
    return m.functionType(
      t,
      args.map((x) => m.typeOf(x.type)),
      false,
    );
  }

  /**
   * `vaarg %ap, T` / `vanext %ap, T` in 1.6+ text, expanded as LLVM 1.6–1.9's parser did
   * (obsolete-varargs.ts, step 1): an alloca, a call of the old `llvm.va_copy`, a store, a
   * `va_arg` (and for `vanext` a load); their operands are written in the second pass like every
   * other instruction's. Only the last one is the text's value (it takes the text's name or
   * number); the parser's own values are not numbered.
   */
  private expandObsoleteVarArg(a: Extract<InstAst, { op: 'vaarg' }>): ObsoleteExpansion {
    const m: BodyHost = this.m;
    m.markTypes(a.mark);
    m.varArgs.sawObsolete = true;
    const listType = m.typeOf(a.value.type);
    const argType = m.typeOf(a.type);
    const copy = m.getOrInsertFunctionWhileParsing('llvm.va_copy', m.functionType(listType, [listType], false), this.fn, a.at);
    const slotType = m.pointerTo(listType);
    const slotName = uniqueName((n) => this.hasLocalName(slotType, n), a.legacy === 'vaarg' ? 'vaarg.fix' : 'vanext.fix', this.lastUnique);
    const first = this.emit('alloca', slotType, slotName, { allocatedType: listType, alignment: 0 });
    this.define(first * 4 + TAG_INSTRUCTION, slotType, slotName, a.at);
    this.parserCalls.push(first + 1);
    this.emit('call', listType, undefined, { callingConv: 0, isTailCall: false });
    this.emit('store', primitiveTypes.void, undefined);
    const result = a.legacy === 'vanext' ? listType : argType;
    if (a.legacy === 'vanext') {
      this.emit('vaarg', argType, undefined);
      this.emit('load', listType, a.name);
    } else this.emit('vaarg', argType, a.name);
    this.define((this.words.length - 1) * 4 + TAG_INSTRUCTION, result, a.name, a.at);
    return { op: 'obsolete vaarg', ast: a, copy, first };
  }

  private fillExpansion(e: ObsoleteExpansion): void {
    const slot = e.first * 4 + TAG_INSTRUCTION;
    const copied = (e.first + 1) * 4 + TAG_INSTRUCTION;
    const ops = this.operands;
    const end = (): void => void this.operandEnds.push(ops.length);
    ops.push(this.valueCode({ kind: 'int', type: primitiveTypes.uint, value: 1n }));
    end();
    ops.push(this.valueCode(e.copy));
    ops.push(this.typed(e.ast.value));
    end();
    ops.push(copied);
    ops.push(slot);
    end();
    ops.push(slot);
    end();
    if (e.ast.legacy === 'vanext') {
      ops.push(slot);
      end();
    }
  }

  // -------------------------------------------------------------------------------------------
  // Second pass

  /** Writes instruction `n`'s operands. */
  private fill(a: InstAst, n: number): void {
    const m: BodyHost = this.m;
    const ops = this.operands;
    switch (a.op) {
      case 'binary': {
        const t = m.typeOf(a.type);
        const lhs = this.value(t, a.lhs);
        ops.push(lhs);
        ops.push(this.value(t, a.rhs));
        break;
      }
      case 'not': {
        const v = this.typed(a.value);
        ops.push(v);
        ops.push(this.valueCode(allOnes(this.typeOfCode(v), a.at, m)));
        break;
      }
      case 'shift': {
        const v = this.typed(a.value);
        const amount = this.typed(a.amount);
        ops.push(v);
        ops.push(amount);
        if (this.typeOfCode(amount).kind !== 'ubyte') m.error('a shift amount must be a ubyte', a.at);
        break;
      }
      case 'cast':
        ops.push(this.typed(a.value));
        break;
      case 'select':
      case 'vector':
        for (const o of a.operands) ops.push(this.typed(o));
        break;
      case 'vaarg':
        ops.push(this.typed(a.value));
        break;
      case 'phi': {
        const t = this.instTypes[n]!;
        for (const [v, b] of a.incoming) {
          const value = this.value(t, v);
          ops.push(value);
          ops.push(this.block(b));
        }
        break;
      }
      case 'call':
      case 'invoke': {
        const ft = this.calleeType(a.type, a.args, a.at);
        ops.push(this.value(m.pointerTo(ft), a.callee));
        if (a.op === 'invoke') {
          const normal = this.block(a.normal);
          ops.push(normal);
          ops.push(this.block(a.unwind));
        }
        if (a.args.length < ft.params.length || (!ft.isVarArg && a.args.length > ft.params.length)) {
          m.error(`the call passes ${a.args.length} arguments to a function of type ${m.describe(ft)}`, a.at);
        }
        for (let i = 0; i < a.args.length; i++) {
          const arg = a.args[i]!;
          const v = this.typed(arg);
          const p = ft.params[i];
          const vt = this.typeOfCode(v);
          if (p !== undefined && p !== vt) m.error(`argument ${i + 1} has type ${m.describe(vt)}, the function takes ${m.describe(p)}`, arg.ref.at);
          ops.push(v);
        }
        break;
      }
      case 'alloc':
        ops.push(a.count === undefined ? this.valueCode({ kind: 'int', type: primitiveTypes.uint, value: 1n }) : this.value(primitiveTypes.uint, a.count));
        break;
      case 'free': {
        const v = this.typed(a.value);
        ops.push(v);
        if (this.typeOfCode(v).kind !== 'pointer') m.error('free of a non-pointer', a.at);
        break;
      }
      case 'load':
        ops.push(this.value(m.typeOf(a.type), a.ptr));
        break;
      case 'store': {
        const v = this.typed(a.value);
        const pt = m.typeOf(a.type);
        const vt = this.typeOfCode(v);
        if (pt.kind !== 'pointer' || pt.element !== vt) m.error(`store of ${m.describe(vt)} through ${m.describe(pt)}`, a.at);
        ops.push(v);
        ops.push(this.value(pt, a.ptr));
        break;
      }
      case 'getelementptr': {
        const pt = m.typeOf(a.type);
        ops.push(this.value(pt, a.ptr));
        for (const i of a.indices) ops.push(this.typed(i));
        break;
      }
      case 'ret':
        if (a.value !== undefined) ops.push(this.typed(a.value));
        break;
      case 'br':
        ops.push(this.block(a.dest));
        break;
      case 'condbr': {
        const cond = this.value(primitiveTypes.bool, a.cond);
        const ifTrue = this.block(a.ifTrue);
        ops.push(cond);
        ops.push(ifTrue);
        ops.push(this.block(a.ifFalse));
        break;
      }
      case 'switch': {
        const t = m.typeOf(a.type);
        const cond = this.value(t, a.cond);
        ops.push(cond);
        ops.push(this.block(a.defaultDest));
        for (const c of a.cases) {
          const value = this.value(m.typeOf(c.type), c.value);
          ops.push(value);
          ops.push(this.block(c.dest));
        }
        break;
      }
      case 'unwind':
      case 'unreachable':
        break;
    }
  }
}

/** A growing list of 32-bit integers (the compact body's arrays, copied out with one `set`). */
class IntBuffer {
  private data = new Int32Array(64);
  length = 0;

  push(v: number): void {
    if (this.length === this.data.length) {
      const bigger = new Int32Array(this.data.length * 2);
      bigger.set(this.data);
      this.data = bigger;
    }
    this.data[this.length++] = v;
  }

  view(): Int32Array {
    return this.data.subarray(0, this.length);
  }
}

/** Instruction `n` of `fn`'s body, as objects (materializing the body). */
function instructionAt(fn: Function, n: number): Instruction {
  for (const b of fn.blocks) {
    if (n < b.instructions.length) return b.instructions[n]!;
    n -= b.instructions.length;
  }
  throw new Error(`no instruction ${n} in the body`);
}

/** The all-ones value `not` xors with: true, -1, or an unsigned type's maximum (per element for packed). */
function allOnes(t: Type, at: number, m: BodyHost): Constant {
  if (t.kind === 'bool') return { kind: 'bool', type: t, value: true };
  if (isInteger(t)) return { kind: 'int', type: t, value: isSigned(t) ? -1n : (1n << BigInt(integerBits(t))) - 1n };
  if (t.kind === 'packed') return { kind: 'packed', type: t, elements: Array.from({ length: t.length }, () => allOnes(t.element, at, m)) };
  return m.error(`'not' of the non-integral type ${m.describe(t)}`, at);
}

/** `div`/`rem` of LLVM ≤ 1.8's text become `sdiv`/`udiv`/`fdiv` (…`rem`) by operand type, as 1.9's parser did. */
export function upgradeBinaryOpcode(op: string, t: Type): Opcode {
  if (op !== 'div' && op !== 'rem') return op as Opcode;
  const el = t.kind === 'packed' ? t.element : t;
  const prefix = isFloatingPoint(el) ? 'f' : isSigned(el) ? 's' : 'u';
  return (prefix + op) as Opcode;
}

export function refText(ref: ValueRef): string {
  return ref.k === 'name' ? `%${ref.name}` : ref.k === 'num' ? `%${ref.n}` : ref.k;
}
