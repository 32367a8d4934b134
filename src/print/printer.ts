/**
 * The assembly writer: a module view in, the text `llvm-dis` printed out, as latin1 bytes. It follows the order
 * and spacing of LLVM 1.x's AsmWriter exactly (tabs, the `; <type> [#uses=N]` comments, the
 * "preds" lines); what differs between releases comes from the dialect row.
 */
import { nullValue } from '../graph/describe.js';
import { SelfContainingTypes } from '../graph/self-containing.js';
import { primitiveTypes, type Type } from '../graph/type.js';
import type { Constant, ConstantInt, Function, GlobalValue, GlobalVariable, Instruction, Linkage, Value } from '../graph/value.js';
import { Latin1Pieces, Latin1Writer } from '../binary/latin1-writer.js';
import { compactBodyOf, OPCODES, TAG_INSTRUCTION, TAG_VALUE, UNRESOLVED, type CompactBody, type InstructionExtras } from '../graph/compact-body.js';
import { canonicalConstant, isNullConstant } from '../held/constants.js';
import { PrintError } from './print-error.js';
import type { Dialect } from './dialect.js';
import { renameLocals, renameState, type RenameState } from '../held/locals.js';
import { LocalNumbering, numberBody, numberModule } from './slots.js';
import { escapeString, formatFloat, llvmName } from './text.js';
import { sortedTypeNames, TypeNamer } from './type-names.js';
import { BY_VALUE, UseCounts, type BodyInfo, type ValueInfo } from './uses.js';
import { nameIn, type ModuleView } from '../held/view.js';
import { withRoom } from '../binary/int32-room.js';

const CC_FUNCTION: Record<number, string> = { 0: '', 1: 'csretcc ', 8: 'fastcc ', 9: 'coldcc ' };
const CC_CALL: Record<number, string> = { 0: '', 1: ' csretcc', 8: ' fastcc', 9: ' coldcc' };
/** LLVM 1.9 named the x86 conventions; in calls it wrote them without the leading space. */
const CC_X86_FUNCTION: Record<number, string> = { 64: 'x86_stdcallcc ', 65: 'x86_fastcallcc ' };
const CC_X86_CALL: Record<number, string> = { 64: 'x86_stdcallcc ', 65: 'x86_fastcallcc ' };

/** Linkage keywords of a definition (external prints nothing). */
const DEFINITION_LINKAGE: Record<Linkage, string> = {
  external: '',
  internal: 'internal ',
  linkonce: 'linkonce ',
  weak: 'weak ',
  appending: 'appending ',
  dllimport: 'dllimport ',
  dllexport: 'dllexport ',
  extern_weak: 'extern_weak ',
};

/** Bytes `print()` collects before it turns them into a piece of its string. */
const STRING_PIECE = 1 << 16;
/** Bytes a chunk of `chunks()` collects before it is handed over (whole functions only). */
const CHUNK_BYTES = 1 << 16;
/**
 * Bytes after which `chunks()` also ends a piece inside a function, at a line: a single function
 * can print megabytes, which would otherwise be held (and copied) whole.
 */
const SPLIT_BYTES = 1 << 18;

export class AsmPrinter {
  /** The listing, as latin1 bytes. */
  private readonly out = new Latin1Writer();
  /** Texts written on most lines (FIXED's, then types', names', opcodes'), made once. */
  private readonly pieces = new Latin1Pieces(FIXED);
  private readonly numbering = new LocalNumbering(this.pieces);
  /** Pieces of opcode names (as the dialect spells them) and of block labels. */
  private readonly opcodePieces = new Map<Instruction['opcode'], number>();
  /** `opcodePiece` by a compact body's opcode number (graph/compact-body.ts OPCODES), -1 until asked. */
  private readonly opcodePiecesByNumber: number[] = new Array<number>(64).fill(-1);
  private readonly labelPieces = new Map<string, number>();
  private readonly types: TypeNamer;
  private readonly uses: UseCounts;
  /** Next slot number of each type after the module's unnamed globals and functions. */
  private readonly moduleNext: Map<Type, number>;
  /** Indentation of multi-line struct constants (LLVM kept it in a static string). */
  private indent = '\n';
  private readonly renames: RenameState;
  /** Compound constants being printed (a cycle can only come from bad input). */
  private readonly activeConstants = new Set<Constant>();
  /** Asked only when the 1.1 dialect expands a zero aggregate (see `expandedNull`). */
  private readonly selfContaining = new SelfContainingTypes();
  /** An instruction whose text {@link instructionText} wants, and that text once printed. */
  private capture: Instruction | undefined;
  private captured: string | undefined;
  private readonly typeTextCache = new Map<Type, TypeTexts>();
  /** The type `typeTexts` answered last, and its texts. */
  private lastTextType: Type | undefined;
  private lastTexts: TypeTexts | undefined;
  /** Stand-ins for a compact body's instructions, by type (see printCompactBody). */
  private readonly standIns = new Map<Type, Instruction>();
  /** The body being printed (operand codes refer to its positions). */
  private body: BodyInfo | undefined;
  /**
   * The records a compact body's instructions print from (see printCompactBody), made once per
   * printer: every record has every field an instruction can have (absent ones undefined), one
   * shape for all the printer's reads of it, which V8 then compiles for that shape alone.
   * `plainRecord` never has extras; `extrasRecord` is reset before each use.
   */
  private readonly plainRecord = fullInstruction();
  private readonly extrasRecord = fullInstruction();
  /** A block's predecessors, oldest first, while its header prints (see printBlockHeader). */
  private predOrder: Int32Array = new Int32Array(16);
  /** The record a body held as objects prints each instruction from (see printObjectInstruction). */
  private readonly objectRecord = fullInstruction();
  /** Operand lists are only read while their instruction prints: one list per length, reused. */
  private readonly operandLists: Value[][] = [];
  constructor(
    private readonly view: ModuleView,
    private readonly dialect: Dialect,
  ) {
    this.types = new TypeNamer(view.module);
    this.uses = new UseCounts(view, dialect.foldsCastToFirstElement, dialect.constantPointerRefs);
    const infoFor = (v: Value) => this.uses.infoFor(v);
    this.moduleNext = numberModule(
      [...view.globals, ...view.functions].filter((g) => nameIn(view, g) === undefined),
      infoFor,
    );
    this.renames = renameState(view);
  }

