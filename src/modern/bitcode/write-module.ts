/**
 * The bitcode of a modern module (ir.ts): an IDENTIFICATION block, then one MODULE block of
 * version 1 (relative value ids, names in value symbol tables rather than a string table) with
 * the type table (opaque pointers, or for LLVM 13 and 14 typed ones), attribute groups, the module's records, one constants block
 * for every constant of the module, metadata, the module's symbol table and one block per
 * function body. docs/upgrade.md, "Bitcode", gives the layout and the LLVM releases that read it.
 */
import { BitstreamWriter } from './bitstream.js';
import {
  ATTRIBUTE_KIND,
  BINOP,
  BLOCK,
  CAST,
  CST_CODE,
  FUNC_CODE,
  FUNCTION_INDEX,
  IDENTIFICATION_CODE,
  LINKAGE,
  METADATA_CODE,
  MODULE_CODE,
  PARAMATTR_CODE,
  PREDICATE,
  TYPE_CODE,
  VST_CODE,
} from './codes.js';
import {
  isNumberedName,
  nameOfKey,
  type IrAttribute,
  type IrAttributeSet,
  type IrConstant,
  type IrFunction,
  type IrInstruction,
  type IrModule,
  type IrOperand,
  type IrType,
  type IrValue,
} from './ir.js';
import { UpgradeError } from '../upgrade-error.js';

/** What the IDENTIFICATION block names as the producer. */
export const PRODUCER = 'llvm-bytecode';

const chars = (s: string): number[] => Array.from(s, (c) => c.charCodeAt(0));

/** LLVM's encoding of an alignment: log2 + 1, 0 for none. */
function encodeAlign(align: number): number {
  if (!align) return 0;
  if (align & (align - 1)) throw new UpgradeError(`alignment ${align} is not a power of two`);
  return Math.log2(align) + 1;
}

/**
 * A signed 64-bit value as LLVM's sign-rotated VBR holds it: magnitude << 1, sign in bit 0, in
 * 64 bits (so the most negative value, whose magnitude does not fit, is 1: "-0").
 */
export function signRotated(v: bigint): bigint {
  return BigInt.asUintN(64, v >= 0n ? v << 1n : (-v << 1n) | 1n);
}

class ModuleWriter {
  private readonly w = new BitstreamWriter();
  private readonly typeIds = new Map<IrType, number>();
  private readonly typeList: IrType[] = [];
  private readonly globalIds = new Map<string, number>();
  private readonly constantIds = new Map<string, number>();
  private readonly constantList: { c: IrConstant; key: string }[] = [];
  /** Constant objects already numbered (the same object is often used many times). */
  private readonly seen = new Map<IrConstant, number>();
  private firstConstant = 0;
  private readonly attributeGroups = new Map<string, { id: number; index: number; attrs: readonly IrAttribute[] }>();
  private readonly attributeLists = new Map<string, { id: number; groups: number[] }>();
  private readonly sections = new Map<string, number>();
  private readonly gcNames = new Map<string, number>();

  constructor(private readonly m: IrModule) {}

  write(): Uint8Array {
    const m = this.m;
    // Value ids: globals, functions, aliases, then the constants.
    for (const g of [...m.globals, ...m.functions, ...m.aliases]) {
      if (this.globalIds.has(g.name)) throw new UpgradeError(`@${nameOfKey(g.name)} is defined twice`);
      this.globalIds.set(g.name, this.globalIds.size);
    }
    this.firstConstant = this.globalIds.size;
    this.collect();

    const w = this.w;
    for (const b of [0x42, 0x43, 0xc0, 0xde]) w.fixed(b, 8);
    w.enterBlock(BLOCK.IDENTIFICATION, 5);
    w.record(IDENTIFICATION_CODE.STRING, chars(PRODUCER));
    w.record(IDENTIFICATION_CODE.EPOCH, [0]);
    w.endBlock();

    w.enterBlock(BLOCK.MODULE, 3);
    w.record(MODULE_CODE.VERSION, [1]);
    // Types first: the reader resolves a type attribute's type while reading the group.
    this.writeTypes();
    this.writeAttributes();
    if (m.triple !== undefined) w.record(MODULE_CODE.TRIPLE, chars(m.triple));
    if (m.dataLayout !== undefined) w.record(MODULE_CODE.DATALAYOUT, chars(m.dataLayout));
    if (m.asm.length) w.record(MODULE_CODE.ASM, chars(m.asm.join('\n')));
    for (const s of this.sections.keys()) w.record(MODULE_CODE.SECTIONNAME, chars(s));
    for (const s of this.gcNames.keys()) w.record(MODULE_CODE.GCNAME, chars(s));
    this.writeGlobals();
    this.writeConstants();
    this.writeMetadata();
    this.writeModuleSymbols();
    for (const f of m.functions) if (f.blocks) new FunctionWriter(this, f).write();
    w.endBlock();
    return w.finish();
  }

