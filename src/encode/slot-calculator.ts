import { notInModule } from './encode-error.js';
/**
 * Slot numbering as LLVM's bytecode writer computed it (SlotCalculator), over our graph. LLVM
 * 1.3, 1.8 and 1.9 share this algorithm; 1.3 also numbered `vanext`'s argument type.
 *
 * Every number in a bytecode file is a position: a type's index in the type table, a value's index
 * in its type's plane. To reproduce LLVM's files byte for byte we must number exactly as it did,
 * including its heuristics:
 *
 * - types are numbered as first met, a type before the types inside it (which follow in post
 *   order); with 64 types or more, first-class types are swapped to the front;
 * - the module table holds globals, then functions, then global initializers, then (planes
 *   holding strings are reordered so strings come first) every constant any function uses, so
 *   function constant pools are never written;
 * - each function then gets a *compaction table* mapping its local plane numbering onto the
 *   module's, which is pruned plane by plane where it saves nothing, and may be empty.
 *
 * Values are canonical representatives (see `Canonicalizer`): LLVM keyed its maps by object
 * identity over uniqued constants. The swaps below are LLVM's (unstable) swap loops, kept because
 * the resulting orders are visible in the files.
 */
import type { Type } from '../graph/type.js';
import { isFirstClassType, primitiveTypeId, primitiveTypesById, subtypes } from '../graph/type.js';
import type { Module } from '../graph/module.js';
import { formatFor, type FormatRow } from '../format/format-table.js';
import { gepIndexKindsOfCodes, writtenConstantOperands, writtenStructIndex, type GepIndexKind } from './gep-indices.js';
import type { Function, Instruction, Value } from '../graph/value.js';
import { Canonicalizer, hasNullValue, isPlainConstant, isString } from './canonical.js';
import { namedConstants, typeNameOrder } from './symbol-order.js';
import type { LocalEntry, SlotNumbering } from './slot-numbering.js';
import {
  bodyViewOf,
  LocalSlots,
  namedConstantsOfBody,
  TAG_BLOCK,
  TAG_INSTRUCTION,
  TAG_VALUE,
  typeOfCode,
  VANEXT,
  GETELEMENTPTR,
  type BodyView,
} from './body-view.js';
import { primitiveTypes as P } from '../graph/type.js';
import { ValueSlots } from './value-slots.js';
import { withRoom } from '../binary/int32-room.js';

/**
 * Which global type slots `buildUncompactedTypesTable` met for the function it builds for
 * (== its stamp): shared by every calculator, as one function is numbered at a time.
 */
let typesMet = new Int32Array(64);
let typesMetStamp = 0;
/** By global type slot, under the same stamp: whether the scan lists a value of that type, and the largest module slot among them. */
let typesListed = new Int32Array(64);
let maxModuleSlots = new Int32Array(64);
/** The type slot of each scan entry of the function being built. */
let scanTypeSlots = new Int32Array(64);

/**
 * Which of a body's values (`values` indices) `processModule` has met in the function it walks
 * (== its stamp): shared by every calculator, as one function is walked at a time.
 */
let valuesSeen = new Int32Array(64);
let valuesSeenStamp = 0;

/** Scratch of `localCountsOf`: locals per type slot, and instructions per body type. */
let localCounts = new Int32Array(64);
let typeCounts = new Int32Array(64);

/** LLVM's type ids for the primitive types (void = 0 … label = 12). */
export const FIRST_DERIVED_TYPE_ID = 13;
const VOID_ID = 0;
const LABEL_ID = 12;

/**
 * Numbers the types inside `t` (already numbered itself) that are not numbered yet, in post order:
 * LLVM numbered a type before the types it contains, so that recursive types come out bottom up.
 */
export function insertSubtypes(t: Type, isNumbered: (t: Type) => boolean, insert: (t: Type) => void): void {
  if (t.kind !== 'function' && t.kind !== 'struct' && t.kind !== 'array' && t.kind !== 'packed' && t.kind !== 'pointer') {
    return; // no types inside
  }
  // Every numbered type has its inner types numbered too: when all direct subtypes are numbered,
  // the walk below would add nothing.
  const direct = subtypes(t);
  let allNumbered = true;
  for (let i = 0; i < direct.length; i++) {
    if (direct[i] !== t && !isNumbered(direct[i]!)) {
      allNumbered = false;
      break;
    }
  }
  if (allNumbered) return;
  const visited = new Set<Type>([t]);
  const stack: { t: Type; subs: readonly Type[]; i: number }[] = [{ t, subs: subtypes(t), i: 0 }];
  while (stack.length !== 0) {
    const top = stack[stack.length - 1]!;
    if (top.i < top.subs.length) {
      const child = top.subs[top.i++]!;
      // A numbered child has all its inner types numbered (above): nothing below it to insert.
      // Walking there anyway made a chain of N types, each numbered after the one it holds,
      // quadratic (3,000 types, 74 KiB of assembly: 1.3 s to write).
      if (!visited.has(child) && !isNumbered(child)) {
        visited.add(child);
        stack.push({ t: child, subs: subtypes(child), i: 0 });
      }
      continue;
    }
    stack.pop();
    if (top.t !== t && !isNumbered(top.t)) insert(top.t);
  }
}

/**
 * The graph index of LLVM's operand `i`: LLVM kept an instruction's operands in the graph's order,
 * except that a conditional `br` keeps its condition last ([ifTrue, ifFalse, cond]).
 */
export function llvmOperandIndex(inst: Instruction, i: number): number {
  return inst.opcode === 'br' && inst.operands.length === 3 ? (i + 1) % 3 : i;
}

