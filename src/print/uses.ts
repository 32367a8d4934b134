/**
 * Use counts (`[#uses=N]`) and predecessor lists, computed over the whole module as LLVM had them
 * in memory. LLVM uniqued constants, so a constant expression or aggregate that refers to a global
 * is one user however many instructions share it, while the graph may hold several equal copies
 * (one per constant pool): constants are therefore keyed structurally before their operands are
 * counted. Constants never show a use count, so only uses *of* non-constants are tallied.
 */
import { DenseIds } from '../graph/dense-ids.js';
import { isTerminatorOpcode, LAST_TERMINATOR_NUMBER } from '../graph/opcodes.js';
import type { Type } from '../graph/type.js';
import type { Constant, Function, Instruction, Value } from '../graph/value.js';
import { PrintError } from './print-error.js';
import { canonicalConstant } from '../held/constants.js';
import { instructionsIn, nameIn, type ModuleView } from '../held/view.js';
import { compactBodyOf, TAG_BLOCK, TAG_INSTRUCTION, TAG_VALUE, UNRESOLVED, type CompactBody } from '../graph/compact-body.js';
import { primitiveTypes } from '../graph/type.js';

/**
 * What the printer needs about a global, a function, or a value no body of the view defines: its
 * number of uses, its slot number (-1 when it has none), and its operand texts once printed.
 */
export interface ValueInfo {
  uses: number;
  slot: number;
  /** Operand text (`%x`, `"x y"`, `%3`) as a piece of the printer's (Latin1Pieces), once printed; -1 before. */
  ref: number;
  /** ` <type> <operand>` text as a piece, once printed; -1 before. */
  typed: number;
}

/** Values before an instruction that the search for its operands scans before using a map. */
const NEAR = 16;

/** Bodies of at most this many values are searched whole for each operand (a fast array scan). */
const SMALL_BODY = 128;

/** `BodyInfo.operands` code of an operand the printer handles by value (constants; bad graphs). */
export const BY_VALUE = -1;

/**
 * A function body as the module pass saw it, by position: its values in numbering order
 * (arguments, then each block followed by its instructions) and, in arrays indexed like them, what
 * the printer needs. Arrays instead of a record per value: a large body has tens of thousands of
 * values, and records that live through the whole print cost the garbage collector dearly.
 *
 * Built from either form of a body (see graph/compact-body.ts): from the graph's objects
 * (`values`), or straight from a body still held compactly (`compact`), which is printed without
 * ever building one object per instruction.
 */
export interface BodyInfo {
  /** The body's values by position, when it was built from objects; undefined for a compact one. */
  readonly values: Value[] | undefined;
  /** The compact body the positions walk, when it was built from one. */
  readonly compact: CompactBody | undefined;
  readonly argCount: number;
  /**
   * The number of positions. The arrays below may be longer (a compact body's are reused from
   * one body to the next, see BodyScratch): only their first `count` entries (operands: the
   * body's operand count) belong to this body.
   */
  readonly count: number;
  /** The type of the value at each position. */
  readonly types: Type[];
  /** Names as the view gives them (before LLVM's renaming of clashes). */
  readonly rawNames: (string | undefined)[];
  readonly uses: Int32Array;
  /** Slot numbers (-1: none); set when the function is numbered. */
  readonly slots: Int32Array;
  /** Names after LLVM's renaming of clashes; set when the function is numbered. */
  readonly names: (string | undefined)[];
  /**
   * Operand texts of named values (`%x`, `"x y"`) as pieces of the printer's (Latin1Pieces), -1
   * for an unnamed value; set when the function is numbered.
   */
  readonly refs: Int32Array;
  /**
   * Blocks only: the blocks whose terminators branch here, as a list in flat arrays (no array per
   * block: a module of many small functions made thousands per listing, most of the printer's
   * own allocation). `predHead[pos]` is the newest entry (-1: none), `predNext[e]` the entry
   * before `e` (-1: none), `predFrom[e]` the position of its block. See `predecessors`.
   */
  readonly predHead: Int32Array;
  readonly predNext: Int32Array;
  readonly predFrom: Int32Array;
  /**
   * One code per instruction operand, in order: the position of a value of this body, BY_VALUE,
   * or `-2 - id` for the global or function `globalInfos[id]`.
   */
  readonly operands: Int32Array;
}

