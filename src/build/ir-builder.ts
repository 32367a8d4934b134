/**
 * `IRBuilder`: appends instructions to a basic block, computing each result type as LLVM 1.9 did
 * and refusing (with a `BuildError`) operands LLVM would refuse: an `add` of an `int` and a
 * `uint`, a load from a non-pointer, a call with the wrong number or types of arguments, a value
 * of another function, an instruction after the block's terminator.
 *
 * Names are optional; a name already used in the function gets a number appended (`tmp` →
 * `tmp1`). Instructions without a value (`store`, a call returning void, terminators) take none.
 */
import { describeType } from '../graph/describe.js';
import { isTerminatorOpcode } from '../graph/opcodes.js';
import { isInteger, sameType, type FunctionType, type Type } from '../graph/type.js';
import type { BasicBlock, Constant, Function, Instruction, Opcode, Value } from '../graph/value.js';
import type { BuildContext } from './context.js';
import { BuildError } from './error.js';
import {
  binaryResult,
  checkCast,
  compareResult,
  describeValue,
  gepResult,
  isFirstClass,
  selectResult,
  shiftResult,
  type BinaryOpcode,
  type CompareOpcode,
  type ShiftOpcode,
} from './rules.js';

/** @category Build */
export interface LoadStoreOptions {
  name?: string;
  volatile?: boolean;
}

/** @category Build */
export interface CallOptions {
  name?: string;
  /** `call` only: marked `tail`. */
  tail?: boolean;
  /** Calling convention number or name; default: the callee's when it is a function, else C. */
  callingConv?: CallingConv;
}

/** @category Build */
export interface AllocOptions {
  name?: string;
  /** Number of elements (a uint value); default one. */
  count?: Value;
  /** Alignment in bytes (a power of two); default unspecified. */
  alignment?: number;
}

/** @category Build */
export type CallingConv = number | 'ccc' | 'csretcc' | 'fastcc' | 'coldcc' | 'x86_stdcallcc' | 'x86_fastcallcc';

const CALLING_CONVS: Readonly<Record<string, number>> = { ccc: 0, csretcc: 1, fastcc: 8, coldcc: 9, x86_stdcallcc: 64, x86_fastcallcc: 65 };

/** A calling convention name or number as LLVM's number. */
export function callingConvNumber(cc: CallingConv, operation: string): number {
  const n = typeof cc === 'number' ? cc : CALLING_CONVS[cc];
  if (n === undefined || !Number.isInteger(n) || n < 0 || n > 0x3ff) throw new BuildError(operation, `unknown calling convention ${String(cc)}`);
  return n;
}

/**
 * Appends instructions to a block of a function made by a {@link ModuleBuilder}
 * (`mb.builder(block)`). Every method checks its operands as LLVM 1.9 did and throws a
 * `BuildError` naming the operation and the mistake; the new instruction is returned.
 *
 * @category Build
 */
export class IRBuilder {
  private current: BasicBlock | undefined;
  private fn: Function | undefined;

  /** @internal Made by `ModuleBuilder.builder(block)`. */
  constructor(
    private readonly ctx: BuildContext,
    block?: BasicBlock,
  ) {
    if (block !== undefined) this.positionAtEnd(block);
  }

  /** Further instructions go to the end of `block`. */
  positionAtEnd(block: BasicBlock): this {
    const fn = block.kind === 'block' ? this.ctx.owner.get(block) : undefined;
    if (fn === undefined) throw new BuildError('positionAtEnd', 'the block was not made by this module builder (use addBlock)');
    this.current = block;
    this.fn = fn;
    return this;
  }

  /** The block instructions are appended to. */
  get block(): BasicBlock {
    return this.here('block').block;
  }

  /** The function of that block. */
  get function(): Function {
    return this.here('function').fn;
  }

  // ---- terminators ---------------------------------------------------------------------------