  get writer(): BitstreamWriter {
    return this.w;
  }

  // ---- collection: types, constants, attributes --------------------------------------------

  typeId(t: IrType): number {
    const id = this.typeIds.get(t);
    // -1: a named struct met again inside its own body (`%t = type { { ptr, %t } }`, which LLVM
    // before 20 takes). Its number comes once its members have theirs, and records name it then:
    // a forward reference to a named struct, the one kind the reader allows.
    if (id !== undefined) return id;
    // Members first, so every record names types already defined.
    switch (t.kind) {
      case 'array':
      case 'vector':
        this.typeId(t.element);
        break;
      case 'struct':
        for (const e of t.elements) this.typeId(e);
        break;
      case 'function':
        this.typeId(t.ret);
        for (const p of t.params) this.typeId(p);
        break;
      case 'pointer':
        // A pointer to a named struct being numbered refers forward to it, as LLVM's reader allows.
        this.typeId(t.element);
        break;
      case 'named':
        this.typeIds.set(t, -1);
        for (const e of t.body?.elements ?? []) this.typeId(e);
        this.typeIds.delete(t);
        break;
    }
    // Numbering the members may have numbered `t` itself (a typed pointer to a named struct
    // whose body points back to it): one number a type.
    const numbered = this.typeIds.get(t);
    if (numbered !== undefined) return numbered;
    const n = this.typeList.length;
    this.typeIds.set(t, n);
    this.typeList.push(t);
    return n;
  }

  /** The value id of a constant, numbering it (and its operands first) when new. */
  constantId(c: IrConstant): number {
    const known = this.seen.get(c);
    if (known !== undefined) return known;
    let key: string;
    const ty = this.typeId(c.type);
    switch (c.kind) {
      case 'global': {
        const id = this.globalIds.get(c.name);
        if (id === undefined) throw new UpgradeError(`@${nameOfKey(c.name)} is used but not declared`);
        this.seen.set(c, id);
        return id;
      }
      case 'int':
        key = `${ty}i${c.value}`;
        break;
      case 'fp':
        key = `${ty}f${c.bits}`;
        break;
      case 'null':
      case 'zero':
        key = `${ty}0`;
        break;
      case 'undef':
      case 'poison':
        key = `${ty}${c.kind}`;
        break;
      case 'bytes':
        key = `${ty}b${Array.from(c.bytes).join(',')}`;
        break;
      case 'aggregate':
        key = `${ty}a${c.elements.map((e) => this.constantId(e)).join(',')}`;
        break;
      case 'expr':
        key = `${ty}e${c.opcode}:${c.predicate ?? ''}:${c.sourceType ? this.typeId(c.sourceType) : ''}:${c.inbounds ? 1 : 0}:${c.flags ?? 0}:${c.operands.map((o) => `${this.typeId(o.type)}/${this.constantId(o)}`).join(',')}`;
        break;
      case 'asm':
        this.typeId(c.fnType);
        key = `${ty}asm${c.sideEffect ? 1 : 0}:${this.typeId(c.fnType)}:${JSON.stringify([c.asm, c.constraints])}`;
        break;
    }
    let id = this.constantIds.get(key);
    if (id === undefined) {
      id = this.firstConstant + this.constantList.length;
      this.constantIds.set(key, id);
      this.constantList.push({ c, key });
    }
    this.seen.set(c, id);
    return id;
  }