/**
 * What each function's compaction table is built from, recorded during the module walk: LLVM
 * walks the function's argument types, then per instruction its type (when it changes), its
 * non-local operands (canonical) and `vanext`'s argument type. Repeats are no-ops there, so only
 * the first mention of each type or value is kept, in order. Every function's list lives in one
 * array of numbers (function `k` holds `starts[k]` … `ends[k]`): a value by its id (see
 * value-slots.ts), a type as `~n` for its number `n` here; repeats are told by marks (the
 * function's number) per type and per value id, not by a set per function: a module of
 * thousands of functions keeps no objects per function alive for the whole write, and the
 * lists hold no references for the collector to trace.
 */
class FunctionScans {
  entries = new Int32Array(16);
  length = 0;
  starts = new Int32Array(16);
  ends = new Int32Array(16);
  /** The types listed, by their number here. */
  readonly types: Type[] = [];
  private readonly typeNumbers = new Map<Type, number>();
  private typeMarks = new Int32Array(16);
  private valueMarks = new Int32Array(16);
  /** The number of the function being recorded, plus one (0: none). */
  private current = 0;

  /** Starts recording function number `k` (0, 1, … in turn). */
  begin(k: number): void {
    if (k >= this.starts.length) {
      this.starts = withRoom(this.starts, k + 1);
      this.ends = withRoom(this.ends, k + 1);
    }
    this.starts[k] = this.ends[k] = this.length;
    this.current = k + 1;
  }

  addType(t: Type): void {
    let n = this.typeNumbers.get(t);
    if (n === undefined) {
      n = this.types.length;
      this.types.push(t);
      this.typeNumbers.set(t, n);
      this.typeMarks = withRoom(this.typeMarks, n + 1);
    }
    if (this.typeMarks[n] === this.current) return;
    this.typeMarks[n] = this.current;
    this.push(~n);
  }

  /** Lists the value whose id (see value-slots.ts) is `id`. */
  addValue(id: number): void {
    if (id >= this.valueMarks.length) this.valueMarks = withRoom(this.valueMarks, id + 1);
    if (this.valueMarks[id] === this.current) return;
    this.valueMarks[id] = this.current;
    this.push(id);
  }

  private push(entry: number): void {
    if (this.length === this.entries.length) this.entries = withRoom(this.entries, this.length + 1);
    this.entries[this.length++] = entry;
    this.ends[this.current - 1] = this.length;
  }
}

export class SlotCalculator implements SlotNumbering {
  readonly canon = new Canonicalizer();
  /** The module's type table (global type slots). */
  readonly types: Type[] = [];
  private readonly typeMap = new Map<Type, number>();
  /** The module's value planes, indexed by global type slot. */
  readonly table: (Value | LocalEntry)[][] = [];
  /** Module-level strings, in the order they were numbered (the strings plane's order). */
  readonly strings: Value[] = [];
  /** Each plane's module level while a function is incorporated (the first `moduleLevelCount`; kept from function to function). */
  private moduleLevel = new Int32Array(16);
  private moduleLevelCount = 0;
  /** Size of the type table before the current function (its function-local types follow). */
  moduleTypeLevel = 0;
  private moduleContainsAllFunctionConstants = false;

  /** The current function's compaction table (planes by compacted type slot); empty when none. */
  compactionTable: (Value | LocalEntry)[][] = [];
  /** The current function's compacted types; empty when types are not compacted. */
  compactionTypes: Type[] = [];
  /**
   * Values' slots: in the module table, and those given while a function is incorporated (its
   * compaction table entries and the values, arguments and local null values, it adds to the
   * module planes; its instructions and blocks are numbered by position in `locals`). Lookups try
   * the function's slot first, as LLVM tried its compaction map first. (A value is never both a
   * compaction entry and a function-added plane entry.)
   */
  private readonly slots = new ValueSlots();
  private inFunction = false;
  /** Per defined function, what its compaction table needs (recorded by `processModule`). */
  private readonly scans = new FunctionScans();
  /** Each defined function's number in `scans` and `views`. */
  private functionNumbers: Map<Function, number> | undefined;
  /** The defined functions by number, and the number `numberOf` answered last. */
  private readonly defined: Function[] = [];
  private lastNumber = 0;
  /** The value id (see value-slots.ts) of the canonical representative of each constant operand object met in a function body. */
  private readonly operandIds = new Map<Value, number>();
  private readonly compactionTypeMap = new Map<Type, number>();
  /** Each defined function's body as the writer walks it (see body-view.ts), by function number. */
  private readonly views: BodyView[] = [];
  /** The current function's body, and the slots of its instructions and blocks (-1: none) and of its tag-0 values (memo, -2: not asked yet). */
  private readonly locals = new LocalSlots();
  private get view(): BodyView | undefined {
    return this.locals.view;
  }

  /**
   * Versions 0–1 counted the "type type" among the types (see `fileTypeId`), so LLVM 1.2's
   * thresholds of 64 types were reached one type earlier than in our numbering.
   */
  private readonly typeIdShift: number;
  private readonly row: FormatRow;

  constructor(
    private readonly module: Module,
    row: FormatRow = formatFor(6)!,
  ) {
    this.row = row;
    this.typeIdShift = row.typeTypePlaneId !== null ? 1 : 0;
    for (const t of primitiveTypesById) this.insertType(t);
    this.processModule();
  }

  // ---- lookups ---------------------------------------------------------------------------------

  /** A value's slot in its plane (compaction table first), or -1. `v` may be any graph value. */
  slotOf(v: Value): number {
    // Hot path: most operands are the current function's own values.
    const local = this.slots.fnSlot(v);
    if (local !== -1) return local;
    switch (v.kind) {
      case 'instruction':
      case 'block':
        return this.locals.ofObject(v);
      case 'argument':
        return -1;
      case 'global':
      case 'function':
        return this.getSlot(v);
      default:
        // (A body's constant operands are asked once per function: `codeSlot` keeps their slots.)
        return this.getSlot(this.canon.canon(v));
    }
  }