  /** The whole listing as one string (one character per byte). */
  print(): string {
    // The text is taken in pieces of about STRING_PIECE bytes, joined as strings: the buffer stays
    // that small and is reused, where one buffer for the whole listing doubled (allocated, zeroed
    // and copied) its way up to megabytes.
    const out = this.out;
    this.printHeader();
    let text = '';
    const fns = this.view.functions;
    for (let fi = 0; fi < fns.length; fi++) {
      this.printFunction(fns[fi]!, fi);
      if (out.length >= STRING_PIECE) text += out.takeString();
    }
    text += out.takeString();
    // Done: the buffers go back for the next printer (see Latin1Writer.release).
    out.release();
    this.pieces.release();
    this.uses.releaseScratch();
    return text;
  }

  /**
   * The listing in pieces of latin1 bytes: the module header (through `implementation`), then
   * functions, a piece ending with a whole function once it holds at least `chunkBytes` bytes (or
   * at a line inside a function whose text passes SPLIT_BYTES).
   * Each piece is a new array the caller may keep (with `reuse`, a view of the printer's buffer,
   * valid until the next piece is asked for); only the piece being built is held here.
   */
  *chunks(chunkBytes = CHUNK_BYTES, reuse = false): Generator<Uint8Array, void, undefined> {
    const take = reuse ? () => this.out.takeView() : () => this.out.take();
    this.printHeader();
    yield take();
    const fns = this.view.functions;
    for (let fi = 0; fi < fns.length; fi++) {
      const split = Math.max(chunkBytes, SPLIT_BYTES);
      for (const _ of this.functionPieces(fns[fi]!, fi, split)) yield take();
      if (this.out.length >= chunkBytes) yield take();
    }
    if (this.out.length > 0) yield take();
    // Done (the caller asked past the last piece): the pieces' words go back for the next printer.
    this.pieces.release();
  }

  /** One function's text, exactly as in the whole module's listing (same numbers and names). */
  functionText(f: Function): string {
    this.printFunction(f, this.functionIndex(f));
    return this.out.takeString().replace(/^\n/, '');
  }

  /** One instruction as its listing line says it, without indentation or the trailing comment. */
  instructionText(f: Function, i: Instruction): string | undefined {
    this.capture = i;
    this.printFunction(f, this.functionIndex(f));
    this.capture = undefined;
    this.out.take();
    return this.captured;
  }

  /**
   * The number an unnamed value prints as (`%3` → 3): a global or function of the module, or an
   * argument, block or instruction of `f`. Undefined for a named value and for one that takes no
   * number (a void instruction).
   */
  slotNumber(v: Value, f: Function | undefined): number | undefined {
    if (f === undefined) {
      const info = this.uses.infoFor(v);
      return nameIn(this.view, v as GlobalValue) === undefined && info.slot >= 0 ? info.slot : undefined;
    }
    const fi = this.functionIndex(f);
    const body = this.uses.bodyOf(fi);
    numberBody(this.moduleNext, body, this.dialect.renamesLocalClashes ? renameLocals(body, this.renames) : undefined, this.numbering);
    // A body still held compactly has only its arguments as objects.
    const pos = body.values !== undefined ? body.values.indexOf(v) : v.kind === 'argument' ? f.args.indexOf(v) : -1;
    return pos >= 0 && body.slots[pos]! >= 0 ? body.slots[pos] : undefined;
  }

  private functionIndex(f: Function): number {
    const fi = this.view.functions.indexOf(f);
    if (fi < 0) throw new TypeError("the function is not one of this module's functions");
    return fi;
  }

  // ---- module level ------------------------------------------------------------------------

  /** Everything before the first function: target lines, types, globals, `implementation`. */
  private printHeader(): void {
    const m = this.view.module;
    const out = this.out;
    const d = this.dialect;
    if (d.moduleIdLine !== null) out.text(d.moduleIdLine + '\n');
    if (d.printsDataLayout) {
      const parts: string[] = [];
      if (m.endianness !== 'any') parts.push(m.endianness === 'little' ? 'e' : 'E');
      if (m.pointerSize !== 'any') parts.push(`p:${m.pointerSize}:${m.pointerSize}`);
      if (parts.length > 0) out.text('target datalayout = "' + parts.join('-') + '"\n');
    }
    if (m.endianness !== 'any') out.text('target endian = ' + m.endianness + '\n');
    if (m.pointerSize !== 'any') out.text('target pointersize = ' + String(m.pointerSize) + '\n');
    if (m.targetTriple !== '') out.text('target triple = "' + m.targetTriple + '"\n');
    if (m.inlineAsm !== '') for (const line of m.inlineAsm.split('\n')) out.text('module asm "' + escapeString(line) + '"\n');
    if (m.dependentLibraries.length > 0) {
      const libs = (d.uniqueDependentLibraries ? [...new Set(m.dependentLibraries)] : m.dependentLibraries).map((l) => '"' + l + '"');
      if (d.deplibsOnOneLine) out.text('deplibs = [ ' + libs.join(', ') + ' ]\n');
      else out.text('deplibs = [\n' + libs.join(',\n') + ' ]\n');
    }
    for (const [name, t] of sortedTypeNames(m)) out.text('\t' + llvmName(name) + ' = type ' + this.types.body(t) + '\n');
    for (const g of this.view.globals) this.printGlobal(g);
    out.text('\nimplementation   ; Functions:\n');
  }

  private printGlobal(g: GlobalVariable): void {
    const out = this.out;
    const name = nameIn(this.view, g);
    if (name !== undefined) {
      out.text(llvmName(name));
      out.text(' = ');
    }
    if (g.initializer === undefined) out.text(this.declarationLinkage(g.linkage, 'external'));
    else out.text(this.definitionLinkage(g.linkage));
    out.text(g.isConstant ? 'constant ' : 'global ');
    out.text(this.types.name(g.valueType));
    if (g.initializer !== undefined) {
      out.byte(SPACE);
      this.constOperand(g.initializer);
    }
    if (g.section !== undefined && g.section !== '') out.text(', section "' + g.section + '"');
    if (g.alignment) out.text(', align ' + String(g.alignment));
    this.infoComment(g);
    out.byte(NEWLINE);
  }

  /**
   * The keyword(s) opening a declaration: `external ` for a global variable, `declare ` for a
   * function; LLVM 1.9 named dllimport and extern_weak there (`dllimport `, `declare dllimport `).
   */
  private declarationLinkage(linkage: Linkage, keyword: 'external' | 'declare'): string {
    const named = this.dialect.dllLinkages && (linkage === 'dllimport' || linkage === 'extern_weak');
    if (keyword === 'external') return named ? linkage + ' ' : 'external ';
    return named ? 'declare ' + linkage + ' ' : 'declare ';
  }

  private definitionLinkage(linkage: Linkage): string {
    return DEFINITION_LINKAGE[linkage];
  }

