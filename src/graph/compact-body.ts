/**
 * A function body read from a file, held compactly until someone looks at it (the graph's
 * storage for bodies; the decoder fills it, see decode/function-scope.ts).
 *
 * Decoding a body checks everything (every operand resolved, every type and label valid), but it
 * does not build one object per instruction and one array per operand list: that made a read
 * allocate hundreds of thousands of small objects that all survive, and V8's young-generation
 * collector spent most of the read copying them. Instead the decoder writes the body into a few
 * flat arrays (`CompactBody`), and the function's `blocks` (and `layout`) become the plain graph
 * objects of value.ts the first time they are read (`installCompactBody`). Materializing cannot
 * fail: every check already ran. Afterwards the function is an ordinary one and the compact copy
 * is dropped.
 *
 * Operands are *value codes*: `index * 4 + tag`, where tag 0 is `values[index]` (a value that is
 * not one of the body's instructions or blocks: constants, globals, functions, arguments), tag 1
 * the function's instruction number `index` and tag 2 its basic block number `index`.
 * `UNRESOLVED` marks an operand a damaged file never defined where LLVM's reader left it empty.
 */
import { primitiveTypes as P, type Type } from './type.js';
import type { BasicBlock, Function, Instruction, Opcode, SymbolTableLayout, Value } from './value.js';

export const TAG_VALUE = 0;
export const TAG_INSTRUCTION = 1;
export const TAG_BLOCK = 2;
/** An operand left empty (see the file comment). */
export const UNRESOLVED = -1;

/**
 * Every opcode of the graph, numbered for the compact form: the one list of those numbers. A
 * `const enum`, so that a `switch` on an opcode number (the reader's instruction loop) compiles
 * to literals; `OPCODES` and `OPCODE_NUMBER` are derived from it below.
 */
export const enum Op {
  Ret = 0,
  Br = 1,
  Switch = 2,
  Invoke = 3,
  Unwind = 4,
  Unreachable = 5,
  Add = 6,
  Sub = 7,
  Mul = 8,
  UDiv = 9,
  SDiv = 10,
  FDiv = 11,
  URem = 12,
  SRem = 13,
  FRem = 14,
  And = 15,
  Or = 16,
  Xor = 17,
  SetEQ = 18,
  SetNE = 19,
  SetLE = 20,
  SetGE = 21,
  SetLT = 22,
  SetGT = 23,
  Malloc = 24,
  Free = 25,
  Alloca = 26,
  Load = 27,
  Store = 28,
  GetElementPtr = 29,
  Phi = 30,
  Cast = 31,
  Call = 32,
  Shl = 33,
  Shr = 34,
  Select = 35,
  UserOp1 = 36,
  UserOp2 = 37,
  VaArg = 38,
  VaNext = 39,
  ExtractElement = 40,
  InsertElement = 41,
  ShuffleVector = 42,
  // Version 7's (appended; the numbers above never change):
  LShr = 43,
  AShr = 44,
  ICmp = 45,
  FCmp = 46,
  Trunc = 47,
  ZExt = 48,
  SExt = 49,
  FPToUI = 50,
  FPToSI = 51,
  UIToFP = 52,
  SIToFP = 53,
  FPTrunc = 54,
  FPExt = 55,
  PtrToInt = 56,
  IntToPtr = 57,
  BitCast = 58,
}

/** Each opcode's number; a `Record` over `Opcode`, so an opcode the enum lacks does not compile. */
export const OPCODE_NUMBER: Readonly<Record<Opcode, Op>> = Object.freeze({
  ret: Op.Ret,
  br: Op.Br,
  switch: Op.Switch,
  invoke: Op.Invoke,
  unwind: Op.Unwind,
  unreachable: Op.Unreachable,
  add: Op.Add,
  sub: Op.Sub,
  mul: Op.Mul,
  udiv: Op.UDiv,
  sdiv: Op.SDiv,
  fdiv: Op.FDiv,
  urem: Op.URem,
  srem: Op.SRem,
  frem: Op.FRem,
  and: Op.And,
  or: Op.Or,
  xor: Op.Xor,
  seteq: Op.SetEQ,
  setne: Op.SetNE,
  setle: Op.SetLE,
  setge: Op.SetGE,
  setlt: Op.SetLT,
  setgt: Op.SetGT,
  malloc: Op.Malloc,
  free: Op.Free,
  alloca: Op.Alloca,
  load: Op.Load,
  store: Op.Store,
  getelementptr: Op.GetElementPtr,
  phi: Op.Phi,
  cast: Op.Cast,
  call: Op.Call,
  shl: Op.Shl,
  shr: Op.Shr,
  select: Op.Select,
  userop1: Op.UserOp1,
  userop2: Op.UserOp2,
  vaarg: Op.VaArg,
  vanext: Op.VaNext,
  extractelement: Op.ExtractElement,
  insertelement: Op.InsertElement,
  shufflevector: Op.ShuffleVector,
  lshr: Op.LShr,
  ashr: Op.AShr,
  icmp: Op.ICmp,
  fcmp: Op.FCmp,
  trunc: Op.Trunc,
  zext: Op.ZExt,
  sext: Op.SExt,
  fptoui: Op.FPToUI,
  fptosi: Op.FPToSI,
  uitofp: Op.UIToFP,
  sitofp: Op.SIToFP,
  fptrunc: Op.FPTrunc,
  fpext: Op.FPExt,
  ptrtoint: Op.PtrToInt,
  inttoptr: Op.IntToPtr,
  bitcast: Op.BitCast,
});