  attributeListId(set: IrAttributeSet | undefined): number {
    if (!set) return 0;
    const groups: number[] = [];
    const add = (index: number, attrs: readonly IrAttribute[]): void => {
      if (!attrs.length) return;
      for (const a of attrs) if (a.kind === 'type') this.typeId(a.type);
      const key = `${index}:${attrs.map((a) => attributeKey(a, (t) => this.typeId(t))).join(',')}`;
      let g = this.attributeGroups.get(key);
      if (!g) this.attributeGroups.set(key, (g = { id: this.attributeGroups.size + 1, index, attrs }));
      groups.push(g.id);
    };
    add(FUNCTION_INDEX, set.fn);
    add(0, set.ret);
    set.params.forEach((p, i) => add(i + 1, p));
    if (!groups.length) return 0;
    const key = groups.join(',');
    let l = this.attributeLists.get(key);
    if (!l) this.attributeLists.set(key, (l = { id: this.attributeLists.size + 1, groups }));
    return l.id;
  }

  private collect(): void {
    const m = this.m;
    for (const s of m.structs) this.typeId(s);
    for (const g of m.globals) {
      this.typeId(g.valueType);
      if (g.initializer) this.constantId(g.initializer);
      if (g.section !== undefined && !this.sections.has(g.section)) this.sections.set(g.section, this.sections.size + 1);
    }
    for (const f of m.functions) {
      this.typeId(f.type);
      this.attributeListId(f.attributes);
      if (f.personality) this.constantId(f.personality);
      if (f.section !== undefined && !this.sections.has(f.section)) this.sections.set(f.section, this.sections.size + 1);
      if (f.gc !== undefined && !this.gcNames.has(f.gc)) this.gcNames.set(f.gc, this.gcNames.size + 1);
      for (const b of f.blocks ?? []) for (const inst of b.instructions) this.collectInstruction(inst);
    }
    for (const a of m.aliases) {
      this.typeId(a.valueType);
      this.constantId(a.aliasee);
    }
  }

  private collectInstruction(inst: IrInstruction): void {
    this.typeId(inst.type);
    if (inst.auxType) this.typeId(inst.auxType);
    const value = (v: IrValue): void => {
      if (v.kind === 'const') this.constantId(v.constant);
    };
    for (const o of inst.operands) {
      this.typeId(o.type);
      value(o.value);
    }
    for (const i of inst.incoming ?? []) value(i.value);
    for (const c of inst.cases ?? []) this.constantId(c.value);
    for (const c of inst.clauses ?? []) {
      this.typeId(c.value.type);
      value(c.value.value);
    }
    if (inst.opcode === 'alloca' && inst.operands.length === 0) this.constantId(this.allocaOne());
    if (inst.attributes) this.attributeListId(inst.attributes);
  }

  private one: IrConstant | undefined;
  /** `i32 1`, the element count of an `alloca` that gives none. */
  allocaOne(): IrConstant {
    if (!this.one) {
      const i32 = this.typeList.find((t) => t.kind === 'int' && t.bits === 32) ?? ({ kind: 'int', bits: 32 } as IrType);
      this.one = { kind: 'int', type: i32, value: 1n };
    }
    return this.one;
  }

  valueCount(): number {
    return this.firstConstant + this.constantList.length;
  }

  globalId(name: string): number | undefined {
    return this.globalIds.get(name);
  }

  // ---- blocks -------------------------------------------------------------------------------

  private writeAttributes(): void {
    const w = this.w;
    if (!this.attributeGroups.size) return;
    w.enterBlock(BLOCK.PARAMATTR_GROUP, 3);
    for (const g of this.attributeGroups.values()) {
      const ops: number[] = [g.id, g.index];
      for (const a of g.attrs) ops.push(...encodeAttribute(a, (t) => this.typeId(t)));
      w.record(PARAMATTR_CODE.GROUP_ENTRY, ops);
    }
    w.endBlock();
    w.enterBlock(BLOCK.PARAMATTR, 3);
    for (const l of this.attributeLists.values()) w.record(PARAMATTR_CODE.ENTRY, l.groups);
    w.endBlock();
  }