  /** `ret void` (no value) or `ret T v`. */
  ret(value?: Value): Instruction {
    const { fn } = this.here('ret');
    const rt = fn.functionType.returnType;
    if (value === undefined) {
      if (rt.kind !== 'void') throw new BuildError('ret', `function @${fn.name ?? '(unnamed)'} returns ${describeType(rt)}, so ret needs a value`);
      return this.emit('ret', [], undefined);
    }
    this.use('ret', value, 'the returned value');
    if (rt.kind === 'void') throw new BuildError('ret', `function @${fn.name ?? '(unnamed)'} returns void, so ret takes no value`);
    if (!sameType(value.type, rt)) throw new BuildError('ret', `returns ${describeValue(value)} from a function returning ${describeType(rt)}`);
    return this.emit('ret', [value], undefined);
  }

  /** `br label %dest`. */
  br(dest: BasicBlock): Instruction {
    this.target('br', dest, 'the destination');
    return this.emit('br', [dest], undefined);
  }

  /** `br bool %cond, label %ifTrue, label %ifFalse`. */
  condBr(cond: Value, ifTrue: BasicBlock, ifFalse: BasicBlock): Instruction {
    this.use('br', cond, 'the condition');
    if (cond.type.kind !== 'bool') throw new BuildError('br', `the condition must be a bool, not ${describeValue(cond)}`);
    this.target('br', ifTrue, 'the true destination');
    this.target('br', ifFalse, 'the false destination');
    return this.emit('br', [cond, ifTrue, ifFalse], undefined);
  }

  /** `switch T %cond, label %default [ T v, label %dest … ]`; more cases with `addCase`. */
  switch(cond: Value, defaultDest: BasicBlock, cases: readonly (readonly [Constant, BasicBlock])[] = []): Instruction {
    this.use('switch', cond, 'the condition');
    if (!isInteger(cond.type) && cond.type.kind !== 'bool') throw new BuildError('switch', `the condition must be an integer, not ${describeValue(cond)}`);
    this.target('switch', defaultDest, 'the default destination');
    const sw = this.emit('switch', [cond, defaultDest], undefined);
    for (const [v, d] of cases) this.addCase(sw, v, d);
    return sw;
  }

  /** Adds `value → dest` to a switch. Case values are constants of the condition's type, each once. */
  addCase(sw: Instruction, value: Constant, dest: BasicBlock): void {
    if (sw.kind !== 'instruction' || sw.opcode !== 'switch') throw new BuildError('addCase', 'not a switch instruction');
    const fn = this.ctx.owner.get(sw);
    const cond = sw.operands[0]!;
    if (value.kind !== 'int' && value.kind !== 'bool') throw new BuildError('switch', `a case value must be an integer constant, not ${describeValue(value)}`);
    if (!sameType(value.type, cond.type))
      throw new BuildError('switch', `the case value ${describeValue(value)} does not have the condition's type ${describeType(cond.type)}`);
    for (let i = 2; i < sw.operands.length; i += 2) {
      const o = sw.operands[i]!;
      if ((o.kind === 'int' || o.kind === 'bool') && o.value === value.value)
        throw new BuildError('switch', `the case value ${String(value.value)} is already listed`);
    }
    if (dest.kind !== 'block' || this.ctx.owner.get(dest) !== fn) throw new BuildError('switch', 'a case destination must be a block of the same function');
    sw.operands.push(value, dest);
  }

  /** `invoke`: a call that continues at `normal`, or at `unwindDest` if the callee unwinds. */
  invoke(callee: Value, args: readonly Value[], normal: BasicBlock, unwindDest: BasicBlock, options: CallOptions | string = {}): Instruction {
    const o = typeof options === 'string' ? { name: options } : options;
    if (o.tail) throw new BuildError('invoke', 'an invoke cannot be a tail call');
    const ft = this.checkCall('invoke', callee, args);
    this.target('invoke', normal, 'the normal destination');
    this.target('invoke', unwindDest, 'the unwind destination');
    const inst = this.emit('invoke', [callee, normal, unwindDest, ...args], o.name, ft.returnType);
    inst.callingConv = this.convOf('invoke', callee, o.callingConv);
    return inst;
  }

