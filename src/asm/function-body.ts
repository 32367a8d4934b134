/**
 * A function body from its parsed text, written straight into the graph's compact form
 * (graph/compact-body.ts: numbers in a few flat arrays, not one object per instruction and one
 * array per operand list), as the bytecode reader writes the bodies it reads. The writer and the
 * printer walk that form as it is, the verifier checks it once and keeps its verdict, and anyone
 * who looks at `fn.blocks` gets the plain objects, built then.
 *
 * The body comes as the parser's tape (body-tape.ts), read in two passes, as LLVM's parser
 * resolved forward references: the first gives every instruction
 * its number, opcode, result type and name (so every local value and label exists), the second
 * writes the operands. Value codes are the compact form's: instruction `n` is `n * 4 + 1`, block
 * `b` is `b * 4 + 2`, any other value (constants, globals, arguments) `i * 4` for its index in
 * `values`, numbered in the order the operands name them, as `compactFromBlocks` numbers them.
 */
import { installCompactBody, OPCODE_NUMBER, TAG_BLOCK, TAG_INSTRUCTION, TAG_VALUE, type CompactBody, type InstructionExtras } from '../graph/compact-body.js';
import {
  integerBits,
  isFirstClassType,
  isFloatingPoint,
  isInteger,
  isSigned,
  primitiveTypes,
  type FunctionType,
  type PointerType,
  type Type,
} from '../graph/type.js';
import { heldCallingConvention, type Argument, type Constant, type Function, type Instruction, type Opcode, type Value } from '../graph/value.js';
import { uniqueName } from '../graph/symbol-names.js';
import type { FunctionItem, ValueRef } from './ast.js';
import {
  BINARY_OPCODES,
  IntBuffer,
  Op,
  R_AT,
  R_FIELDS,
  R_MARK,
  R_NAME,
  R_OP,
  Ref,
  REF_SIZE,
  refObject,
  VaArgKind,
  VECTOR_OPCODES,
  type BodyTape,
} from './body-tape.js';
import type { VarArgsState } from './obsolete-varargs.js';

/** What a body needs of the module being built (build-module.ts). */
export interface BodyHost {
  readonly legacyVarArgs: boolean;
  readonly varArgs: VarArgsState;
  /** The type of each of the parser's type nodes. */
  readonly nodeTypes: readonly Type[];
  pointerTo(t: Type): PointerType;
  functionType(ret: Type, params: readonly Type[], varArg: boolean): FunctionType;
  describe(t: Type): string;
  error(message: string, at: number): never;
  markTypes(mark: number): void;
  lookupGlobal(type: Type, ref: ValueRef & ({ k: 'name' } | { k: 'num' })): Value | undefined;
  lookupGlobalName(type: Type, name: string): Value | undefined;
  lookupGlobalNumber(type: Type, n: number): Value | undefined;
  moduleCount(type: Type): number;
  constant(t: Type, ref: ValueRef, scope: LocalScope | null): Constant;
  /** The unique constant an integer literal spells in type `t`. */
  integerConstant(t: Type, text: string, at: number): Constant;
  integer(t: Type, text: string, at: number): bigint;
  getOrInsertFunctionWhileParsing(name: string, functionType: FunctionType, inside: Function, at: number): Function;
}

/** A function's local names, as the constant builder asks about them (for its error message). */
export interface LocalScope {
  isLocal(t: Type, ref: ValueRef & ({ k: 'name' } | { k: 'num' })): boolean;
}

/** Builds `fn`'s body from `item` and installs it in compact form. */
export function buildFunctionBody(host: BodyHost, fn: Function, item: FunctionItem, tape: BodyTape): void {
  new FunctionBodyBuilder(host, fn, item, tape).build();
}

/** An argument's code in the local symbol table until an operand names it (then it gets a value index). */
const argumentCode = (index: number): number => -2 - index;

/** `vaarg %ap, T` / `vanext %ap, T` of 1.6+ text, expanded (see `expandObsoleteVarArg`). */
interface ObsoleteExpansion {
  /** The record on the tape. */
  readonly p: number;
  readonly copy: Function;
  /** The alloca's instruction number; the call, the store and the rest follow it. */
  readonly first: number;
}