  private writeTypes(): void {
    const w = this.w;
    w.enterBlock(BLOCK.TYPE, 4);
    w.record(TYPE_CODE.NUMENTRY, [this.typeList.length]);
    for (const t of this.typeList) {
      switch (t.kind) {
        case 'void':
          w.record(TYPE_CODE.VOID, []);
          break;
        case 'float':
          w.record(TYPE_CODE.FLOAT, []);
          break;
        case 'double':
          w.record(TYPE_CODE.DOUBLE, []);
          break;
        case 'half':
          w.record(TYPE_CODE.HALF, []);
          break;
        case 'x86_fp80':
          w.record(TYPE_CODE.X86_FP80, []);
          break;
        case 'fp128':
          w.record(TYPE_CODE.FP128, []);
          break;
        case 'label':
          w.record(TYPE_CODE.LABEL, []);
          break;
        case 'metadata':
          w.record(TYPE_CODE.METADATA, []);
          break;
        case 'ptr':
          w.record(TYPE_CODE.OPAQUE_POINTER, [0]);
          break;
        case 'pointer':
          w.record(TYPE_CODE.POINTER, [this.typeId(t.element), 0]); // [pointee, address space]
          break;
        case 'int':
          w.record(TYPE_CODE.INTEGER, [t.bits]);
          break;
        case 'array':
        case 'vector':
          w.record(t.kind === 'array' ? TYPE_CODE.ARRAY : TYPE_CODE.VECTOR, [t.length, this.typeId(t.element)]);
          break;
        case 'struct':
          w.record(TYPE_CODE.STRUCT_ANON, [t.packed ? 1 : 0, ...t.elements.map((e) => this.typeId(e))]);
          break;
        case 'function':
          w.record(TYPE_CODE.FUNCTION, [t.varArg ? 1 : 0, this.typeId(t.ret), ...t.params.map((p) => this.typeId(p))]);
          break;
        case 'named':
          w.record(TYPE_CODE.STRUCT_NAME, chars(nameOfKey(t.name)));
          // A struct that is its own member (`%t = type { ptr, %t }`, only in a damaged file: no value
          // can have it) cannot be written with its body: its record would name its own slot, which
          // LLVM's reader takes for a second forward reference ("Only named structs can be forward
          // referenced"). It is written opaque, as the text for LLVM 20 on has it.
          if (t.body && !t.body.elements.includes(t)) w.record(TYPE_CODE.STRUCT_NAMED, [t.body.packed ? 1 : 0, ...t.body.elements.map((e) => this.typeId(e))]);
          else w.record(TYPE_CODE.OPAQUE, [0]);
          break;
      }
    }
    w.endBlock();
  }

  private writeGlobals(): void {
    const w = this.w;
    const vis = (v: string): number => (v === 'hidden' ? 1 : v === 'protected' ? 2 : 0);
    const dll = (d: string): number => (d === 'dllimport' ? 1 : d === 'dllexport' ? 2 : 0);
    const linkage = (l: string): number => {
      const n = LINKAGE.get(l);
      if (n === undefined) throw new UpgradeError(`linkage ${l} has no bitcode code`);
      return n;
    };
    for (const g of this.m.globals) {
      w.record(MODULE_CODE.GLOBALVAR, [
        this.typeId(g.valueType),
        (g.isConstant ? 1 : 0) | 2, // bit 1: the first field is the value type
        g.initializer ? this.constantId(g.initializer) + 1 : 0,
        linkage(g.linkage),
        encodeAlign(g.align),
        g.section !== undefined ? this.sections.get(g.section)! : 0,
        vis(g.visibility),
        g.threadLocal ? 1 : 0,
        0, // unnamed_addr
        0, // externally_initialized
        dll(g.dllStorage),
        0, // comdat
      ]);
    }
    for (const f of this.m.functions) {
      w.record(MODULE_CODE.FUNCTION, [
        this.typeId(f.type),
        f.callingConv,
        f.blocks ? 0 : 1,
        linkage(f.linkage),
        this.attributeListId(f.attributes),
        encodeAlign(f.align),
        f.section !== undefined ? this.sections.get(f.section)! : 0,
        vis(f.visibility),
        f.gc !== undefined ? this.gcNames.get(f.gc)! : 0,
        0, // unnamed_addr
        0, // prologue data
        dll(f.dllStorage),
        0, // comdat
        0, // prefix data
        f.personality ? this.constantId(f.personality) + 1 : 0,
      ]);
    }
    for (const a of this.m.aliases) {
      w.record(MODULE_CODE.ALIAS, [this.typeId(a.valueType), 0, this.constantId(a.aliasee), linkage(a.linkage), vis(a.visibility)]);
    }
  }