/** A BodyInfo, its fields always given in one order (one shape for all the printer's reads). */
function bodyInfo(
  values: Value[] | undefined,
  compact: CompactBody | undefined,
  argCount: number,
  count: number,
  arrays: Pick<BodyInfo, 'types' | 'rawNames' | 'uses' | 'slots' | 'names' | 'refs' | 'predHead' | 'predNext' | 'predFrom' | 'operands'>,
): BodyInfo {
  return {
    values,
    compact,
    argCount,
    count,
    types: arrays.types,
    rawNames: arrays.rawNames,
    uses: arrays.uses,
    slots: arrays.slots,
    names: arrays.names,
    refs: arrays.refs,
    predHead: arrays.predHead,
    predNext: arrays.predNext,
    predFrom: arrays.predFrom,
    operands: arrays.operands,
  };
}

/** The arrays of a body of `n` values and `operandCount` operands, made for it alone. */
function ownArrays(n: number, operandCount: number) {
  return {
    // Mostly empty: left holey (unfilled), which reads as undefined and costs nothing to make.
    types: new Array<Type>(n),
    rawNames: new Array<string | undefined>(n),
    uses: new Int32Array(n),
    slots: new Int32Array(n).fill(-1),
    names: new Array<string | undefined>(n),
    refs: new Int32Array(n).fill(-1),
    predHead: new Int32Array(n).fill(-1),
    // A predecessor entry per block operand of a terminator at most.
    predNext: new Int32Array(operandCount),
    predFrom: new Int32Array(operandCount),
    operands: new Int32Array(operandCount).fill(BY_VALUE),
  };
}

/**
 * The arrays of the compact body being printed, reused from one body to the next: compact bodies
 * are built one at a time (see UseCounts.bodyOf), and a module of thousands of small functions
 * then allocates no arrays (nor typed-array views, each a runtime call) per function. Each body
 * writes every entry it reads (see reserve).
 */
class BodyScratch {
  types: Type[] = [];
  rawNames: (string | undefined)[] = [];
  names: (string | undefined)[] = [];
  refs = new Int32Array(0);
  predHead = new Int32Array(0);
  predNext = new Int32Array(0);
  predFrom = new Int32Array(0);
  uses = new Int32Array(0);
  slots = new Int32Array(0);
  operands = new Int32Array(0);
  /** The builder's own positions of each instruction and each block (compactBodyInfo). */
  instPos = new Int32Array(0);
  blockPos = new Int32Array(0);

  /** Makes room for a body of `n` values, `operandCount` operands, `instructions` and `blocks`. */
  reserve(n: number, operandCount: number, instructions: number, blocks: number): void {
    if (this.uses.length < n) {
      const size = Math.max(n, 2 * this.uses.length, 256);
      // Holey (unfilled): the entries a body reads are cleared below.
      this.types = new Array<Type>(size);
      this.rawNames = new Array<string | undefined>(size);
      this.names = new Array<string | undefined>(size);
      this.refs = new Int32Array(size);
      this.predHead = new Int32Array(size);
      this.uses = new Int32Array(size);
      this.slots = new Int32Array(size);
    }
    if (this.operands.length < operandCount) {
      const size = Math.max(operandCount, 2 * this.operands.length, 256);
      this.operands = new Int32Array(size);
      this.predNext = new Int32Array(size);
      this.predFrom = new Int32Array(size);
    }
    if (this.instPos.length < instructions) this.instPos = new Int32Array(Math.max(instructions, 2 * this.instPos.length, 256));
    if (this.blockPos.length < blocks) this.blockPos = new Int32Array(Math.max(blocks, 2 * this.blockPos.length, 64));
    // Nothing is cleared here: compactBodyInfo writes every entry a body reads (types, rawNames,
    // uses, operands, and preds of blocks), numberBody every slot and ref. Clearing each array
    // apart cost more than all of that for the many small functions of a module.
  }
}

/**
 * Scratch arrays given back by printers that are done (see UseCounts.releaseScratch): a batch of
 * small modules then makes them once, not once per module.
 */