  /** `unwind`: ends the block by unwinding to the nearest `invoke`'s exception destination. */
  unwind(): Instruction {
    return this.emit('unwind', [], undefined);
  }

  /** `unreachable`: ends a block that control never reaches (bytecode version 5 and later). */
  unreachable(): Instruction {
    return this.emit('unreachable', [], undefined);
  }

  // ---- arithmetic ----------------------------------------------------------------------------

  /** A binary operation on two values of one type (see `rules.ts` for which types each takes). */
  binary(op: BinaryOpcode, lhs: Value, rhs: Value, name?: string): Instruction {
    this.use(op, lhs, 'the left operand');
    this.use(op, rhs, 'the right operand');
    return this.emit(op, [lhs, rhs], name, binaryResult(op, lhs, rhs));
  }

  /** `add`: the integer or floating-point sum of two values of one type. */
  add(lhs: Value, rhs: Value, name?: string): Instruction {
    return this.binary('add', lhs, rhs, name);
  }
  /** `sub`: the difference of two values of one type. */
  sub(lhs: Value, rhs: Value, name?: string): Instruction {
    return this.binary('sub', lhs, rhs, name);
  }
  /** `mul`: the product of two values of one type. */
  mul(lhs: Value, rhs: Value, name?: string): Instruction {
    return this.binary('mul', lhs, rhs, name);
  }
  /** `udiv`: the unsigned integer quotient (printed `div` before LLVM 1.9) of two values of one type. */
  udiv(lhs: Value, rhs: Value, name?: string): Instruction {
    return this.binary('udiv', lhs, rhs, name);
  }
  /** `sdiv`: the signed integer quotient of two values of one type. */
  sdiv(lhs: Value, rhs: Value, name?: string): Instruction {
    return this.binary('sdiv', lhs, rhs, name);
  }
  /** `fdiv`: the floating-point quotient of two values of one type. */
  fdiv(lhs: Value, rhs: Value, name?: string): Instruction {
    return this.binary('fdiv', lhs, rhs, name);
  }
  /** `urem`: the unsigned integer remainder of two values of one type. */
  urem(lhs: Value, rhs: Value, name?: string): Instruction {
    return this.binary('urem', lhs, rhs, name);
  }
  /** `srem`: the signed integer remainder of two values of one type. */
  srem(lhs: Value, rhs: Value, name?: string): Instruction {
    return this.binary('srem', lhs, rhs, name);
  }
  /** `frem`: the floating-point remainder of two values of one type. */
  frem(lhs: Value, rhs: Value, name?: string): Instruction {
    return this.binary('frem', lhs, rhs, name);
  }
  /** `and`: the bitwise and of integers or bools of two values of one type. */
  and(lhs: Value, rhs: Value, name?: string): Instruction {
    return this.binary('and', lhs, rhs, name);
  }
  /** `or`: the bitwise or of integers or bools of two values of one type. */
  or(lhs: Value, rhs: Value, name?: string): Instruction {
    return this.binary('or', lhs, rhs, name);
  }
  /** `xor`: the bitwise exclusive or of integers or bools of two values of one type. */
  xor(lhs: Value, rhs: Value, name?: string): Instruction {
    return this.binary('xor', lhs, rhs, name);
  }

  /** A comparison; the result is bool (a packed bool for packed operands). */
  compare(op: CompareOpcode, lhs: Value, rhs: Value, name?: string): Instruction {
    this.use(op, lhs, 'the left operand');
    this.use(op, rhs, 'the right operand');
    return this.emit(op, [lhs, rhs], name, compareResult(this.ctx.types, op, lhs, rhs));
  }

