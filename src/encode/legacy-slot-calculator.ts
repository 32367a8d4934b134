import { notInModule } from './encode-error.js';
/**
 * Slot numbering as LLVM 1.0/1.1's writer computed it (bytecode version 0).
 *
 * The older algorithm is simpler than LLVM 1.2's (`SlotCalculator`), and its files show it:
 *
 * - the module table holds only globals, functions, their initializers and what the module
 *   symbol table names; each function numbers the constants its instructions use in a constant
 *   pool of its own (in operand order), and there are no compaction tables;
 * - only derived-type planes begin with an implicit null value; zeros of primitive types are
 *   ordinary constants, numbered and written like any other;
 * - a string is an ordinary array: its characters are numbered as `sbyte`/`ubyte` constants first;
 * - a global used inside a constant is a "constant pointer reference" with a slot of its own
 *   (`PointerRef`);
 * - types are numbered as the values that need them are, so a function's own types follow the
 *   module's and are forgotten with it; there is no reordering of types.
 */
import type { Type } from '../graph/type.js';
import { isPrimitive, primitiveTypesById } from '../graph/type.js';
import type { Module } from '../graph/module.js';
import type { Function, GlobalValue, Value } from '../graph/value.js';
import { Canonicalizer, hasNullValue, isPlainConstant } from './canonical.js';
import { EncodeError } from './encode-error.js';
import { typeLabel } from '../graph/describe.js';
import { SelfContainingTypes } from '../graph/self-containing.js';
import { insertSubtypes } from './slot-calculator.js';
import { writtenOperands } from './gep-indices.js';
import type { FormatRow } from '../format/format-table.js';
import type { LocalEntry, PlaneEntry, PointerRef, SlotNumbering } from './slot-numbering.js';
import { bodyViewOf, LocalSlots, namedConstantsOfBody, BR, TAG_BLOCK, TAG_INSTRUCTION, TAG_VALUE, VANEXT, GETELEMENTPTR, type BodyView } from './body-view.js';
import { gepIndexKindsOfCodes, writtenStructIndex, type GepIndexKind } from './gep-indices.js';
import { primitiveTypes as P } from '../graph/type.js';

/** A plane entry that is an object (not one of the current function's instructions or blocks). */
type ObjectEntry = Value | PointerRef;
import { namedConstants, typeNameOrder } from './symbol-order.js';

const NONE: readonly never[] = [];

export class LegacySlotCalculator implements SlotNumbering {
  private readonly canon = new Canonicalizer();
  private readonly types: Type[] = [];
  private readonly typeMap = new Map<Type, number>();
  private readonly table: PlaneEntry[][] = [];
  private readonly nodeMap = new Map<ObjectEntry, number>();
  private readonly locals = new LocalSlots();
  private readonly views = new Map<Function, BodyView>();
  private readonly slotOfValue = (v: Value): number => this.slotOf(v);
  private readonly refs = new Map<GlobalValue, PointerRef>();
  private moduleLevel: number[] = [];
  moduleTypeLevel = 0;
  private readonly selfContaining = new SelfContainingTypes();

  readonly strings: readonly Value[] = NONE;
  readonly compactionTable: readonly (readonly Value[])[] = NONE;
  readonly compactionTypes: readonly Type[] = NONE;

  constructor(
    private readonly module: Module,
    private readonly row: FormatRow,
  ) {
    for (const t of primitiveTypesById) this.insertType(t);
    this.processModule(module);
  }

  // ---- lookups ---------------------------------------------------------------------------------

  slotOf(v: Value): number {
    switch (v.kind) {
      case 'instruction':
      case 'block':
        return this.locals.ofObject(v);
      case 'argument':
      case 'global':
      case 'function':
        return this.nodeMap.get(v) ?? -1;
      default:
        return this.nodeMap.get(this.canon.canon(v)) ?? -1;
    }
  }

  viewOf(f: Function): BodyView | undefined {
    let view = this.views.get(f);
    if (view === undefined && !this.views.has(f)) {
      view = bodyViewOf(f);
      if (view !== undefined) this.views.set(f, view);
    }
    return view;
  }

  codeSlot(code: number): number {
    return this.locals.codeSlot(code, this.slotOfValue);
  }

  constantOperandSlot(v: Value): number {
    return this.nodeMap.get(this.constantEntry(v)) ?? -1;
  }