const SCRATCH_POOL: BodyScratch[] = [];
const SCRATCH_POOL_SIZE = 4;
const SCRATCH_POOL_MAX_VALUES = 1 << 16;

function newBody(view: ModuleView, values: Value[], argCount: number): BodyInfo {
  const n = values.length;
  let operandCount = 0;
  const arrays = ownArrays(n, 0);
  const { types, rawNames } = arrays;
  for (let k = 0; k < n; k++) {
    const v = values[k]!;
    types[k] = v.type;
    rawNames[k] = nameIn(view, v);
    if (v.kind === 'instruction') operandCount += v.operands.length;
  }
  arrays.operands = new Int32Array(operandCount).fill(BY_VALUE);
  arrays.predNext = new Int32Array(operandCount);
  arrays.predFrom = new Int32Array(operandCount);
  return bodyInfo(values, undefined, argCount, n, arrays);
}

/** Adds `block` as the newest predecessor of the block at `at`; returns the entries now used. */
function addPredecessor(body: BodyInfo, at: number, block: number, predCount: number): number {
  body.predFrom[predCount] = block;
  body.predNext[predCount] = body.predHead[at]!;
  body.predHead[at] = predCount;
  return predCount + 1;
}

/** What a printed body leaves behind (see UseCounts.release). */
const EMPTY_BODY: BodyInfo = bodyInfo([], undefined, 0, 0, ownArrays(0, 0));

export class UseCounts {
  /** Records of globals and functions (and, in bad graphs, of values no body defines). */
  readonly info = new Map<Value, ValueInfo>();
  /**
   * Bodies of `view.functions`, by index (declarations have empty ones); a body still held
   * compactly is built when it is printed (see `bodyOf`), so only one exists at a time.
   */
  private readonly bodies: (BodyInfo | undefined)[] = [];
  /** Records of the view's globals then functions, by id (see BodyInfo.operands). */
  readonly globalInfos: ValueInfo[] = [];
  /** Bad graphs only: the body index and position of every value a body defines. */
  private owners: Map<Value, { fi: number; pos: number }> | undefined;
  private readonly typeIds = new DenseIds<Type>();
  /** The arrays of the compact body built last (see bodyOf), and its function. */
  private scratch: BodyScratch | undefined;
  private lastCompact = -1;
  private readonly globalIds = new Map<Value, number>();
  private readonly keys = new Map<Constant, string>();
  /** Structural keys of the distinct constants already counted. */
  private readonly seen = new Set<string>();
  /** Constants whose key or operands are being walked (a cycle can only come from bad input). */
  private readonly active = new Set<Constant>();
  private readonly keyActive = new Set<Constant>();
  private readonly mentions = new Map<Constant, boolean>();
  /** countCompact's uses of each entry of a body's value table (all zero between bodies). */
  private tally: number[] = [];
  /** Globals that already have their ConstantPointerRef. */
  private readonly referenced = new Set<Value>();

  constructor(
    private readonly view: ModuleView,
    private readonly foldCasts: boolean,
    private readonly pointerRefs = false,
  ) {
    let id = 0;
    for (const g of view.globals) this.globalIds.set(g, id++);
    for (const f of view.functions) this.globalIds.set(f, id++);
    for (const g of view.globals) this.globalInfos.push(this.infoFor(g));
    for (const f of view.functions) this.globalInfos.push(this.infoFor(f));
    if (!this.count(true)) {
      // A body uses a value it does not define (only a bad graph does): count again, following
      // such uses through a module-wide map of every body's values.
      for (const r of this.info.values()) r.uses = 0;
      this.bodies.length = 0;
      this.seen.clear();
      this.referenced.clear();
      this.owners = new Map();
      const fns = view.functions;
      for (let fi = 0; fi < fns.length; fi++) {
        const values = bodyValues(view, fns[fi]!);
        for (let pos = 0; pos < values.length; pos++) this.owners.set(values[pos]!, { fi, pos });
      }
      this.count(false);
    }
  }

