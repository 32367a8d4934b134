/**
 * What the analyzer's two walks share: LLVM 1.9's reader (versions 0–6, `walker.ts`) and r36867's
 * (version 7, `walker-v7.ts`) read the same block tree in the same order, so the block bookkeeping,
 * the module and function skeletons, the type tables, the constant pools' plane loop and the
 * instruction counting live here once. A subclass says how its version reads what differs: the
 * block header, the version word, a type, a constant, the global info, a symbol table, and what
 * an instruction's operands mean. Everything the format table already knows (block ids, opcode
 * names, alignment, type-id width) is taken from the row, not from the subclass.
 */
import { BytecodeReader } from '../decode/reader.js';
import { readBlockFrame, type BlockFrame } from '../decode/block-frame.js';
import { readModuleBlocks } from '../decode/module-blocks.js';
import { readInstructionRecord, type InstructionRecord } from '../decode/instruction-record.js';
import { readPlanes } from '../decode/plane-records.js';
import { readConstantRecord, readStringRecords, ValueLayout, type ConstantReading, type StringReading } from '../decode/constant-record.js';
import { DEFAULT_LIMITS } from '../limits.js';
import type { BlockKind, FormatRow } from '../format/format-table.js';
import type { Analysis, BlockNode, DumpRecord, FunctionAnalysis } from './analysis.js';
import { NameCounter, internName } from './opcode-info.js';
import type { DerivedType } from './type-text.js';

export type BlockNames = Readonly<Record<BlockKind | 'unknown', string>>;

/** The constant hooks a version's reader has its own way (`AnalyzerWalkBase.constantReading` adds the rest). */
export type VersionConstantHooks = Omit<
  ConstantReading<boolean>,
  'smallInteger' | 'integer' | 'float' | 'double' | 'wideInteger' | 'aggregate' | 'element' | 'aggregateEnd' | 'pointer' | 'operand'
>;

/** A function the module's global info declared; its body is only located while the module is read. */
export interface FunctionDecl<T> {
  type: T;
  hasBody: boolean;
  name: string;
  bodyStart: number;
  bodyEnd: number;
  headerOffset: number;
}

/** Records a stop of the walk: the caller adds its diagnosis (text-mode damage) and phase. */
export type WalkErrorSink = (e: unknown, phase: 'module' | 'function', reader: BytecodeReader | undefined) => void;

/** The type shapes both walks model: a placeholder is refined by pointing it at its definition. */
export interface TypeShape {
  kind: string;
  resolved?: unknown;
}

/** An instruction's encoding (its low two bits), as `Analysis.instructionFormats` names it. */
export const FORMAT_NAMES = [0, 1, 2, 3].map((f) => internName(`format${f}`));

/** What one instruction adds to the figures (`countInstruction`). */
export interface InstructionFigures {
  format: number;
  /** The opcode's name, interned (`internName`) or, for a rare one, as text. */
  name: number | string;
  size: number;
  operands: number;
  maxOperand: number;
  phi: boolean;
}

export abstract class AnalyzerWalkBase<T extends TypeShape> {
  protected r!: BytecodeReader;
  protected depth = 0;
  protected nodeStack: BlockNode[] = [];
  /** The function whose figures the walk adds to (see the subclasses for when LLVM changed it). */
  protected cur: FunctionAnalysis | null = null;
  /** Inside a function body: its constants and names are not module values. */
  protected inFunction = false;
  protected moduleTypes: T[] = [];
  protected functionTypes: T[] = [];
  protected functions: FunctionDecl<T>[] = [];
  /** Declared bodies not yet located, the next one last (LLVM popped from the back). */
  protected pendingBodies: number[] = [];
  protected moduleBodyStart = 0;
  protected moduleEnd = 0;
  /** Instructions by encoding and by name; added into the `Analysis` by `finish`. */
  protected readonly formatCounts = new NameCounter();
  protected readonly opcodeCounts = new NameCounter();

  constructor(
    readonly a: Analysis,
    protected row: FormatRow,
    protected readonly dumpLines: DumpRecord[] | null,
  ) {}

  // ---- what each version does its own way --------------------------------------------------------

