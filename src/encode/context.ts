/**
 * What every part of the writer shares: the output, the slot numbering and the target version's
 * format row, plus opcode numbering looked up from the row.
 */
import type { BlockKind, FormatRow, OpcodeName, PseudoOpcode } from '../format/format-table.js';
import type { Opcode, Value } from '../graph/value.js';
import { isFloatingPoint, isSigned, type Type } from '../graph/type.js';
import type { BinaryWriter } from '../binary/writer.js';
import { EncodeError, notInModule } from './encode-error.js';
import type { ModuleSlotNumbering, SlotNumbering } from './slot-numbering.js';

/**
 * What the module-level writers (types, global info, constant pools, symbol tables) use: every
 * version's, version 7's numbering (`v7/slot-calculator.ts`) included.
 */
export interface ModuleEncodeContext {
  readonly out: BinaryWriter;
  readonly sc: ModuleSlotNumbering;
  readonly row: FormatRow;
  readonly opcodes: OpcodeNumbers;
}

/** The context of the function writers of versions 0–6 (compaction tables, compact bodies). */
export interface EncodeContext extends ModuleEncodeContext {
  readonly sc: SlotNumbering;
}

/**
 * What the slot and type-id helpers below use of a writer's context: every version's writer
 * numbers values and types its own way, and writes the numbers alike, as its format row says.
 */
export interface SlotWritingContext {
  readonly out: BinaryWriter;
  readonly row: FormatRow;
  readonly sc: { slotOf(v: Value): number; typeSlot(t: Type): number };
}

const opcodeNumbersByRow = new WeakMap<FormatRow, OpcodeNumbers>();

/** The (shared, immutable) opcode numbering of a format row. */
export function opcodeNumbersFor(row: FormatRow): OpcodeNumbers {
  let n = opcodeNumbersByRow.get(row);
  if (n === undefined) opcodeNumbersByRow.set(row, (n = new OpcodeNumbers(row)));
  return n;
}

/** Opcode numbers of one version, from its format row. */
export class OpcodeNumbers {
  private readonly byName = new Map<OpcodeName, number>();
  private readonly pseudo = new Map<PseudoOpcode, number>();

  constructor(private readonly row: FormatRow) {
    row.opcodes.forEach((name, i) => {
      if (name !== undefined && !this.byName.has(name)) this.byName.set(name, i);
    });
    for (const [n, p] of row.pseudoOpcodes) this.pseudo.set(p, n);
  }

  private readonly cache = new Map<Opcode, number>();
  /** `of` by the compact body's opcode number (graph/compact-body.ts `OPCODES`); -1: not asked yet. */
  private readonly byCompactNumber = new Int32Array(64).fill(-1);

  /** `of(OPCODES[n])` for the compact body's opcode number `n`: an array read instead of a Map lookup per instruction. */
  ofCompact(n: number, op: Opcode): number {
    const hit = this.byCompactNumber[n]!;
    if (hit >= 0) return hit;
    return (this.byCompactNumber[n] = this.of(op));
  }

  /** The number of a graph opcode in this version, or an `EncodeError` naming it. */
  of(op: Opcode): number {
    const hit = this.cache.get(op);
    if (hit !== undefined) return hit;
    const n = this.lookup(op);
    this.cache.set(op, n);
    return n;
  }

  private lookup(op: Opcode): number {
    let name: OpcodeName = op;
    if (this.row.signlessInstructions) {
      // Before LLVM 1.9 there was one `div` and one `rem`; the operand type said which.
      if (op === 'udiv' || op === 'sdiv' || op === 'fdiv') name = 'div';
      else if (op === 'urem' || op === 'srem' || op === 'frem') name = 'rem';
    }
    // A bare `vaarg` is LLVM 1.6+'s `va_arg` (instructions say which they are: see `vaArg`).
    if (op === 'vaarg') name = 'va_arg';
    const n = this.byName.get(name);
    if (n === undefined || name === 'userop1' || name === 'userop2') {
      throw new EncodeError(`the ${op} instruction`, this.row.version);
    }
    return n;
  }

  /**
   * The number of a `vaarg` instruction: the pre-LLVM-1.6 one (`legacy`, taking the va_list
   * itself) and LLVM 1.6+'s `va_arg` (taking a pointer to it) mean different things, so neither
   * is written as the other.
   */
  vaArg(legacy: boolean): number {
    const n = this.byName.get(legacy ? 'vaarg' : 'va_arg');
    if (n === undefined) {
      throw new EncodeError(
        legacy ? 'the pre-LLVM-1.6 vaarg instruction (taking the va_list itself)' : 'the va_arg instruction (LLVM 1.6+, taking a pointer to the va_list)',
        this.row.version,
      );
    }
    return n;
  }

