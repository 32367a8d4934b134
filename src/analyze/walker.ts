/**
 * The analyzer's walk of versions 0–6: reads a stream the way LLVM 1.9's bytecode reader did
 * (same reads, same order, same stopping points) and counts what its `llvm-bcanalyzer` counted.
 * It does not build a module; it keeps only type shapes, value-plane contents and function names,
 * which is what the figures and LLVM's own error checks depend on. What this reader did as
 * r36867's (version 7) did is `walk-base.ts`; here is what LLVM 1.9 did its own way: VBR
 * statistics, the v0–v1 type-type plane, compaction tables, function order by heap address.
 *
 * Order matters for the figures (see docs/analyze.md): LLVM read the module first, computed its
 * densities, and only then read the function bodies, in the order the functions were declared.
 */
import { isReadableVersion, parseVersionWord, peekVersionWord, UnsupportedVersionError } from '../format/version-word.js';
import { formatFor, normalizeTypeId, type BlockKind } from '../format/format-table.js';
import type { FunctionAnalysis } from './analysis.js';
import { newVbrTally, TallyingReader, type BytecodeReader, type VbrTally } from '../decode/reader.js';
import { readGlobalInfoRecords } from '../decode/global-info-records.js';
import { readTypeDefinition, readTypeId, TYPE_TYPE, type TypeDefinitionReading } from '../decode/type-records.js';
import type { BlockFrame } from '../decode/block-frame.js';
import { plainName, readSymbolEntries, readSymbolPlanes } from '../decode/plane-records.js';
import { ValueLayout, type ConstantReading, type ConstantTexts, type StringReading } from '../decode/constant-record.js';
import { readCompactionTable } from '../decode/compaction-records.js';
import { FLOAT_CLASS, SIGNED_CLASS, UNSIGNED_CLASS, opcodeInfoFor, opcodeTable, type OpcodeInfo } from './opcode-info.js';
import { PRIMITIVES, deref, describeType, llvmTypeName, newOpaque, type TypeNode } from './types.js';
import { AnalyzerWalkBase, FORMAT_NAMES, type BlockNames, type FunctionDecl } from './walk-base.js';

export type { AnalyzeOptions } from './analysis.js';

const FIRST_DERIVED = 13;
const LABEL = 12;

/** What a truncated field of a constant was called (the reader's own messages). */
const TEXTS: ConstantTexts = { float: 'a 32-bit word', asm: 'a string', constraints: 'a string', string: 'string constant data' };

/**
 * How LLVM 1.9 read a plain value of each primitive type (by type id: bool, ubyte, sbyte, ushort,
 * short, uint, int, ulong, long, float, double): the unsigned ones up to 32 bits as a 32-bit VBR.
 */
const PRIMITIVE_LAYOUTS: readonly (ValueLayout | undefined)[] = [
  undefined,
  ValueLayout.Unsigned32,
  ValueLayout.Unsigned32,
  ValueLayout.Signed64,
  ValueLayout.Unsigned32,
  ValueLayout.Signed64,
  ValueLayout.Unsigned32,
  ValueLayout.Signed64,
  ValueLayout.Unsigned64,
  ValueLayout.Signed64,
  ValueLayout.Float,
  ValueLayout.Double,
];
/** The width each primitive integer's range is checked against, by type id. */
const PRIMITIVE_BITS: readonly (number | undefined)[] = [undefined, 1, 8, 8, 16, 16, 32, 32, 64, 64];

/**
 * LLVM 1.9 read function bodies, and listed them, in the order of their `Function*` heap
 * addresses (a `std::map` keyed by pointer). That is allocation order, except where glibc malloc
 * handed a new Function a chunk freed earlier. The one such chunk that matters in the corpus: the
 * module value table (`std::vector<ValueList*>`) grows as type planes are added, and when it
 * outgrows a capacity of 28 or 29 pointers its old 224/232-byte buffer is freed into the same
 * size class as a Function (a 240-byte chunk), so the *next* Function lands where that buffer was:
 * right after the function (or global) whose plane made the table grow to that capacity.
 * Measured on the corpus: this explains every reordering but one (docs/analyze.md).
 */
class HeapOrderModel {
  private seq = 0;
  private size = 0;
  private cap = 0;
  private capKey = -1;
  private readonly free: number[] = [];

  private static chunk(bytes: number): number {
    return Math.max(32, (bytes + 8 + 15) & ~15);
  }