  /** Block names in error paths and the listing (LLVM 2.0 called the value symbol table by its new name). */
  protected abstract readonly blockNames: BlockNames;
  /** Whether a function's figures count its operands (r36867's did; LLVM 1.9 never incremented it). */
  protected abstract readonly countsFunctionOperands: boolean;
  protected abstract vbr(): number;
  protected abstract str(): string;
  /** Checks a block's frame (decode/block-frame.ts; not the module's) as the version's reader did. */
  protected abstract checkBlockFrame(frame: BlockFrame): BlockKind | 'unknown';
  /** The cursor the walk reads a stream range with (decode/reader.ts). */
  protected newReader(stream: Uint8Array, start: number, end: number): BytecodeReader {
    return new BytecodeReader(stream, start, end);
  }
  /** Before the module block's size is checked: a version this walk cannot read explains any size. */
  protected refuseUnreadable(_stream: Uint8Array): void {}
  /** Reads the version word (and sets `row` from it where the walk began without one). */
  protected abstract readVersion(): void;
  /** The slot number of the first type in the module's table (13 in v0–6 after the type-type shift, 4 in v7). */
  protected abstract readonly firstDerivedSlot: number;
  protected abstract newPlaceholder(): T;
  protected abstract deref(t: T): T;
  protected abstract describe(t: T): string;
  protected abstract parseType(): T;
  protected abstract parseModuleGlobalInfo(): void;
  protected abstract parseSymbolTable(inFunction: boolean): void;
  /** The module's type symbol table (version 7's block 9; no earlier version has one). */
  protected parseTypeSymbolTable(): void {
    this.r.pos = this.r.end;
  }
  /** A compaction table (versions 1–6; retired by version 7). */
  protected parseCompactionTable(): void {
    this.r.pos = this.r.end;
  }
  /** A constant pool's plane id (a type slot) and whether it is the type plane (v0–v1 only). */
  protected abstract readPlane(): { id: number; typeType: boolean };
  /** How the version's reader read and checked the strings plane's records (decode/constant-record.ts). */
  protected abstract readonly strings: StringReading;
  /**
   * How the version's reader read and checked a constant (decode/constant-record.ts), of the
   * plane `constantPlane`: true when LLVM's handler counted it (undef and inline asm it did not).
   */
  protected abstract readonly constants: ConstantReading<boolean>;
  /** The plane whose constants are being read. */
  protected constantPlane = 0;
  /** Checks a plane's constant count before reading them (version 7 bounded it). */
  protected checkConstantCount(_n: number): void {}
  protected abstract insertValue(plane: number): void;
  /** What the module's function-declaration sweep could not check until the end (v0–6: upgraded intrinsics). */
  protected afterModule(): void {}
  /** The order in which LLVM read (and listed) the bodies. */
  protected bodyOrder(): number[] {
    return this.functions.map((_, i) => i);
  }
  /** The word before a body's blocks (linkage, and in version 7 visibility), checked. */
  protected abstract readFunctionHeader(at: number): void;
  /** How the summary prints a function's type. */
  protected abstract functionTypeText(f: FunctionDecl<T>): string;
  /** A new body begins: per-function tables are emptied. */
  protected beginFunction(fa: FunctionAnalysis): void {
    this.cur = fa;
  }
  /** A body's blocks are all read. */
  protected endFunction(_basicBlocks: number): void {}
  /** A v0 basic-block block (before instruction lists existed). */
  protected parseBasicBlock(_fa: FunctionAnalysis): void {
    this.r.pos = this.r.end;
  }
  /** Reads one instruction; returns whether it ends a basic block. */
  protected abstract parseInstruction(fa: FunctionAnalysis): boolean;

  // ---- the walk ----------------------------------------------------------------------------------

  /** Reads the module, then every body in LLVM's order; a stop is reported to `onError`. */
  run(stream: Uint8Array, onError: WalkErrorSink): void {
    try {
      this.readModule(stream);
    } catch (e) {
      onError(e, 'module', this.r);
      return;
    }
    for (const i of this.bodyOrder()) {
      const f = this.functions[i]!;
      if (!f.hasBody || f.bodyStart < 0) continue;
      try {
        this.readBody(stream, i, f);
      } catch (e) {
        onError(e, 'function', this.r);
        return;
      } finally {
        this.inFunction = false;
      }
    }
  }