/** One plane of the local symbol table: named values, numbered ones (after the module's `moduleCount`). */
interface LocalPlane {
  names: Map<string, number> | undefined;
  readonly numbers: number[];
  readonly moduleCount: number;
}

const OP = OPCODE_NUMBER;
const F = R_FIELDS;

class FunctionBodyBuilder implements LocalScope {
  /** Local values by plane (type): value codes (an argument's is `argumentCode`). */
  private readonly planes = new Map<Type, LocalPlane>();
  private readonly namedBlocks = new Map<string, number>();
  private readonly numberedBlocks: number[] = [];

  // The tape (body-tape.ts).
  private readonly c: Int32Array;
  private readonly strings: readonly string[];
  private readonly nt: readonly Type[];

  // The compact body, as it grows.
  private readonly words: IntBuffer;
  private readonly instTypes: Type[] = [];
  private readonly types: Type[] = [];
  private readonly typeIndex = new Map<Type, number>();
  private readonly blockEnds: IntBuffer;
  private readonly operandEnds: IntBuffer;
  private readonly operands: IntBuffer;
  private readonly values: Value[] = [];
  private readonly valueIndex = new Map<Value, number>();
  private readonly extraAt: number[] = [];
  private readonly extras: InstructionExtras[] = [];
  private readonly nameCodes: number[] = [];
  private readonly names: string[] = [];

  /** The numbers of the `llvm.va_copy` calls the parser made (`expandObsoleteVarArg`). */
  private readonly parserCalls: number[] = [];
  /** The expansions of the first pass, for the second (`pending` holds `-1 - index`). */
  private readonly expansions: ObsoleteExpansion[] = [];

  /** This function's symbol-table counter, as LLVM's made names unique with it (obsolete-varargs.ts). */
  private readonly lastUnique = { value: 0 };

  constructor(
    private readonly m: BodyHost,
    private readonly fn: Function,
    private readonly item: FunctionItem,
    private readonly tape: BodyTape,
  ) {
    this.c = tape.code;
    this.strings = tape.strings;
    // Sized for the body at hand (the typical instruction has two operands), so they rarely grow.
    const instructions = tape.instructions.length;
    this.words = new IntBuffer(instructions + 16);
    this.operandEnds = new IntBuffer(instructions + 16);
    this.operands = new IntBuffer(2 * instructions + 16);
    this.blockEnds = new IntBuffer(tape.blockFirst.length + 1);
    this.nt = m.nodeTypes;
  }

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

  /**
   * The first pass: what each instruction writes in the second, in order: a record's offset on
   * the tape, or `-1 - i` for `expansions[i]`.
   */
  private declareAll(): Int32Array {
    const m: BodyHost = this.m;
    const c = this.c;
    const tape = this.tape;
    const starts = tape.instructions;
    const pending = new IntBuffer(starts.length + 1);
    const blockCount = tape.blockFirst.length;
    for (let b = 0; b < blockCount; b++) {
      const nameIndex = tape.blockNames[b]!;
      if (nameIndex >= 0) {
        const name = this.strings[nameIndex]!;
        if (this.namedBlocks.has(name)) m.error(`redefinition of the label '${name}'`, tape.blockAts[b]!);
        this.namedBlocks.set(name, b);
        if (name !== '') this.nameCodes.push(b * 4 + TAG_BLOCK), this.names.push(name);
      } else this.numberedBlocks.push(b);
      const last = b + 1 < blockCount ? tape.blockFirst[b + 1]! : starts.length;
      for (let i = tape.blockFirst[b]!; i < last; i++) {
        const p = starts[i]!;
        const nameIndex = c[p + R_NAME]!;
        const name = nameIndex < 0 ? undefined : this.strings[nameIndex];
        if (c[p + R_OP] === Op.VaArg) {
          if (c[p + F] !== VaArgKind.VaArg && !m.legacyVarArgs) {
            this.expansions.push(this.expandObsoleteVarArg(p, name));
            pending.push(-this.expansions.length);
            continue;
          }
          if (c[p + F] === VaArgKind.VaArg) m.varArgs.sawNew = true;
        }
        const n = this.words.length;
        const type = this.shell(p, name);
        if (type.kind !== 'void' || name === undefined) this.define(n * 4 + TAG_INSTRUCTION, type, name, c[p + R_AT]!);
        else m.error(`'%${name}' names an instruction that produces no value`, c[p + R_AT]!);
        pending.push(p);
      }
      this.blockEnds.push(this.words.length);
    }
    return pending.view();
  }