  /** `seteq`: whether `lhs` is equal to `rhs` (bool). */
  seteq(lhs: Value, rhs: Value, name?: string): Instruction {
    return this.compare('seteq', lhs, rhs, name);
  }
  /** `setne`: whether `lhs` is not equal to `rhs` (bool). */
  setne(lhs: Value, rhs: Value, name?: string): Instruction {
    return this.compare('setne', lhs, rhs, name);
  }
  /** `setle`: whether `lhs` is less or equal `rhs` (bool; signed or unsigned by the operands' type). */
  setle(lhs: Value, rhs: Value, name?: string): Instruction {
    return this.compare('setle', lhs, rhs, name);
  }
  /** `setge`: whether `lhs` is greater or equal `rhs` (bool; signed or unsigned by the operands' type). */
  setge(lhs: Value, rhs: Value, name?: string): Instruction {
    return this.compare('setge', lhs, rhs, name);
  }
  /** `setlt`: whether `lhs` is less than `rhs` (bool; signed or unsigned by the operands' type). */
  setlt(lhs: Value, rhs: Value, name?: string): Instruction {
    return this.compare('setlt', lhs, rhs, name);
  }
  /** `setgt`: whether `lhs` is greater than `rhs` (bool; signed or unsigned by the operands' type). */
  setgt(lhs: Value, rhs: Value, name?: string): Instruction {
    return this.compare('setgt', lhs, rhs, name);
  }

  /** `shl`/`shr` of an integer by a ubyte amount (`shr` is arithmetic on signed types, logical on unsigned). */
  shift(op: ShiftOpcode, value: Value, amount: Value, name?: string): Instruction {
    this.use(op, value, 'the shifted value');
    this.use(op, amount, 'the shift amount');
    return this.emit(op, [value, amount], name, shiftResult(op, value, amount));
  }
  /** `shl`: `value` shifted left by a ubyte `amount`. */
  shl(value: Value, amount: Value, name?: string): Instruction {
    return this.shift('shl', value, amount, name);
  }
  /** `shr`: `value` shifted right by a ubyte `amount` (arithmetic for signed types, logical for unsigned). */
  shr(value: Value, amount: Value, name?: string): Instruction {
    return this.shift('shr', value, amount, name);
  }

  // ---- memory --------------------------------------------------------------------------------

  /** `malloc T [, uint n]`: a `T*` on the heap. */
  malloc(type: Type, options: AllocOptions | string = {}): Instruction {
    return this.alloc('malloc', type, options);
  }

  /** `alloca T [, uint n]`: a `T*` in the stack frame. */
  alloca(type: Type, options: AllocOptions | string = {}): Instruction {
    return this.alloc('alloca', type, options);
  }

  /** `free`: releases memory that `malloc` gave. */
  free(ptr: Value): Instruction {
    this.use('free', ptr, 'the freed pointer');
    if (ptr.type.kind !== 'pointer') throw new BuildError('free', `frees a pointer, not ${describeValue(ptr)}`);
    return this.emit('free', [ptr], undefined);
  }

  /** `load T* %p`: the result has the pointed-to type. */
  load(ptr: Value, options: LoadStoreOptions | string = {}): Instruction {
    const o = typeof options === 'string' ? { name: options } : options;
    this.use('load', ptr, 'the address');
    if (ptr.type.kind !== 'pointer') throw new BuildError('load', `loads through a pointer, not ${describeValue(ptr)}`);
    if (!isFirstClass(ptr.type.element)) throw new BuildError('load', `cannot load a value of type ${describeType(ptr.type.element)} (only first-class types)`);
    const inst = this.emit('load', [ptr], o.name, ptr.type.element);
    if (o.volatile) inst.isVolatile = true;
    return inst;
  }

  /** `store T %v, T* %p`. */
  store(value: Value, ptr: Value, options: LoadStoreOptions = {}): Instruction {
    this.use('store', value, 'the stored value');
    this.use('store', ptr, 'the address');
    if (ptr.type.kind !== 'pointer') throw new BuildError('store', `stores through a pointer, not ${describeValue(ptr)}`);
    if (!sameType(value.type, ptr.type.element))
      throw new BuildError('store', `stores ${describeValue(value)} through ${describeValue(ptr)}; the value must have type ${describeType(ptr.type.element)}`);
    if (options.name !== undefined && options.name !== '') throw new BuildError('store', 'a store produces no value, so it takes no name');
    const inst = this.emit('store', [value, ptr], undefined);
    if (options.volatile) inst.isVolatile = true;
    return inst;
  }