  /** The body of `f` as the writer walks it (undefined for a declaration). */
  viewOf(f: Function): BodyView | undefined {
    const k = this.numberOf(f);
    return k !== undefined ? this.views[k] : bodyViewOf(f);
  }

  /**
   * `f`'s number among the defined functions (undefined: none). The writer asks in module order,
   * so the answer is nearly always the last one or the next: a Map of every function is built
   * only when it is not. (A function listed twice in the module may get either of its numbers:
   * both hold the same body and the same scan.)
   */
  private numberOf(f: Function): number | undefined {
    const k = this.lastNumber;
    if (this.defined[k] === f) return k;
    if (this.defined[k + 1] === f) return (this.lastNumber = k + 1);
    if (this.functionNumbers === undefined) {
      this.functionNumbers = new Map<Function, number>();
      for (let i = 0; i < this.defined.length; i++) this.functionNumbers.set(this.defined[i]!, i);
    }
    const found = this.functionNumbers.get(f);
    if (found !== undefined) this.lastNumber = found;
    return found;
  }

  private localSlot(code: number): number {
    return this.locals.get(code);
  }

  private setLocalSlot(code: number, slot: number): void {
    this.locals.set(code, slot);
  }

  private readonly slotOfValue = (v: Value): number => this.slotOf(v);

  /** The slot of an operand code of the current function's body, or -1. */
  codeSlot(code: number): number {
    return this.locals.codeSlot(code, this.slotOfValue);
  }

  /** The same as `slotOf`: from LLVM 1.3 on a global inside a constant is the global itself. */
  constantOperandSlot(v: Value): number {
    return this.slotOf(v);
  }

  private getSlot(rep: Value): number {
    return this.slots.slot(rep);
  }

  /**
   * The last types `typeSlot` answered and their slots (replaced in turn): instructions mostly use
   * a few types at a time, and this saves a Map lookup or two each. Forgotten whenever a type
   * slot may change.
   */
  private cachedType0: Type | undefined;
  private cachedType1: Type | undefined;
  private cachedType2: Type | undefined;
  private cachedType3: Type | undefined;
  private cachedTypeSlot0 = -1;
  private cachedTypeSlot1 = -1;
  private cachedTypeSlot2 = -1;
  private cachedTypeSlot3 = -1;
  private nextCachedType = 0;

  private forgetCachedType(): void {
    this.cachedType0 = this.cachedType1 = this.cachedType2 = this.cachedType3 = undefined;
    this.localType = undefined;
  }

  /** A type's slot (compacted when a type compaction table is active), or -1. */
  typeSlot(t: Type): number {
    if (t === this.cachedType0) return this.cachedTypeSlot0;
    if (t === this.cachedType1) return this.cachedTypeSlot1;
    if (t === this.cachedType2) return this.cachedTypeSlot2;
    if (t === this.cachedType3) return this.cachedTypeSlot3;
    const s = this.lookUpTypeSlot(t);
    if (s !== -1) {
      switch (this.nextCachedType) {
        case 0:
          this.cachedType0 = t;
          this.cachedTypeSlot0 = s;
          break;
        case 1:
          this.cachedType1 = t;
          this.cachedTypeSlot1 = s;
          break;
        case 2:
          this.cachedType2 = t;
          this.cachedTypeSlot2 = s;
          break;
        default:
          this.cachedType3 = t;
          this.cachedTypeSlot3 = s;
      }
      this.nextCachedType = (this.nextCachedType + 1) & 3;
    }
    return s;
  }

  private lookUpTypeSlot(t: Type): number {
    if (this.compactionTypeMap.size !== 0) {
      const s = this.compactionTypeMap.get(t);
      if (s !== undefined) return s;
    }
    const s = this.typeMap.get(t);
    return s === undefined ? -1 : s;
  }

  /** A value's slot in the module table (for compaction table entries). */
  globalSlotOf(rep: Value): number {
    const s = this.slots.moduleSlot(rep);
    if (s === -1) throw notInModule('a value', this.row.version);
    return s;
  }

  globalTypeSlot(t: Type): number {
    const s = this.typeMap.get(t);
    if (s === undefined) throw notInModule('a type', this.row.version);
    return s;
  }

  get numPlanes(): number {
    return this.compactionTable.length === 0 ? this.table.length : this.compactionTable.length;
  }

  /** The types visible now: compacted types if any, else the module's. */
  get visibleTypes(): readonly Type[] {
    return this.compactionTypes.length !== 0 ? this.compactionTypes : this.types;
  }

  getModuleLevel(plane: number): number {
    return plane < this.moduleLevelCount ? this.moduleLevel[plane]! : 0;
  }

  getPlane(plane: number): (Value | LocalEntry)[] {
    if (this.compactionTable.length !== 0) {
      const cp = this.compactionTable[plane];
      if (cp !== undefined && cp.length !== 0) return cp;
      if (this.compactionTypes.length !== 0) plane = this.typeMap.get(this.compactionTypes[plane]!)!;
    }
    while (this.table.length <= plane) this.table.push([]);
    return this.table[plane]!;
  }

  isNullRep(rep: Value): boolean {
    return this.canon.isNull(rep);
  }

  // ---- module ----------------------------------------------------------------------------------