  private writeConstants(): void {
    if (!this.constantList.length) return;
    const w = this.w;
    w.enterBlock(BLOCK.CONSTANTS, 4);
    let current = -1;
    for (const { c } of this.constantList) {
      const ty = this.typeId(c.type);
      if (ty !== current) {
        w.record(CST_CODE.SETTYPE, [ty]);
        current = ty;
      }
      this.writeConstant(c);
    }
    w.endBlock();
  }

  private writeConstant(c: IrConstant): void {
    const w = this.w;
    switch (c.kind) {
      case 'null':
      case 'zero':
        w.record(CST_CODE.NULL, []);
        return;
      case 'undef':
        w.record(CST_CODE.UNDEF, []);
        return;
      case 'poison':
        w.record(CST_CODE.POISON, []);
        return;
      case 'int': {
        const bits = c.type.kind === 'int' ? c.type.bits : 64;
        if (bits <= 64) {
          w.record(CST_CODE.INTEGER, [signRotated(BigInt.asIntN(bits, c.value))]);
          return;
        }
        const words: bigint[] = [];
        for (let i = 0; i < Math.ceil(bits / 64); i++) words.push(signRotated(BigInt.asIntN(64, c.value >> BigInt(64 * i))));
        w.record(CST_CODE.WIDE_INTEGER, words);
        return;
      }
      case 'fp':
        w.record(CST_CODE.FLOAT, [c.bits]);
        return;
      case 'bytes':
        w.record(CST_CODE.DATA, Array.from(c.bytes));
        return;
      case 'aggregate':
        w.record(
          CST_CODE.AGGREGATE,
          c.elements.map((e) => this.constantId(e)),
        );
        return;
      case 'asm': {
        const flags = c.sideEffect ? 1 : 0;
        const text = [c.asm.length, ...chars(c.asm), c.constraints.length, ...chars(c.constraints)];
        // Typed pointers: the function type is the pointee of the constant's type (SETTYPE), the
        // record LLVM 13 and 14 write; the form with the function type first is LLVM 15's.
        if (c.type.kind === 'pointer') w.record(CST_CODE.INLINEASM_TYPED, [flags, ...text]);
        else w.record(CST_CODE.INLINEASM, [this.typeId(c.fnType), flags, ...text]);
        return;
      }
      case 'global':
        throw new UpgradeError('a global is not a constant record');
      case 'expr':
        this.writeExpr(c);
        return;
    }
  }

  private writeExpr(c: IrConstant & { kind: 'expr' }): void {
    const w = this.w;
    const ops = c.operands;
    const id = (k: number): number => this.constantId(ops[k]!);
    const cast = CAST.get(c.opcode);
    if (cast !== undefined) {
      w.record(CST_CODE.CE_CAST, [cast, this.typeId(ops[0]!.type), id(0)]);
      return;
    }
    const bin = BINOP.get(c.opcode);
    if (bin !== undefined) {
      w.record(CST_CODE.CE_BINOP, c.flags ? [bin, id(0), id(1), c.flags] : [bin, id(0), id(1)]);
      return;
    }
    switch (c.opcode) {
      case 'getelementptr':
        w.record(c.inbounds ? CST_CODE.CE_INBOUNDS_GEP : CST_CODE.CE_GEP, [
          this.typeId(c.sourceType!),
          ...ops.flatMap((o) => [this.typeId(o.type), this.constantId(o)]),
        ]);
        return;
      case 'icmp':
      case 'fcmp':
        w.record(CST_CODE.CE_CMP, [this.typeId(ops[0]!.type), id(0), id(1), predicate(c.opcode, c.predicate)]);
        return;
      case 'select':
        w.record(CST_CODE.CE_SELECT, [id(0), id(1), id(2)]);
        return;
      case 'extractelement':
        w.record(CST_CODE.CE_EXTRACTELT, [this.typeId(ops[0]!.type), id(0), this.typeId(ops[1]!.type), id(1)]);
        return;
      case 'insertelement':
        w.record(CST_CODE.CE_INSERTELT, [id(0), id(1), this.typeId(ops[2]!.type), id(2)]);
        return;
      case 'shufflevector':
        if (c.type === ops[0]!.type) w.record(CST_CODE.CE_SHUFFLEVEC, [id(0), id(1), id(2)]);
        else w.record(CST_CODE.CE_SHUFVEC_EX, [this.typeId(ops[0]!.type), id(0), id(1), id(2)]);
        return;
    }
    throw new UpgradeError(`constant expression '${c.opcode}' has no bitcode form here`);
  }