  /** Counts all uses; with `local`, false when some body uses a value it does not define. */
  private count(local: boolean): boolean {
    const view = this.view;
    for (const g of view.globals) if (g.initializer !== undefined) this.useFromConstant(g.initializer);
    const fns = view.functions;
    // Without `local`, all bodies exist before counting, as uses may reach into any of them.
    if (!local) for (const f of fns) this.bodies.push(newBody(view, bodyValues(view, f), f.args.length));
    for (let fi = 0; fi < fns.length; fi++) {
      const f = fns[fi]!;
      const compact = local ? compactBodyOf(f) : undefined;
      if (compact !== undefined) {
        if (!this.countCompact(f, compact)) return false;
        this.bodies.push(undefined);
        continue;
      }
      const body = this.countBody(f, fi, local, local ? newBody(view, bodyValues(view, f), f.args.length) : this.bodies[fi]!);
      if (body === null) return false;
      if (local) this.bodies.push(body);
    }
    return true;
  }

  /** The body of function `fi`, built now when it is held compactly. */
  bodyOf(fi: number): BodyInfo {
    const body = this.bodies[fi];
    if (body !== undefined) return body;
    const f = this.view.functions[fi]!;
    const c = compactBodyOf(f)!;
    // The previous compact body's arrays are reused: it is forgotten (and built again if asked).
    if (this.lastCompact >= 0 && this.bodies[this.lastCompact] !== EMPTY_BODY) this.bodies[this.lastCompact] = undefined;
    // `this`, not a new closure per body: optimized code that inlined one closure would be
    // thrown away (deoptimized) at the next body's.
    const built = compactBodyInfo(this.view, f, c, this, (this.scratch ??= SCRATCH_POOL.pop() ?? new BodyScratch()));
    this.bodies[fi] = built;
    this.lastCompact = fi;
    return built;
  }

  /**
   * The uses a compact body makes of values it does not define (its locals are counted when it
   * is built, see compactBodyInfo); false when an operand is an argument of another function.
   * Operands are first tallied by their index in the body's value table, then each value used is
   * looked at once: a value's kind varies (a megamorphic read) and a global's record is a Map
   * lookup, where a tally is one typed-array increment.
   */
  private countCompact(f: Function, c: CompactBody): boolean {
    const values = c.values;
    const tally = this.tally;
    while (tally.length < values.length) tally.push(0);
    tallyValueOperands(c, tally);
    let ok = true;
    for (let index = 0; index < values.length; index++) {
      const count = tally[index]!;
      if (count === 0) continue;
      tally[index] = 0;
      if (!ok) continue; // (the tally is still cleared)
      const op = values[index]!;
      switch (op.kind) {
        case 'argument':
          if (f.args[op.index] !== op) ok = false;
          break;
        case 'block':
        case 'instruction':
          ok = false;
          break;
        case 'global':
        case 'function':
          this.infoFor(op).uses += count;
          break;
        default:
          // A constant counts its own uses once, however often it is used (see `use`).
          this.use(op);
      }
    }
    return ok;
  }

  /** The operand code of a global or function (see BodyInfo.operands). */
  globalCode(v: Value): number {
    // globalInfos[id] is the record of the value with that id (made in the constructor).
    const id = this.globalIds.get(v);
    if (id !== undefined) return -2 - id;
    this.infoFor(v);
    return BY_VALUE;
  }