  private processModule(): void {
    const m = this.module;
    for (const g of m.globals) this.getOrCreateSlot(g);
    for (const f of m.functions) this.getOrCreateSlot(f);
    for (const g of m.globals) if (g.initializer !== undefined) this.getOrCreateSlot(this.canon.canon(g.initializer));

    // Strings (and zero arrays) of byte-array planes move to the front of their plane.
    for (let plane = 0; plane < this.table.length; plane++) {
      const t = this.types[plane]!;
      if (t.kind !== 'array' || (t.element.kind !== 'sbyte' && t.element.kind !== 'ubyte')) continue;
      const p = this.table[plane] as Value[]; // (module level: values only)
      let firstNonString = 0;
      for (let i = 0; i < p.length; i++) {
        const v = p[i]!;
        if (v.kind === 'zeroinitializer' || isString(v)) {
          if (i !== firstNonString) {
            const tmp = p[i]!;
            p[i] = p[firstNonString]!;
            p[firstNonString] = tmp;
            this.slots.setModuleSlot(p[i]!, i);
            this.slots.setModuleSlot(p[firstNonString]!, firstNonString);
          }
          firstNonString++;
        }
      }
    }

    this.moduleContainsAllFunctionConstants = true;
    // (Graph operand order suffices here: only a `br`'s condition can be a constant, so LLVM's
    // operand order would insert the same constants in the same order.)
    // This is the one walk over every operand of the module. It also records, per function, what
    // its compaction table will need (see `FunctionScan`), so that walk need not be repeated.
    let lastType: Type | undefined;
    const kinds: GepIndexKind[] = [];
    for (const f of m.functions) {
      const view = bodyViewOf(f);
      if (view === undefined) continue;
      const k = this.views.length;
      this.views.push(view);
      this.defined.push(f);
      const scan = this.scans;
      scan.begin(k);
      for (const a of f.args) scan.addType(a.type);
      let fnLastType: Type | undefined;
      const body = view.body;
      const { data, types, values } = body;
      const n = body.instructionCount;
      const operandBase = 2 * n + body.blockCount;
      const seen = (valuesSeen = withRoom(valuesSeen, values.length));
      if (valuesSeenStamp >= 0x3fff_ffff) {
        seen.fill(0);
        valuesSeenStamp = 0;
      }
      const stamp = ++valuesSeenStamp;
      let nextExtra = 0;
      let start = 0;
      for (let inst = 0; inst < n; inst++) {
        const word = data[inst]!;
        const type = types[word >>> 6]!;
        const end = data[n + inst]!;
        {
          if (type !== fnLastType) {
            fnLastType = type;
            scan.addType(type);
          }
          const isGep = (word & 63) === GETELEMENTPTR && end - start >= 2;
          if (isGep) gepIndexKindsOfCodes(body, operandBase, start, end, kinds);
          for (let k = start; k < end; k++) {
            const code = data[operandBase + k]!;
            if ((code & 3) !== TAG_VALUE || code < 0) continue;
            const index = code >>> 2;
            const structIndex = isGep && kinds[k - start] === 'struct';
            if (!structIndex) {
              // A value this function named before is numbered and listed already: what follows
              // would do nothing (and ask Maps twice to find that out).
              if (seen[index] === stamp) continue;
              seen[index] = stamp;
            }
            let op = values[index]!;
            if (structIndex) op = writtenStructIndex(this.row, op);
            switch (op.kind) {
              case 'instruction':
              case 'argument':
              case 'block':
                continue;
              case 'global':
              case 'function':
                scan.addValue(this.slots.idOf(op));
                continue;
              default: {
                // A constant object met before (in any function) is numbered already.
                let id = this.operandIds.get(op);
                if (id === undefined) {
                  const rep = this.canon.canon(op);
                  this.getOrCreateSlot(rep);
                  id = this.slots.idOf(rep);
                  this.operandIds.set(op, id);
                }
                scan.addValue(id);
              }
            }
          }
          if (type !== lastType) {
            lastType = type;
            this.getOrCreateTypeSlot(type);
          }
          while (nextExtra < body.extraAt.length && body.extraAt[nextExtra]! < inst) nextExtra++;
          if ((word & 63) === VANEXT && nextExtra < body.extraAt.length && body.extraAt[nextExtra] === inst) {
            const argType = body.extras[nextExtra]!.argType;
            if (argType !== undefined) {
              this.getOrCreateTypeSlot(argType);
              scan.addType(argType);
            }
          }
        }
        start = end;
      }
      // Constants the function's symbol table names (LLVM processSymbolTableConstants).
      for (const c of namedConstantsOfBody(body)) {
        const rep = this.canon.canon(c);
        this.getOrCreateSlot(rep);
        scan.addValue(this.slots.idOf(rep));
      }
    }

    // Named types of the module symbol table; its values are globals, numbered already, and
    // (LLVM 1.0–1.2 only) named constants, which LLVM numbered here too.
    for (const { type } of typeNameOrder(m.typeNames)) this.getOrCreateTypeSlot(type);
    for (const c of namedConstants(m.layout)) this.getOrCreateSlot(this.canon.canon(c));

    if (this.types.length + this.typeIdShift >= 64) {
      let firstNonValue = 0;
      for (let i = 0; i < this.types.length; i++) {
        const t = this.types[i]!;
        if (isFirstClassType(t) || primitiveTypeId(t) >= 0) {
          if (i !== firstNonValue) {
            const tmp = this.types[i]!;
            this.types[i] = this.types[firstNonValue]!;
            this.types[firstNonValue] = tmp;
            this.typeMap.set(this.types[i]!, i);
            this.typeMap.set(this.types[firstNonValue]!, firstNonValue);
            this.forgetCachedType();
            if (this.table.length > firstNonValue) {
              while (this.table.length <= i) this.table.push([]);
              const tp = this.table[i]!;
              this.table[i] = this.table[firstNonValue]!;
              this.table[firstNonValue] = tp;
            }
          }
          firstNonValue++;
        }
      }
    }
  }