  private writeMetadata(): void {
    const m = this.m;
    if (!m.metadata.size && !m.namedMetadata.length) return;
    const w = this.w;
    // Strings first, then nodes, one id space in that order.
    const ids = new Map<number, number>();
    const strings = [...m.metadata].filter(([, md]) => md.kind === 'string');
    const nodes = [...m.metadata].filter(([, md]) => md.kind === 'node');
    for (const [k] of [...strings, ...nodes]) ids.set(k, ids.size);
    const ref = (k: number): number => {
      const id = ids.get(k);
      if (id === undefined) throw new UpgradeError(`metadata !${k} is used but not defined`);
      return id;
    };
    w.enterBlock(BLOCK.METADATA, 3);
    for (const [, md] of strings) if (md.kind === 'string') w.record(METADATA_CODE.STRING_OLD, chars(md.value));
    for (const [, md] of nodes)
      if (md.kind === 'node')
        w.record(
          METADATA_CODE.NODE,
          md.elements.map((e) => ref(e) + 1),
        );
    for (const n of m.namedMetadata) {
      w.record(METADATA_CODE.NAME, chars(n.name));
      w.record(METADATA_CODE.NAMED_NODE, n.nodes.map(ref));
    }
    w.endBlock();
  }

  private writeModuleSymbols(): void {
    const named = [...this.globalIds].filter(([k]) => !isNumberedName(k));
    if (!named.length) return;
    const w = this.w;
    w.enterBlock(BLOCK.VALUE_SYMTAB, 4);
    for (const [k, id] of named) w.record(VST_CODE.ENTRY, [id, ...chars(nameOfKey(k))]);
    w.endBlock();
  }
}

function predicate(opcode: string, pred: string | undefined): number {
  const n = PREDICATE.get(`${opcode[0]}${pred ?? ''}`);
  if (n === undefined) throw new UpgradeError(`unknown ${opcode} predicate '${pred}'`);
  return n;
}

function attributeKind(name: string): number {
  const k = ATTRIBUTE_KIND.get(name);
  if (k === undefined) throw new UpgradeError(`attribute ${name} has no bitcode code here`);
  return k;
}

function encodeAttribute(a: IrAttribute, typeId: (t: IrType) => number): number[] {
  switch (a.kind) {
    case 'enum':
      return [0, attributeKind(a.name)];
    case 'int':
      return [1, attributeKind(a.name), a.value];
    case 'type': // 6: a type attribute with its type (5 is one without)
      return [6, attributeKind(a.name), typeId(a.type)];
    case 'string':
      return [4, ...chars(a.key), 0, ...chars(a.value), 0];
  }
}

function attributeKey(a: IrAttribute, typeId: (t: IrType) => number): string {
  return encodeAttribute(a, typeId).join('.');
}

/** One function body: its blocks, instructions with relative operand ids, and its symbol table. */
class FunctionWriter {
  private readonly locals = new Map<string, number>();
  private readonly blocks = new Map<string, number>();
  private next: number;

  constructor(
    private readonly mw: ModuleWriter,
    private readonly f: IrFunction,
  ) {
    this.next = mw.valueCount();
  }

