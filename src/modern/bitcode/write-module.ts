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
  FUNCTION_INDEX,
  IDENTIFICATION_CODE,
  LINKAGE,
  METADATA_CODE,
  MODULE_CODE,
  PARAMATTR_CODE,
  TYPE_CODE,
  VST_CODE,
} from './codes.js';
import { encodeAlign, predicate, signRotated, signRotatedNumber } from './encode.js';
import { isNumberedName, nameOfKey, type IrAttribute, type IrAttributeSet, type IrConstant, type IrModule, type IrType } from './ir.js';
import { pushChars, RecordOps } from './record-ops.js';
import { FunctionWriter, writeSymbol, type BodyWriter, type ModuleNumbering } from './write-function.js';
import { DirectBodyWriter } from './direct-body.js';
import { UpgradeError } from '../upgrade-error.js';

export { signRotated } from './encode.js';

/** What the IDENTIFICATION block names as the producer. */
export const PRODUCER = 'llvm-bytecode';

/** The characters of `s` as a record's operands (record-ops.ts, pushChars). */
function chars(s: string): number[] {
  const out: number[] = [];
  pushChars(out, s);
  return out;
}

/**
 * What tells two constants of one type apart: an integer's value as a number when it is exactly
 * one (the usual case, and no string to build), otherwise a string whose first letter says
 * the constant's kind.
 */
type ConstantKey = number | string;

/** The largest magnitude whose sign-rotated form (2|v| + 1) is still an exact number. */
const ROTATABLE = 2 ** 51;

class ModuleWriter implements ModuleNumbering {
  private readonly w = new BitstreamWriter();
  private readonly typeIds = new Map<IrType, number>();
  private readonly typeList: IrType[] = [];
  private readonly globalIds = new Map<string, number>();
  /** Constants numbered so far, by type id, then by their key: one id per distinct constant. */
  private readonly constantIds: (Map<ConstantKey, number> | undefined)[] = [];
  private readonly constantList: IrConstant[] = [];
  /** Constant objects other than integers already numbered (the same object is often used many times). */
  private readonly seen = new Map<IrConstant, number>();
  /** Attribute sets already numbered, by object (each call site may carry its own). */
  private readonly attributeListIds = new Map<IrAttributeSet, number>();
  private readonly rec = new RecordOps();
  /** The function bodies, their locals numbered while the module's constants were collected. */
  private readonly bodies: BodyWriter[] = [];
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
    for (const body of this.bodies) body.write();
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
    if (c.kind === 'int') {
      // Integers are most constants, each use often its own object: keyed by value, not by object.
      const ty = this.typeId(c.type);
      const n = Number(c.value);
      return this.numbered(c, ty, Number.isSafeInteger(n) ? n : `i${c.value}`);
    }
    if (c.kind === 'global') {
      this.typeId(c.type);
      const id = this.globalIds.get(c.name);
      if (id === undefined) throw new UpgradeError(`@${nameOfKey(c.name)} is used but not declared`);
      return id;
    }
    const known = this.seen.get(c);
    if (known !== undefined) return known;
    let key: string;
    const ty = this.typeId(c.type);
    switch (c.kind) {
      case 'fp':
        key = `f${c.bits}`;
        break;
      case 'null':
      case 'zero':
        key = 'z';
        break;
      case 'undef':
        key = 'u';
        break;
      case 'poison':
        key = 'p';
        break;
      case 'bytes':
        key = `b${latin1(c.bytes)}`;
        break;
      case 'aggregate': {
        key = 'a';
        for (const e of c.elements) key += `${this.constantId(e)},`;
        break;
      }
      case 'expr': {
        key = `e${c.opcode}:${c.predicate ?? ''}:${c.sourceType ? this.typeId(c.sourceType) : ''}:${c.inbounds ? 1 : 0}:${c.flags ?? 0}:`;
        for (const o of c.operands) key += `${this.typeId(o.type)}/${this.constantId(o)},`;
        break;
      }
      case 'asm':
        key = `s${c.sideEffect ? 1 : 0}:${this.typeId(c.fnType)}:${JSON.stringify([c.asm, c.constraints])}`;
        break;
    }
    const id = this.numbered(c, ty, key);
    this.seen.set(c, id);
    return id;
  }

  /** The id of the constant `key` of type `ty`, `c` numbered as it when new. */
  private numbered(c: IrConstant, ty: number, key: ConstantKey): number {
    let ids = this.constantIds[ty];
    if (ids === undefined) {
      ids = new Map();
      this.constantIds[ty] = ids;
    }
    let id = ids.get(key);
    if (id === undefined) {
      id = this.firstConstant + this.constantList.length;
      ids.set(key, id);
      this.constantList.push(c);
    }
    return id;
  }

  attributeListId(set: IrAttributeSet | undefined): number {
    if (!set) return 0;
    let id = this.attributeListIds.get(set);
    if (id === undefined) {
      id = this.newAttributeList(set);
      this.attributeListIds.set(set, id);
    }
    return id;
  }

  private newAttributeList(set: IrAttributeSet): number {
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
      if (!f.blocks) continue;
      const body = f.direct ? new DirectBodyWriter(this, f, f.direct) : new FunctionWriter(this, f);
      body.collect();
      this.bodies.push(body);
    }
    for (const a of m.aliases) {
      this.typeId(a.valueType);
      this.constantId(a.aliasee);
    }
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
    const rec = this.rec;
    for (const c of this.constantList) {
      const ty = this.typeId(c.type);
      if (ty !== current) {
        rec.push(ty);
        rec.writeTo(w, CST_CODE.SETTYPE);
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
        const n = Number(c.value);
        if (bits <= 32 && Number.isSafeInteger(n)) {
          // The value's low `bits` bits, sign-extended (BigInt.asIntN without a bigint).
          const v = bits === 32 ? n | 0 : (n << (32 - bits)) >> (32 - bits);
          this.rec.push(signRotatedNumber(v));
          this.rec.writeTo(w, CST_CODE.INTEGER);
          return;
        }
        if (bits <= 64 && Math.abs(n) < ROTATABLE && Math.abs(n) < 2 ** (bits - 1)) {
          // Already in range: no wrap, and 2|v| + 1 is exact.
          this.rec.push(signRotatedNumber(n));
          this.rec.writeTo(w, CST_CODE.INTEGER);
          return;
        }
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
        for (const e of c.elements) this.rec.push(this.constantId(e));
        this.rec.writeTo(w, CST_CODE.AGGREGATE);
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
    for (const [k, id] of named) writeSymbol(w, this.rec, VST_CODE.ENTRY, id, nameOfKey(k));
    w.endBlock();
  }
}

/** The bytes as a string of one character each: a cheap key that two byte strings share only when equal. */
function latin1(bytes: Uint8Array): string {
  let s = '';
  for (let i = 0; i < bytes.length; i += 4096) s += String.fromCharCode(...bytes.subarray(i, i + 4096));
  return s;
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

/** The bitcode of `module`. Throws UpgradeError for a construct it has no record for. */
export function writeIrModule(module: IrModule): Uint8Array {
  return new ModuleWriter(module).write();
}