  private callingConv(cc: number, table: Record<number, string>, x86: Record<number, string>, prefix: string, suffix: string): string {
    const known = table[cc];
    if (known !== undefined) return known;
    if (this.dialect.x86CallingConvNames) {
      const name = x86[cc];
      if (name !== undefined) return name;
    }
    return prefix + 'cc' + cc + suffix;
  }

  // ---- functions ---------------------------------------------------------------------------

  /** Prints function `fi` whole (no generator: see printCompactBody). */
  private printFunction(f: Function, fi: number): void {
    const body = this.printFunctionHead(f, fi);
    if (body !== undefined) {
      this.beginBody(body);
      this.printBody(body);
      this.out.text('}\n');
    }
    this.endFunction(fi);
  }

  /**
   * Prints function `fi`, pausing (yielding) at the end of a line whenever `out` holds at least
   * `split` bytes, so that the caller can take them.
   */
  private *functionPieces(f: Function, fi: number, split: number): Generator<void, void, undefined> {
    const body = this.printFunctionHead(f, fi);
    if (body !== undefined) {
      this.beginBody(body);
      const values = body.values;
      if (values === undefined) yield* this.compactBodyPieces(body, body.compact!, split);
      else {
        const out = this.out;
        let p = 0;
        for (let d = body.argCount; d < values.length; d++) {
          const v = values[d]!;
          if (v.kind === 'instruction') {
            this.printObjectInstruction(v, body, d, p);
            p += v.operands.length;
          } else {
            this.printBlockHeader(body, d, d === body.argCount, this.newestFirst);
          }
          if (out.length >= split) yield;
        }
      }
      this.out.text('}\n');
    }
    this.endFunction(fi);
  }

  /**
   * A function's line up to its body: `declare …\n` for a declaration (undefined then), else up
   * to ` {` (its numbered body returned).
   */
  private printFunctionHead(f: Function, fi: number): BodyInfo | undefined {
    const view = this.view;
    const out = this.out;
    const compact = compactBodyOf(f);
    const isDeclaration = f.isDeclaration || (compact !== undefined ? compact.blockCount === 0 : f.blocks.length === 0);
    out.byte(NEWLINE);
    if (isDeclaration) out.text(this.declarationLinkage(f.linkage, 'declare'));
    else out.text(this.definitionLinkage(f.linkage));
    out.text(this.callingConv(f.callingConv, CC_FUNCTION, CC_X86_FUNCTION, '', ' '));
    const ft = f.functionType;
    out.piece(this.pieces, this.typeTexts(ft.returnType).name);
    out.byte(SPACE);
    const name = nameIn(view, f);
    out.text(name !== undefined ? llvmName(name) : '""');
    out.byte(0x28); // (
    const body = this.uses.bodyOf(fi);
    this.body = body;
    numberBody(this.moduleNext, body, this.dialect.renamesLocalClashes ? renameLocals(body, this.renames) : undefined, this.numbering);
    let first = true;
    if (f.args.length === ft.params.length) {
      for (let k = 0; k < f.args.length; k++) {
        if (!first) out.piece(this.pieces, P_COMMA_SPACE);
        first = false;
        out.piece(this.pieces, this.typeTexts(f.args[k]!.type).name);
        if (body.names[k] !== undefined) {
          out.byte(SPACE);
          out.piece(this.pieces, body.refs[k]!);
        }
      }
    } else {
      for (const p of ft.params) {
        if (!first) out.text(', ');
        first = false;
        out.text(this.types.name(p));
      }
    }
    if (ft.isVarArg) out.text(first ? '...' : ', ...');
    out.byte(0x29); // )
    if (f.section !== undefined && f.section !== '') out.text(' section "' + f.section + '"');
    if (f.alignment) out.text(' align ' + String(f.alignment));
    if (isDeclaration) {
      out.byte(NEWLINE);
      return undefined;
    }
    out.text(' {');
    return body;
  }

  private endFunction(fi: number): void {
    this.body = undefined;
    this.uses.release(fi);
  }

  /** A stand-in per result type of the compact body being printed (see printCompactBody). */
  private readonly bodyStandIns: Instruction[] = [];
  private newestFirst = false;

  /** Starts printing `body` (after printFunctionHead). */
  private beginBody(body: BodyInfo): void {
    this.newestFirst = this.dialect.predecessorOrder === 'newestFirst';
    const c = body.compact;
    if (c !== undefined) {
      const resultTypes = c.types;
      const standIns = this.bodyStandIns;
      for (let k = 0; k < resultTypes.length; k++) standIns[k] = this.standIn(resultTypes[k]!);
    }
  }

  /** Prints the body's blocks and instructions (after beginBody). */
  private printBody(body: BodyInfo): void {
    const values = body.values;
    if (values === undefined) {
      this.printCompactBody(body, body.compact!);
      return;
    }
    // `d` walks the body's positions (arguments, then each block and its instructions); `p`
    // walks the operand codes in the same order as the module pass wrote them.
    let p = 0;
    for (let d = body.argCount; d < values.length; d++) {
      const v = values[d]!;
      if (v.kind === 'instruction') {
        this.printObjectInstruction(v, body, d, p);
        p += v.operands.length;
      } else {
        this.printBlockHeader(body, d, d === body.argCount, this.newestFirst);
      }
    }
  }

  /**
   * The blocks and instructions of a body held compactly. Each instruction is printed from a
   * short-lived record with its operands: the values it names, and for the body's own
   * instructions and blocks a stand-in of the same type (the printer takes their text from the
   * body's positions, and of the value itself only its type).
   *
   * `compactBodyPieces` below is the same loop as a generator that pauses at `split`, for
   * `chunks()`. Two copies on purpose: V8 runs a loop in a generator markedly slower once
   * optimized (~40% in a small measurement), which the whole listing (`print()`) need not pay;
   * a plain loop that returns and resumes instead was slower for `chunks()` from a cold start
   * (deoptimized at its early exits; measured on big-bf's 256 KiB pieces).
   */
  private printCompactBody(body: BodyInfo, c: CompactBody): void {
    const n = c.instructionCount;
    const data = c.data;
    const base = 2 * n + c.blockCount;
    const values = c.values;
    const resultTypes = c.types;
    const standIns = this.bodyStandIns;
    const extraAt = c.extraAt;
    const lists = this.operandLists;
    const plain = this.plainRecord;
    const withExtras = this.extrasRecord;
    const newestFirst = this.newestFirst;
    const opcodePieces = this.opcodePiecesByNumber;
    let extra = 0;
    let nextExtra = extraAt.length > 0 ? extraAt[0]! : -1;
    let pos = body.argCount;
    let i = 0;
    let start = 0;
    for (let b = 0; b < c.blockCount; b++) {
      this.printBlockHeader(body, pos, b === 0, newestFirst);
      pos++;
      for (const blockEnd = data[2 * n + b]!; i < blockEnd; i++, pos++) {
        const end = data[n + i]!;
        const word = data[i]!;
        const count = end - start;
        let operands = lists[count];
        if (operands === undefined) lists[count] = operands = new Array<Value>(count);
        for (let k = 0; k < count; k++) {
          const code = data[base + start + k]!;
          const tag = code & 3;
          operands[k] =
            code === UNRESOLVED
              ? undefined!
              : tag === TAG_VALUE
                ? values[code >>> 2]!
                : tag === TAG_INSTRUCTION
                  ? standIns[data[code >>> 2]! >>> 6]!
                  : LABEL_STAND_IN;
        }
        let inst = plain;
        if (i === nextExtra) {
          inst = withExtras;
          setExtras(inst, c.extras[extra++]!);
          nextExtra = extra < extraAt.length ? extraAt[extra]! : -1;
        }
        const opcode = word & 63;
        inst.opcode = OPCODES[opcode]!;
        inst.type = resultTypes[word >>> 6]!;
        inst.operands = operands;
        let op = opcodePieces[opcode]!;
        if (op < 0) opcodePieces[opcode] = op = this.opcodePiece(inst.opcode);
        this.printInstruction(inst, body, pos, start, op);
        start = end;
      }
    }
  }