  write(): void {
    const f = this.f;
    const w = this.mw.writer;
    f.params.forEach((p) => this.define(p));
    const blocks = f.blocks!;
    blocks.forEach((b, i) => {
      if (this.blocks.has(b.name)) throw new UpgradeError(`label %${nameOfKey(b.name)} is defined twice in @${nameOfKey(f.name)}`);
      this.blocks.set(b.name, i);
    });
    // Number the results before writing: operands may name later instructions.
    const first = this.next;
    for (const b of blocks) for (const inst of b.instructions) if (inst.type.kind !== 'void') this.define(inst.result ?? `#anon${this.next}`);
    this.next = first;

    w.enterBlock(BLOCK.FUNCTION, 4);
    w.record(FUNC_CODE.DECLAREBLOCKS, [blocks.length]);
    for (const b of blocks) for (const inst of b.instructions) this.instruction(inst);
    this.symbols();
    w.endBlock();
  }

  private define(key: string): void {
    if (this.locals.has(key)) throw new UpgradeError(`%${nameOfKey(key)} is defined twice in @${nameOfKey(this.f.name)}`);
    this.locals.set(key, this.next++);
  }

  private id(v: IrValue): number {
    if (v.kind === 'const') return this.mw.constantId(v.constant);
    const id = this.locals.get(v.name);
    if (id === undefined) throw new UpgradeError(`%${nameOfKey(v.name)} is used but not defined in @${nameOfKey(this.f.name)}`);
    return id;
  }

  private block(name: string): number {
    const b = this.blocks.get(name);
    if (b === undefined) throw new UpgradeError(`label %${nameOfKey(name)} is used but not defined in @${nameOfKey(this.f.name)}`);
    return b;
  }

  /** The operand relative to the instruction being written (32-bit wrap for a forward reference). */
  private rel(v: IrValue): number {
    return (this.next - this.id(v)) >>> 0;
  }

  /** The relative operand, with its type when it is a forward reference. */
  private typed(o: IrOperand): number[] {
    const id = this.id(o.value);
    return id >= this.next ? [(this.next - id) >>> 0, this.mw.typeId(o.type)] : [this.next - id];
  }

  private instruction(inst: IrInstruction): void {
    const w = this.mw.writer;
    const t = (x: IrType): number => this.mw.typeId(x);
    const ops = inst.operands;
    const op = (k: number): IrOperand => ops[k]!;
    const code = (): [number, (number | bigint)[]] => {
      const cast = CAST.get(inst.opcode);
      if (cast !== undefined) return [FUNC_CODE.CAST, [...this.typed(op(0)), t(inst.type), cast]];
      const bin = BINOP.get(inst.opcode);
      if (bin !== undefined) return [FUNC_CODE.BINOP, [...this.typed(op(0)), this.rel(op(1).value), bin, ...(inst.flags ? [inst.flags] : [])]];
      switch (inst.opcode) {
        case 'ret':
          return [FUNC_CODE.RET, ops.length ? this.typed(op(0)) : []];
        case 'br':
          return [FUNC_CODE.BR, ops.length ? [this.block(inst.labels[0]!), this.block(inst.labels[1]!), this.rel(op(0).value)] : [this.block(inst.labels[0]!)]];
        case 'switch':
          return [
            FUNC_CODE.SWITCH,
            [
              t(op(0).type),
              this.rel(op(0).value),
              this.block(inst.labels[0]!),
              ...inst.cases!.flatMap((c) => [this.mw.constantId(c.value), this.block(c.block)]),
            ],
          ];
        case 'unreachable':
          return [FUNC_CODE.UNREACHABLE, []];
        case 'resume':
          return [FUNC_CODE.RESUME, this.typed(op(0))];
        case 'icmp':
        case 'fcmp':
          return [FUNC_CODE.CMP2, [...this.typed(op(0)), this.rel(op(1).value), predicate(inst.opcode, inst.predicate)]];
        case 'getelementptr':
          return [FUNC_CODE.GEP, [inst.inbounds ? 1 : 0, t(inst.auxType!), ...ops.flatMap((o) => this.typed(o))]];
        case 'load':
          return [FUNC_CODE.LOAD, [...this.typed(op(0)), t(inst.type), encodeAlign(inst.align ?? 0), inst.volatile ? 1 : 0]];
        case 'store':
          return [FUNC_CODE.STORE, [...this.typed(op(0)), ...this.typed(op(1)), encodeAlign(inst.align ?? 0), inst.volatile ? 1 : 0]];
        case 'alloca': {
          const size = ops[0];
          const sizeType = size ? size.type : this.mw.allocaOne().type;
          const sizeId = size ? this.id(size.value) : this.mw.constantId(this.mw.allocaOne());
          return [FUNC_CODE.ALLOCA, [t(inst.auxType!), t(sizeType), sizeId, encodeAlign(inst.align ?? 0) | (1 << 6)]];
        }
        case 'phi': {
          const rec: (number | bigint)[] = [t(inst.type)];
          for (const i of inst.incoming!) rec.push(signRotated(BigInt(this.next - this.id(i.value))), this.block(i.block));
          return [FUNC_CODE.PHI, rec];
        }
        case 'select':
          return [FUNC_CODE.VSELECT, [...this.typed(op(1)), this.rel(op(2).value), ...this.typed(op(0))]];
        case 'extractelement':
          return [FUNC_CODE.EXTRACTELT, [...this.typed(op(0)), ...this.typed(op(1))]];
        case 'insertelement':
          return [FUNC_CODE.INSERTELT, [...this.typed(op(0)), this.rel(op(1).value), ...this.typed(op(2))]];
        case 'shufflevector':
          return [FUNC_CODE.SHUFFLEVEC, [...this.typed(op(0)), this.rel(op(1).value), ...this.typed(op(2))]];
        case 'extractvalue':
          return [FUNC_CODE.EXTRACTVAL, [...this.typed(op(0)), ...inst.indices!]];
        case 'insertvalue':
          return [FUNC_CODE.INSERTVAL, [...this.typed(op(0)), ...this.typed(op(1)), ...inst.indices!]];
        case 'va_arg':
          return [FUNC_CODE.VAARG, [t(op(0).type), this.rel(op(0).value), t(inst.type)]];
        case 'landingpad':
          return [
            FUNC_CODE.LANDINGPAD,
            [t(inst.type), inst.cleanup ? 1 : 0, inst.clauses!.length, ...inst.clauses!.flatMap((c) => [c.kind, ...this.typed(c.value)])],
          ];
        case 'call':
        case 'invoke':
          return this.call(inst);
      }
      throw new UpgradeError(`instruction '${inst.opcode}' has no bitcode form here`);
    };
    const [c, rec] = code();
    w.record(c, rec);
    if (inst.type.kind !== 'void') this.next++;
  }