  typeSlot(t: Type): number {
    return this.typeMap.get(t) ?? -1;
  }

  globalSlotOf(rep: Value): number {
    const s = this.nodeMap.get(rep);
    if (s === undefined) throw notInModule('a value', this.row.version);
    return s;
  }

  globalTypeSlot(t: Type): number {
    const s = this.typeMap.get(t);
    if (s === undefined) throw notInModule('a type', this.row.version);
    return s;
  }

  get numPlanes(): number {
    return this.table.length;
  }

  getPlane(plane: number): readonly PlaneEntry[] {
    return this.table[plane] ?? NONE;
  }

  getModuleLevel(plane: number): number {
    return this.moduleLevel[plane] ?? 0;
  }

  get visibleTypes(): readonly Type[] {
    return this.types;
  }

  compactionTableIsEmpty(): boolean {
    return true;
  }

  // ---- module ----------------------------------------------------------------------------------

  private processModule(m: Module): void {
    for (const g of m.globals) this.getOrCreateSlot(g);
    for (const f of m.functions) this.getOrCreateSlot(f);
    for (const g of m.globals) if (g.initializer !== undefined) this.getOrCreateSlot(this.constantEntry(g.initializer));
    // The module symbol table: named types, then (rarely) named constants; its other values are
    // globals, numbered already.
    for (const { type } of typeNameOrder(m.typeNames)) this.getOrCreateTypeSlot(type);
    for (const c of namedConstants(m.layout)) this.getOrCreateSlot(this.canon.canon(c));
  }

  /** How a value is met as a constant's operand: a global as its pointer reference. */
  private constantEntry(v: Value): ObjectEntry {
    if (v.kind === 'global' || v.kind === 'function') {
      let ref = this.refs.get(v);
      if (ref === undefined) this.refs.set(v, (ref = { kind: 'pointerref', type: v.type, target: v }));
      return ref;
    }
    return this.canon.canon(v);
  }

  /** The operands LLVM 1.1's constant objects had, numbered before the constant itself. */
  private constantOperands(e: ObjectEntry): readonly ObjectEntry[] {
    switch (e.kind) {
      case 'pointerref':
        return [e.target];
      case 'array':
      case 'struct':
      case 'packed':
        return e.elements.map((x) => this.constantEntry(x));
      case 'expr':
        return writtenOperands(this.row, e.opcode, e.operands).map((x) => this.constantEntry(x));
      case 'zeroinitializer': {
        // LLVM 1.1 had no zeroinitializer: an all-zero aggregate held the element types' zeros,
        // which never end for a type that holds itself (LLVM 1.1 recursed until it crashed).
        const t = e.type;
        if (this.selfContaining.has(t)) {
          throw new EncodeError(
            `the zero value of type ${typeLabel(this.module, t)}, which contains itself,`,
            this.row.version,
            'LLVM 1.1 spelled a zero aggregate out element by element, and this one has no end',
          );
        }
        if (t.kind === 'struct') return t.elements.filter(hasNullValue).map((x) => this.canon.nullOf(x));
        if ((t.kind === 'array' || t.kind === 'packed') && t.length !== 0 && hasNullValue(t.element)) return [this.canon.nullOf(t.element)];
        return NONE;
      }
      default:
        return NONE;
    }
  }

  // ---- insertion -------------------------------------------------------------------------------

  private getOrCreateSlot(e: ObjectEntry): number {
    if (e.type.kind === 'void') return -1;
    const existing = this.nodeMap.get(e);
    if (existing !== undefined) return existing;
    if (e.kind === 'pointerref' || isPlainConstant(e)) {
      for (const op of this.constantOperands(e)) this.getOrCreateSlot(op);
    }
    return this.doInsertValue(e);
  }

  private getOrCreateTypeSlot(t: Type): number {
    return this.typeMap.get(t) ?? this.insertType(t);
  }

  private insertType(t: Type): number {
    const slot = this.doInsertType(t);
    insertSubtypes(
      t,
      (sub) => this.typeMap.has(sub),
      (sub) => this.doInsertType(sub),
    );
    return slot;
  }

  private doInsertType(t: Type): number {
    const slot = this.types.length;
    this.typeMap.set(t, slot);
    this.types.push(t);
    return slot;
  }