  /** `getelementptr`: the address of an element; the result type follows the indices. */
  getelementptr(ptr: Value, indices: readonly Value[], name?: string): Instruction {
    this.use('getelementptr', ptr, 'the base');
    indices.forEach((x, i) => this.use('getelementptr', x, `index ${i + 1}`));
    return this.emit('getelementptr', [ptr, ...indices], name, gepResult(this.ctx.types, ptr, indices));
  }

  // ---- other ---------------------------------------------------------------------------------

  /** `phi T [v, %bb] …`; phis come before the block's other instructions. More with `addIncoming`. */
  phi(type: Type, incoming: readonly (readonly [Value, BasicBlock])[] = [], name?: string): Instruction {
    const { block } = this.here('phi');
    if (!isFirstClass(type)) throw new BuildError('phi', `a phi cannot have type ${describeType(type)}`);
    if (block.instructions.some((i) => i.opcode !== 'phi'))
      throw new BuildError('phi', 'phis must come first in their block; this block already has other instructions');
    const phi = this.emit('phi', [], name, type);
    for (const [v, b] of incoming) this.addIncoming(phi, v, b);
    return phi;
  }

  /** Adds the value `value` coming from block `from` to a phi. */
  addIncoming(phi: Instruction, value: Value, from: BasicBlock): void {
    if (phi.kind !== 'instruction' || phi.opcode !== 'phi') throw new BuildError('addIncoming', 'not a phi instruction');
    const fn = this.ctx.owner.get(phi);
    if (fn === undefined) throw new BuildError('addIncoming', 'the phi was not made by this module builder');
    this.useIn(fn, 'phi', value, 'the incoming value');
    if (!sameType(value.type, phi.type))
      throw new BuildError('phi', `the incoming value ${describeValue(value)} does not have the phi's type ${describeType(phi.type)}`);
    if (from.kind !== 'block' || this.ctx.owner.get(from) !== fn) throw new BuildError('phi', 'the incoming block must be a block of the same function');
    phi.operands.push(value, from);
  }

  /** `cast T %v to U`: any first-class type to any other. */
  cast(value: Value, to: Type, name?: string): Instruction {
    this.use('cast', value, 'the operand');
    checkCast(value, to);
    return this.emit('cast', [value], name, to);
  }

  /**
   * `call`: the result has the callee's return type (a call returning void takes no name). The
   * callee is a function or any value of pointer-to-function type.
   */
  call(callee: Value, args: readonly Value[] = [], options: CallOptions | string = {}): Instruction {
    const o = typeof options === 'string' ? { name: options } : options;
    const ft = this.checkCall('call', callee, args);
    const inst = this.emit('call', [callee, ...args], o.name, ft.returnType);
    inst.callingConv = this.convOf('call', callee, o.callingConv);
    if (o.tail) inst.isTailCall = true;
    return inst;
  }

  /** `select`: `ifTrue` when `cond` is true, else `ifFalse` (not expressible in bytecode version 0). */
  select(cond: Value, ifTrue: Value, ifFalse: Value, name?: string): Instruction {
    this.use('select', cond, 'the condition');
    this.use('select', ifTrue, 'the true value');
    this.use('select', ifFalse, 'the false value');
    return this.emit('select', [cond, ifTrue, ifFalse], name, selectResult(cond, ifTrue, ifFalse));
  }

  /** `va_arg T* %ap, U` (LLVM 1.6+): the next variable argument, of type `type`, from the va_list `ap` points to. */
  vaarg(vaListPtr: Value, type: Type, name?: string): Instruction {
    this.use('va_arg', vaListPtr, 'the va_list pointer');
    if (vaListPtr.type.kind !== 'pointer') throw new BuildError('va_arg', `takes a pointer to the va_list, not ${describeValue(vaListPtr)}`);
    if (!isFirstClass(type)) throw new BuildError('va_arg', `cannot read an argument of type ${describeType(type)}`);
    return this.emit('vaarg', [vaListPtr], name, type);
  }