  /** printCompactBody, pausing (yielding) after a line once `out` holds at least `split` bytes. */
  private *compactBodyPieces(body: BodyInfo, c: CompactBody, split: number): Generator<void, void, undefined> {
    const n = c.instructionCount;
    const data = c.data;
    const base = 2 * n + c.blockCount;
    const values = c.values;
    const resultTypes = c.types;
    const standIns = this.bodyStandIns;
    const extraAt = c.extraAt;
    const lists = this.operandLists;
    const plain = this.plainRecord;
    const withExtras = this.extrasRecord;
    const newestFirst = this.newestFirst;
    const opcodePieces = this.opcodePiecesByNumber;
    let extra = 0;
    let nextExtra = extraAt.length > 0 ? extraAt[0]! : -1;
    let pos = body.argCount;
    let i = 0;
    let start = 0;
    for (let b = 0; b < c.blockCount; b++) {
      this.printBlockHeader(body, pos, b === 0, newestFirst);
      pos++;
      for (const blockEnd = data[2 * n + b]!; i < blockEnd; i++, pos++) {
        const end = data[n + i]!;
        const word = data[i]!;
        const count = end - start;
        let operands = lists[count];
        if (operands === undefined) lists[count] = operands = new Array<Value>(count);
        for (let k = 0; k < count; k++) {
          const code = data[base + start + k]!;
          const tag = code & 3;
          operands[k] =
            code === UNRESOLVED
              ? undefined!
              : tag === TAG_VALUE
                ? values[code >>> 2]!
                : tag === TAG_INSTRUCTION
                  ? standIns[data[code >>> 2]! >>> 6]!
                  : LABEL_STAND_IN;
        }
        let inst = plain;
        if (i === nextExtra) {
          inst = withExtras;
          setExtras(inst, c.extras[extra++]!);
          nextExtra = extra < extraAt.length ? extraAt[extra]! : -1;
        }
        const opcode = word & 63;
        inst.opcode = OPCODES[opcode]!;
        inst.type = resultTypes[word >>> 6]!;
        inst.operands = operands;
        let op = opcodePieces[opcode]!;
        if (op < 0) opcodePieces[opcode] = op = this.opcodePiece(inst.opcode);
        this.printInstruction(inst, body, pos, start, op);
        start = end;
        if (this.out.length >= split) yield;
      }
    }
  }

  /** The texts a type is written in on nearly every line, made once (see TypeTexts). */
  private typeTexts(t: Type): TypeTexts {
    // Operands and results in a row mostly share one type: the last answer spares a Map lookup.
    if (t === this.lastTextType) return this.lastTexts!;
    let texts = this.typeTextCache.get(t);
    if (texts === undefined) {
      const name = this.types.name(t);
      const pieces = this.pieces;
      texts = {
        name: pieces.add(name),
        spaced: pieces.add(' ' + name + ' '),
        spacedPercent: pieces.add(' ' + name + ' %'),
        slotComment: pieces.add('\t\t; <' + name + '>:'),
        namedComment: pieces.add('\t\t; <' + name + '> [#uses='),
      };
      this.typeTextCache.set(t, texts);
    }
    this.lastTextType = t;
    this.lastTexts = texts;
    return texts;
  }

  /**
   * An instruction of a body held as objects, printed from `objectRecord`: its fields copied into
   * the one shape printInstruction otherwise sees (the compact bodies' records). Instruction
   * objects come in as many shapes as there are ways of making them (each reader version, the
   * assembler, the builder, each opcode's optional fields), and a process that printed many kinds
   * of module had printInstruction compiled for all of them: its property reads went megamorphic
   * and stayed so for every later module, compact ones included (the generated module printed
   * 35% slower after the v6 folder than alone).
   */
  private printObjectInstruction(v: Instruction, body: BodyInfo, pos: number, p: number): void {
    const r = this.objectRecord;
    r.opcode = v.opcode;
    r.type = v.type;
    r.operands = v.operands;
    // Not setExtras: its reads stay with the compact bodies' extras records.
    r.isVolatile = v.isVolatile;
    r.callingConv = v.callingConv;
    r.isTailCall = v.isTailCall;
    r.allocatedType = v.allocatedType;
    r.alignment = v.alignment;
    r.argType = v.argType;
    r.legacyVarArgs = v.legacyVarArgs;
    r.constantRefOperands = v.constantRefOperands;
    r.predicate = v.predicate;
    // instructionText looks for the instruction itself.
    const capturing = v === this.capture;
    if (capturing) this.capture = r;
    this.printInstruction(r, body, pos, p, this.opcodePiece(v.opcode));
    if (capturing) this.capture = v;
  }

  /** An instruction of type `t` standing in for a compact body's own (see printCompactBody). */
  private standIn(t: Type): Instruction {
    let v = this.standIns.get(t);
    if (v === undefined) this.standIns.set(t, (v = { kind: 'instruction', opcode: 'add', type: t, operands: [] }));
    return v;
  }

  /** The operand text of the value at `pos` of `body`: its name, `%slot`, or `%<badref>`. */
  private ref(body: BodyInfo, pos: number): void {
    this.refAfter(body, pos, -1, P_PERCENT);
  }