  /** A new object of a Function's size class. */
  allocFunction(): number {
    return this.free.pop() ?? this.seq++;
  }

  /** `ValueTab.resize(slot + 1)` when a value is inserted into plane `slot` (libstdc++ growth). */
  insert(slot: number): void {
    const n = slot + 1;
    if (n <= this.size) return;
    if (n > this.cap) {
      const newCap = Math.max(2 * this.size, n);
      const same = HeapOrderModel.chunk(newCap * 8) === FUNCTION_CHUNK;
      const key = same ? this.allocFunction() : this.seq++;
      if (this.cap > 0 && HeapOrderModel.chunk(this.cap * 8) === FUNCTION_CHUNK) this.free.push(this.capKey);
      this.cap = newCap;
      this.capKey = key;
    }
    this.size = n;
  }

  /** Any other allocation between two Functions: it only advances the top of the heap. */
  other(): void {
    this.seq++;
  }
}

/** glibc chunk size of an LLVM 1.9 `Function` on x86-64, as the corpus orders imply. */
const FUNCTION_CHUNK = 240;

type ValueEntry = { kind: 'global' } | { kind: 'function'; index: number } | { kind: 'constant' } | { kind: 'null' } | { kind: 'local' };

const BLOCK_NAMES: BlockNames = {
  module: 'Module',
  function: 'Function',
  constantPool: 'ConstantPool',
  symbolTable: 'SymbolTable',
  moduleGlobalInfo: 'ModuleGlobalInfo',
  globalTypePlane: 'GlobalTypePlane',
  basicBlock: 'BasicBlock',
  instructionList: 'InstructionList',
  compactionTable: 'CompactionTable',
  typeSymbolTable: 'TypeSymbolTable',
  unknown: 'Unknown',
};

/** Upgrade rules of LLVM 1.9's AutoUpgrade that renamed a function to "" (only the name matters here). */
function isUpgradedIntrinsic(name: string, fn: TypeNode): boolean {
  if (name.length <= 8 || !name.startsWith('llvm.')) return false;
  const ptr = deref(fn);
  const f = ptr.kind === 'pointer' ? deref(ptr.elem) : ptr;
  if (f.kind !== 'function') return false;
  const primId = (t: TypeNode | undefined): number => {
    if (!t) return -1;
    const d = deref(t);
    return d.kind === 'prim' ? d.id : -1;
  };
  if (['llvm.bswap', 'llvm.ctpop', 'llvm.ctlz', 'llvm.cttz', 'llvm.sqrt'].includes(name)) {
    const r = primId(f.ret);
    return r >= 2 && r <= 11;
  }
  if (name === 'llvm.isunordered') {
    const p = primId(f.params[0]);
    return p === 10 || p === 11;
  }
  if (name === 'llvm.memcpy' || name === 'llvm.memset' || name === 'llvm.memmove') {
    const p = primId(f.params[2]);
    return p >= 6 && p <= 9;
  }
  return false;
}

export class AnalyzerWalkLlvm19 extends AnalyzerWalkBase<TypeNode> {
  protected readonly blockNames = BLOCK_NAMES;
  // LLVM 1.9 never incremented its per-function operand counter.
  protected readonly countsFunctionOperands = false;
  protected readonly firstDerivedSlot = FIRST_DERIVED;
  private compactionTypes: { type: TypeNode; slot: number }[] = [];
  private moduleValues = new Map<number, ValueEntry[]>();
  private functionValues = new Map<number, number>();
  private compactionValues = new Map<number, number>();
  private heap = new HeapOrderModel();
  /** Model of the heap address LLVM's `new Function` got, per declared function (see `HeapOrderModel`). */
  private heapKeys: number[] = [];
  private typeNames = new Map<TypeNode, string>();
  private typeNameSource = new Map<TypeNode, string>();
  private opcodes: readonly OpcodeInfo[] = [];

  // ---- reading primitives, counted as LLVM counted them ------------------------------------------

  /**
   * VBR statistics, tallied by the reader (decode/reader.ts `TallyingReader`) across the module's
   * and every body's cursor: LLVM's handler added each VBR to the whole file's figures and to the
   * "current function"'s (see `attributeVbrs`); the per-function share is the difference between
   * two marks, not a second increment for every VBR.
   */
  private readonly tally: VbrTally = newVbrTally();
  private vbrMark = newVbrTally();