  /** `extractelement <n x T> %v, uint %i`: the element type. */
  extractElement(vector: Value, index: Value, name?: string): Instruction {
    this.use('extractelement', vector, 'the vector');
    this.use('extractelement', index, 'the index');
    if (vector.type.kind !== 'packed') throw new BuildError('extractelement', `extracts from a packed vector, not ${describeValue(vector)}`);
    if (index.type.kind !== 'uint') throw new BuildError('extractelement', `the index must be a uint, not ${describeValue(index)}`);
    return this.emit('extractelement', [vector, index], name, vector.type.element);
  }

  /** `insertelement <n x T> %v, T %e, uint %i`: the vector type. */
  insertElement(vector: Value, element: Value, index: Value, name?: string): Instruction {
    this.use('insertelement', vector, 'the vector');
    this.use('insertelement', element, 'the element');
    this.use('insertelement', index, 'the index');
    if (vector.type.kind !== 'packed') throw new BuildError('insertelement', `inserts into a packed vector, not ${describeValue(vector)}`);
    if (!sameType(element.type, vector.type.element))
      throw new BuildError(
        'insertelement',
        `the element ${describeValue(element)} does not have the vector's element type ${describeType(vector.type.element)}`,
      );
    if (index.type.kind !== 'uint') throw new BuildError('insertelement', `the index must be a uint, not ${describeValue(index)}`);
    return this.emit('insertelement', [vector, element, index], name, vector.type);
  }

  /** `shufflevector`: two vectors of one packed type and a constant `<n x uint>` mask. */
  shuffleVector(v1: Value, v2: Value, mask: Value, name?: string): Instruction {
    const op = 'shufflevector';
    this.use(op, v1, 'the first vector');
    this.use(op, v2, 'the second vector');
    this.use(op, mask, 'the mask');
    if (v1.type.kind !== 'packed') throw new BuildError(op, `shuffles packed vectors, not ${describeValue(v1)}`);
    if (!sameType(v1.type, v2.type)) throw new BuildError(op, `the vectors have different types (${describeValue(v1)} and ${describeValue(v2)})`);
    const mt = mask.type;
    if (mt.kind !== 'packed' || mt.element.kind !== 'uint' || mt.length !== v1.type.length) {
      throw new BuildError(op, `the mask must be a <${v1.type.length} x uint>, not ${describeValue(mask)}`);
    }
    if (mask.kind !== 'packed' && mask.kind !== 'zeroinitializer' && mask.kind !== 'undef') throw new BuildError(op, 'the mask must be a constant');
    return this.emit(op, [v1, v2, mask], name, v1.type);
  }

  // ---- internals -----------------------------------------------------------------------------

  private here(operation: string): { block: BasicBlock; fn: Function } {
    if (this.current === undefined || this.fn === undefined) throw new BuildError(operation, 'the builder is not positioned at a block (positionAtEnd)');
    return { block: this.current, fn: this.fn };
  }

  private alloc(op: 'malloc' | 'alloca', type: Type, options: AllocOptions | string): Instruction {
    const o = typeof options === 'string' ? { name: options } : options;
    const k = type.kind;
    if (k === 'void' || k === 'label' || k === 'function' || k === 'opaque')
      throw new BuildError(op, `cannot allocate a value of type ${describeType(type)} (its size is unknown)`);
    const count = o.count ?? this.ctx.constants.int(this.ctx.types.uint, 1);
    this.use(op, count, 'the element count');
    if (count.type.kind !== 'uint') throw new BuildError(op, `the element count must be a uint, not ${describeValue(count)}`);
    const align = o.alignment ?? 0;
    if (!Number.isInteger(align) || align < 0 || (align & (align - 1)) !== 0 || align > 0x40000000) {
      throw new BuildError(op, `alignment ${align} is not a power of two`);
    }
    const inst = this.emit(op, [count], o.name, this.ctx.types.pointer(type));
    inst.allocatedType = type;
    if (align !== 0) inst.alignment = align;
    return inst;
  }