  /**
   * Counts the uses `f`'s instructions make and notes predecessors (uses of blocks by
   * terminators). With `local`, without any module-wide map (inserting ~all values of a large
   * module into one hash table was the printer's biggest cost, mostly V8 giving each object its
   * identity hash): small bodies are searched whole; in larger ones most operands are among the
   * few values just before their instruction, which a short backward scan finds, and the others
   * (and all blocks) are tallied by value in a map of this body's far values, whose positions one
   * walk over the body settles at the end. Returns null (with `local`) when an operand is not a
   * value of this body.
   */
  private countBody(f: Function, fi: number, local: boolean, body: BodyInfo): BodyInfo | null {
    const { uses, operands } = body;
    const values = body.values!;
    const total = values.length;
    let predCount = 0;
    // Small bodies (most) are searched whole, without building a map.
    const small = total <= SMALL_BODY;
    /** Far values (large bodies only): their record numbers, uses, and (blocks) predecessors. */
    const far = small ? undefined : new Map<Value, number>();
    const farUses: number[] = [];
    const farPreds: (number[] | undefined)[] = [];
    /** Operand codes to fill in when far positions are known: operand index, record number. */
    const farOperands: number[] = [];
    /** Bad graphs: counts a use of `v` wherever it is defined; its position here, or BY_VALUE. */
    const useAnywhere = (v: Value): number => {
      const o = this.owners!.get(v);
      if (o === undefined) return BY_VALUE; // defined nowhere: its uses are never printed
      this.bodies[o.fi]!.uses[o.pos]!++;
      return o.fi === fi ? o.pos : BY_VALUE;
    };
    let p = 0;
    let block = -1;
    for (let d = f.args.length; d < total; d++) {
      const i = values[d]!;
      if (i.kind !== 'instruction') {
        block = d;
        continue;
      }
      const terminator = isTerminator(i);
      const ops = i.operands;
      for (let k = 0; k < ops.length; k++, p++) {
        const op = ops[k]!;
        switch (op.kind) {
          case 'block':
          case 'argument':
          case 'instruction': {
            let at = -1;
            if (!local) {
              at = useAnywhere(op);
            } else if (small) {
              at = values.lastIndexOf(op, d - 1);
              if (at < 0) at = values.indexOf(op, d);
              if (at < 0) return null;
              uses[at]!++;
            } else {
              if (op.kind !== 'block') {
                for (let j = d - 1, lo = d > NEAR ? d - NEAR : 0; j >= lo; j--) {
                  if (values[j] === op) {
                    at = j;
                    break;
                  }
                }
              }
              if (at < 0) {
                let r = far!.get(op);
                if (r === undefined) {
                  r = farUses.length;
                  far!.set(op, r);
                  farUses.push(0);
                  farPreds.push(undefined);
                }
                farUses[r]!++;
                farOperands.push(p, r);
                if (terminator && op.kind === 'block') (farPreds[r] ??= []).push(block);
                break;
              }
              uses[at]!++;
            }
            operands[p] = at;
            if (terminator && at >= 0 && op.kind === 'block') predCount = addPredecessor(body, at, block, predCount);
            break;
          }
          case 'global':
          case 'function': {
            this.infoFor(op).uses++;
            operands[p] = this.globalCode(op);
            break;
          }
          default:
            this.use(op);
            operands[p] = BY_VALUE;
        }
      }
    }
    if (far !== undefined && far.size > 0 && !this.placeFar(body, far, farUses, farPreds, farOperands, predCount)) return null;
    return body;
  }

  /**
   * Gives the far values of a body their positions (the last, as a full map would), adds their
   * uses and predecessors, and fills in their operand codes; false when one is not in the body.
   * Looking up a value that was never put in a map is cheap (it has no identity hash yet).
   */
  private placeFar(
    body: BodyInfo,
    far: Map<Value, number>,
    farUses: number[],
    farPreds: (number[] | undefined)[],
    farOperands: number[],
    predCount: number,
  ): boolean {
    const { uses, operands } = body;
    const values = body.values!;
    const count = farUses.length;
    const at = new Array<number>(count).fill(-1);
    let placed = 0;
    for (let k = values.length - 1; k >= 0 && placed < count; k--) {
      const r = far.get(values[k]!);
      if (r !== undefined && at[r]! < 0) {
        at[r] = k;
        placed++;
      }
    }
    if (placed < count) return false;
    for (let r = 0; r < count; r++) {
      const pos = at[r]!;
      uses[pos]! += farUses[r]!;
      // (A block is always far in a large body: its predecessors are all here, oldest first.)
      const from = farPreds[r];
      if (from !== undefined) for (const block of from) predCount = addPredecessor(body, pos, block, predCount);
    }
    for (let j = 0; j < farOperands.length; j += 2) operands[farOperands[j]!] = at[farOperands[j + 1]!]!;
    return true;
  }