  /** Adds what was counted apart during the walk into the `Analysis` (also after a stop). */
  finish(): void {
    this.formatCounts.addTo(this.a.instructionFormats);
    this.opcodeCounts.addTo(this.a.opcodes);
  }

  /** How deep in the block tree the walk is (the listing's indentation). */
  get listingDepth(): number {
    return this.depth;
  }

  protected line(text: string, offset = this.r ? this.r.pos : 0): void {
    if (this.dumpLines) this.dumpLines.push({ offset, depth: this.depth, text });
  }

  /** Skips to a 4-byte boundary where the version aligned (v0–v3), counting LLVM's alignment bytes. */
  protected align32(): void {
    if (!this.row.hasAlignment) return;
    const pad = (4 - (this.r.pos & 3)) & 3;
    if (pad) this.a.alignmentBytes += pad;
    if (this.r.pos + pad > this.r.end) throw this.r.fail('Ran out of data while aligning!');
    this.r.pos += pad;
  }

  // ---- blocks -------------------------------------------------------------------------------------

  protected readBlock(): { kind: BlockKind | 'unknown'; size: number } {
    return this.enterBlock(readBlockFrame(this.r, this.row));
  }

  /** Checks a block's frame as the version's reader did, counts it, lists it and enters it. */
  protected enterBlock(frame: BlockFrame): { kind: BlockKind | 'unknown'; size: number } {
    const r = this.r;
    const { id, size, headerOffset } = frame;
    const kind = this.checkBlockFrame(frame);
    if (size > r.end - r.pos) throw r.fail('Attempt to size a block past end of memory', headerOffset);
    const node: BlockNode = { kind, id, offset: headerOffset, headerSize: r.pos - headerOffset, bodySize: size, children: [] };
    const parent = this.nodeStack[this.nodeStack.length - 1];
    if (parent) parent.children.push(node);
    else this.a.blocks.push(node);
    r.enterBlock(this.blockNames[kind], size, headerOffset);
    this.nodeStack.push(node);
    const a = this.a;
    a.counts.blocks++;
    // LLVM counted 8 bytes a header before v3 (two words), 4 after, whatever the file held.
    a.blockHeaderBytes += this.row.version < 3 ? 8 : 4;
    const b = a.bytes;
    switch (kind) {
      case 'function':
        b.function += size;
        break;
      case 'constantPool':
        b.constantPool += size;
        break;
      case 'symbolTable':
        b.symbolTable += size;
        break;
      case 'typeSymbolTable':
        b.typeSymbolTable += size;
        break;
      case 'moduleGlobalInfo':
        b.moduleGlobals += size;
        break;
      case 'globalTypePlane':
        b.globalTypes += size;
        break;
      case 'instructionList':
        b.instructionList += size;
        break;
      case 'compactionTable':
        b.compactionTable += size;
        break;
      case 'basicBlock':
        b.basicBlock += size;
        break;
      case 'module':
        b.module += size;
        break;
      default:
        break;
    }
    if (this.dumpLines) this.line(`BLOCK ${this.blockNames[kind]} (id ${id}) header ${node.headerSize} body ${size}`, headerOffset);
    this.depth++;
    return { kind, size };
  }

  /** Leaves a block as LLVM did: the enclosing end comes back, the position stays where the parse left it. */
  protected leaveBlock(): void {
    const pos = this.r.pos;
    this.r.leaveBlock();
    this.r.pos = pos;
    this.nodeStack.pop();
    this.depth--;
  }

  // ---- the module ---------------------------------------------------------------------------------