  /**
   * The piece `plain` (-1: none) then the operand text of the value at `pos` of `body`; for an
   * unnamed value, the piece `percent` (`plain`'s text and `%`) and its slot in one write.
   */
  private refAfter(body: BodyInfo, pos: number, plain: number, percent: number): void {
    const out = this.out;
    const pieces = this.pieces;
    const ref = body.refs[pos]!;
    if (ref >= 0) {
      if (plain >= 0) out.piece(pieces, plain);
      out.piece(pieces, ref);
      return;
    }
    const slot = body.slots[pos]!;
    if (slot >= 0) out.pieceUint(pieces, percent, slot);
    else {
      out.piece(pieces, percent);
      out.text('<badref>');
    }
  }

  /** A slot number, or `<badref>` for none. */
  private slot(slot: number): void {
    if (slot >= 0) this.out.uint(slot);
    else this.out.text('<badref>');
  }

  private printBlockHeader(body: BodyInfo, pos: number, isEntry: boolean, newestFirst: boolean): void {
    const out = this.out;
    const name = body.names[pos];
    if (name !== undefined) {
      out.byte(NEWLINE);
      out.piece(this.pieces, this.labelPiece(name));
      out.byte(0x3a); // :
    } else if (body.uses[pos]! > 0) {
      out.text('\n; <label>:');
      this.slot(body.slots[pos]!);
    }
    if (!isEntry) {
      let e = body.predHead[pos]!;
      if (e < 0) out.text('\t\t; No predecessors!');
      else {
        out.piece(this.pieces, P_PREDS);
        // The list runs newest first; oldest first goes through predOrder.
        const next = body.predNext;
        const from = body.predFrom;
        if (newestFirst) {
          for (let k = 0; e >= 0; k++, e = next[e]!) {
            if (k > 0) out.piece(this.pieces, P_COMMA_SPACE);
            else out.byte(SPACE);
            this.ref(body, from[e]!);
          }
        } else {
          let order = this.predOrder;
          let n = 0;
          for (; e >= 0; e = next[e]!) {
            if (n === order.length) this.predOrder = order = withRoom(order, n + 1);
            order[n++] = from[e]!;
          }
          for (let k = n - 1; k >= 0; k--) {
            if (k < n - 1) out.piece(this.pieces, P_COMMA_SPACE);
            else out.byte(SPACE);
            this.ref(body, order[k]!);
          }
        }
      }
    }
    out.byte(NEWLINE);
  }

  /** A block's label as its header line names it (quoted where the dialect did), as a piece. */
  private labelPiece(name: string): number {
    let at = this.labelPieces.get(name);
    if (at === undefined) this.labelPieces.set(name, (at = this.pieces.add(this.dialect.quotesLabels ? llvmName(name, false) : name)));
    return at;
  }

  /** `\t` and `opcodeName(op)` as a piece, the name alone as the next (Latin1Pieces.next). */
  private opcodePiece(op: Instruction['opcode']): number {
    let at = this.opcodePieces.get(op);
    if (at === undefined) {
      const name = this.opcodeName(op);
      this.opcodePieces.set(op, (at = this.pieces.add('\t' + name)));
      this.pieces.add(name);
    }
    return at;
  }

  private opcodeName(op: Instruction['opcode']): string {
    switch (op) {
      case 'udiv':
      case 'sdiv':
      case 'fdiv':
        return this.dialect.signlessDivRem ? 'div' : op;
      case 'urem':
      case 'srem':
      case 'frem':
        return this.dialect.signlessDivRem ? 'rem' : op;
      case 'vaarg':
        return this.dialect.vaArgName;
      default:
        return op;
    }
  }

  /**
   * One instruction line: `i` is at position `pos` of `body`, its operand k has the code
   * `body.operands[p + k]`, and `tabbedOpcode` is `opcodePiece(i.opcode)` (a compact body's loop
   * finds it by opcode number, without a Map lookup per instruction).
   */
  private printInstruction(i: Instruction, body: BodyInfo, pos: number, p: number, tabbedOpcode: number): void {
    const out = this.out;
    const named = body.names[pos] !== undefined;
    // The line's text without its indentation starts after the tab (see instructionText).
    const start = out.length + 1;
    const pieces = this.pieces;
    // Read for every instruction, not only loads, stores and calls: a read V8 has never seen run
    // would stop the optimized printer (deoptimize it) at the first call after the first loads.
    const isVolatile = i.isVolatile;
    const isTailCall = i.isTailCall;
    const prefix = (i.opcode === 'load' || i.opcode === 'store') && isVolatile ? 'volatile ' : i.opcode === 'call' && isTailCall ? 'tail ' : '';
    // `\t%x = ` is one piece (LocalNumbering), as is `\t` and the opcode; the opcode alone follows it.
    if (named || prefix !== '') {
      if (named) out.piece(pieces, pieces.next(body.refs[pos]!));
      else out.byte(TAB);
      if (prefix !== '') out.text(prefix);
      out.piece(pieces, pieces.next(tabbedOpcode));
    } else out.piece(pieces, tabbedOpcode);
    const ops = i.operands;
    switch (i.opcode) {
      case 'br':
        if (ops.length > 1) {
          this.typedAt(ops, p, 0);
          out.byte(COMMA);
          this.typedAt(ops, p, 1);
          out.byte(COMMA);
          this.typedAt(ops, p, 2);
        } else this.generic(i, p);
        break;
      case 'switch': {
        this.typedAt(ops, p, 0);
        out.byte(COMMA);
        this.typedAt(ops, p, 1);
        out.text(' [');
        for (let k = 2; k + 1 < ops.length; k += 2) {
          out.text('\n\t\t');
          this.typedAt(ops, p, k);
          out.byte(COMMA);
          this.typedAt(ops, p, k + 1);
        }
        out.text('\n\t]');
        break;
      }
      case 'phi': {
        out.piece(pieces, this.typeTexts(i.type).spaced);
        for (let k = 0; k + 1 < ops.length; k += 2) {
          out.piece(pieces, k > 0 ? P_PHI_NEXT : P_PHI_OPEN);
          this.operandAt(ops, p, k);
          out.piece(pieces, P_COMMA_SPACE);
          this.operandAt(ops, p, k + 1);
          out.piece(pieces, P_PHI_CLOSE);
        }
        break;
      }
      case 'ret':
        if (ops.length === 0) out.piece(pieces, P_VOID);
        else this.generic(i, p);
        break;
      case 'call':
      case 'invoke': {
        const isInvoke = i.opcode === 'invoke';
        const cc = i.callingConv ?? 0;
        if (cc !== 0) out.text(this.callingConv(cc, CC_CALL, CC_X86_CALL, ' ', ''));
        const callee = ops[0];
        const ft = callee === undefined ? undefined : calleeType(callee.type);
        const ret = ft?.returnType;
        if (callee !== undefined && ft !== undefined && ret !== undefined && !ft.isVarArg && !(ret.kind === 'pointer' && ret.element.kind === 'function')) {
          out.piece(pieces, this.typeTexts(ret).spaced);
          this.operandAt(ops, p, 0);
        } else {
          this.typedAt(ops, p, 0);
        }
        out.byte(0x28); // (
        for (let k = isInvoke ? 3 : 1, first = k; k < ops.length; k++) {
          if (k > first) out.byte(COMMA);
          this.typedAt(ops, p, k);
        }
        out.piece(pieces, P_CALL_CLOSE);
        if (isInvoke) {
          out.text('\n\t\t\tto');
          this.typedAt(ops, p, 1);
          out.byte(SPACE);
          out.text(this.dialect.invokeUnwindKeyword);
          this.typedAt(ops, p, 2);
        }
        break;
      }
      case 'malloc':
      case 'alloca': {
        out.byte(SPACE);
        out.text(this.types.name(i.allocatedType ?? elementOf(i.type)));
        const size = ops[0];
        if (size !== undefined && !(size.kind === 'int' && BigInt.asUintN(64, size.value) === 1n)) {
          out.byte(COMMA);
          this.typedAt(ops, p, 0);
        }
        if (i.alignment) {
          out.text(', align ');
          out.uint(i.alignment);
        }
        break;
      }
      case 'cast':
        if (ops[0] !== undefined) this.typedAt(ops, p, 0);
        out.piece(pieces, P_TO);
        out.piece(pieces, this.typeTexts(i.type).name);
        break;
      case 'vaarg':
        if (ops[0] !== undefined) this.typedAt(ops, p, 0);
        out.text(', ');
        out.text(this.types.name(i.type));
        break;
      case 'vanext':
        if (ops[0] !== undefined) this.typedAt(ops, p, 0);
        out.text(', ');
        out.text(this.types.name(i.argType ?? i.type));
        break;
      default:
        this.generic(i, p);
    }
    if (i === this.capture) this.captured = out.textFrom(start);
    if (i.type.kind !== 'void') {
      if (named) out.pieceUint(pieces, this.typeTexts(i.type).namedComment, body.uses[pos]!);
      else {
        const slot = body.slots[pos]!;
        if (slot >= 0) out.pieceUint(pieces, this.typeTexts(i.type).slotComment, slot);
        else {
          out.piece(pieces, this.typeTexts(i.type).slotComment);
          out.text('<badref>');
        }
        out.pieceUint(pieces, P_USES, body.uses[pos]!);
      }
      out.piece(pieces, P_END_USES);
    } else out.byte(NEWLINE);
  }