  /**
   * Gives the arrays of compact bodies back for other printers, once this one has printed
   * everything (the compact body built last is forgotten; a later one takes arrays anew).
   */
  releaseScratch(): void {
    const scratch = this.scratch;
    if (scratch === undefined) return;
    this.scratch = undefined;
    if (this.lastCompact >= 0 && this.bodies[this.lastCompact] !== EMPTY_BODY) this.bodies[this.lastCompact] = undefined;
    this.lastCompact = -1;
    if (SCRATCH_POOL.length < SCRATCH_POOL_SIZE && scratch.uses.length <= SCRATCH_POOL_MAX_VALUES) SCRATCH_POOL.push(scratch);
  }

  /**
   * Drops what was kept for body `fi` once it is printed, so that a module printed in chunks
   * holds the numbers and names of one function at a time. Bad graphs keep every body: another
   * function's operands may still reach into this one.
   */
  release(fi: number): void {
    if (this.owners === undefined && fi < this.bodies.length) this.bodies[fi] = EMPTY_BODY;
  }

  /** Bad graphs: the slot of the value at `pos` of body `fi` (every body exists then). */
  slotIn(fi: number, pos: number): number {
    return this.bodies[fi]!.slots[pos]!;
  }

  /** Bad graphs: where a value no body of the current function defines lives, if anywhere. */
  ownerOf(v: Value): { fi: number; pos: number } | undefined {
    return this.owners?.get(v);
  }

  /** Number of uses of `v` (a global, argument, block or instruction). */
  of(v: Value): number {
    return this.info.get(v)?.uses ?? 0;
  }

  /** The record of `v`, made on first request. */
  infoFor(v: Value): ValueInfo {
    let i = this.info.get(v);
    if (i === undefined) {
      i = { uses: 0, slot: -1, ref: -1, typed: -1 };
      this.info.set(v, i);
    }
    return i;
  }

  /**
   * A use made by a constant (or initializer). With ConstantPointerRefs (LLVM ≤ 1.2) a global
   * is used once, by its uniqued reference, however many constants mention it.
   */
  private useFromConstant(v: Value): void {
    if (this.pointerRefs && (v.kind === 'global' || v.kind === 'function')) {
      if (this.referenced.has(v)) return;
      this.referenced.add(v);
    }
    this.use(v);
  }

  /** Counts one use of `v` and, for a constant seen for the first time, the uses it makes. */
  use(v: Value): void {
    switch (v.kind) {
      case 'argument':
      case 'block':
      case 'instruction':
      case 'global':
      case 'function':
        this.infoFor(v).uses++;
        return;
      case 'expr':
      case 'array':
      case 'struct':
      case 'packed': {
        // Only constants that mention a global make uses worth counting; most do not, and
        // skipping them avoids building their structural keys.
        if (!this.mentionsGlobal(v)) return;
        const c = canonicalConstant(v, this.foldCasts);
        if (c.kind !== 'expr' && c.kind !== 'array' && c.kind !== 'struct' && c.kind !== 'packed') return;
        if (this.active.has(c)) throw new PrintError('a constant contains itself (cyclic constant references)');
        const key = this.key(c);
        if (this.seen.has(key)) return;
        this.seen.add(key);
        this.active.add(c);
        for (const op of c.kind === 'expr' ? c.operands : c.elements) this.useFromConstant(op);
        this.active.delete(c);
        return;
      }
      default:
        return;
    }
  }

  /** Whether `c` refers to a global or function, directly or through its operands. */
  private mentionsGlobal(c: Constant): boolean {
    const known = this.mentions.get(c);
    if (known !== undefined) return known;
    this.mentions.set(c, false); // a cycle (bad input) is caught when its key is built
    let found = false;
    if (c.kind === 'global' || c.kind === 'function') found = true;
    else if (c.kind === 'expr') found = c.operands.some((o) => this.mentionsGlobal(o));
    else if (c.kind === 'array' || c.kind === 'struct' || c.kind === 'packed') found = c.elements.some((o) => !isScalarConstant(o) && this.mentionsGlobal(o));
    this.mentions.set(c, found);
    return found;
  }

  private key(c: Constant): string {
    const cached = this.keys.get(c);
    if (cached !== undefined) return cached;
    if (this.keyActive.has(c)) throw new PrintError('a constant contains itself (cyclic constant references)');
    this.keyActive.add(c);
    try {
      return this.computeKey(c);
    } finally {
      this.keyActive.delete(c);
    }
  }