  protected override newReader(stream: Uint8Array, start: number, end: number): BytecodeReader {
    return new TallyingReader(stream, start, end, this.tally);
  }

  protected vbr(): number {
    return this.r.vbr32();
  }

  private vbr64(): bigint {
    return this.r.vbr64();
  }

  /**
   * Adds the VBRs read since the last mark to the current function (LLVM's "current function",
   * never reset: a body's linkage VBR, read before its own function starts, lands in the
   * previous one's), then marks. Called when the current function changes and when the walk ends.
   */
  private attributeVbrs(): void {
    const f = this.cur;
    const m = this.vbrMark;
    const t = this.tally;
    if (f) {
      const n32 = t.count32 - m.count32;
      const n64 = t.count64 - m.count64;
      f.vbrCount32 += n32;
      f.vbrCount64 += n64;
      f.vbrCompressedBytes += t.bytes - m.bytes;
      f.vbrExpandedBytes += 4 * n32 + 8 * n64;
    }
    m.count32 = t.count32;
    m.count64 = t.count64;
    m.bytes = t.bytes;
  }

  protected str(): string {
    return this.r.string();
  }

  /** LLVM's `sanitizeTypeId` (the format table's `normalizeTypeId`): v0–v1 drop the type-type plane (12) from the numbering. */
  private sanitize(id: number): { id: number; typeType: boolean } {
    const n = normalizeTypeId(this.row, id);
    return n === 'typeType' ? { id: 0, typeType: true } : { id: n, typeType: false };
  }

  /** A type id as the decoder reads one (the 24-bit escape, the type-type plane). */
  private readTypeId(): { id: number; typeType: boolean } {
    const id = readTypeId(this.r, this.row);
    return id === TYPE_TYPE ? { id: 0, typeType: true } : { id, typeType: false };
  }

  // ---- types --------------------------------------------------------------------------------------

  private getType(id0: number): TypeNode {
    if (id0 < FIRST_DERIVED) return PRIMITIVES[id0]!;
    let id = id0 - FIRST_DERIVED;
    if (this.compactionTypes.length) {
      if (id >= this.compactionTypes.length) throw this.r.fail('Type ID out of range for compaction table!');
      return this.compactionTypes[id]!.type;
    }
    if (id < this.moduleTypes.length) return this.moduleTypes[id]!;
    id -= this.moduleTypes.length;
    if (id < this.functionTypes.length) return this.functionTypes[id]!;
    return this.r.fail('Illegal type reference!');
  }

  protected describe(t: TypeNode): string {
    return describeType(t, this.typeNames);
  }

  protected newPlaceholder(): TypeNode {
    return newOpaque();
  }

  protected deref(t: TypeNode): TypeNode {
    return deref(t);
  }

  protected parseType(): TypeNode {
    const def = readTypeDefinition(this.r, this.row, this.typeReading);
    let result: TypeNode;
    switch (def.kind) {
      case 'primitive':
        return PRIMITIVES[def.code]!;
      case 'function': {
        const params = def.params;
        const last = params[params.length - 1];
        const vararg = last !== undefined && deref(last) === PRIMITIVES[0];
        if (vararg) params.pop();
        result = { kind: 'function', ret: def.returnType, params, vararg };
        break;
      }
      case 'array':
      case 'packed':
        result = { kind: def.kind, elem: def.element, n: def.length };
        break;
      case 'struct':
        result = { kind: 'struct', elems: def.fields };
        break;
      case 'pointer':
        result = { kind: 'pointer', elem: def.element };
        break;
      default:
        result = newOpaque();
        break;
    }
    this.a.counts.types++;
    return result;
  }

  /** LLVM 1.9's `ParseType`: each member resolved as soon as it is read, with its messages. */
  private readonly typeReading: TypeDefinitionReading<TypeNode> = {
    code: (code, at) => {
      if (code === TYPE_TYPE) throw this.r.fail('Invalid type (type type) in type constants!', at);
    },
    member: (id, role, _index, at) => {
      if (role === 'field') {
        if (id === TYPE_TYPE) throw this.r.fail('Invalid element type (type type) for structure!');
        const el = this.getType(id);
        // LLVM 1.9 asserted here (the damaged historical memcpy.ll.bc-16 stops this way).
        if (deref(el) === PRIMITIVES[0]) throw this.r.fail('Void type for structure field!!');
        return el;
      }
      if (id === TYPE_TYPE) throw this.r.fail('Invalid type id encountered');
      const t = this.getType(id);
      if (role === 'pointee' && deref(t) === PRIMITIVES[0]) throw this.r.fail('Pointer to void is not valid, use sbyte* instead!', at);
      return t;
    },
    paramCount: (n) => n,
    unknown: (code, at) => this.r.fail(`Don't know how to deserialize primitive type ${code}`, at),
  };