/** Every opcode of the graph, by its number (`Op`). */
export const OPCODES: readonly Opcode[] = opcodesByNumber(OPCODE_NUMBER);

/** Inverts `OPCODE_NUMBER`, checking once, when the graph loads, that the numbers are 0…n-1 each used once. */
function opcodesByNumber(numbers: Readonly<Record<Opcode, number>>): readonly Opcode[] {
  const byNumber: Opcode[] = [];
  for (const [name, n] of Object.entries(numbers) as [Opcode, number][]) {
    if (byNumber[n] !== undefined) throw new Error(`internal error: graph/compact-body.ts: opcodes ${byNumber[n]} and ${name} share number ${n}`);
    byNumber[n] = name;
  }
  if (byNumber.length !== Object.keys(numbers).length || byNumber.includes(undefined as unknown as Opcode))
    throw new Error('internal error: graph/compact-body.ts: the opcode numbers are not 0…n-1');
  return Object.freeze(byNumber);
}

/** The fields an instruction has beyond kind, opcode, type and operands, when it has any. */
export type InstructionExtras = Partial<
  Pick<
    Instruction,
    'isVolatile' | 'callingConv' | 'isTailCall' | 'allocatedType' | 'alignment' | 'argType' | 'legacyVarArgs' | 'constantRefOperands' | 'predicate'
  >
>;

/** A symbol table's layout with value codes in place of values (see SymbolTableLayout). */
export interface CompactLayout {
  valuePlanes: { type: Type; codes: number[] }[];
  typeNames?: string[];
  typeNamesPlaneIndex?: number;
}

export interface CompactBody {
  readonly instructionCount: number;
  readonly blockCount: number;
  /**
   * One array for the numbers of the body: `[0, n)` opcode numbers (plus 64 times the index of the result type in `types`), `[n, 2n)` the end of each
   * instruction's operands (exclusive, in the operand section), `[2n, 2n + blocks)` the end of
   * each basic block (exclusive instruction number), then the operand codes.
   */
  readonly data: Int32Array;
  /** The distinct result types; each instruction's opcode number holds its index above bit 6. */
  readonly types: readonly Type[];
  /** The values that tag-0 codes name. */
  readonly values: readonly Value[];
  /** Instructions with extra fields: their numbers (ascending) and the fields. */
  readonly extraAt: readonly number[];
  readonly extras: readonly InstructionExtras[];
  /** Names the symbol table gave the body's instructions and blocks: value codes and names, in file order. */
  readonly nameCodes: readonly number[];
  readonly names: readonly string[];
  /** The function symbol table's layout, when the body had one. */
  readonly layout: CompactLayout | undefined;
}

/** Where instruction `i`'s operand codes begin in the operand section of `data` (of `n` instructions): where the one before ends. */
export function operandStart(data: Int32Array, n: number, i: number): number {
  return i === 0 ? 0 : data[n + i - 1]!;
}

/** The graph objects of a compact body. */
export function materializeBody(body: CompactBody): { blocks: BasicBlock[]; layout: SymbolTableLayout | undefined } {
  const n = body.instructionCount;
  const data = body.data;
  const types = body.types;
  const operandBase = 2 * n + body.blockCount;
  const instructions: Instruction[] = new Array<Instruction>(n);
  let extra = 0;
  const extraAt = body.extraAt;
  let nextExtra = extraAt.length > 0 ? extraAt[0]! : -1;
  let start = 0;
  for (let i = 0; i < n; i++) {
    const end = data[n + i]!;
    const count = end - start;
    const word = data[i]!;
    const inst: Instruction = {
      kind: 'instruction',
      opcode: OPCODES[word & 63]!,
      type: types[word >>> 6]!,
      operands: count === 0 ? [] : new Array<Value>(count),
    };
    if (i === nextExtra) {
      Object.assign(inst, body.extras[extra++]);
      nextExtra = extra < extraAt.length ? extraAt[extra]! : -1;
    }
    instructions[i] = inst;
    start = end;
  }
  const blocks: BasicBlock[] = new Array<BasicBlock>(body.blockCount);
  let first = 0;
  for (let b = 0; b < body.blockCount; b++) {
    const end = data[2 * n + b]!;
    blocks[b] = { kind: 'block', type: P.label, instructions: instructions.slice(first, end) };
    first = end;
  }
  const values = body.values;
  const valueOf = (code: number): Value | undefined => {
    if (code === UNRESOLVED) return undefined;
    const index = code >>> 2;
    const tag = code & 3;
    return tag === TAG_VALUE ? values[index] : tag === TAG_INSTRUCTION ? instructions[index] : blocks[index];
  };
  start = 0;
  for (let i = 0; i < n; i++) {
    const end = data[n + i]!;
    const operands = instructions[i]!.operands;
    for (let k = start; k < end; k++) {
      const code = data[operandBase + k]!;
      if (code !== UNRESOLVED) operands[k - start] = valueOf(code)!;
    }
    start = end;
  }
  for (let i = 0; i < body.nameCodes.length; i++) (valueOf(body.nameCodes[i]!) as { name?: string }).name = body.names[i]!;
  let layout: SymbolTableLayout | undefined;
  if (body.layout !== undefined) {
    const compact = body.layout;
    layout = { valuePlanes: compact.valuePlanes.map((p) => ({ type: p.type, values: p.codes.map((c) => valueOf(c)!) })) };
    if (compact.typeNamesPlaneIndex !== undefined) layout.typeNamesPlaneIndex = compact.typeNamesPlaneIndex;
    if (compact.typeNames !== undefined) layout.typeNames = compact.typeNames;
  }
  return { blocks, layout };
}