  private readModule(stream: Uint8Array): void {
    const a = this.a;
    const r = (this.r = this.newReader(stream, 4, stream.length));
    const type = r.uint32();
    const size = r.uint32();
    if (type !== this.row.blockIds.module) throw r.fail(`Expected Module Block! Type:${type}, Size:${size}`, 4);
    this.refuseUnreadable(stream);
    // Trailing garbage after the module block was ignored (a darwin ranlib bug added some).
    let end = stream.length;
    if (r.pos + size < end) end = r.pos + size;
    if (r.pos + size !== end) throw r.fail(`Invalid Top Level Block Length! Type:${type}, Size:${size}`, 4);
    this.moduleBodyStart = r.pos;
    this.moduleEnd = end;
    const node: BlockNode = { kind: 'module', id: 1, offset: 4, headerSize: 8, bodySize: size, children: [] };
    a.blocks.push(node);
    this.nodeStack.push(node);
    r.enterBlock('Module', end - r.pos, 4);
    this.line(`BLOCK Module header 8 body ${size}`, 4);
    this.depth++;
    this.readVersion();

    let seenMgi = false;
    let seenTypes = false;
    readModuleBlocks(r, this.row, {
      enter: (frame) => this.enterBlock(frame).kind,
      globalTypePlane: (frame) => {
        if (seenTypes) throw r.fail('Two GlobalTypePlane Blocks Encountered!');
        if (frame.size > 0) {
          const n = this.vbr();
          if (this.row.globalTypesHavePlaneId) this.vbr();
          this.parseTypes(this.moduleTypes, n);
        }
        seenTypes = true;
      },
      moduleGlobalInfo: () => {
        if (seenMgi) throw r.fail('Two ModuleGlobalInfo Blocks Encountered!');
        this.parseModuleGlobalInfo();
        seenMgi = true;
      },
      constantPool: () => this.parseConstantPool(false),
      function: () => {
        const idx = this.pendingBodies.pop();
        if (idx === undefined) throw r.fail('FunctionSignatureList empty!');
        const f = this.functions[idx]!;
        f.bodyStart = r.pos;
        f.bodyEnd = r.end;
        f.headerOffset = this.nodeStack[this.nodeStack.length - 1]!.offset;
        r.pos = r.end;
      },
      symbolTable: () => this.parseSymbolTable(false),
      typeSymbolTable: () => this.parseTypeSymbolTable(),
      other: () => {
        r.pos = r.end;
      },
      leave: () => {
        this.leaveBlock();
        this.align32();
      },
    });
    if (this.pendingBodies.length) throw r.fail('Function declared, but bytecode stream ended before definition');
    this.afterModule();
    // handleFinish: LLVM computed its densities here, before reading any function body.
    const c = a.counts;
    const b = a.bytes;
    a.density = {
      bytesPerValue: a.fileSize / (c.types + c.values),
      bytesPerGlobal: (b.constantPool + b.moduleGlobals + b.globalTypes) / (c.types + c.constants + c.globalVariables),
      bytesPerFunction: b.function / c.functions,
    };
    this.leaveBlock();
  }

  // ---- types --------------------------------------------------------------------------------------

  protected parseTypes(tab: T[], n: number): void {
    // Checked before allocating placeholders: every type takes at least one byte.
    this.r.checkCount(n, 1, DEFAULT_LIMITS.maxTypes, 'type table');
    const start = tab.length;
    for (let i = 0; i < n; i++) tab.push(this.newPlaceholder());
    // handleTypeList: every list sets it, an empty one to 0 - 1 as unsigned.
    this.a.maxTypeSlot = (n - 1) >>> 0;
    const parsed: { at: number; t: T }[] = [];
    for (let i = 0; i < n; i++) {
      const at = this.r.pos;
      const t = this.parseType();
      const holder = tab[start + i]!;
      if (holder.kind === 'opaque' && this.deref(t) !== holder) holder.resolved = t;
      if (this.dumpLines) parsed.push({ at, t });
    }
    // Listed once the whole table is read, so forward references print resolved.
    const base = this.firstDerivedSlot + start + (tab === this.functionTypes ? this.moduleTypes.length : 0);
    parsed.forEach(({ at, t }, i) => this.line(`Type slot ${base + i}: ${this.describe(t)}`, at));
  }

  // ---- constants ----------------------------------------------------------------------------------

