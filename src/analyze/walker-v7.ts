/**
 * The analyzer's walk over a version-7 stream (the layout r36867, LLVM's last bytecode revision,
 * wrote): the same reads in the same order as that revision's `BytecodeReader`, counting what its
 * `llvm-bcanalyzer` counted (`lib/Bytecode/Reader/Analyzer.cpp` there). Versions 0–6 have their
 * own walk (`walker.ts`, LLVM 1.9's reader); what the two readers did alike is `walk-base.ts`.
 *
 * What r36867's analyzer counted differently from LLVM 1.9's (docs/analyze.md, "Version 7"):
 * no VBR statistics (its reader no longer counted them), value and type symbol tables apart (only
 * value symbol tables count as symbol tables), no compaction tables, and a call's or invoke's
 * operand count as the reader left it (the calling-convention word and a vararg callee removed).
 *
 * Why its own: it follows r36867's reader, whose order, checks and messages differ from 1.9's
 * (see above); what both did alike is `walk-base.ts`, and it reads through `decode/` (the
 * cursor, block frames) like every walk.
 */
import { DEFAULT_LIMITS } from '../limits.js';
import type { BlockKind, OpcodeName, PseudoOpcode } from '../format/format-table.js';
import type { FunctionAnalysis } from './analysis.js';
import type { BlockFrame } from '../decode/block-frame.js';
import { internName } from './opcode-info.js';
import { isAnyCastOpcode, isBinaryOpcode, isShiftOpcode } from '../graph/opcodes.js';
import { AnalyzerWalkBase, type BlockNames } from './walk-base.js';
import { plainName, readSymbolEntries, readSymbolPlanes } from '../decode/plane-records.js';
import { readTypeDefinition, type TypeDefinitionReading } from '../decode/type-records.js';
import { readGlobalInfoRecords } from '../decode/global-info-records.js';
import { ValueLayout, type ConstantReading, type ConstantTexts, type StringReading } from '../decode/constant-record.js';
import {
  FIRST_DERIVED_V7,
  LAST_PRIMITIVE_V7,
  PRIMITIVES_V7,
  TYPE_ID_V7,
  calledFunctionType,
  deref as derefV7,
  describeTypeV7,
  isIntegerOf,
  type TypeNodeV7,
} from './types.js';

/**
 * Block ids beyond the format table's kinds: 0 is reserved, and r36867's analyzer asserted every
 * id below `NumberOfBlockIDs` (10, Format.h there); 8 (the retired compaction table) passed.
 */
const RESERVED_BLOCK_ID = 0;
const NUMBER_OF_BLOCK_IDS = 10;

const BLOCK_NAMES_V7: BlockNames = {
  module: 'Module',
  function: 'Function',
  constantPool: 'ConstantPool',
  symbolTable: 'ValueSymbolTable',
  moduleGlobalInfo: 'ModuleGlobalInfo',
  globalTypePlane: 'GlobalTypePlane',
  instructionList: 'InstructionList',
  typeSymbolTable: 'TypeSymbolTable',
  basicBlock: 'BasicBlock',
  compactionTable: 'CompactionTable',
  unknown: 'Unknown',
};

/** What a truncated field of a constant was called (the reader's own messages). */
const TEXTS: ConstantTexts = { float: 'a float', asm: 'a string', constraints: 'a string', string: 'string constant data' };

const LABEL_SLOT = TYPE_ID_V7.label;
const VOID_SLOT = TYPE_ID_V7.void;

type ValueEntryV7 = { kind: 'global' } | { kind: 'function'; index: number } | { kind: 'alias' } | { kind: 'constant' };

export class AnalyzerWalkV7 extends AnalyzerWalkBase<TypeNodeV7> {
  protected readonly blockNames = BLOCK_NAMES_V7;
  protected readonly countsFunctionOperands = true;
  protected readonly firstDerivedSlot = FIRST_DERIVED_V7;
  private moduleValues = new Map<number, ValueEntryV7[]>();
  /** Basic blocks referenced by number in the body being read (LLVM's `ParsedBasicBlocks`). */
  private referencedBlocks = 0;