  /** Operands with one shared type printed once, or every type when they differ. */
  private generic(i: Instruction, p: number): void {
    const ops = i.opcode === 'getelementptr' ? this.gepOperands(i.operands) : i.operands;
    if (ops.length === 0) return;
    const first = ops[0]!.type;
    let all =
      i.opcode === 'shl' ||
      i.opcode === 'shr' ||
      i.opcode === 'select' ||
      i.opcode === 'shufflevector' ||
      (i.opcode === 'store' && this.dialect.storePrintsAllTypes);
    if (!all) for (let k = 1; k < ops.length; k++) if (ops[k]!.type !== first) all = true;
    // ` <type> <first>` is the first operand's typed text in both cases.
    const out = this.out;
    this.typedAt(ops, p, 0);
    for (let k = 1; k < ops.length; k++) {
      if (all) {
        out.byte(COMMA);
        this.typedAt(ops, p, k);
      } else {
        const code = this.body!.operands[p + k]!;
        if (code >= 0) this.refAfter(this.body!, code, P_COMMA_SPACE, P_COMMA_PERCENT);
        else {
          out.piece(this.pieces, P_COMMA_SPACE);
          this.operandAt(ops, p, k);
        }
      }
    }
  }

  /** Whether a byte array prints as `c"..."` in this dialect. */
  private isStringArray(et: Type, elements: readonly Constant[]): boolean {
    if (et.kind !== 'ubyte' && et.kind !== 'sbyte') return false;
    const nonNegative = this.dialect.stringArrays === 'nonNegativeBytes' && et.kind === 'sbyte';
    for (const e of elements) {
      if (e.kind !== 'int') return false;
      if (nonNegative && e.value < 0n) return false;
    }
    return true;
  }

  /** getelementptr operands, with `ubyte` struct indices widened when the dialect's reader did. */
  private gepOperands<T extends Value>(ops: readonly T[]): readonly (T | Value)[] {
    if (!this.dialect.widensStructIndices || ops.length < 3) return ops;
    const base = ops[0]!.type;
    if (base.kind !== 'pointer') return ops;
    let t: Type = base.element;
    let out: (T | Value)[] | undefined;
    for (let k = 2; k < ops.length; k++) {
      if (t.kind === 'struct') {
        const w = widenIndex(ops[k]!);
        if (w !== ops[k]) (out ??= [...ops])[k] = w;
        const idx = ops[k]!;
        const n = idx.kind === 'int' ? Number(idx.value) : -1;
        if (n < 0 || n >= t.elements.length) break;
        t = t.elements[n]!;
      } else if (t.kind === 'array' || t.kind === 'packed' || t.kind === 'pointer') {
        t = t.element;
      } else {
        break;
      }
    }
    return out ?? ops;
  }

  /** `\t\t; <type>:slot [#uses=N]` after a global's line (nothing for void). */
  private infoComment(v: Value): void {
    if (v.type.kind === 'void') return;
    const out = this.out;
    out.text('\t\t; <');
    out.text(this.types.name(v.type));
    out.byte(0x3e); // >
    const info = this.uses.info.get(v);
    if (this.nameOf(v) === undefined) {
      out.byte(0x3a); // :
      this.slot(info !== undefined ? info.slot : -1);
    }
    out.text(' [#uses=');
    out.uint(info !== undefined ? info.uses : 0);
    out.byte(0x5d); // ]
  }

  // ---- operands ----------------------------------------------------------------------------

  /**
   * The name of a value printed by value: a global or function, or (bad graphs only) a local of
   * another function, whose renaming does not apply here.
   */
  private nameOf(v: Value): string | undefined {
    return nameIn(this.view, v);
  }

  private slotText(v: Value): string {
    const info = this.uses.info.get(v);
    if (info !== undefined) return info.slot >= 0 ? String(info.slot) : '<badref>';
    const o = this.uses.ownerOf(v);
    const slot = o === undefined ? -1 : this.uses.slotIn(o.fi, o.pos);
    return slot >= 0 ? String(slot) : '<badref>';
  }