  // ---- insertion -------------------------------------------------------------------------------

  private getOrCreateSlot(rep: Value): number {
    if (rep.type.kind === 'void') return -1;
    const existing = this.getSlot(rep);
    if (existing !== -1) return existing;
    if (isPlainConstant(rep)) {
      if (!isString(rep)) {
        for (const op of writtenConstantOperands(this.row, rep)) this.getOrCreateSlot(this.canon.canon(op));
      } else if (!this.canon.isNull(rep)) {
        this.strings.push(rep);
      }
    }
    return this.insertValue(rep);
  }

  private getOrCreateTypeSlot(t: Type): number {
    const s = this.typeSlot(t);
    return s !== -1 ? s : this.insertType(t);
  }

  /** Whether the current function has given `rep` a slot of its own (compaction entry or local). */
  private hasFnSlot(rep: Value | LocalEntry): boolean {
    return typeof rep === 'number' ? this.localSlot(rep) !== -1 : this.slots.hasFnSlot(rep);
  }

  private setFnSlot(rep: Value | LocalEntry, slot: number): void {
    if (typeof rep === 'number') this.setLocalSlot(rep, slot);
    else this.slots.setFnSlot(rep, slot);
  }

  /** The type of a plane entry (a local entry is a code of the current body). */
  private entryType(rep: Value | LocalEntry): Type {
    return typeof rep === 'number' ? typeOfCode(this.view!.body, rep)! : rep.type;
  }

  private insertValue(rep: Value | LocalEntry, typ: Type = this.entryType(rep)): number {
    if (this.inFunction) {
      if (typ.kind === 'void') return -1;
      const plane = this.typeSlot(typ);
      const cp = this.compactionTable[plane];
      if (cp !== undefined && cp.length !== 0) {
        // Hot path (each of a function's own values): a value new to a non-empty compaction plane
        // of its own type is appended, as getOrCreateCompactionSlot would after finding nothing.
        if (this.compactionTypes.length === 0 || this.compactionTypeMap.get(typ) === plane) {
          if (!this.hasFnSlot(rep)) {
            const slot = cp.length;
            cp.push(rep);
            this.setFnSlot(rep, slot);
            return slot;
          }
        }
        return this.getOrCreateCompactionSlot(rep, typ);
      }
    }
    if (typ.kind === 'void') return -1;
    return this.doInsertValue(rep, typ);
  }

  private insertType(t: Type): number {
    if (this.compactionTypeMap.size !== 0) this.getOrCreateCompactionTypeSlot(t);
    const result = this.doInsertType(t);
    insertSubtypes(
      t,
      (sub) => this.typeSlot(sub) !== -1,
      (sub) => this.doInsertType(sub),
    );
    return result;
  }

  private doInsertValue(rep: Value | LocalEntry, typ: Type): number {
    let ty: number;
    const prim = primitiveTypeId(typ);
    if (prim < 0) {
      let s = this.compactionTable.length === 0 ? this.typeSlot(typ) : (this.typeMap.get(typ) ?? -1);
      if (s === -1) s = this.insertType(typ);
      ty = s;
    } else {
      ty = prim;
    }
    const plane = this.planeWithNull(this.table, ty, typ, rep, this.inFunction);
    const slot = plane.length;
    if (this.inFunction) this.setFnSlot(rep, slot);
    else this.slots.setModuleSlot(rep as Value, slot);
    plane.push(rep);
    return slot;
  }

  private doInsertType(t: Type): number {
    const slot = this.types.length;
    this.typeMap.set(t, slot);
    this.forgetCachedType();
    this.types.push(t);
    return slot;
  }

  // ---- functions -------------------------------------------------------------------------------

  /** Numbers a function's arguments, blocks and instructions (and builds its compaction table). */
  incorporateFunction(f: Function): void {
    this.inFunction = true;
    const view = this.viewOf(f);
    this.locals.begin(view);
    this.prunedEarly = false;
    if (this.moduleContainsAllFunctionConstants) this.buildCompactionTable(f, view);
    const n = this.numPlanes;
    const levels = (this.moduleLevel = withRoom(this.moduleLevel, n));
    for (let i = 0; i < n; i++) levels[i] = this.getPlane(i).length;
    this.moduleLevelCount = n;
    this.moduleTypeLevel = this.types.length;

    // Arguments, blocks and instructions are new to the table (LLVM's getOrCreateSlot would miss).
    // (Planes pruned already, see `buildUncompactedTypesTable`, are empty: their locals go to the
    // module planes, as the pruning would have moved them.)
    this.forgetCachedType();
    for (const a of f.args) this.insertLocal(a, a.type);
    if (view !== undefined) {
      const { data, types, blockCount, extraAt, extras } = view.body;
      const n = view.body.instructionCount;
      let i = 0;
      let nextExtra = 0;
      for (let b = 0; b < blockCount; b++) {
        this.insertLocal(b * 4 + TAG_BLOCK, P.label);
        const end = data[2 * n + b]!;
        for (; i < end; i++) {
          const word = data[i]!;
          const t = types[word >>> 6]!;
          if (t.kind !== 'void') this.insertLocal(i * 4 + TAG_INSTRUCTION, t);
          if ((word & 63) === VANEXT) {
            while (nextExtra < extraAt.length && extraAt[nextExtra]! < i) nextExtra++;
            const argType = nextExtra < extraAt.length && extraAt[nextExtra] === i ? extras[nextExtra]!.argType : undefined;
            if (argType !== undefined) this.getOrCreateTypeSlot(argType);
          }
        }
      }
    }
    if (this.prunedEarly) this.settlePrunedLevels();
    else if (this.compactionTable.length !== 0) this.pruneCompactionTable();
  }