  // ---- reading primitives (r36867's reader no longer counted VBRs) -------------------------------

  protected vbr(): number {
    return this.r.vbr32();
  }

  protected str(): string {
    return this.r.string();
  }

  protected newPlaceholder(): TypeNodeV7 {
    return { kind: 'opaque' };
  }

  protected deref(t: TypeNodeV7): TypeNodeV7 {
    return derefV7(t);
  }

  protected describe(t: TypeNodeV7): string {
    return describeTypeV7(t);
  }

  // ---- types --------------------------------------------------------------------------------------

  private getType(id: number): TypeNodeV7 {
    if (id <= LAST_PRIMITIVE_V7) return PRIMITIVES_V7[id]!;
    let i = id - FIRST_DERIVED_V7;
    if (i < this.moduleTypes.length) return this.moduleTypes[i]!;
    i -= this.moduleTypes.length;
    if (i < this.functionTypes.length) return this.functionTypes[i]!;
    return this.r.fail('Illegal type reference!');
  }

  protected parseType(): TypeNodeV7 {
    const def = readTypeDefinition(this.r, this.row, this.typeReading);
    let result: TypeNodeV7;
    switch (def.kind) {
      case 'primitive':
        return PRIMITIVES_V7[def.code]!;
      case 'integer':
        result = { kind: 'integer', bits: def.bits };
        break;
      case 'function': {
        const params = def.params;
        const last = params[params.length - 1];
        const vararg = last !== undefined && derefV7(last) === PRIMITIVES_V7[VOID_SLOT];
        if (vararg) params.pop();
        result = { kind: 'function', ret: def.returnType, params, vararg };
        break;
      }
      case 'array':
        result = { kind: 'array', elem: def.element, n: def.length };
        break;
      case 'packed':
        result = { kind: 'vector', elem: def.element, n: def.length };
        break;
      case 'struct':
        result = { kind: 'struct', elems: def.fields, packed: def.packed };
        break;
      case 'pointer':
        result = { kind: 'pointer', elem: def.element };
        break;
      default:
        result = { kind: 'opaque' };
        break;
    }
    this.a.counts.types++;
    return result;
  }

  /** r36867's `ParseType`: each member resolved as soon as it is read, with its messages. */
  private readonly typeReading: TypeDefinitionReading<TypeNodeV7> = {
    member: (slot, role, index, at) => {
      if (role === 'field' && index >= DEFAULT_LIMITS.maxTypeMembers) throw this.r.fail('structure has too many members', at);
      return this.getType(slot);
    },
    paramCount: (n) => this.r.checkCount(n, 1, DEFAULT_LIMITS.maxTypeMembers, 'function type parameters'),
    attributeCount: (n) => this.r.checkCount(n, 2, DEFAULT_LIMITS.maxTypeMembers, 'parameter attributes'),
    // LLVM's IntegerType::get asserted the width (MIN_INT_BITS 1, MAX_INT_BITS 2^23 - 1).
    integerWidth: (bits, at) => {
      if (bits < 1 || bits > 0x7fffff) throw this.r.fail(`Invalid integer width ${bits}`, at);
    },
    unknown: (code, at) => this.r.fail(`Don't know how to deserialize primitive type ${code}`, at),
  };

  // ---- values -------------------------------------------------------------------------------------

  /** Whether a plane's slot 0 is its implicit null value (every plane but void and label, opaque aside). */
  private hasImplicitNull(plane: number): boolean {
    if (plane === LABEL_SLOT || plane === VOID_SLOT) return false;
    return derefV7(this.getType(plane)).kind !== 'opaque';
  }

  private insertModuleValue(plane: number, v: ValueEntryV7): void {
    let list = this.moduleValues.get(plane);
    if (!list) this.moduleValues.set(plane, (list = []));
    if (list.length >= DEFAULT_LIMITS.maxValuesPerPlane) throw this.r.fail(`value plane ${plane} holds too many values`);
    list.push(v);
  }