  /** `typed(ops[k])` of the current instruction, from the body's texts when possible. */
  private typedAt(ops: readonly Value[], p: number, k: number): void {
    const out = this.out;
    const v = ops[k];
    if (v === undefined) {
      out.text('<null operand!>');
      return;
    }
    const body = this.body!;
    const code = body.operands[p + k]!;
    if (code >= 0) {
      const texts = this.typeTexts(v.type);
      this.refAfter(body, code, texts.spaced, texts.spacedPercent);
    } else if (code === BY_VALUE) {
      this.typed(v);
    } else {
      const r = this.uses.globalInfos[-2 - code]!;
      let t = r.typed;
      if (t < 0) r.typed = t = this.pieces.add(' ' + this.types.name(v.type) + ' ' + this.valueRef(v));
      out.piece(this.pieces, t);
    }
  }

  /** `operand(ops[k])` of the current instruction, from the body's texts when possible. */
  private operandAt(ops: readonly Value[], p: number, k: number): void {
    const v = ops[k]!;
    const body = this.body!;
    const code = body.operands[p + k]!;
    if (code >= 0) this.ref(body, code);
    else if (code === BY_VALUE) this.operand(v);
    else this.out.piece(this.pieces, this.globalRef(v, this.uses.globalInfos[-2 - code]!));
  }

  /** A global's or function's operand text (the same in every function), as a piece. */
  private globalRef(v: Value, r: ValueInfo): number {
    let ref = r.ref;
    if (ref < 0) r.ref = ref = this.pieces.add(this.valueRef(v));
    return ref;
  }

  /** ` <type> <operand>` (LLVM's writeOperand with its type; it also survived a missing operand). */
  private typed(v: Value | undefined): void {
    const out = this.out;
    if (v === undefined) {
      out.text('<null operand!>');
      return;
    }
    out.piece(this.pieces, this.typeTexts(v.type).spaced);
    this.operand(v);
  }

  /**
   * An operand of a constant (or an initializer). LLVM ≤ 1.2 reached globals there through a
   * ConstantPointerRef, whose printing added a second space.
   */
  private constOperand(v: Value): void {
    if (this.dialect.pointerRefExtraSpace && (v.kind === 'global' || v.kind === 'function')) this.out.byte(SPACE);
    this.operand(v);
  }

  /** The name or slot of a global, function, argument, block or instruction. */
  private valueRef(v: Value): string {
    const name = this.nameOf(v);
    return name !== undefined ? llvmName(name) : '%' + this.slotText(v);
  }

  /** A value as an operand: its name, its slot, or a constant's text. */
  private operand(v: Value): void {
    const out = this.out;
    switch (v.kind) {
      case 'int':
        writeInt(out, v.value);
        return;
      case 'argument':
      case 'block':
      case 'instruction':
      case 'global':
      case 'function':
        out.text(this.valueRef(v));
        return;
      case 'inlineasm':
        out.text('asm ' + (v.hasSideEffects ? 'sideeffect ' : '') + '"' + escapeString(v.asm) + '", "' + escapeString(v.constraints) + '"');
        return;
      case 'alias':
        // Version 7's aliases are printed by the version-7 printer; v0–v6 modules have none.
        throw new PrintError('a version-7 alias cannot be printed in this dialect');
      default:
        this.constant(v);
    }
  }

  private constant(c0: Constant): void {
    const d = this.dialect;
    const c = canonicalConstant(c0, d.foldsCastToFirstElement, d.zeroAggregates === 'canonical');
    if (d.zeroAggregates === 'aboveFive') {
      if ((c.kind === 'array' || c.kind === 'struct') && c.elements.length > 5 && isNullConstant(c)) {
        this.out.text('zeroinitializer');
        return;
      }
      if (c.kind === 'zeroinitializer') {
        const expanded = expandedNull(c.type, this.selfContaining);
        if (expanded !== undefined) {
          this.constant(expanded);
          return;
        }
      }
    }
    if (c.kind === 'expr' || c.kind === 'array' || c.kind === 'struct' || c.kind === 'packed') {
      if (this.activeConstants.has(c)) throw new PrintError('a constant contains itself (cyclic constant references)');
      this.activeConstants.add(c);
      try {
        this.compound(c);
      } finally {
        this.activeConstants.delete(c);
      }
      return;
    }
    this.compound(c);
  }

  private compound(c: Constant): void {
    const out = this.out;
    switch (c.kind) {
      case 'bool':
        out.text(c.value ? 'true' : 'false');
        return;
      case 'int':
        writeInt(out, c.value);
        return;
      case 'fp':
        out.text(formatFloat(c.value, c.bits, c.type.kind === 'float', this.dialect.floatsAlwaysHex));
        return;
      case 'zeroinitializer':
        out.text('zeroinitializer');
        return;
      case 'null':
        out.text('null');
        return;
      case 'undef':
        out.text('undef');
        return;
      case 'array': {
        const et = c.type.kind === 'array' ? c.type.element : c.type;
        if (this.isStringArray(et, c.elements)) {
          out.text('c"');
          writeEscapedBytes(out, c.elements as readonly ConstantInt[]);
          out.byte(QUOTE);
          return;
        }
        if (c.elements.length === 0) {
          out.text('[ ]');
          return;
        }
        this.elementList('[ ', this.types.name(et), c.elements, ' ]');
        return;
      }
      case 'packed': {
        const et = c.type.kind === 'packed' ? c.type.element : c.type;
        this.elementList('< ', this.types.name(et), c.elements, ' >');
        return;
      }
      case 'struct': {
        const n = c.elements.length;
        if (n === 0) {
          out.text('{ }');
          return;
        }
        out.byte(0x7b); // {
        const multiLine = n > 2 && this.dialect.multiLineStructs;
        if (multiLine) {
          this.indent += '    ';
          out.text(this.indent);
        } else {
          out.byte(SPACE);
        }
        for (let k = 0; k < n; k++) {
          const e = c.elements[k]!;
          if (k > 0) {
            out.text(', ');
            if (multiLine) out.text(this.indent);
          }
          out.text(this.types.name(e.type));
          out.byte(SPACE);
          this.constOperand(e);
        }
        if (multiLine) this.indent = this.indent.slice(0, -4);
        out.text(' }');
        return;
      }
      case 'expr': {
        const operands = c.opcode === 'getelementptr' ? this.gepOperands(c.operands) : c.operands;
        out.text(this.opcodeName(c.opcode));
        out.text(' (');
        for (let k = 0; k < operands.length; k++) {
          if (k > 0) out.text(', ');
          const o = operands[k]!;
          out.text(this.types.name(o.type));
          out.byte(SPACE);
          this.constOperand(o);
        }
        if (c.opcode === 'cast') {
          out.text(' to ');
          out.text(this.types.name(c.type));
        }
        out.byte(0x29); // )
        return;
      }
      default:
        this.operand(c);
    }
  }