  private call(inst: IrInstruction): [number, (number | bigint)[]] {
    const fnType = inst.auxType!;
    if (fnType.kind !== 'function') throw new UpgradeError('a call without a function type');
    const [callee, ...args] = inst.operands;
    const attrs = this.mw.attributeListId(inst.attributes);
    const argIds: number[] = [];
    args.forEach((a, i) => {
      if (i < fnType.params.length) argIds.push(this.rel(a.value));
      else argIds.push(...this.typed(a));
    });
    const cc = inst.callingConv ?? 0;
    if (inst.opcode === 'invoke') {
      return [
        FUNC_CODE.INVOKE,
        [attrs, cc | (1 << 13), this.block(inst.labels[0]!), this.block(inst.labels[1]!), this.mw.typeId(fnType), ...this.typed(callee!), ...argIds],
      ];
    }
    const flags = (inst.tail ? 1 : 0) | (cc << 1) | (1 << 15);
    return [FUNC_CODE.CALL, [attrs, flags, this.mw.typeId(fnType), ...this.typed(callee!), ...argIds]];
  }

  private symbols(): void {
    const w = this.mw.writer;
    const named = [...this.locals].filter(([k]) => k.startsWith('n:'));
    const namedBlocks = [...this.blocks].filter(([k]) => k.startsWith('n:'));
    if (!named.length && !namedBlocks.length) return;
    w.enterBlock(BLOCK.VALUE_SYMTAB, 4);
    for (const [k, id] of named) w.record(VST_CODE.ENTRY, [id, ...chars(nameOfKey(k))]);
    for (const [k, id] of namedBlocks) w.record(VST_CODE.BBENTRY, [id, ...chars(nameOfKey(k))]);
    w.endBlock();
  }
}

/** The bitcode of `module`. Throws UpgradeError for a construct it has no record for. */
export function writeIrModule(module: IrModule): Uint8Array {
  return new ModuleWriter(module).write();
}