  /** The second pass: operands, in the order of the instructions. */
  private fillAll(pending: Int32Array): void {
    for (let i = 0; i < pending.length; i++) {
      const p = pending[i]!;
      if (p < 0) this.fillExpansion(this.expansions[-1 - p]!);
      else {
        this.fill(p, this.operandEnds.length);
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

  private plane(type: Type): LocalPlane {
    let plane = this.planes.get(type);
    if (plane === undefined) this.planes.set(type, (plane = { names: undefined, numbers: [], moduleCount: this.m.moduleCount(type) }));
    return plane;
  }

  private define(code: number, type: Type, name: string | undefined, at: number): void {
    if (name === undefined) {
      if (type.kind !== 'void') this.plane(type).numbers.push(code);
      return;
    }
    const plane = this.plane(type);
    const names = (plane.names ??= new Map());
    if (names.has(name)) this.m.error(`redefinition of '%${name}' of type ${this.m.describe(type)}`, at);
    names.set(name, code);
  }

  private hasLocalName(type: Type, name: string): boolean {
    return this.planes.get(type)?.names?.has(name) === true;
  }

  /** The code of local value `%n` of type `t`, or undefined (module-level values come first). */
  private localNumber(t: Type, n: number): number | undefined {
    const plane = this.planes.get(t);
    if (plane === undefined || n < plane.moduleCount) return undefined;
    return plane.numbers[n - plane.moduleCount];
  }

  /** The code of a local value, or undefined. */
  private local(t: Type, ref: ValueRef & ({ k: 'name' } | { k: 'num' })): number | undefined {
    if (ref.k === 'name') return this.planes.get(t)?.names?.get(ref.name);
    return this.localNumber(t, ref.n);
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

  /** The value of type `t` the reference at `p` on the tape names: its code. */
  private value(t: Type, p: number): number {
    const c = this.c;
    const kind = c[p]! as Ref;
    if (t.kind === 'label') this.m.error('a basic block cannot be used here', c[p + 2]!);
    if (kind === Ref.Name) {
      const name = this.strings[c[p + 1]!]!;
      const local = this.planes.get(t)?.names?.get(name);
      if (local !== undefined) return this.operandCode(local);
      const global = this.m.lookupGlobalName(t, name);
      if (global === undefined) this.m.error(`use of undefined value '%${name}' of type ${this.m.describe(t)}`, c[p + 2]!);
      return this.valueCode(global);
    }
    if (kind === Ref.Num) {
      const n = c[p + 1]!;
      const local = this.localNumber(t, n);
      if (local !== undefined) return this.operandCode(local);
      const global = this.m.lookupGlobalNumber(t, n);
      if (global === undefined) this.m.error(`use of undefined value '%${n}' of type ${this.m.describe(t)}`, c[p + 2]!);
      return this.valueCode(global);
    }
    if (kind === Ref.Int) return this.valueCode(this.m.integerConstant(t, this.strings[c[p + 1]!]!, c[p + 2]!));
    const ref = this.tape.refs[c[p + 1]!]!;
    if (ref.k === 'name' || ref.k === 'num') {
      const local = this.local(t, ref);
      if (local !== undefined) return this.operandCode(local);
      const global = this.m.lookupGlobal(t, ref);
      if (global === undefined) this.m.error(`use of undefined value '${refText(ref)}' of type ${this.m.describe(t)}`, ref.at);
      return this.valueCode(global);
    }
    return this.valueCode(this.m.constant(t, ref, this));
  }

  /** The typed value at `p` (a type node, then a reference): its code. */
  private typed(p: number): number {
    return this.value(this.nt[this.c[p]!]!, p + 1);
  }

  /** The block the reference at `p` names: its code. */
  private block(p: number): number {
    const c = this.c;
    const kind = c[p]! as Ref;
    let b: number | undefined;
    if (kind === Ref.Name) b = this.namedBlocks.get(this.strings[c[p + 1]!]!);
    else if (kind === Ref.Num) b = this.numberedBlocks[c[p + 1]!];
    else {
      const ref = refObject(this.tape, p);
      if (ref.k !== 'num') this.m.error('expected a label', ref.at);
    }
    if (b === undefined) this.m.error(`use of undefined label '${refText(refObject(this.tape, p))}'`, c[p + 2]!);
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

  /** The instruction of the record at `p` with its opcode and result type (returned); operands come in `fill`. */
  private shell(p: number, name: string | undefined): Type {
    const m: BodyHost = this.m;
    const c = this.c;
    const at = c[p + R_AT]!;
    m.markTypes(c[p + R_MARK]!);
    let type: Type;
    switch (c[p + R_OP]! as Op) {
      case Op.Binary: {
        const t = this.nt[c[p + F + 1]]!;
        const opcode = upgradeBinaryOpcode(BINARY_OPCODES[c[p + F]!]!, t);
        type = opcode.startsWith('set') ? (t.kind === 'packed' ? m.error('setcc of packed values', at) : primitiveTypes.bool) : t;
        this.emit(opcode, type, name);
        return type;
      }
      case Op.Not:
        type = this.nt[c[p + F]]!;
        this.emit('xor', type, name);
        return type;
      case Op.Shift:
        type = this.nt[c[p + F + 1]]!;
        this.emit(c[p + F] === 0 ? 'shl' : 'shr', type, name);
        return type;
      case Op.Cast:
        type = this.nt[c[p + F + 4]]!;
        this.emit('cast', type, name);
        return type;
      case Op.Select:
        type = this.nt[c[p + F + 4]]!;
        this.emit('select', type, name);
        return type;
      case Op.Vector: {
        const opcode = VECTOR_OPCODES[c[p + F]!]!;
        const t = this.nt[c[p + F + 1]]!;
        if (t.kind !== 'packed') m.error(`${opcode} of a non-packed value`, at);
        type = opcode === 'extractelement' ? t.element : t;
        this.emit(opcode, type, name);
        return type;
      }
      case Op.VaArg: {
        const kind = c[p + F]! as VaArgKind;
        const argType = this.nt[c[p + F + 5]]!;
        if (kind === VaArgKind.VaArg) {
          type = argType;
          this.emit('vaarg', type, name);
        } else if (kind === VaArgKind.VaNext) {
          // `vanext %ap, T` steps the va_list over a T: the result is the va_list's type.
          type = this.nt[c[p + F + 1]]!;
          this.emit('vanext', type, name, { argType });
        } else {
          type = argType;
          this.emit('vaarg', type, name, { legacyVarArgs: true });
        }
        return type;
      }
      case Op.Phi:
        type = this.nt[c[p + F]]!;
        this.emit('phi', type, name);
        return type;
      case Op.Call: {
        const ft = this.calleeType(c[p + F + 2]!, p + F + 6, at);
        type = ft.returnType;
        this.emit('call', type, name, { callingConv: heldCallingConvention('call', c[p + F + 1]! >>> 0), isTailCall: c[p + F] === 1 });
        return type;
      }
      case Op.Invoke: {
        const ft = this.calleeType(c[p + F + 1]!, p + F + 5, at);
        type = ft.returnType;
        this.emit('invoke', type, name, { callingConv: heldCallingConvention('invoke', c[p + F]! >>> 0) });
        return type;
      }
      case Op.Alloc: {
        const t = this.nt[c[p + F + 1]]!;
        type = m.pointerTo(t);
        const alignment = c[p + F + (c[p + F + 2] === 1 ? 6 : 3)]! >>> 0;
        this.emit(c[p + F] === 0 ? 'malloc' : 'alloca', type, name, { allocatedType: t, alignment });
        return type;
      }
      case Op.Free:
        this.emit('free', primitiveTypes.void, name);
        return primitiveTypes.void;
      case Op.Load: {
        const pt = this.nt[c[p + F + 1]]!;
        if (pt.kind !== 'pointer') m.error(`load through ${m.describe(pt)}, which is not a pointer`, at);
        if (!isFirstClassType(pt.element)) m.error(`load of a value of type ${m.describe(pt.element)}`, at);
        this.emit('load', pt.element, name, c[p + F] === 1 ? { isVolatile: true } : undefined);
        return pt.element;
      }
      case Op.Store:
        this.emit('store', primitiveTypes.void, name, c[p + F] === 1 ? { isVolatile: true } : undefined);
        return primitiveTypes.void;
      case Op.GetElementPtr: {
        const pt = this.nt[c[p + F]]!;
        if (pt.kind !== 'pointer') m.error(`getelementptr of ${m.describe(pt)}, which is not a pointer`, at);
        type = m.pointerTo(this.indexedType(pt, p + F + 4, at));
        this.emit('getelementptr', type, name);
        return type;
      }
      case Op.Ret:
        this.emit('ret', primitiveTypes.void, name);
        return primitiveTypes.void;
      case Op.Br:
      case Op.CondBr:
        this.emit('br', primitiveTypes.void, name);
        return primitiveTypes.void;
      case Op.Switch:
        this.emit('switch', primitiveTypes.void, name);
        return primitiveTypes.void;
      case Op.Unwind:
        this.emit('unwind', primitiveTypes.void, name);
        return primitiveTypes.void;
      case Op.Unreachable:
        this.emit('unreachable', primitiveTypes.void, name);
        return primitiveTypes.void;
    }
  }

  /**
   * The type `getelementptr` reaches from a pointer of type `base` through the indices at
   * `indices` (their count, then each typed value): build-module.ts's `indexedType`, read off the
   * tape. Structure indices are constants, so the result follows from the text alone.
   */
  private indexedType(base: PointerType, indices: number, at: number): Type {
    const m: BodyHost = this.m;
    const c = this.c;
    const count = c[indices]!;
    // Every integer literal index must fit its type (as the constant it becomes).
    for (let i = 0, q = indices + 1; i < count; i++, q += 4) {
      if (c[q + 1] === Ref.Int) {
        const t = this.nt[c[q]]!;
        if (isInteger(t)) m.integer(t, this.strings[c[q + 2]!]!, c[q + 3]!);
      }
    }
    let t: Type = base.element;
    for (let i = 1, q = indices + 5; i < count; i++, q += 4) {
      const it = this.nt[c[q]]!;
      if (t.kind === 'struct') {
        if (c[q + 1] !== Ref.Int || (it.kind !== 'ubyte' && it.kind !== 'uint')) m.error('a structure index must be a ubyte or uint constant', at);
        const value = m.integer(it, this.strings[c[q + 2]!]!, c[q + 3]!);
        const field = t.elements[Number(value)];
        if (field === undefined) m.error(`structure index ${value} is out of range`, at);
        t = field;
      } else if (t.kind === 'array' || t.kind === 'packed') {
        if (!isInteger(it)) m.error('an array index must be an integer', at);
        t = t.element;
      } else m.error(`getelementptr indexes into ${m.describe(t)}, which is not a structure or an array`, at);
    }
    if (count > 0 && !isInteger(this.nt[c[indices + 1]]!)) m.error('a getelementptr index must be an integer', at);
    return t;
  }

  /**
   * `call`/`invoke`'s written type: the function pointer type, or the return type alone (then the
   * arguments' types, from the argument list at `args`: its count, then each typed value).
   */
  private calleeType(typeNode: number, args: number, at: number): FunctionType {
    const m: BodyHost = this.m;
    const c = this.c;
    const t = this.nt[typeNode]!;
    if (t.kind === 'pointer' && t.element.kind === 'function') return t.element;
    if (!isFirstClassType(t) && t.kind !== 'void') m.error(`a call returning ${m.describe(t)}`, at);
    const params: Type[] = [];
    for (let i = 0, count = c[args]!; i < count; i++) params.push(this.nt[c[args + 1 + 4 * i]]!);
    return m.functionType(t, params, false);
  }

  /**
   * `vaarg %ap, T` / `vanext %ap, T` in 1.6+ text, expanded as LLVM 1.6–1.9's parser did
   * (obsolete-varargs.ts, step 1): an alloca, a call of the old `llvm.va_copy`, a store, a
   * `va_arg` (and for `vanext` a load); their operands are written in the second pass like every
   * other instruction's. Only the last one is the text's value (it takes the text's name or
   * number); the parser's own values are not numbered.
   */
  private expandObsoleteVarArg(p: number, name: string | undefined): ObsoleteExpansion {
    const m: BodyHost = this.m;
    const c = this.c;
    const at = c[p + R_AT]!;
    const vanext = c[p + F] === VaArgKind.VaNext;
    m.markTypes(c[p + R_MARK]!);
    m.varArgs.sawObsolete = true;
    const listType = this.nt[c[p + F + 1]]!;
    const argType = this.nt[c[p + F + 5]]!;
    const copy = m.getOrInsertFunctionWhileParsing('llvm.va_copy', m.functionType(listType, [listType], false), this.fn, at);
    const slotType = m.pointerTo(listType);
    const slotName = uniqueName((n) => this.hasLocalName(slotType, n), vanext ? 'vanext.fix' : 'vaarg.fix', this.lastUnique);
    const first = this.emit('alloca', slotType, slotName, { allocatedType: listType, alignment: 0 });
    this.define(first * 4 + TAG_INSTRUCTION, slotType, slotName, at);
    this.parserCalls.push(first + 1);
    this.emit('call', listType, undefined, { callingConv: 0, isTailCall: false });
    this.emit('store', primitiveTypes.void, undefined);
    const result = vanext ? listType : argType;
    if (vanext) {
      this.emit('vaarg', argType, undefined);
      this.emit('load', listType, name);
    } else this.emit('vaarg', argType, name);
    this.define((this.words.length - 1) * 4 + TAG_INSTRUCTION, result, name, at);
    return { p, copy, first };
  }

  private fillExpansion(e: ObsoleteExpansion): void {
    const slot = e.first * 4 + TAG_INSTRUCTION;
    const copied = (e.first + 1) * 4 + TAG_INSTRUCTION;
    const ops = this.operands;
    const end = (): void => void this.operandEnds.push(ops.length);
    ops.push(this.valueCode({ kind: 'int', type: primitiveTypes.uint, value: 1n }));
    end();
    ops.push(this.valueCode(e.copy));
    ops.push(this.typed(e.p + F + 1));
    end();
    ops.push(copied);
    ops.push(slot);
    end();
    ops.push(slot);
    end();
    if (this.c[e.p + F] === VaArgKind.VaNext) {
      ops.push(slot);
      end();
    }
  }

  // -------------------------------------------------------------------------------------------
  // Second pass

  /** Writes the operands of instruction `n`, whose record is at `p`. */
  private fill(p: number, n: number): void {
    const m: BodyHost = this.m;
    const c = this.c;
    const ops = this.operands;
    const at = c[p + R_AT]!;
    switch (c[p + R_OP]! as Op) {
      case Op.Binary: {
        const t = this.nt[c[p + F + 1]]!;
        const lhs = this.value(t, p + F + 2);
        ops.push(lhs);
        ops.push(this.value(t, p + F + 5));
        break;
      }
      case Op.Not: {
        const v = this.typed(p + F);
        ops.push(v);
        ops.push(this.valueCode(allOnes(this.typeOfCode(v), at, m)));
        break;
      }
      case Op.Shift: {
        const v = this.typed(p + F + 1);
        const amount = this.typed(p + F + 5);
        ops.push(v);
        ops.push(amount);
        if (this.typeOfCode(amount).kind !== 'ubyte') m.error('a shift amount must be a ubyte', at);
        break;
      }
      case Op.Cast:
      case Op.Free: {
        const v = this.typed(p + F);
        ops.push(v);
        if (c[p + R_OP] === Op.Free && this.typeOfCode(v).kind !== 'pointer') m.error('free of a non-pointer', at);
        break;
      }
      case Op.Select:
        for (let i = 0; i < 3; i++) ops.push(this.typed(p + F + 4 * i));
        break;
      case Op.Vector: {
        const count = c[p + F] === 0 ? 2 : 3;
        for (let i = 0; i < count; i++) ops.push(this.typed(p + F + 1 + 4 * i));
        break;
      }
      case Op.VaArg:
        ops.push(this.typed(p + F + 1));
        break;
      case Op.Phi: {
        const t = this.instTypes[n]!;
        const count = c[p + F + 1]!;
        for (let i = 0, q = p + F + 2; i < count; i++, q += 2 * REF_SIZE) {
          const value = this.value(t, q);
          ops.push(value);
          ops.push(this.block(q + REF_SIZE));
        }
        break;
      }
      case Op.Call:
        this.fillCall(p + F + 2, p + F + 3, p + F + 6, 0, at);
        break;
      case Op.Invoke:
        this.fillCall(p + F + 1, p + F + 2, p + F + 5, p + F + 5 + 1 + 4 * c[p + F + 5]!, at);
        break;
      case Op.Alloc:
        ops.push(c[p + F + 2] === 1 ? this.value(primitiveTypes.uint, p + F + 3) : this.valueCode({ kind: 'int', type: primitiveTypes.uint, value: 1n }));
        break;
      case Op.Load:
        ops.push(this.value(this.nt[c[p + F + 1]]!, p + F + 2));
        break;
      case Op.Store: {
        const v = this.typed(p + F + 1);
        const pt = this.nt[c[p + F + 5]]!;
        const vt = this.typeOfCode(v);
        if (pt.kind !== 'pointer' || pt.element !== vt) m.error(`store of ${m.describe(vt)} through ${m.describe(pt)}`, at);
        ops.push(v);
        ops.push(this.value(pt, p + F + 6));
        break;
      }
      case Op.GetElementPtr: {
        const pt = this.nt[c[p + F]]!;
        ops.push(this.value(pt, p + F + 1));
        const count = c[p + F + 4]!;
        for (let i = 0; i < count; i++) ops.push(this.typed(p + F + 5 + 4 * i));
        break;
      }
      case Op.Ret:
        if (c[p + F] === 1) ops.push(this.typed(p + F + 1));
        break;
      case Op.Br:
        ops.push(this.block(p + F));
        break;
      case Op.CondBr: {
        const cond = this.value(primitiveTypes.bool, p + F);
        const ifTrue = this.block(p + F + REF_SIZE);
        ops.push(cond);
        ops.push(ifTrue);
        ops.push(this.block(p + F + 2 * REF_SIZE));
        break;
      }
      case Op.Switch: {
        const t = this.nt[c[p + F]]!;
        const cond = this.value(t, p + F + 1);
        ops.push(cond);
        ops.push(this.block(p + F + 4));
        const count = c[p + F + 7]!;
        for (let i = 0, q = p + F + 8; i < count; i++, q += 1 + 2 * REF_SIZE) {
          const value = this.value(this.nt[c[q]]!, q + 1);
          ops.push(value);
          ops.push(this.block(q + 1 + REF_SIZE));
        }
        break;
      }
      case Op.Unwind:
      case Op.Unreachable:
        break;
    }
  }

  /**
   * A call's or an invoke's operands: the callee (the written type at `typeAt`, the reference at
   * `calleeAt`), an invoke's two blocks (`blocksAt`, 0 for a call), the arguments (`argsAt`: the
   * count, then each typed value).
   */
  private fillCall(typeAt: number, calleeAt: number, argsAt: number, blocksAt: number, at: number): void {
    const m: BodyHost = this.m;
    const c = this.c;
    const ops = this.operands;
    const ft = this.calleeType(c[typeAt]!, argsAt, at);
    ops.push(this.value(m.pointerTo(ft), calleeAt));
    if (blocksAt !== 0) {
      const normal = this.block(blocksAt);
      ops.push(normal);
      ops.push(this.block(blocksAt + REF_SIZE));
    }
    const count = c[argsAt]!;
    if (count < ft.params.length || (!ft.isVarArg && count > ft.params.length)) {
      m.error(`the call passes ${count} arguments to a function of type ${m.describe(ft)}`, at);
    }
    for (let i = 0; i < count; i++) {
      const q = argsAt + 1 + 4 * i;
      const v = this.typed(q);
      const param = ft.params[i];
      const vt = this.typeOfCode(v);
      if (param !== undefined && param !== vt) m.error(`argument ${i + 1} has type ${m.describe(vt)}, the function takes ${m.describe(param)}`, c[q + 3]!);
      ops.push(v);
    }
  }
}

/** Instruction `n` of `fn`'s body, as objects (materializing the body). */
function instructionAt(fn: Function, n: number): Instruction {
  for (const b of fn.blocks) {
    if (n < b.instructions.length) return b.instructions[n]!;
    n -= b.instructions.length;
  }
  throw new Error(`internal error: no instruction ${n} in the body`);
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