  // ---- values -------------------------------------------------------------------------------------

  private hasImplicitNull(plane: number): boolean {
    if (!this.row.explicitPrimitiveZeros) return plane !== LABEL && plane !== 0;
    return plane >= FIRST_DERIVED;
  }

  private insertModuleValue(plane: number, v: ValueEntry): void {
    let list = this.moduleValues.get(plane);
    if (!list) this.moduleValues.set(plane, (list = []));
    list.push(v);
  }

  private getValue(type: number, num0: number): ValueEntry | null {
    let num = num0;
    const cv = this.compactionValues.get(type) ?? 0;
    if (cv > 0) {
      if (num < cv) return { kind: 'local' };
      num -= cv;
    } else {
      let globalTy = type;
      if (this.compactionTypes.length && type >= FIRST_DERIVED) {
        globalTy = this.compactionTypes[type - FIRST_DERIVED]?.slot ?? type;
      }
      if (this.hasImplicitNull(globalTy)) {
        const ty = deref(this.getType(type));
        if (ty.kind !== 'opaque') {
          if (num === 0) return { kind: 'null' };
          num--;
        }
      }
      const list = this.moduleValues.get(globalTy);
      if (list) {
        if (num < list.length) return list[num]!;
        num -= list.length;
      }
    }
    if (num < (this.functionValues.get(type) ?? 0)) return { kind: 'local' };
    return null;
  }

  protected moduleValueKind(plane: number, slot: number): 'global' | 'other' | undefined {
    const v = this.getValue(plane, slot);
    return v ? (v.kind === 'global' || v.kind === 'function' ? 'global' : 'other') : undefined;
  }

  protected insertValue(plane: number): void {
    if (this.inFunction) this.functionValues.set(plane, (this.functionValues.get(plane) ?? 0) + 1);
    else this.insertModuleValue(plane, { kind: 'constant' });
  }

  // ---- blocks -------------------------------------------------------------------------------------

  /** LLVM 1.9 refused an unknown id in a long header (versions 0–2); a short one it skipped. */
  protected checkBlockFrame({ id, kind, headerOffset }: BlockFrame): BlockKind | 'unknown' {
    if (!this.row.longBlockHeaders) return kind ?? 'unknown';
    if (id === 0) throw this.r.fail('Reserved_DoNotUse used as Module Type?', headerOffset);
    if (!kind) throw this.r.fail(`Invalid block id found: ${id}`, headerOffset);
    return kind;
  }

  // ---- the walk -----------------------------------------------------------------------------------

  /** Adds the VBR statistics, kept apart during the walk, into the `Analysis` (also after a stop). */
  override finish(): void {
    super.finish();
    const v = this.a.vbr;
    this.attributeVbrs();
    const t = this.tally;
    v.count32 += t.count32;
    v.count64 += t.count64;
    v.compressedBytes += t.bytes;
    v.expandedBytes += 4 * t.count32 + 8 * t.count64;
  }

  // ---- the module ---------------------------------------------------------------------------------

  /** The version first, as the reader did: a version this walk cannot read explains any size to come. */
  protected override refuseUnreadable(stream: Uint8Array): void {
    const peeked = peekVersionWord(stream);
    if (peeked !== undefined && !isReadableVersion(peeked.version)) throw new UnsupportedVersionError(peeked, 12, ['Module']);
  }

  protected readVersion(): void {
    const r = this.r;
    const vAt = r.pos;
    const v = parseVersionWord(this.vbr());
    const row = formatFor(v.version);
    if (!row || !isReadableVersion(v.version)) throw new UnsupportedVersionError(v, vAt, r.blockPath);
    this.row = row;
    this.opcodes = opcodeTable(row);
    this.a.version = v.version;
    this.a.versionFlags = v.flags;
    this.line(`Version ${v.version} flags ${v.flags}`, vAt);
    this.align32();
  }

  protected override afterModule(): void {
    for (const f of this.functions) if (f.name && isUpgradedIntrinsic(f.name, f.type)) f.name = '';
  }