  protected moduleValueKind(plane: number, slot: number): 'global' | 'other' | undefined {
    const v = this.getModuleValue(plane, slot);
    return v === undefined ? undefined : v === null || v.kind === 'constant' ? 'other' : 'global';
  }

  /** A module-level value by plane and slot, `null` for the implicit null, `undefined` when absent. */
  private getModuleValue(plane: number, slot: number): ValueEntryV7 | null | undefined {
    let num = slot;
    if (this.hasImplicitNull(plane)) {
      if (num === 0) return null;
      num--;
    }
    return this.moduleValues.get(plane)?.[num];
  }

  // ---- blocks -------------------------------------------------------------------------------------

  protected checkBlockFrame({ id, size, kind, headerOffset }: BlockFrame): BlockKind | 'unknown' {
    const r = this.r;
    // The size first here: r36867 checked it before handleBlock asserted the id.
    if (size > r.end - r.pos) throw r.fail('Attempt to size a block past end of memory', headerOffset);
    // handleBlock asserted a known id (assertions were on in the reference build); 8, the retired
    // compaction table, passed, as an unknown block.
    if (id === RESERVED_BLOCK_ID || id >= NUMBER_OF_BLOCK_IDS) throw r.fail(`Invalid block id found: ${id}`, headerOffset);
    return kind ?? 'unknown';
  }

  // ---- the module ---------------------------------------------------------------------------------

  protected readVersion(): void {
    const vAt = this.r.pos;
    const version = this.vbr();
    // The caller chose this walk for a bare `7`; LLVM printed the word as a byte.
    this.a.version = version & 0xff;
    this.a.versionFlags = 0;
    this.line(`Version ${version}`, vAt);
  }

  protected parseModuleGlobalInfo(): void {
    const r = this.r;
    const a = this.a;
    const declared: number[] = [];
    let fnType: TypeNodeV7 = PRIMITIVES_V7[VOID_SLOT]!;
    readGlobalInfoRecords<void>(r, this.row, {
      global: (g) => {
        if (g.visibility > 2) throw r.fail(`Unknown visibility type: ${g.visibility}`, g.at);
        const ty = derefV7(this.getType(g.slot));
        if (ty.kind !== 'pointer') throw r.fail(`Global not a pointer type! Ty= ${describeTypeV7(ty)}`, g.at);
        if (a.counts.globalVariables >= DEFAULT_LIMITS.maxGlobals) throw r.fail('too many global variables', g.at);
        this.insertModuleValue(g.slot, { kind: 'global' });
      },
      globalDone: (_, initializer, g) => {
        const initSlot = initializer ?? 0;
        a.counts.globalVariables++;
        a.counts.values++;
        a.maxValueSlot = Math.max(a.maxValueSlot, g.slot, initSlot);
        this.line(`GV ${g.isConstant ? 'constant' : 'variable'} linkage=${g.linkage} slot=${g.slot} init=${initSlot}`, g.at);
      },
      functionWord: (f) => {
        const ty = this.getType(f.slot);
        if (!calledFunctionType(ty)) throw r.fail(`Function not a pointer to function type! Ty = ${describeTypeV7(ty)}`, f.at);
        if (this.functions.length >= DEFAULT_LIMITS.maxFunctions) throw r.fail('too many functions', f.at);
        const index = this.functions.length;
        const hasBody = (f.flags & 16) === 0;
        this.functions.push({ type: ty, hasBody, name: '', bodyStart: -1, bodyEnd: -1, headerOffset: -1 });
        this.insertModuleValue(f.slot, { kind: 'function', index });
        if (hasBody) declared.push(index);
        fnType = ty;
      },
      function: (f) => {
        if (f.declarationLinkage === 3) throw r.fail('Unsupported external linkage', f.at);
        a.counts.functions++;
        a.counts.values++;
        const index = this.functions.length - 1;
        this.line(`Function decl #${index} slot=${f.slot}: ${describeTypeV7(fnType)}${(f.flags & 16) === 0 ? '' : ' (no body)'}`, f.at);
      },
      libraryCount: (n) => r.checkCount(n, 1, DEFAULT_LIMITS.maxDependentLibraries, 'dependent libraries'),
      sectionCount: (n) => r.checkCount(n, 1, DEFAULT_LIMITS.maxGlobals, 'section names'),
      string: (r) => r.string(),
      library: (lib) => {
        a.counts.dependentLibs++;
        a.dependentLibrariesBytes += lib.length + (lib.length < 128 ? 1 : 2);
        this.line(`Library '${lib}'`);
      },
      triple: (triple) => this.line(`Target triple '${triple}'`),
      dataLayout: (layout) => this.line(`Data layout '${layout}'`),
      alias: (al) => {
        // bits 0-1 linkage (external, internal, weak), bit 2 constant aliasee, bits 3+ type slot.
        const { at, slot, aliasee } = al;
        const ty = derefV7(this.getType(slot));
        if (ty.kind !== 'pointer') throw r.fail(`Alias not a pointer type! Ty= ${describeTypeV7(ty)}`, at);
        const v = this.getModuleValue(slot, aliasee);
        if (v === undefined && !al.constantAliasee) throw r.fail(`Invalid aliasee! TypeSlotNo=${slot} SlotNo=${aliasee}`, at);
        if (!al.constantAliasee && (v === null || v?.kind === 'constant')) throw r.fail(`Aliasee is not global value! SlotNo=${aliasee}`, at);
        if (al.linkage === 3) throw r.fail('Unsupported encoded alias linkage', at);
        this.insertModuleValue(slot, { kind: 'alias' });
        a.counts.values++;
        a.maxValueSlot = Math.max(a.maxValueSlot, slot, aliasee);
        this.line(`Alias linkage=${al.linkage} slot=${slot} aliasee=${aliasee}`, at);
      },
    });
    // LLVM reversed the list and popped from the back: bodies come in declaration order.
    this.pendingBodies = declared.reverse();
    r.pos = r.end;
  }