  pseudoOf(p: PseudoOpcode, construct: string): number {
    const n = this.pseudo.get(p);
    if (n === undefined) throw new EncodeError(construct, this.row.version);
    return n;
  }
}

/**
 * Before LLVM 1.9 (`signlessInstructions`) one `div` and one `rem` took their meaning from the
 * operand type: unsigned integers divide unsigned, signed ones signed, floating point as such.
 * A udiv/sdiv/fdiv (urem/…) whose operand type says otherwise cannot be written there.
 */
export function checkSignless(ctx: Pick<ModuleEncodeContext, 'row'>, op: Opcode, operandType: Type): void {
  if (!ctx.row.signlessInstructions) return;
  const p = op.charCodeAt(0);
  if (!(op.endsWith('div') || op.endsWith('rem')) || op.length !== 4) return;
  const t = operandType.kind === 'packed' ? operandType.element : operandType;
  const want = isFloatingPoint(t) ? 0x66 /* f */ : isSigned(t) ? 0x73 /* s */ : 0x75; /* u */
  if (p !== want) {
    throw new EncodeError(
      `${op} of ${t.kind} operands`,
      ctx.row.version,
      `before LLVM 1.9 div and rem took their signedness from the operand type (it would read back as ${String.fromCharCode(want)}${op.slice(1)})`,
    );
  }
}

/** A value's slot, which must exist (a missing slot is a writer bug or a value from elsewhere). */
export function slotOf(ctx: SlotWritingContext, v: Value): number {
  const s = ctx.sc.slotOf(v);
  if (s < 0) throw notInModule(`a value (${v.kind})`, ctx.row.version);
  return s;
}

/** A value's slot as the operand of a constant or an initializer (see `PointerRef`). */
export function constantOperandSlot(ctx: ModuleEncodeContext, v: Value): number {
  const s = ctx.sc.constantOperandSlot(v);
  if (s < 0) throw notInModule(`a value (${v.kind})`, ctx.row.version);
  return s;
}

/** A type's id as the file writes it (the slot, shifted past the type type in versions 0–1). */
export function typeSlotOf(ctx: SlotWritingContext, t: Type): number {
  const s = ctx.sc.typeSlot(t);
  if (s < 0) throw notInModule(`a type (${t.kind})`, ctx.row.version);
  return fileTypeId(ctx, s);
}

/**
 * The slot calculator numbers types as LLVM 1.3+ did (label = 12, derived types from 13). In
 * versions 0–1 types were values of the "type type", which took id 12 and pushed label and every
 * derived type up by one; every type id written goes through here.
 */
export function fileTypeId(ctx: Pick<SlotWritingContext, 'row'>, slot: number): number {
  const typeType = ctx.row.typeTypePlaneId;
  return typeType !== null && slot >= typeType ? slot + 1 : slot;
}

/** Starts a block of `kind` (the module block's header is always the long form; v0–v2 all). */
export function beginBlock(ctx: Pick<ModuleEncodeContext, 'out' | 'row'>, kind: BlockKind): void {
  const long = ctx.row.longBlockHeaders || (kind === 'module' && ctx.row.moduleBlockHeaderIsLong);
  ctx.out.beginBlock(ctx.row.blockIds[kind]!, long);
}

/**
 * Ends the innermost block: back-patches its header; the writer pads after it in versions 0–3
 * (constructed with `alignAfterBlocks`). An elided empty block leaves no trace, padding included.
 */
export function endBlock(ctx: Pick<ModuleEncodeContext, 'out'>, elideIfEmpty = false): void {
  ctx.out.endBlock({ elideIfEmpty });
}

/** Pads to 32 bits where the version aligns (0xAB fill), else nothing. */
export function pad(ctx: Pick<ModuleEncodeContext, 'out' | 'row'>): void {
  if (ctx.row.alignmentFill !== null) ctx.out.align32(ctx.row.alignmentFill);
}

/**
 * LLVM `output_typeid`: a type id (as the file numbers it) as a vbr; from version 3 on, ids of
 * 2^24 - 1 and above are escaped. Versions 0–2 wrote every type id as a plain vbr.
 */
export function writeTypeId(ctx: Pick<SlotWritingContext, 'out' | 'row'>, id: number): void {
  if (id <= 0x00ffffff || ctx.row.has32BitTypes) ctx.out.vbr32(id);
  else ctx.out.vbr32(0x00ffffff).vbr32(id);
}

/** LLVM `Log2_32(x) + 1` as used for alignments (0 when x is 0). */
export function encodedAlignment(align: number): number {
  return align === 0 ? 0 : 32 - Math.clz32(align);
}