  protected parseModuleGlobalInfo(): void {
    const r = this.r;
    const row = this.row;
    const a = this.a;
    let plane = 0;
    const declared: number[] = [];
    let fnType: TypeNode = PRIMITIVES[0]!;
    readGlobalInfoRecords<void>(r, row, {
      extensionInEveryVersion: true,
      globalWord: (g) => {
        const s = this.sanitize(g.slot);
        if (s.typeType) throw r.fail('Invalid type (type type) for global var!', g.at);
        plane = s.id;
      },
      global: (g) => {
        const ty = deref(this.getType(plane));
        if (ty.kind !== 'pointer') throw r.fail(`Global not a pointer type! Ty= ${this.describe(ty)}`, g.at);
        this.insertModuleValue(plane, { kind: 'global' });
        this.heap.other();
        this.heap.insert(plane);
      },
      globalDone: (_, initializer, g) => {
        const initSlot = initializer ?? 0;
        a.counts.globalVariables++;
        a.counts.values++;
        a.maxValueSlot = Math.max(a.maxValueSlot, plane, initSlot);
        if (this.dumpLines) this.line(`GV ${g.isConstant ? 'constant' : 'variable'} linkage=${g.linkage} slot=${plane} init=${initSlot}`, g.at);
      },
      widenFunctionWord: (v) => ((v << 5) + 1) >>> 0,
      functionWord: (f) => {
        const ty = deref(this.getType(f.slot));
        const elem = ty.kind === 'pointer' ? deref(ty.elem) : undefined;
        if (!elem || elem.kind !== 'function') throw r.fail(`Function not a pointer to function type! Ty = ${this.describe(ty)}`, f.at);
        const index = this.functions.length;
        const hasBody = (f.flags & 16) === 0;
        const heapKey = this.heap.allocFunction();
        this.functions.push({ type: ty, hasBody, name: '', bodyStart: -1, bodyEnd: -1, headerOffset: -1 });
        this.heapKeys.push(heapKey);
        this.insertModuleValue(f.slot, { kind: 'function', index });
        this.heap.insert(f.slot);
        if (hasBody) declared.push(index);
        fnType = ty;
      },
      function: (f) => {
        a.counts.functions++;
        a.counts.values++;
        const index = this.functions.length - 1;
        if (this.dumpLines) this.line(`Function decl #${index} slot=${f.slot}: ${this.describe(fnType)}${(f.flags & 16) === 0 ? '' : ' (no body)'}`, f.at);
      },
      libraryCount: (n) => n,
      sectionCount: (n) => n,
      string: (r) => r.string(),
      library: (lib) => {
        a.counts.dependentLibs++;
        a.dependentLibrariesBytes += lib.length + (lib.length < 128 ? 1 : 2);
        if (this.dumpLines) this.line(`Library '${lib}'`);
      },
      triple: (triple) => {
        if (this.dumpLines) this.line(`Target triple '${triple}'`);
      },
    });
    // LLVM reversed the list and popped from the back: bodies come in declaration order.
    this.pendingBodies = declared.reverse();
    if (row.inconsistentModuleGlobalInfo) this.align32();
    r.pos = r.end;
  }

  protected readPlane(): { id: number; typeType: boolean } {
    return this.readTypeId();
  }

  /** The strings plane: a type id (not the type type), then an array of sbyte or ubyte. */
  protected readonly strings: StringReading = {
    texts: TEXTS,
    typeId: (r) => {
      const at = r.pos;
      const st = this.readTypeId();
      if (st.typeType) throw r.fail('Invalid type (type type) for string constant', at);
      return st.id;
    },
    length: (typeId, at) => {
      const r = this.r;
      const ty = deref(this.getType(typeId));
      if (ty.kind !== 'array') throw r.fail('String constant data invalid!', at);
      const el = deref(ty.elem);
      if (el !== PRIMITIVES[2] && el !== PRIMITIVES[3]) throw r.fail('String constant data invalid!', at);
      return ty.n;
    },
    string: (bytes, typeId, at) => this.stringRead(typeId, bytes.length, at),
  };

  /** The plane's type, looked up when a plain value follows (LLVM 1.9 looked it up only then). */
  protected constantType: TypeNode = PRIMITIVES[0]!;