  protected readPlane(): { id: number; typeType: boolean } {
    return { id: this.vbr(), typeType: false };
  }

  /** The strings plane: a type slot, then an array of `i8`. */
  protected readonly strings: StringReading = {
    texts: TEXTS,
    typeId: (r) => r.vbr32(),
    length: (typeSlot, at) => {
      const ty = derefV7(this.getType(typeSlot));
      if (ty.kind !== 'array' || !isIntegerOf(ty.elem, 8)) throw this.r.fail('String constant data invalid!', at);
      return ty.n;
    },
    string: (bytes, _typeSlot, at) => this.stringRead(VOID_SLOT, bytes.length, at),
  };

  protected override checkConstantCount(n: number): void {
    this.r.checkCount(n, 1, DEFAULT_LIMITS.maxConstantsPerPlane, 'constant plane');
  }

  protected insertValue(plane: number): void {
    // Function-level planes are not modelled: only module values are ever looked up by name.
    if (!this.inFunction) this.insertModuleValue(plane, { kind: 'constant' });
  }

  /** The plane's type, looked up when a plain value follows (r36867 looked it up only then). */
  protected constantType: TypeNodeV7 = PRIMITIVES_V7[0]!;

  /** A constant as r36867's reader read it: its checks and messages (the analyzer counts the true ones). */
  protected readonly constants: ConstantReading<boolean> = this.constantReading({
    texts: TEXTS,
    bits: 0,
    count: 0,
    valueLayout: () => {
      const c = this.constants as { bits: number; count: number };
      const ty = (this.constantType = derefV7(this.getType(this.constantPlane)));
      if (ty.kind === 'integer') {
        c.bits = ty.bits;
        return ty.bits <= 32 ? ValueLayout.Unsigned32 : ty.bits <= 64 ? ValueLayout.Unsigned64 : ValueLayout.WideInteger;
      }
      if (ty.kind === 'prim') return ty.id === TYPE_ID_V7.float ? ValueLayout.Float : ty.id === TYPE_ID_V7.double ? ValueLayout.Double : ValueLayout.None;
      const shared = this.sharedLayout(ty);
      c.count = shared.count;
      return shared.layout;
    },
    undef: (at) => {
      this.getType(this.constantPlane);
      this.line('Constant undef', at);
      return false;
    },
    inlineAsm: (_asm, _constraints, flags, at) => {
      if (!calledFunctionType(this.getType(this.constantPlane))) throw this.r.fail('Invalid constraints for inline asm', at);
      if (flags & ~1) throw this.r.fail('Invalid flags for inline asm', at);
      this.line('Constant inline asm', at);
      return false;
    },
    expressionCount: (nargs) => {
      this.r.checkCount(nargs, 2, DEFAULT_LIMITS.maxOperandsPerInstruction, 'constant expression operands');
    },
    operandType: (r) => r.vbr32(),
    expressionOperands: (opcode, nargs, at) => {
      if (nargs === 1 && !isCastName(this.row.opcodes[opcode])) throw this.r.fail('Only cast instruction has one argument for ConstantExpr', at);
    },
    expression: (opcode, nargs, _predicate, _predicateAt, at) => {
      this.line(`Constant expression ${this.row.opcodes[opcode] ?? `opcode ${opcode}`} with ${nargs} operand(s)`, at);
      return true;
    },
    outOfRange: (_value, at) => {
      throw this.r.fail((this.constantType as { bits: number }).bits <= 32 ? 'Integer value read is invalid for type.' : 'Invalid constant integer read.', at);
    },
    wordCount: (n) => this.r.checkCount(n, 1, DEFAULT_LIMITS.maxTypeMembers, 'integer constant words'),
    noValue: (at) => {
      throw this.r.fail(`Don't know how to deserialize constant value of type '${describeTypeV7(this.constantType)}`, at);
    },
  });