  protected parseConstantPool(isFunction: boolean): void {
    const r = this.r;
    // A function's own types come first (v2 on; v0–v1 put them in a type plane).
    if (isFunction && !this.row.typeDerivedFromValue) this.parseTypes(this.functionTypes, this.vbr());
    let plane = { id: 0, typeType: false };
    readPlanes(r, {
      planeId: () => (plane = this.readPlane()).id,
      plane: (n) => {
        if (plane.typeType) this.parseTypes(isFunction ? this.functionTypes : this.moduleTypes, n);
        else if (plane.id === 0) this.parseStringPlane(n);
        else this.parseConstantPlane(n, plane.id);
      },
    });
    if (r.pos > r.end) throw r.fail('Attempt to read past the end of Constant Pool block.');
  }

  /** The void plane holds the strings: each with its own array type. */
  private parseStringPlane(n: number): void {
    readStringRecords(this.r, n, this.strings);
  }

  /** A string constant is read (`strings`): into plane `plane`. */
  protected stringRead(plane: number, length: number, at: number): void {
    this.insertValue(plane);
    this.a.counts.constants++;
    this.a.counts.values++;
    if (this.dumpLines) this.line(`String constant of ${length} bytes`, at);
  }

  private parseConstantPlane(n: number, plane: number): void {
    this.checkConstantCount(n);
    this.constantPlane = plane;
    for (let i = 0; i < n; i++) {
      if (readConstantRecord(this.r, this.row, this.constants)) {
        this.a.counts.constants++;
        this.a.counts.values++;
      }
      this.insertValue(plane);
    }
  }

  /** Whether a module value (by plane and slot) is a global value, another value, or not there yet. */
  protected abstract moduleValueKind(plane: number, slot: number): 'global' | 'other' | undefined;

  /**
   * The layout of the values both readers read alike: an aggregate's element slots (array,
   * packed/vector, struct: `count` set to how many), and a pointer's global value
   * (`pointerConstant`). `None` for any other type.
   */
  protected sharedLayout(ty: T): { layout: ValueLayout; count: number } {
    const d = ty as unknown as DerivedType<T> | { kind: 'other' };
    switch (d.kind) {
      case 'array':
      case 'packed':
      case 'vector':
        return { layout: ValueLayout.Aggregate, count: d.n };
      case 'struct':
        return { layout: ValueLayout.Aggregate, count: d.elems.length };
      case 'pointer':
        return { layout: ValueLayout.Pointer, count: 0 };
      default:
        return { layout: ValueLayout.None, count: 0 };
    }
  }

  /** The type of the plane whose plain value is being read (set by the version's `valueLayout`). */
  protected abstract constantType: T;

  /**
   * A version's constant hooks with what both readers did alike: a plain value is listed with
   * its type and counted, whatever its bits; an aggregate's element slots mean nothing here; a
   * pointer's global value must, at module level, already be read.
   */
  protected constantReading(own: VersionConstantHooks): ConstantReading<boolean> {
    const read = (_value: unknown, at: number): boolean => this.constantRead(at);
    return {
      smallInteger: read,
      integer: read,
      float: read,
      double: read,
      wideInteger: read,
      aggregate: () => undefined,
      element: () => undefined,
      aggregateEnd: (at) => this.constantRead(at),
      pointer: (slot, at) => {
        if (!this.inFunction) {
          const v = this.moduleValueKind(this.constantPlane, slot);
          if (v === undefined) throw this.r.fail('Forward references are not allowed here.', at);
          if (v !== 'global') throw this.r.fail('GlobalValue not in ValueTable!', at);
        }
        return this.constantRead(at);
      },
      operand: () => undefined,
      ...own,
    };
  }

  /** A plain value is read: listed with its type, and counted. */
  private constantRead(at: number): boolean {
    if (this.dumpLines) this.line(`Constant of type ${this.describe(this.constantType)}`, at);
    return true;
  }

  // ---- function bodies ----------------------------------------------------------------------------