  private computeKey(c: Constant): string {
    let k: string;
    const t = this.typeIds.of(c.type);
    switch (c.kind) {
      case 'global':
      case 'function':
        k = 'G' + (this.globalIds.get(c) ?? -1);
        break;
      case 'bool':
        k = (c.value ? 'T' : 'F') + t;
        break;
      case 'int':
        k = 'i' + t + ':' + c.value;
        break;
      case 'fp':
        k = 'f' + t + ':' + c.bits;
        break;
      case 'inlineasm':
        k = 'A' + t + ':' + JSON.stringify([c.asm, c.constraints, c.hasSideEffects]);
        break;
      case 'expr': {
        const cc = canonicalConstant(c, this.foldCasts);
        k = cc === c ? 'E' + t + c.opcode + '(' + c.operands.map((o) => this.key(o)).join(',') + ')' : this.key(cc);
        break;
      }
      case 'array':
      case 'struct':
      case 'packed': {
        const cc = canonicalConstant(c, this.foldCasts);
        k = cc === c ? c.kind[0]! + t + '(' + c.elements.map((o) => this.key(o)).join(',') + ')' : this.key(cc);
        break;
      }
      default:
        k = c.kind + t;
    }
    this.keys.set(c, k);
    return k;
  }
}

/**
 * Adds one to `tally[i]` for each operand of `c` that is entry `i` of its value table. Its own
 * function, ending with its loop: V8 optimizes the loop while it runs (on-stack replacement), and
 * code after it that had not run yet would be thrown away at the first body (deoptimized).
 */
function tallyValueOperands(c: CompactBody, tally: number[]): void {
  const data = c.data;
  const end = data.length;
  for (let k = 2 * c.instructionCount + c.blockCount; k < end; k++) {
    const code = data[k]!;
    if ((code & 3) !== TAG_VALUE || code === UNRESOLVED) continue;
    tally[code >>> 2]!++;
  }
}

/**
 * The BodyInfo of a body held compactly, with its locals' uses, predecessors and operand codes
 * counted from the operand codes (a body uses only its own locals and values it does not define:
 * the caller counted the latter, see UseCounts.countCompact). `counts.globalCode` gives a global's code.
 */
function compactBodyInfo(view: ModuleView, f: Function, c: CompactBody, counts: Pick<UseCounts, 'globalCode'>, scratch: BodyScratch): BodyInfo {
  const n = c.instructionCount;
  const blockCount = c.blockCount;
  const args = f.args;
  const argCount = args.length;
  const total = argCount + blockCount + n;
  const data = c.data;
  const base = 2 * n + blockCount;
  scratch.reserve(total, data.length - base, n, blockCount);
  const { types, rawNames, instPos, blockPos } = scratch;
  const uses = scratch.uses;
  for (let k = 0; k < argCount; k++) {
    types[k] = args[k]!.type;
    rawNames[k] = nameIn(view, args[k]!);
    uses[k] = 0;
  }
  const body = bodyInfo(undefined, c, argCount, total, scratch);
  // Each long loop is a function of its own that returns right after it: V8 optimizes a long
  // loop while it runs (on-stack replacement), and code after the loop that has not run yet
  // would make that optimized code deoptimize when reached, at every function's body.
  placeCompact(data, n, blockCount, argCount, c.types, types, rawNames, uses, scratch.predHead, instPos, blockPos);
  nameCompact(c.nameCodes, c.names, rawNames, instPos, blockPos);
  countCompactOperands(
    data,
    n,
    blockCount,
    c.values,
    counts,
    instPos,
    blockPos,
    scratch.uses,
    scratch.predHead,
    scratch.predNext,
    scratch.predFrom,
    scratch.operands,
  );
  return body;
}

/**
 * The position and type of each block and instruction of a compact body; clears their names (set
 * by nameCompact), uses and (blocks) predecessors (counted by countCompactOperands).
 */