  protected parseSymbolTable(inFunction: boolean): void {
    const r = this.r;
    const a = this.a;
    a.counts.symbolTables++;
    let plane = 0;
    readSymbolPlanes(r, {
      count: (n) => r.checkCount(n, 2, DEFAULT_LIMITS.maxSymbolTableEntries, 'symbol table plane'),
      planeId: (r) => (plane = r.vbr32()),
      name: plainName,
      entry: (slot, name, at) => {
        if (slot > a.maxValueSlot) a.maxValueSlot = slot;
        this.line(`Value name '${name}' = plane ${plane} slot ${slot}`, at);
        // Function-local planes are not modelled; LLVM's look-ups there never failed on a sound file.
        if (plane === LABEL_SLOT || inFunction) return;
        const v = this.getModuleValue(plane, slot);
        if (!v) throw r.fail(`Failed value look-up for name '${name}', type #${plane} slot #${slot}`, at);
        if (v.kind === 'function') this.functions[v.index]!.name = name;
      },
    });
    if (r.pos > r.end) throw r.fail('Attempt to read past the end of Symbol Table block.');
  }

  protected override parseTypeSymbolTable(): void {
    const r = this.r;
    const n = r.checkCount(this.vbr(), 2, DEFAULT_LIMITS.maxSymbolTableEntries, 'type symbol table');
    readSymbolEntries(r, n, plainName, (slot, name, at) => {
      this.getType(slot);
      this.line(`Type name '${name}' = slot ${slot}`, at);
    });
  }

  // ---- function bodies ----------------------------------------------------------------------------

  protected readFunctionHeader(at: number): void {
    const word = this.vbr();
    if ((word & 0xffff) > 7) throw this.r.fail('Invalid linkage type for Function.', at);
    if (word >>> 16 > 2) throw this.r.fail(`Unknown visibility type: ${word >>> 16}`, at);
  }

  /** r36867's analyzer no longer printed a function's type (the call was commented out). */
  protected functionTypeText(): string {
    return '';
  }