  /**
   * How many locals (arguments and instructions; blocks are labels, whose compaction plane is
   * always empty) of each type slot `f` has, in a scratch array by type slot; undefined when
   * the arguments are not distinct objects (then a count is not the number of values numbered).
   */
  private localCountsOf(f: Function, view: BodyView | undefined): Int32Array | undefined {
    const args = f.args;
    if (args.length > 16) return undefined;
    for (let i = 1; i < args.length; i++) for (let j = 0; j < i; j++) if (args[i] === args[j]) return undefined;
    const planes = this.types.length;
    const counts = (localCounts = withRoom(localCounts, planes));
    counts.fill(0, 0, planes);
    for (let i = 0; i < args.length; i++) {
      const t = args[i]!.type;
      if (t.kind === 'void') continue;
      const s = this.typeSlot(t);
      if (s >= 0 && s < planes) counts[s]!++;
    }
    if (view !== undefined) {
      const { data, types } = view.body;
      const perType = (typeCounts = withRoom(typeCounts, types.length));
      perType.fill(0, 0, types.length);
      for (let i = 0, n = view.body.instructionCount; i < n; i++) perType[data[i]! >>> 6]!++;
      for (let j = 0; j < types.length; j++) {
        const c = perType[j]!;
        const t = types[j]!;
        if (c === 0 || t.kind === 'void') continue;
        const s = this.typeSlot(t);
        if (s >= 0 && s < planes) counts[s]! += c;
      }
    }
    return counts;
  }

  /** Whether `buildUncompactedTypesTable` pruned the current function's planes already. */
  private prunedEarly = false;

  /** Planes pruned by `buildUncompactedTypesTable`: pairs of plane and its count of locals. */
  private readonly prunedPlanes: number[] = [];

  /** The module level of each plane pruned before the locals were numbered, now that they are in. */
  private settlePrunedLevels(): void {
    const pruned = this.prunedPlanes;
    for (let i = 0; i < pruned.length; i += 2) {
      const ctp = pruned[i]!;
      this.moduleLevel[ctp] = this.table[ctp]!.length - pruned[i + 1]!;
    }
  }

  /**
   * The plane a function's own value of the last type `insertLocal` met is simply appended to
   * (undefined: take the general path). Runs of values share types, so this saves `insertValue`'s
   * type lookups; forgotten with the type cache.
   */
  private localType: Type | undefined;
  private localPlane: (Value | LocalEntry)[] | undefined;

  /** `insertValue` for an argument, block or instruction (of type `t`), with the common case inline. */
  private insertLocal(rep: Value | LocalEntry, t: Type): void {
    if (t !== this.localType) {
      this.localPlane = this.appendPlaneFor(t);
      this.localType = t;
    }
    const plane = this.localPlane;
    // An empty plane may first need its null value: the general path knows.
    if (plane !== undefined && plane.length !== 0 && !this.hasFnSlot(rep)) {
      this.setFnSlot(rep, plane.length);
      plane.push(rep);
      return;
    }
    this.insertValue(rep, t);
  }

  /** The plane `insertValue` appends a new value of type `t` to, when it does nothing else. */
  private appendPlaneFor(t: Type): (Value | LocalEntry)[] | undefined {
    if (t.kind === 'void') return undefined;
    const plane = this.typeSlot(t);
    const cp = this.compactionTable[plane];
    if (cp !== undefined && cp.length !== 0) {
      return this.compactionTypes.length === 0 || this.compactionTypeMap.get(t) === plane ? cp : undefined;
    }
    // doInsertValue's plane.
    const prim = primitiveTypeId(t);
    const ty = prim >= 0 ? prim : this.compactionTable.length === 0 ? plane : (this.typeMap.get(t) ?? -1);
    return ty === -1 ? undefined : this.table[ty];
  }

  /** Forgets the current function's values, restoring the module state. */
  purgeFunction(): void {
    const numModuleTypes = this.moduleLevelCount;
    const ct = this.compactionTable;
    // Everything the function added to the module planes sits above each plane's module level.
    // (A non-empty compaction plane is dropped below: nothing to cut.)
    for (let i = 0; i < numModuleTypes; i++) {
      if (ct.length !== 0) {
        const cp = ct[i];
        if (cp !== undefined && cp.length !== 0) continue;
      }
      const level = this.getModuleLevel(i);
      const plane = this.getPlane(i);
      if (plane.length > level) plane.length = level;
    }
    this.slots.clearFnSlots();
    this.inFunction = false;
    this.locals.end();
    if (this.compactionTypeMap.size !== 0) this.compactionTypeMap.clear();
    this.forgetCachedType();
    this.moduleLevelCount = 0;
    this.moduleTypeLevel = 0;
    if (this.compactionTypes.length !== 0) this.compactionTypes = [];
    if (this.compactionTable.length !== 0) {
      this.compactionTable = [];
    } else {
      while (this.table.length > numModuleTypes) {
        this.table.pop();
      }
    }
  }

  /**
   * Plane `ty` of `table` (made if missing), with the type's implicit null value first when the
   * plane is new and `rep` is not that null itself (LLVM's planes of types with a null value begin
   * with it); the null gets slot 0 in the function's numbering (`inFunction`) or the module's.
   */
  private planeWithNull(table: (Value | LocalEntry)[][], ty: number, typ: Type, rep: Value | LocalEntry, inFunction: boolean): (Value | LocalEntry)[] {
    while (table.length <= ty) table.push([]);
    const plane = table[ty]!;
    if (plane.length === 0 && hasNullValue(typ)) {
      const zero = this.canon.nullOf(typ);
      if (rep !== zero) {
        plane.push(zero);
        if (inFunction) this.slots.setFnSlot(zero, 0);
        else this.slots.setModuleSlot(zero, 0);
      }
    }
    return plane;
  }