  /** A constant as LLVM 1.9's reader read it: its checks and messages (`Analysis` counts the true ones). */
  protected readonly constants: ConstantReading<boolean> = this.constantReading({
    texts: TEXTS,
    bits: 0,
    count: 0,
    valueLayout: () => {
      const c = this.constants as { bits: number; count: number };
      const ty = (this.constantType = deref(this.getType(this.constantPlane)));
      if (ty.kind !== 'prim') {
        const shared = this.sharedLayout(ty);
        c.count = shared.count;
        return shared.layout;
      }
      const id = ty.id;
      c.bits = PRIMITIVE_BITS[id] ?? 0;
      return PRIMITIVE_LAYOUTS[id] ?? ValueLayout.None;
    },
    undef: (at) => {
      this.getType(this.constantPlane);
      if (this.dumpLines) this.line('Constant undef', at);
      return false;
    },
    inlineAsm: (_asm, _constraints, _flags, at) => {
      if (this.dumpLines) this.line('Constant inline asm', at);
      return false;
    },
    operandType: () => {
      const t = this.readTypeId();
      if (t.typeType) throw this.r.fail('Invalid argument type (type type) for constant value');
      return t.id;
    },
    expression: (opcode, nargs, _predicate, _predicateAt, at) => {
      if (this.dumpLines) this.line(`Constant expression opcode ${opcode} with ${nargs} operand(s)`, at);
      return true;
    },
    outOfRange: (_value, at) => {
      const id = (this.constantType as { id: number }).id;
      throw this.r.fail(
        id === 1
          ? 'Invalid boolean value read.'
          : id === 2 || id === 4 || id === 6
            ? 'Invalid unsigned byte/short/int read.'
            : 'Invalid signed byte/short/int/long read.',
        at,
      );
    },
    noValue: (at) => {
      throw this.r.fail(`Don't know how to deserialize constant value of type '${this.describe(this.constantType)}'`, at);
    },
  });

  protected parseSymbolTable(inFunction: boolean): void {
    const r = this.r;
    this.a.counts.symbolTables++;
    const nameType = (slot: number, name: string): void => {
      const ty = deref(this.getType(slot));
      if (inFunction) return;
      // LLVM's fillTypeNameTable skipped pointers to (non-opaque) primitive types.
      if (ty.kind === 'pointer') {
        const el = deref(ty.elem);
        if (el.kind === 'prim') return;
      }
      if (ty.kind === 'prim') return;
      // LLVM's table held each type once (types were uniqued), so identity stands for structure.
      const key = ty;
      // The symbol table iterated names in sorted order and the first name of a type won.
      const source = this.typeNameSource.get(key);
      if (source === undefined || source > name) {
        this.typeNames.set(key, llvmTypeName(name));
        this.typeNameSource.set(key, name);
      }
    };
    const typeName = (slot: number, name: string, at: number): void => {
      nameType(slot, name);
      if (this.dumpLines) this.line(`Type name '${name}' = slot ${slot}`, at);
    };
    if (!this.row.typeDerivedFromValue) readSymbolEntries(r, this.vbr(), plainName, typeName);
    let plane = { id: 0, typeType: false };
    readSymbolPlanes(r, {
      planeId: () => {
        plane = this.readTypeId();
        return plane.id;
      },
      name: plainName,
      entry: (slot, name, at) => {
        if (plane.typeType) return typeName(slot, name, at);
        if (this.dumpLines) this.line(`Value name '${name}' = plane ${plane.id} slot ${slot}`, at);
        // Function-local planes (arguments, instruction results) are not modelled: LLVM's look-ups
        // there never failed on a corpus file, and only module names reach the figures.
        if (plane.id === LABEL || inFunction) return;
        const v = this.getValue(plane.id, slot);
        if (!v) throw r.fail(`Failed value look-up for name '${name}'`, at);
        if (v.kind === 'function') this.functions[v.index]!.name = name;
      },
    });
    if (r.pos > r.end) throw r.fail('Attempt to read past the end of Symbol Table block.');
  }