function placeCompact(
  data: Int32Array,
  n: number,
  blockCount: number,
  argCount: number,
  resultTypes: readonly Type[],
  types: Type[],
  rawNames: (string | undefined)[],
  uses: Int32Array,
  predHead: Int32Array,
  instPos: Int32Array,
  blockPos: Int32Array,
): void {
  const label = primitiveTypes.label;
  let pos = argCount;
  let i = 0;
  for (let b = 0; b < blockCount; b++) {
    blockPos[b] = pos;
    predHead[pos] = -1;
    rawNames[pos] = undefined;
    uses[pos] = 0;
    types[pos++] = label;
    for (const end = data[2 * n + b]!; i < end; i++) {
      instPos[i] = pos;
      rawNames[pos] = undefined;
      uses[pos] = 0;
      types[pos++] = resultTypes[data[i]! >>> 6]!;
    }
  }
}

/** The names the symbol table gave a compact body's blocks and instructions, by position. */
function nameCompact(
  nameCodes: readonly number[],
  names: readonly string[],
  rawNames: (string | undefined)[],
  instPos: Int32Array,
  blockPos: Int32Array,
): void {
  for (let k = 0; k < nameCodes.length; k++) {
    const code = nameCodes[k]!;
    const name = names[k]!;
    const tag = code & 3;
    if (tag === TAG_VALUE || code === UNRESOLVED) continue;
    rawNames[tag === TAG_BLOCK ? blockPos[code >>> 2]! : instPos[code >>> 2]!] = name === '' ? undefined : name;
  }
}

/** Uses of the body's own values, predecessors, and the printer's operand codes (BodyInfo.operands). */
function countCompactOperands(
  data: Int32Array,
  n: number,
  blockCount: number,
  values: readonly Value[],
  counts: Pick<UseCounts, 'globalCode'>,
  instPos: Int32Array,
  blockPos: Int32Array,
  uses: Int32Array,
  predHead: Int32Array,
  predNext: Int32Array,
  predFrom: Int32Array,
  operands: Int32Array,
): void {
  const base = 2 * n + blockCount;
  let start = 0;
  let block = -1;
  let predCount = 0;
  for (let b = 0, i = 0; b < blockCount; b++) {
    block = blockPos[b]!;
    for (const blockEnd = data[2 * n + b]!; i < blockEnd; i++) {
      const end = data[n + i]!;
      const terminator = (data[i]! & 63) <= LAST_TERMINATOR;
      for (let k = start; k < end; k++) {
        const code = data[base + k]!;
        if (code === UNRESOLVED) {
          operands[k] = BY_VALUE;
          continue;
        }
        const tag = code & 3;
        const index = code >>> 2;
        let at: number;
        if (tag === TAG_INSTRUCTION) at = instPos[index]!;
        else if (tag === TAG_BLOCK) {
          at = blockPos[index]!;
          if (terminator) {
            predFrom[predCount] = block;
            predNext[predCount] = predHead[at]!;
            predHead[at] = predCount++;
          }
        } else {
          const v = values[index]!;
          if (v.kind === 'argument') at = v.index;
          else {
            operands[k] = v.kind === 'global' || v.kind === 'function' ? counts.globalCode(v) : BY_VALUE;
            continue;
          }
        }
        uses[at]!++;
        operands[k] = at;
      }
      start = end;
    }
  }
}

/**
 * A constant that mentions no global by its kind alone, answered without a cache entry (a string's
 * million byte elements made a million in mentionsGlobal).
 */
function isScalarConstant(c: Value): boolean {
  const k = c.kind;
  return k === 'int' || k === 'bool' || k === 'fp' || k === 'null' || k === 'undef' || k === 'zeroinitializer';
}

/** Opcode numbers (graph/compact-body.ts OPCODES) up to this one are terminators. */
const LAST_TERMINATOR = LAST_TERMINATOR_NUMBER;

/** `f`'s values in numbering order: arguments, then each block followed by its instructions. */
export function bodyValues(view: ModuleView, f: Function): Value[] {
  const values: Value[] = [...f.args];
  for (const b of f.blocks) {
    values.push(b);
    const list = instructionsIn(view, b);
    for (let n = 0; n < list.length; n++) values.push(list[n]!);
  }
  return values;
}

function isTerminator(i: Instruction): boolean {
  return isTerminatorOpcode(i.opcode);
}