  protected override beginFunction(fa: FunctionAnalysis): void {
    this.cur = fa;
    this.referencedBlocks = 0;
  }

  protected override endFunction(basicBlocks: number): void {
    if (this.referencedBlocks > basicBlocks) throw this.r.fail('Illegal basic block operand reference');
  }

  protected override checkOperandCount(n: number, at: number): void {
    this.r.checkCount(n, 1, DEFAULT_LIMITS.maxOperandsPerInstruction, 'instruction operands', at);
  }

  private noteBlock(id: number): void {
    if (id + 1 > this.referencedBlocks) this.referencedBlocks = id + 1;
  }

  /** Reads one instruction as r36867's `ParseInstruction` did; returns whether it ends a basic block. */
  protected parseInstruction(fa: FunctionAnalysis): boolean {
    const { at: save, format, opcode, typeSlot: iType, operands: ops } = this.readInstructionFields();
    const instTy = this.getType(iType);
    const decoded = this.decode(opcode);
    const terminator = this.checkOperands(decoded, opcode, instTy, ops, save);
    const name = decoded ?? `opcode${opcode}`;
    const size = this.r.pos - save;
    let max = 0;
    for (const o of ops) if (o > max) max = o;
    this.countInstruction(fa, { format, name: internName(name), size, operands: ops.length, maxOperand: max, phi: name === 'phi' });
    if (this.dumpLines) this.line(`INST ${name} type=${describeTypeV7(instTy)} operands=[${ops.join(', ')}] size=${size}`, save);
    return terminator;
  }

  /** The instruction's name by the row's opcode table, pseudo-opcodes by their variant. */
  private decode(opcode: number): OpcodeName | PseudoOpcode | undefined {
    return this.row.pseudoOpcodes.get(opcode) ?? this.row.opcodes[opcode];
  }

  /**
   * LLVM's checks of one instruction's operands, and the reader's edits of the operand list that
   * the analyzer then counted: a call's calling-convention word (opcode 58) and an invoke's
   * are popped, and a vararg callee's slot is dropped from the front. Returns whether the
   * instruction ends a basic block.
   */
  private checkOperands(name: OpcodeName | PseudoOpcode | undefined, opcode: number, instTy: TypeNodeV7, ops: number[], at: number): boolean {
    const r = this.r;
    if (name !== undefined && isBinaryOrShift(name) && ops.length === 2) return false;
    switch (name) {
      case 'va_arg':
      case 'extractelement':
        if (ops.length !== 2) throw r.fail(`Invalid ${name === 'va_arg' ? 'VAArg' : 'extractelement'} instruction!`, at);
        return false;
      case 'insertelement':
      case 'shufflevector':
        if (derefV7(instTy).kind !== 'vector' || ops.length !== 3) throw r.fail(`Invalid ${name} instruction!`, at);
        return false;
      case 'select':
        if (ops.length !== 3) throw r.fail('Invalid Select instruction!', at);
        return false;
      case 'phi':
        if (ops.length === 0 || ops.length & 1) throw r.fail('Invalid phi node encountered!', at);
        for (let i = 1; i < ops.length; i += 2) this.noteBlock(ops[i]!);
        return false;
      case 'icmp':
      case 'fcmp':
        if (ops.length !== 3) throw r.fail('Cmp instructions requires 3 operands', at);
        return false;
      case 'ret':
        if (ops.length > 1) throw r.fail('Unrecognized instruction!', at);
        return true;
      case 'br':
        if (ops.length !== 1 && ops.length !== 3) throw r.fail("Invalid number of operands for a 'br' instruction!", at);
        this.noteBlock(ops[0]!);
        if (ops.length === 3) this.noteBlock(ops[1]!);
        return true;
      case 'switch':
        if (ops.length & 1) throw r.fail('Switch statement with odd number of arguments!', at);
        if (ops.length < 2) throw r.fail('Invalid switch instruction!', at);
        for (let i = 1; i < ops.length; i += 2) this.noteBlock(ops[i]!);
        return true;
      case 'callWithCC':
      case 'tailCallFastCC':
      case 'callFastCC':
      case 'tailCallC':
      case 'call':
        this.checkCall(opcode, instTy, ops, at);
        return false;
      case 'invoke':
        this.checkInvoke(instTy, ops, at);
        return true;
      case 'malloc':
      case 'alloca':
        if (ops.length > 2 || derefV7(instTy).kind !== 'pointer') throw r.fail(`Invalid ${name} instruction!`, at);
        return false;
      case 'free':
        if (derefV7(instTy).kind !== 'pointer') throw r.fail('Invalid free instruction!', at);
        return false;
      case 'getelementptr':
        if (ops.length === 0 || derefV7(instTy).kind !== 'pointer') throw r.fail('Invalid getelementptr instruction!', at);
        return false;
      case 'volatileLoad':
        if (ops.length !== 2 || derefV7(instTy).kind !== 'pointer') throw r.fail('Invalid attributed load instruction!', at);
        return false;
      case 'load':
        if (ops.length !== 1 || derefV7(instTy).kind !== 'pointer') throw r.fail('Invalid load instruction!', at);
        return false;
      case 'volatileStore':
        if (ops.length !== 3 || derefV7(instTy).kind !== 'pointer') throw r.fail('Invalid attributed store instruction!', at);
        return false;
      case 'store':
        if (ops.length !== 2 || derefV7(instTy).kind !== 'pointer') throw r.fail('Invalid store instruction!', at);
        return false;
      case 'unwind':
        if (ops.length !== 0) throw r.fail('Invalid unwind instruction!', at);
        return true;
      case 'unreachable':
        if (ops.length !== 0) throw r.fail('Invalid unreachable instruction!', at);
        return true;
      default:
        if (name !== undefined && isCastName(name)) {
          if (ops.length !== 2) throw r.fail('Invalid cast instruction!', at);
          return false;
        }
        return r.fail('Illegal instruction read!', at);
    }
  }