/** A body's graph objects once materialized (or replaced). */
class Materialized {
  constructor(
    public blocks: BasicBlock[],
    public layout: SymbolTableLayout | undefined,
  ) {}
}

/** What a function read from a file holds: its compact body until materialized, then the objects. */
type LazyState = CompactBody | Materialized;

/** A constructor that returns the object it is given: a subclass's fields are added to that object. */
class ReturnsItsTarget {
  constructor(target: object) {
    return target;
  }
}

/**
 * The body's state, held by the function object in a private field (`#state`): hidden from
 * enumeration, copies and comparisons as a non-enumerable property would be, but added as an
 * ordinary (inline-cached) property where `Object.defineProperty` of a hidden symbol was a runtime
 * call: a module of thousands of small functions spent 0.15 us per function on it, 3% of its
 * read. The body is its own state (no record beside it): one object fewer per function.
 */
class LazyBody extends ReturnsItsTarget {
  #state: LazyState;

  private constructor(fn: Function, state: LazyState) {
    super(fn);
    this.#state = state;
  }

  static install(fn: Function, body: CompactBody): void {
    if (#state in fn) (fn as unknown as LazyBody).#state = body;
    else new LazyBody(fn, body);
  }

  /** `fn`'s state, or undefined when `fn` was built, not read. */
  static stateOf(fn: Function): LazyState | undefined {
    return #state in fn ? (fn as unknown as LazyBody).#state : undefined;
  }

  /** The objects of `fn`'s body (which has a state: its accessors are installed with it). */
  static materialized(fn: Function): Materialized {
    const holder = fn as unknown as LazyBody;
    const state = holder.#state;
    if (state instanceof Materialized) return state;
    const { blocks, layout } = materializeBody(state);
    return (holder.#state = new Materialized(blocks, layout));
  }
}

// One getter and setter pair for every function, so that all of them share one hidden class.
const BLOCKS_ACCESSOR: PropertyDescriptor = {
  enumerable: true,
  configurable: true,
  get(this: Function): BasicBlock[] {
    return LazyBody.materialized(this).blocks;
  },
  set(this: Function, v: BasicBlock[]): void {
    LazyBody.materialized(this).blocks = v;
  },
};

const LAYOUT_ACCESSOR: PropertyDescriptor = {
  enumerable: true,
  configurable: true,
  get(this: Function): SymbolTableLayout | undefined {
    return LazyBody.materialized(this).layout;
  },
  set(this: Function, v: SymbolTableLayout | undefined): void {
    LazyBody.materialized(this).layout = v;
  },
};

/**
 * Makes `fn.blocks` (and `fn.layout`, when the body had a symbol table) materialize `body` on
 * first access, get or set. They stay own enumerable properties, so copying or comparing a
 * function sees them as before. `fn` must not have `blocks` or `layout` yet: adding the accessors
 * to a function object (rather than reconfiguring data properties) keeps its hidden class shared.
 * `hasLayout` is `body.layout !== undefined`, for a body that builds its layout when asked (the
 * reader's: see decode/read-body.ts).
 */
export function installCompactBody(fn: Function, body: CompactBody, hasLayout: boolean = body.layout !== undefined): void {
  LazyBody.install(fn, body);
  Object.defineProperty(fn, 'blocks', BLOCKS_ACCESSOR);
  if (hasLayout) Object.defineProperty(fn, 'layout', LAYOUT_ACCESSOR);
}

/** Whether `fn`'s body is still held compactly (not yet materialized into objects). */
export function isBodyCompact(fn: Function): boolean {
  const state = LazyBody.stateOf(fn);
  return state !== undefined && !(state instanceof Materialized);
}

/**
 * `fn`'s body in compact form, or `undefined` once it has been materialized (or when `fn` was
 * built, not read). Consumers that only walk a body (the printer, the writer) may read it here
 * instead of through `fn.blocks`, which would build one object per instruction. The compact form
 * is read-only: change a body through `fn.blocks`.
 */
export function compactBodyOf(fn: Function): CompactBody | undefined {
  const state = LazyBody.stateOf(fn);
  return state === undefined || state instanceof Materialized ? undefined : state;
}