  /** `open` then `<type> <element>` for each element, comma-separated, then `close`. */
  private elementList(open: string, typeName: string, elements: readonly Constant[], close: string): void {
    const out = this.out;
    out.text(open);
    for (let k = 0; k < elements.length; k++) {
      if (k > 0) out.text(', ');
      out.text(typeName);
      out.byte(SPACE);
      this.constOperand(elements[k]!);
    }
    out.text(close);
  }
}

/**
 * A type's text as an operand has it (` <type> `) and as a line's comment opens (`\t\t; <type>`).
 * A type's text never changes once printed (TypeNamer keeps it), so these can be kept.
 */
interface TypeTexts {
  /** Pieces of the printer's (see Latin1Pieces): the type's text, ` <type> `, `\t\t; <type>:` (before a slot), and `\t\t; <type> [#uses=` (a named value's). */
  readonly name: number;
  readonly spaced: number;
  /** ` <type> %`, before an unnamed value's slot. */
  readonly spacedPercent: number;
  readonly slotComment: number;
  readonly namedComment: number;
}

/** Texts of nearly every line, as pieces each printer's own start with (at the same indices). */
const FIXED = new Latin1Pieces();
const P_COMMA_SPACE = FIXED.add(', ');
const P_COMMA_PERCENT = FIXED.add(', %');
const P_PERCENT = FIXED.add('%');
const P_USES = FIXED.add(' [#uses=');
const P_END_USES = FIXED.add(']\n');
const P_PREDS = FIXED.add('\t\t; preds =');
const P_PHI_OPEN = FIXED.add('[ ');
const P_PHI_NEXT = FIXED.add(', [ ');
const P_PHI_CLOSE = FIXED.add(' ]');
const P_TO = FIXED.add(' to ');
const P_CALL_CLOSE = FIXED.add(' )');
const P_VOID = FIXED.add(' void');

/** Every field of an instruction beyond kind, opcode, type and operands, absent. */
const NO_EXTRAS: { readonly [K in keyof Required<InstructionExtras>]: undefined } = {
  isVolatile: undefined,
  callingConv: undefined,
  isTailCall: undefined,
  allocatedType: undefined,
  alignment: undefined,
  argType: undefined,
  legacyVarArgs: undefined,
  constantRefOperands: undefined,
  predicate: undefined,
};

/** Gives `inst` exactly the extra fields of `e` (the others undefined), field by field: cheaper than Object.assign. */
function setExtras(inst: Instruction, e: InstructionExtras): void {
  inst.isVolatile = e.isVolatile;
  inst.callingConv = e.callingConv;
  inst.isTailCall = e.isTailCall;
  inst.allocatedType = e.allocatedType;
  inst.alignment = e.alignment;
  inst.argType = e.argType;
  inst.legacyVarArgs = e.legacyVarArgs;
  inst.constantRefOperands = e.constantRefOperands;
  inst.predicate = e.predicate;
}

/** Compiles only while setExtras names every field of InstructionExtras. */
// (printObjectInstruction copies the same fields.)
const SET_EXTRAS_COVERS_ALL: Exclude<
  keyof InstructionExtras,
  'isVolatile' | 'callingConv' | 'isTailCall' | 'allocatedType' | 'alignment' | 'argType' | 'legacyVarArgs' | 'constantRefOperands' | 'predicate'
> extends never
  ? true
  : never = true;
void SET_EXTRAS_COVERS_ALL;

/** An instruction record with every field (see printCompactBody). */
function fullInstruction(): Instruction {
  return { kind: 'instruction', opcode: 'ret', type: primitiveTypes.void, operands: [], ...NO_EXTRAS };
}

/** A block standing in for a compact body's own (see printCompactBody). */
const LABEL_STAND_IN: Value = { kind: 'block', type: primitiveTypes.label, instructions: [] };

const TAB = 0x09;
const NEWLINE = 0x0a;
const SPACE = 0x20;
const QUOTE = 0x22;
const COMMA = 0x2c;
const HEX_DIGITS = '0123456789ABCDEF';

/** An integer's decimal text; through a double when exact, which is cheaper than BigInt's. */
function writeInt(out: Latin1Writer, v: bigint): void {
  const n = Number(v);
  if (n <= Number.MAX_SAFE_INTEGER && n >= -Number.MAX_SAFE_INTEGER) out.int(n);
  else out.text(String(v));
}

/** A byte array's `c"..."` body, escaped as escapeString does (text.ts). */
function writeEscapedBytes(out: Latin1Writer, elements: readonly ConstantInt[]): void {
  for (let k = 0; k < elements.length; k++) {
    const c = Number(BigInt.asUintN(8, elements[k]!.value));
    if (c >= 0x20 && c <= 0x7e && c !== QUOTE && c !== 0x5c) out.byte(c);
    else {
      out.byte(0x5c);
      out.byte(HEX_DIGITS.charCodeAt(c >> 4));
      out.byte(HEX_DIGITS.charCodeAt(c & 15));
    }
  }
}

const widened = new WeakMap<Value, Constant>();

/** A `ubyte` struct index as the `uint` constant LLVM 1.9's reader made of it. */
function widenIndex(v: Value): Value {
  if (v.kind !== 'int' || v.type.kind !== 'ubyte') return v;
  let w = widened.get(v);
  if (w === undefined) {
    w = { kind: 'int', type: primitiveTypes.uint, value: v.value };
    widened.set(v, w);
  }
  return w;
}

/**
 * LLVM 1.1 had no zeroinitializer constant: the null value of an aggregate was an aggregate of
 * nulls (printed `zeroinitializer` only above five elements). Returns that aggregate when it has
 * at most five elements, else undefined.
 */
function expandedNull(t: Type, selfContaining: SelfContainingTypes): Constant | undefined {
  // A type that contains itself has no finite aggregate of nulls (LLVM 1.1 recursed until it
  // crashed; no file of it can hold one): it stays `zeroinitializer`.
  if (selfContaining.has(t)) return undefined;
  if (t.kind === 'struct' && t.elements.length <= 5) return { kind: 'struct', type: t, elements: t.elements.map(nullOf) };
  if (t.kind === 'array' && t.length <= 5) return { kind: 'array', type: t, elements: Array.from({ length: t.length }, () => nullOf(t.element)) };
  return undefined;
}

const nullOf = nullValue;

function calleeType(t: Type): import('../graph/type.js').FunctionType | undefined {
  return t.kind === 'pointer' && t.element.kind === 'function' ? t.element : undefined;
}

function elementOf(t: Type): Type {
  return t.kind === 'pointer' ? t.element : t;
}