  private checkCall(opcode: number, instTy: TypeNodeV7, ops: number[], at: number): void {
    const r = this.r;
    if (ops.length === 0) throw r.fail('Invalid call instruction encountered!', at);
    if (this.row.pseudoOpcodes.get(opcode) === 'callWithCC') ops.pop();
    const fty = calledFunctionType(instTy);
    if (!fty) throw r.fail('Call to non function pointer value!', at);
    if (!fty.vararg) {
      if (ops.length - 1 !== fty.params.length) throw r.fail('Invalid call instruction!', at);
      return;
    }
    ops.shift();
    if (ops.length < fty.params.length) throw r.fail('Call instruction missing operands!', at);
    if ((ops.length - fty.params.length) & 1) throw r.fail('Invalid call instruction!', at);
  }

  private checkInvoke(instTy: TypeNodeV7, ops: number[], at: number): void {
    const r = this.r;
    if (ops.length < 3) throw r.fail('Invalid invoke instruction!', at);
    const fty = calledFunctionType(instTy);
    if (!fty) throw r.fail('Invoke to non function pointer value!', at);
    ops.pop();
    if (!fty.vararg) {
      this.noteBlock(ops[1]!);
      this.noteBlock(ops[2]!);
      if (ops.length - 3 !== fty.params.length) throw r.fail('Invalid invoke instruction!', at);
      return;
    }
    ops.shift();
    if (ops.length < fty.params.length + 2) throw r.fail('Invalid invoke instruction!', at);
    this.noteBlock(ops[0]!);
    this.noteBlock(ops[1]!);
    if ((ops.length - fty.params.length - 2) & 1) throw r.fail('Invalid invoke instruction!', at);
  }
}

/** An arithmetic, logical or shift operator of r36867 (graph/opcodes.ts: the one opcode table). */
function isBinaryOrShift(name: string): boolean {
  return isBinaryOpcode(name) || isShiftOpcode(name);
}

function isCastName(name: string | undefined): boolean {
  return name !== undefined && isAnyCastOpcode(name);
}