  private readBody(stream: Uint8Array, index: number, f: FunctionDecl<T>): void {
    const r = (this.r = this.newReader(stream, this.moduleBodyStart, this.moduleEnd));
    r.enterBlock('Module', this.moduleEnd - this.moduleBodyStart);
    r.pos = f.bodyStart;
    r.enterBlock(`Function #${index}`, f.bodyEnd - f.bodyStart);
    const moduleNode = this.a.blocks[0]!;
    const node = moduleNode.children.find((c) => c.offset === f.headerOffset);
    this.nodeStack = node ? [moduleNode, node] : [moduleNode];
    this.depth = 2;
    this.line(`Function #${index} '${f.name}' body`, f.bodyStart);
    this.readFunctionHeader(r.pos);
    const fa: FunctionAnalysis = {
      name: f.name,
      type: this.functionTypeText(f),
      offset: f.bodyStart,
      byteSize: f.bodyEnd - f.bodyStart,
      basicBlocks: 0,
      instructions: 0,
      longInstructions: 0,
      operands: 0,
      instructionSize: 0,
      phis: 0,
      vbrCount32: 0,
      vbrCount64: 0,
      vbrCompressedBytes: 0,
      vbrExpandedBytes: 0,
    };
    this.a.functions.push(fa);
    this.beginFunction(fa);
    this.inFunction = true;
    this.functionTypes = [];
    let blockNum = 0;
    const end = r.end;
    try {
      while (r.pos < end) {
        const { kind } = this.readBlock();
        switch (kind) {
          case 'constantPool':
            this.parseConstantPool(true);
            break;
          case 'compactionTable':
            this.parseCompactionTable();
            break;
          case 'basicBlock':
            this.a.counts.basicBlocks++;
            this.a.counts.values++;
            fa.basicBlocks++;
            blockNum++;
            this.parseBasicBlock(fa);
            break;
          case 'instructionList':
            if (blockNum) throw r.fail('Already parsed basic blocks!');
            blockNum += this.parseInstructionList(fa);
            break;
          case 'symbolTable':
            this.parseSymbolTable(true);
            break;
          case 'typeSymbolTable':
            throw r.fail("Functions don't have type symbol tables");
          default:
            r.pos = r.end;
            break;
        }
        this.leaveBlock();
        this.align32();
      }
      this.endFunction(blockNum);
    } finally {
      this.functionTypes = [];
    }
  }

  /** An instruction list: basic blocks, each ended by its terminator; returns how many. */
  private parseInstructionList(fa: FunctionAnalysis): number {
    const r = this.r;
    let blocks = 0;
    while (r.pos < r.end) {
      this.a.counts.basicBlocks++;
      this.a.counts.values++;
      fa.basicBlocks++;
      blocks++;
      if (blocks > DEFAULT_LIMITS.maxBasicBlocksPerFunction) throw r.fail('too many basic blocks');
      let terminated = false;
      while (r.pos < r.end && !terminated) terminated = this.parseInstruction(fa);
      if (!terminated) throw r.fail('Non-terminated basic block found!');
    }
    return blocks;
  }

  /** Checks a long instruction's operand count before reading them (version 7 bounded it). */
  protected checkOperandCount(_n: number, _at: number): void {}

  /**
   * The fields every version's instruction starts with (decode/instruction-record.ts), then the
   * padding to a word boundary where the version aligned, counted as LLVM counted it. LLVM 1.9
   * refused a long record of no operands before r36867's bound on their count was asked.
   */
  protected readInstructionFields(): InstructionRecord {
    const rec = readInstructionRecord(this.r, this.operandCountCheck);
    if (rec.format === 0) this.align32();
    return rec;
  }

  private readonly operandCountCheck = (n: number, at: number): void => {
    if (n === 0) throw this.r.fail('Zero-argument instruction found; this is invalid.', at);
    this.checkOperandCount(n, at);
  };

  /** Adds one instruction to the figures, as LLVM's handler did. */
  protected countInstruction(fa: FunctionAnalysis, i: InstructionFigures): void {
    const a = this.a;
    const c = a.counts;
    c.instructions++;
    c.values++;
    a.instructionSize += i.size;
    if (i.size > 4) c.longInstructions++;
    c.operands += i.operands;
    if (i.maxOperand > a.maxValueSlot) a.maxValueSlot = i.maxOperand;
    this.formatCounts.add(FORMAT_NAMES[i.format]!);
    this.opcodeCounts.add(i.name);
    fa.instructions++;
    if (this.countsFunctionOperands) fa.operands += i.operands;
    fa.instructionSize += i.size;
    if (i.size > 4) fa.longInstructions++;
    if (i.phi) fa.phis++;
  }
}