  /** A compaction table as LLVM 1.9 read it (decode/compaction-records.ts), with its checks and messages. */
  protected override parseCompactionTable(): void {
    const r = this.r;
    this.a.counts.compactionTables++;
    readCompactionTable(r, this.row, {
      typeCount: (n) => n,
      types: () => undefined,
      type: (_i, id, at) => {
        if (id === TYPE_TYPE) throw r.fail('Invalid type in compaction table: type type', at);
        let type: TypeNode;
        if (id < FIRST_DERIVED) type = PRIMITIVES[id]!;
        else {
          const m = this.moduleTypes[id - FIRST_DERIVED];
          if (!m) throw r.fail('Illegal compaction table type reference!', at);
          type = m;
        }
        this.compactionTypes.push({ type, slot: id });
      },
      typesEnd: () => undefined,
      valuePlane: (n, ty, at) => {
        if (this.compactionValues.get(ty)) throw r.fail('Compaction table plane contains multiple entries!', at);
        this.getType(ty);
        this.compactionValues.set(ty, 1 + n);
      },
      entry: (_i, slot) => {
        if (slot > this.a.maxValueSlot) this.a.maxValueSlot = slot;
      },
      valuePlaneEnd: (n, ty, at) => {
        if (this.dumpLines) this.line(`Compaction plane ${ty}: ${n} value(s)`, at);
      },
    });
  }

  // ---- function bodies ----------------------------------------------------------------------------

  /** LLVM's reading order: by (modelled) heap address of the Function objects. */
  protected override bodyOrder(): number[] {
    return this.functions.map((_, i) => i).sort((x, y) => this.heapKeys[x]! - this.heapKeys[y]!);
  }

  protected readFunctionHeader(at: number): void {
    // Read before handleFunctionBegin: this VBR is counted in the *previous* function's figures.
    const linkage = this.vbr();
    if (linkage > 7) throw this.r.fail('Invalid linkage type for Function.', at);
  }

  protected functionTypeText(f: FunctionDecl<TypeNode>): string {
    return this.describe(f.type);
  }

  /** LLVM's "current function" changes here and is never reset (see `attributeVbrs`). */
  protected override beginFunction(fa: FunctionAnalysis): void {
    this.attributeVbrs();
    this.cur = fa;
    this.compactionTypes = [];
    this.compactionValues = new Map();
    this.functionValues = new Map();
  }

  /** v0's basic-block blocks: instructions to the block's end. */
  protected override parseBasicBlock(fa: FunctionAnalysis): void {
    while (this.r.pos < this.r.end) this.parseInstruction(fa);
  }

  protected parseInstruction(fa: FunctionAnalysis): boolean {
    const scanned = this.dumpLines ? -1 : this.scanInstruction(fa);
    return scanned < 0 ? this.readInstruction(fa) : scanned === 1;
  }