  private convOf(op: string, callee: Value, cc: CallingConv | undefined): number {
    if (cc !== undefined) return callingConvNumber(cc, op);
    return callee.kind === 'function' ? callee.callingConv : 0;
  }

  private checkCall(op: 'call' | 'invoke', callee: Value, args: readonly Value[]): FunctionType {
    this.use(op, callee, 'the callee');
    const ct = callee.type;
    if (ct.kind !== 'pointer' || ct.element.kind !== 'function')
      throw new BuildError(op, `the callee must be a function (or a pointer to one), not ${describeValue(callee)}`);
    const ft = ct.element;
    const who = callee.kind === 'function' && callee.name !== undefined ? `@${callee.name}` : 'the callee';
    const n = ft.params.length;
    if (args.length < n || (!ft.isVarArg && args.length > n)) {
      throw new BuildError(op, `${who} takes ${n}${ft.isVarArg ? ' or more' : ''} argument${n === 1 && !ft.isVarArg ? '' : 's'}, given ${args.length}`);
    }
    args.forEach((a, i) => {
      this.use(op, a, `argument ${i}`);
      const want = ft.params[i];
      if (want !== undefined && !sameType(a.type, want))
        throw new BuildError(op, `argument ${i} of ${who} must be ${describeType(want)}, not ${describeValue(a)}`);
      if (want === undefined && !isFirstClass(a.type))
        throw new BuildError(op, `argument ${i} of ${who} has type ${describeType(a.type)}, which cannot be passed`);
    });
    return ft;
  }

  /** `v` may be an operand here: a constant or global of this module, or a value of this function. */
  private use(operation: string, v: Value, role: string): void {
    this.useIn(this.here(operation).fn, operation, v, role);
  }

  private useIn(fn: Function, operation: string, v: Value, role: string): void {
    if (v === undefined || v === null || typeof v !== 'object') throw new BuildError(operation, `${role} is missing`);
    switch (v.kind) {
      case 'block':
        throw new BuildError(operation, `${role} is a basic block, which is not a value here`);
      case 'instruction':
      case 'argument':
        if (v.kind === 'instruction' && v.type.kind === 'void')
          throw new BuildError(operation, `${role} is a ${v.opcode} instruction, which produces no value`);
        if (this.ctx.owner.get(v) !== fn)
          throw new BuildError(operation, `${role} (${describeValue(v)}) belongs to another function than @${fn.name ?? '(unnamed)'}`);
        return;
      case 'global':
      case 'function':
        if (!this.ctx.moduleValues.has(v)) throw new BuildError(operation, `${role} (@${v.name ?? '(unnamed)'}) is not in this module`);
        return;
      default:
        if (!this.ctx.types.owns(v.type)) throw new BuildError(operation, `${role} has a type that was not made by this module's type builder`);
    }
  }

  private target(operation: string, b: BasicBlock, role: string): void {
    const { fn } = this.here(operation);
    if (b === undefined || b === null || b.kind !== 'block' || this.ctx.owner.get(b) !== fn) {
      throw new BuildError(operation, `${role} must be a block of function @${fn.name ?? '(unnamed)'}`);
    }
  }

  private emit(opcode: Opcode, operands: Value[], name: string | undefined, type: Type = this.ctx.types.void): Instruction {
    const { block, fn } = this.here(opcode);
    const last = block.instructions[block.instructions.length - 1];
    if (last !== undefined && isTerminatorOpcode(last.opcode)) {
      throw new BuildError(opcode, `block ${block.name !== undefined ? `%${block.name}` : '(unnamed)'} already ends with ${last.opcode}; start a new block`);
    }
    if (type.kind === 'void' && name !== undefined && name !== '')
      throw new BuildError(opcode, `the instruction produces no value, so it cannot be named "${name}"`);
    const inst: Instruction = { kind: 'instruction', opcode, type, operands };
    const n = this.ctx.localName(fn, name);
    if (n !== undefined) inst.name = n;
    block.instructions.push(inst);
    this.ctx.owner.set(inst, fn);
    return inst;
  }
}