  private getOrCreateCompactionSlot(rep: Value | LocalEntry, typ: Type = this.entryType(rep)): number {
    if (typeof rep !== 'number') {
      const existing = this.slots.fnSlot(rep);
      if (existing !== -1) return existing;
    } else if (this.localSlot(rep) !== -1) return this.localSlot(rep);
    const ty = this.compactionTypes.length !== 0 ? this.getOrCreateCompactionTypeSlot(typ) : this.typeSlot(typ);
    const plane = this.planeWithNull(this.compactionTable, ty, typ, rep, true);
    const slot = plane.length;
    plane.push(rep);
    if (!this.hasFnSlot(rep)) this.setFnSlot(rep, slot);
    return slot;
  }

  /**
   * `getOrCreateCompactionSlot(rep, typ)` for a value whose id (`ValueSlots`) the scan kept, while
   * types are not compacted: the same steps, with no Map lookup for `rep` itself.
   */
  private compactionSlotOfId(rep: Value, id: number, typ: Type): number {
    const slots = this.slots;
    const existing = slots.fnSlotOfId(id);
    if (existing !== -1) return existing;
    const ty = this.typeSlot(typ);
    const plane = this.planeWithNull(this.compactionTable, ty, typ, rep, true);
    const slot = plane.length;
    plane.push(rep);
    if (slots.fnSlotOfId(id) === -1) slots.setFnSlotOfId(id, slot);
    return slot;
  }

  private getOrCreateCompactionTypeSlot(t: Type): number {
    const existing = this.compactionTypeMap.get(t);
    if (existing !== undefined) return existing;
    const slot = this.compactionTypes.length;
    this.compactionTypes.push(t);
    this.compactionTypeMap.set(t, slot);
    this.forgetCachedType();
    return slot;
  }

  private buildCompactionTable(f: Function, view: BodyView | undefined): void {
    // Index of the last first-class type of the module table (building the table adds no type).
    let numFCTypes = this.types.length - 1;
    while (!isFirstClassType(this.types[numFCTypes]!)) numFCTypes--;
    if (numFCTypes + this.typeIdShift < 64) {
      this.buildUncompactedTypesTable(f, view);
      return;
    }
    this.compactionTable = [];
    for (let i = 0; i <= LABEL_ID; i++) {
      this.compactionTable.push([]);
      this.compactionTypes.push(primitiveTypesById[i]!);
      this.compactionTypeMap.set(primitiveTypesById[i]!, i);
    }
    this.forgetCachedType();
    // Replays, in order, the first mention of each type and non-local value (see FunctionScan).
    const k = this.numberOf(f);
    if (k !== undefined) {
      const { entries, types } = this.scans;
      for (let i = this.scans.starts[k]!, end = this.scans.ends[k]!; i < end; i++) {
        const e = entries[i]!;
        if (e < 0) this.getOrCreateCompactionTypeSlot(types[~e]!);
        else this.getOrCreateCompactionSlot(this.slots.valueOf(e));
      }
    }

    while (this.compactionTable.length < this.compactionTypes.length) this.compactionTable.push([]);
    this.compactionTable.length = this.compactionTypes.length;
    for (let i = 0; i < this.compactionTable.length; i++) {
      if (this.compactionTable[i]!.length === 0 && i !== VOID_ID && i !== LABEL_ID) {
        this.getOrCreateCompactionSlot(this.canon.nullOf(this.compactionTypes[i]!));
      }
    }

    if (numFCTypes + this.typeIdShift < 64) {
      // Types need no compaction: move each plane back to its global type slot.
      const tmpTable = this.compactionTable;
      const tmpTypes = this.compactionTypes;
      this.compactionTable = [];
      this.compactionTypes = [];
      while (tmpTypes.length !== 0) {
        const t = tmpTypes.pop()!;
        this.compactionTypeMap.delete(t);
        this.forgetCachedType();
        const tySlot = this.typeSlot(t);
        while (this.compactionTable.length <= tySlot) this.compactionTable.push([]);
        const moved = this.compactionTable[tySlot]!;
        this.compactionTable[tySlot] = tmpTable[tmpTypes.length]!;
        tmpTable[tmpTypes.length] = moved;
        tmpTable.pop();
      }
    }
  }