  private doInsertValue(e: ObjectEntry | LocalEntry, typ: Type = (e as ObjectEntry).type): number {
    const ty = this.getOrCreateTypeSlot(typ);
    while (this.table.length <= ty) this.table.push([]);
    const plane = this.table[ty]!;
    // Only derived-type planes begin with their (implicit) null value.
    if (plane.length === 0 && !isPrimitive(typ) && hasNullValue(typ)) {
      const zero = this.canon.nullOf(typ);
      if (e !== zero) {
        plane.push(zero);
        this.nodeMap.set(zero, 0);
      }
    }
    const slot = plane.length;
    if (typeof e === 'number') this.locals.set(e, slot);
    else this.nodeMap.set(e, slot);
    plane.push(e);
    return slot;
  }

  // ---- functions -------------------------------------------------------------------------------

  incorporateFunction(f: Function): void {
    this.moduleLevel = this.table.map((p) => p.length);
    this.moduleTypeLevel = this.types.length;
    const view = this.viewOf(f);
    this.locals.begin(view);
    for (const a of f.args) this.getOrCreateSlot(a);
    if (view === undefined) return;
    const body = view.body;
    const { data, types, values, extraAt, extras, blockCount } = body;
    const n = body.instructionCount;
    const operandBase = 2 * n + blockCount;
    const kinds: GepIndexKind[] = [];
    // The constants the instructions use, in operand order (LLVM's constant_iterator).
    let start = 0;
    let nextExtra = 0;
    for (let inst = 0; inst < n; inst++) {
      const word = data[inst]!;
      const end = data[n + inst]!;
      const count = end - start;
      while (nextExtra < extraAt.length && extraAt[nextExtra]! < inst) nextExtra++;
      const refs = nextExtra < extraAt.length && extraAt[nextExtra] === inst ? extras[nextExtra]!.constantRefOperands : undefined;
      const isGep = (word & 63) === GETELEMENTPTR && count >= 2;
      if (isGep) gepIndexKindsOfCodes(body, operandBase, start, end, kinds);
      const isCondBr = (word & 63) === BR && count === 3;
      for (let k = 0; k < count; k++) {
        const i = isCondBr ? (k + 1) % 3 : k; // LLVM's operand order (see llvmOperandIndex)
        const code = data[operandBase + start + i]!;
        if (code < 0 || (code & 3) !== TAG_VALUE) continue;
        let op = values[code >>> 2]!;
        if (isGep && kinds[i] === 'struct') op = writtenStructIndex(this.row, op);
        // Globals the file named through a pointer reference are constants here too; inline
        // asm is numbered so that writing it is refused rather than missed.
        if (refs !== undefined && refs.includes(i)) this.getOrCreateSlot(this.constantEntry(op));
        else if (isPlainConstant(op) || op.kind === 'inlineasm') this.getOrCreateSlot(this.canon.canon(op));
      }
      start = end;
    }
    for (const c of namedConstantsOfBody(body)) this.getOrCreateSlot(this.canon.canon(c));
    for (let b = 0; b < blockCount; b++) this.doInsertValue(b * 4 + TAG_BLOCK, P.label);
    nextExtra = 0;
    for (let inst = 0; inst < n; inst++) {
      const word = data[inst]!;
      const t = types[word >>> 6]!;
      if (t.kind !== 'void') this.doInsertValue(inst * 4 + TAG_INSTRUCTION, t);
      if ((word & 63) === VANEXT) {
        while (nextExtra < extraAt.length && extraAt[nextExtra]! < inst) nextExtra++;
        const argType = nextExtra < extraAt.length && extraAt[nextExtra] === inst ? extras[nextExtra]!.argType : undefined;
        if (argType !== undefined) this.getOrCreateTypeSlot(argType);
      }
    }
  }

  purgeFunction(): void {
    const levels = this.moduleLevel;
    for (let i = 0; i < this.table.length; i++) {
      const plane = this.table[i]!;
      const level = i < levels.length ? levels[i]! : 0;
      for (let j = level; j < plane.length; j++) {
        const e = plane[j]!;
        if (typeof e !== 'number') this.nodeMap.delete(e);
      }
      plane.length = level;
    }
    this.table.length = levels.length;
    for (let i = this.moduleTypeLevel; i < this.types.length; i++) this.typeMap.delete(this.types[i]!);
    this.types.length = this.moduleTypeLevel;
    this.moduleLevel = [];
    this.moduleTypeLevel = 0;
    this.locals.end();
  }
}