  /**
   * The common instruction, decoded and counted without the reader's checked calls: a known
   * opcode, a type in range, every VBR with room to spare. Returns 1 when it ends a basic block,
   * 0 when not, and -1, having changed nothing, for anything else (damage included), which
   * `readInstruction` then reads from the same byte as LLVM did. The figures are the same either
   * way; this path exists because an instruction list is most of a big file, and a small function
   * called for each instruction is what the JIT makes fast soonest.
   */
  private scanInstruction(fa: FunctionAnalysis): number {
    const r = this.r;
    const bytes = r.bytes;
    const end = r.end;
    const save = r.pos;
    if (end - save < 4) return -1;
    const word = (bytes[save]! | (bytes[save + 1]! << 8) | (bytes[save + 2]! << 16) | (bytes[save + 3]! << 24)) >>> 0;
    const format = word & 3;
    let opcode = (word >>> 2) & 63;
    let iType: number;
    let count: number;
    let max = 0;
    let pos = save + 4;
    let vbrs = 0;
    let pad = 0;
    if (format === 1) {
      iType = (word >>> 8) & 4095;
      const o = (word >>> 20) & 4095;
      count = o === 4095 ? 0 : 1;
      if (count) max = o;
    } else if (format === 2) {
      iType = (word >>> 8) & 255;
      const o0 = (word >>> 16) & 255;
      const o1 = (word >>> 24) & 255;
      count = 2;
      max = o0 > o1 ? o0 : o1;
    } else if (format === 3) {
      iType = (word >>> 8) & 63;
      const o0 = (word >>> 14) & 63;
      const o1 = (word >>> 20) & 63;
      const o2 = (word >>> 26) & 63;
      count = 3;
      max = o0 > o1 ? o0 : o1;
      if (o2 > max) max = o2;
    } else {
      // Long form: VBRs for the opcode, the type, the operand count (not 0) and each operand.
      opcode = 0;
      iType = 0;
      count = 0;
      pos = save;
      let total = 3;
      while (vbrs < total) {
        if (end - pos < 5) return -1;
        let b = bytes[pos++]!;
        let v = b & 0x7f;
        if (b >= 0x80) {
          b = bytes[pos++]!;
          v |= (b & 0x7f) << 7;
          if (b >= 0x80) {
            b = bytes[pos++]!;
            v |= (b & 0x7f) << 14;
            if (b >= 0x80) {
              b = bytes[pos++]!;
              v |= (b & 0x7f) << 21;
              if (b >= 0x80) {
                b = bytes[pos++]!;
                if (b > 0x0f) return -1;
                v += b * 0x10000000;
              }
            }
          }
        }
        if (vbrs === 0) opcode = v >>> 2;
        else if (vbrs === 1) iType = v;
        else if (vbrs === 2) {
          if (v === 0) return -1;
          count = v;
          total = 3 + v;
        } else if (v > max) max = v;
        vbrs++;
      }
      if (this.row.hasAlignment) {
        pad = (4 - (pos & 3)) & 3;
        if (pad > end - pos) return -1;
      }
    }
    if (this.row.typeDerivedFromValue && iType >= LABEL) {
      if (iType === LABEL) return -1;
      iType--;
    }
    if (iType >= FIRST_DERIVED + (this.compactionTypes.length || this.moduleTypes.length + this.functionTypes.length)) return -1;
    if (opcode >= 64) return -1;
    const info = this.opcodes[opcode]!;
    if (info.unknown) return -1;
    // Counted as countInstruction counts (written out: no figures object per instruction here).
    const size = pos + pad - save;
    r.pos = pos + pad;
    if (vbrs) {
      // The VBRs the reader did not read, tallied as if it had.
      this.tally.count32 += vbrs;
      this.tally.bytes += pos - save;
      this.a.alignmentBytes += pad;
    }
    const a = this.a;
    const c = a.counts;
    c.instructions++;
    c.values++;
    a.instructionSize += size;
    if (size > 4) c.longInstructions++;
    c.operands += count;
    if (max > a.maxValueSlot) a.maxValueSlot = max;
    this.formatCounts.add(FORMAT_NAMES[format]!);
    this.opcodeCounts.add(info.ids[operandClass(iType)]);
    fa.instructions++;
    fa.instructionSize += size;
    if (size > 4) fa.longInstructions++;
    if (info.phi) fa.phis++;
    return info.terminator ? 1 : 0;
  }

  /** Reads one instruction through the reader's checked calls; returns whether it ends a basic block. */
  private readInstruction(fa: FunctionAnalysis): boolean {
    const r = this.r;
    const row = this.row;
    const fields = this.readInstructionFields();
    const { at: save, format, opcode, operands: ops } = fields;
    let iType = fields.typeSlot;
    // LLVM's sanitizeTypeId: v0–v1 drop the type-type plane from the numbering.
    if (row.typeDerivedFromValue && iType >= LABEL) {
      if (iType === LABEL) throw r.fail('Invalid type id encountered', save);
      iType--;
    }
    const ty = this.getType(iType);
    const info = opcode < 64 ? this.opcodes[opcode]! : opcodeInfoFor(row, opcode);
    // Obsolete-opcode handling (v0–v5): the unreachable shift, then LLVM rejected unknown numbers.
    if (info.obsoleteRejected) throw r.fail('Unknown obsolete opcode encountered.', save);
    const cls = operandClass(iType);
    const size = r.pos - save;
    let max = 0;
    for (const o of ops) if (o > max) max = o;
    this.countInstruction(fa, {
      format,
      name: info.ids[cls] >= 0 ? info.ids[cls] : info.names[cls],
      size,
      operands: ops.length,
      maxOperand: max,
      phi: info.phi,
    });
    if (this.dumpLines) this.line(`INST ${info.names[cls]} type=${this.describe(ty)} operands=[${ops.join(', ')}] size=${size}`, save);
    if (info.unknown) throw r.fail('Unrecognized instruction!', save);
    // LLVM's own operand checks come after the handler; only the ones that decide block ends matter here.
    return info.terminator;
  }
}

/** LLVM 1.9's class of an instruction type for the signless `div`/`rem` upgrade (`OpcodeInfo.ids`). */
function operandClass(iType: number): number {
  return iType === 10 || iType === 11 ? FLOAT_CLASS : iType >= 2 && iType <= 9 && iType % 2 !== 0 ? SIGNED_CLASS : UNSIGNED_CLASS;
}