  /**
   * `buildCompactionTable` where types need no compaction, which LLVM found out only at the end
   * (building planes by compacted type, then moving each back to its global type slot): the same
   * planes built at their global slots directly. Each plane fills in the same order either way;
   * what the compacted build also did is give every type it met (the primitive types, the types
   * the scan lists, the types of the values it lists) its null value where the plane is empty.
   *
   * It also takes `pruneCompactionTable`'s decisions first (unless `localCountsOf` cannot count):
   * a plane's fate depends only on how many locals of its type the function has, the module
   * plane's size and (with no locals) the largest module slot among its entries, all known
   * before it is built. A plane to be pruned is then never built (its entries never get a
   * function slot only to lose it), and its locals go straight to the module plane.
   */
  private buildUncompactedTypesTable(f: Function, view: BodyView | undefined): void {
    this.compactionTable = [];
    for (let i = 0; i <= LABEL_ID; i++) this.compactionTable.push([]);
    this.forgetCachedType();
    const nTypes = this.types.length;
    const met = (typesMet = withRoom(typesMet, nTypes));
    const listed = (typesListed = withRoom(typesListed, nTypes));
    const maxSlots = (maxModuleSlots = withRoom(maxModuleSlots, nTypes));
    const stamp = ++typesMetStamp;
    const k = this.numberOf(f);
    const { entries, types } = this.scans;
    const slots = this.slots;
    const from = k !== undefined ? this.scans.starts[k]! : 0;
    const to = k !== undefined ? this.scans.ends[k]! : 0;
    const entrySlots = (scanTypeSlots = withRoom(scanTypeSlots, to - from));
    // The type slot of each entry; which planes get values, and their largest module slot.
    for (let i = from; i < to; i++) {
      const e = entries[i]!;
      const slot = this.typeSlot(e < 0 ? types[~e]! : slots.valueOf(e).type);
      entrySlots[i - from] = slot;
      if (slot < 0) continue;
      met[slot] = stamp;
      if (e < 0) continue;
      const moduleSlot = slots.moduleSlotOfId(e);
      if (listed[slot] !== stamp) {
        listed[slot] = stamp;
        maxSlots[slot] = moduleSlot;
      } else if (moduleSlot > maxSlots[slot]!) maxSlots[slot] = moduleSlot;
    }
    let end = LABEL_ID + 1;
    for (let slot = nTypes - 1; slot > LABEL_ID; slot--) {
      if (met[slot] === stamp) {
        end = slot + 1;
        break;
      }
    }
    while (this.compactionTable.length < end) this.compactionTable.push([]);

    // The planes pruning would empty: each plane that would hold something (a listed value, or
    // the null value of a type met), decided as `pruneCompactionTable` decides.
    const counts = this.localCountsOf(f, view);
    const pruned = this.prunedPlanes;
    pruned.length = 0;
    if (counts !== undefined) {
      for (let ctp = 0; ctp < end; ctp++) {
        const t = this.types[ctp]!;
        const nullable = ctp !== VOID_ID && ctp !== LABEL_ID && hasNullValue(t);
        const hasValues = listed[ctp] === stamp;
        if (!hasValues && !(nullable && met[ctp] === stamp)) continue;
        while (this.table.length <= ctp) this.table.push([]);
        const numFunctionObjs = counts[ctp]!;
        let prune = this.table[ctp]!.length + numFunctionObjs < 64;
        if (!prune && numFunctionObjs === 0) {
          // The plane's entries: its null value (slot 0) where the type has one, and its listed values.
          let maxIdx = 0;
          if (hasNullValue(t)) maxIdx = Math.max(this.slots.moduleSlot(this.canon.nullOf(t)), 0);
          if (hasValues && maxSlots[ctp]! > maxIdx) maxIdx = maxSlots[ctp]!;
          prune = maxIdx < 64;
        }
        if (!prune) continue;
        met[ctp] = -stamp; // (met, and pruned: no null value below)
        pruned.push(ctp, numFunctionObjs);
      }
      this.prunedEarly = true;
    }

    for (let i = from; i < to; i++) {
      const e = entries[i]!;
      if (e < 0) continue;
      const slot = entrySlots[i - from]!;
      if (slot >= 0 && met[slot] === -stamp) continue;
      const rep = slots.valueOf(e);
      this.compactionSlotOfId(rep, e, rep.type);
    }
    // LLVM also gave every primitive type's plane its null value; where the function met no value
    // or type of that type, the plane holds only that null, and pruning (below the threshold
    // whatever the module plane's size, as a null's module slot is 0) empties it again, leaving
    // the same module level an empty plane has: such planes are not made at all.
    for (let i = 0; i < end; i++) {
      if (i === VOID_ID || i === LABEL_ID || met[i] !== stamp) continue;
      if (this.compactionTable[i]!.length === 0) this.getOrCreateCompactionSlot(this.canon.nullOf(this.types[i]!));
    }
  }

  private pruneCompactionTable(): void {
    const tyPlane = this.compactionTypes;
    for (let ctp = 0; ctp < this.compactionTable.length; ctp++) {
      const cplane = this.compactionTable[ctp]!;
      if (cplane.length === 0) continue;
      const globalSlot = tyPlane.length !== 0 ? this.globalTypeSlot(tyPlane[ctp]!) : ctp;
      while (this.table.length <= globalSlot) this.table.push([]);
      const gplane = this.table[globalSlot]!;
      const modLevel = this.getModuleLevel(ctp);
      const numFunctionObjs = cplane.length - modLevel;
      let prune = gplane.length + numFunctionObjs < 64;
      if (!prune && numFunctionObjs === 0) {
        let maxIdx = 0;
        for (let i = 0; i < modLevel; i++) {
          const idx = Math.max(this.slots.moduleSlot(cplane[i] as Value), 0);
          if (idx > maxIdx) maxIdx = idx;
        }
        prune = maxIdx < 64;
      }
      if (prune) {
        const old = cplane;
        this.compactionTable[ctp] = [];
        // Module-level entries first: a null value dropped here may be re-added below.
        for (let i = 0; i < modLevel; i++) this.slots.deleteFnSlot(old[i] as Value);
        for (let i = modLevel; i < old.length; i++) {
          const v = old[i]!;
          if (typeof v === 'number') this.setLocalSlot(v, -1);
          else this.slots.deleteFnSlot(v);
          // Its compaction plane is now empty, so LLVM's getOrCreateSlot lands in the module plane.
          this.doInsertValue(v, this.entryType(v));
        }
        this.moduleLevel[ctp] = gplane.length - numFunctionObjs;
      }
    }
  }

  /** LLVM `CompactionTableIsEmpty`: no plane has module-level entries. */
  compactionTableIsEmpty(): boolean {
    for (let i = 0; i < this.compactionTable.length; i++) {
      if (this.compactionTable[i]!.length !== 0 && this.getModuleLevel(i) !== 0) return false;
    }
    return true;
  }
}
