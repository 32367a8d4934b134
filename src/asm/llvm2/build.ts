/**
 * From the LLVM 2.0 parser's tree to a version-7 module graph (`docs/version7-graph.md`), the same
 * graph `readModule` gives for a version-7 file, so that the version-7 printer and writer take
 * it unchanged. Types are resolved by the shared resolver (named, numbered and up-references,
 * structural uniquing); then every global, function and alias is made (so that references
 * forward and backward are alike, as LLVM's forward-reference placeholders made them); then
 * initializers and aliasees; then each body: its blocks and instructions first (their numbers,
 * `%0`, `%1`, … counted in text order over arguments, blocks and unnamed instructions, as
 * r36867's `CurFun.NextValNum`), their operands after.
 *
 * The rules checked are r36867's parser's (`llvmAsmParser.y`), with its messages where it had one.
 */
import { castIsValid } from '../../decode/v7/rules.js';
import { describeType, emptyModule } from '../../graph/describe.js';
import type { Module } from '../../graph/module.js';
import { integerType, isFirstClassType, primitiveTypes as P, type FunctionType, type PointerType, type Type } from '../../graph/type.js';
import type {
  Argument,
  BasicBlock,
  CastOpcode,
  Constant,
  FloatPredicate,
  Function,
  GlobalAlias,
  GlobalVariable,
  Instruction,
  IntPredicate,
  Opcode,
  Value,
} from '../../graph/value.js';
import type { ModuleAst, TypedValue, TypeDefItem, ValueRef, ConstExprAst } from '../ast.js';
import type { SourceText } from '../assembly-error.js';
import { aggregate, byteArray, doubleToFloat, inlineAsm } from '../build-module.js';
import { unescapeBytes } from '../lexer.js';
import { resolveTypes, type TypeInterner } from '../resolve-types.js';
import { Folder2, nullValue } from './fold.js';
import type { Alias2, Function2, Global2, Inst2, Module2Ast } from './ast.js';

type GlobalLike = GlobalVariable | Function | GlobalAlias;

/** A function's values by name and number while its body is built. */
interface LocalScope {
  readonly names: Map<string, Value>;
  readonly numbered: Value[];
}

export function buildModule2(ast: Module2Ast, source: SourceText): Module {
  return new Builder2(ast, source).build();
}

const I1 = integerType(1);
const I32 = integerType(32);

class Builder2 {
  private readonly typeOf: (node: number) => Type;
  private readonly interner: TypeInterner;
  private readonly typeNames: Map<string, Type>;
  private readonly globals = new Map<string, GlobalLike>();
  private readonly numberedGlobals: GlobalLike[] = [];
  private readonly module: Module = emptyModule();
  /** The `i8` constant of each byte value, shared by every `c"…"` string (see `byteArray`). */
  private readonly i8Bytes = new Array<Constant>(256);

  constructor(
    private readonly ast: Module2Ast,
    private readonly source: SourceText,
  ) {
    const typedefs: TypeDefItem[] = [];
    for (const item of ast.items)
      if (item.k === 'typedef') typedefs.push({ k: 'typedef', ...(item.name !== undefined ? { name: item.name } : {}), type: item.type, at: item.at });
    // r36867 refused, at the end of the module, every type name no definition gave.
    const shared: ModuleAst = { types: ast.types, items: typedefs, constPoolTypes: ast.types.length, bodyTypeRanges: [] };
    const resolved = resolveTypes(shared, source);
    this.typeOf = resolved.typeOf;
    this.interner = resolved.interner;
    this.typeNames = resolved.names;
    // The module's types: every type the text spelled (integer types included, as version 7 has them).
    const seen = new Set<Type>();
    for (let i = 0; i < ast.types.length; i++) {
      const t = this.typeOf(i);
      if (t.kind !== 'void' && t.kind !== 'float' && t.kind !== 'double' && t.kind !== 'label') seen.add(t);
    }
    this.moduleTypes = [...seen];
  }

  private readonly moduleTypes: Type[];

  private fail(message: string, at: number): never {
    throw this.source.error(message, at);
  }

  private show(t: Type): string {
    return describeType(t);
  }

  private pointerTo(t: Type): PointerType {
    return this.interner.pointer(t) as PointerType;
  }

  build(): Module {
    const m = this.module;
    m.targetTriple = this.ast.triple;
    m.dataLayout = this.ast.dataLayout;
    m.inlineAsm = this.ast.inlineAsm.map(unescapeBytes).join('\n');
    m.dependentLibraries = this.ast.libraries.slice();
    m.aliases = [];
    for (const [name, t] of this.typeNames) if (t.kind !== 'void') m.typeNames.set(name, t);
    const bodies: [Function2, Function][] = [];
    for (const item of this.ast.items) {
      if (item.k === 'global') this.declareGlobal(item);
      else if (item.k === 'function') {
        const fn = this.declareFunction(item);
        if (item.body !== undefined) bodies.push([item, fn]);
      } else if (item.k === 'alias') this.declareAlias(item);
    }
    for (const item of this.ast.items) {
      if (item.k === 'global' && item.initializer !== undefined) {
        this.globalOf.get(item)!.initializer = this.constant(this.typeOf(item.initializer.type), item.initializer.ref);
      } else if (item.k === 'alias') {
        const alias = this.aliasOf.get(item)!;
        alias.aliasee = this.constant(this.typeOf(item.aliasee.type), item.aliasee.ref);
      }
    }
    for (const [item, fn] of bodies) new BodyBuilder(this, item, fn).build();
    m.types = this.moduleTypes;
    return m;
  }

  /** Each global's object, by its item (initializers are read once every global exists). */
  private readonly globalOf = new Map<Global2, GlobalVariable>();
  /** Each alias's object, by its item (a renamed alias is not found under the name it was written with). */
  private readonly aliasOf = new Map<Alias2, GlobalAlias>();

  private register(v: GlobalLike, name: string | undefined): void {
    if (name === undefined) {
      this.numberedGlobals.push(v);
      return;
    }
    this.globals.set('@' + name, v);
  }

  /** The module symbol table's counter of unique suffixes (r36867's `ValueSymbolTable::LastUnique`). */
  private lastUnique = 0;

  /**
   * The name a new global gets when `name` is taken: r36867's symbol table renamed it to the first
   * free `name` + N, N counting up across the module (so `@B` then `@C` clashing become `@B1`, `@C2`).
   * Later references to `@name` still find the first holder of the name, as r36867's lookups did.
   */
  private uniqueName(name: string): string {
    let candidate = name;
    while (this.globals.has('@' + candidate)) candidate = name + String(++this.lastUnique);
    return candidate;
  }

  private declareGlobal(item: Global2): void {
    const valueType = this.typeOf(item.type);
    if (valueType.kind === 'function') this.fail('cannot declare global vars of function type', item.at);
    if (valueType.kind === 'label' || valueType.kind === 'void') this.fail(`a global of type ${this.show(valueType)}`, item.at);
    let name = item.name;
    if (name !== undefined && this.globals.has('@' + name)) {
      // r36867's ParseGlobalVariable refused only a definition of external linkage whose name an
      // external-linkage global variable holds (`Module::getGlobalVariable(Name, false)`): such a
      // name must stay as written. Any other clash (a declaration after a definition, an internal
      // global, a name a function or alias holds) made a new global that the symbol table renamed.
      const existing = this.globals.get('@' + name)!;
      if (item.initializer !== undefined && item.linkage !== 'internal' && existing.kind === 'global' && existing.linkage !== 'internal') {
        this.fail(`redefinition of global variable named '${name}' of type '${this.show(valueType)}'`, item.at);
      }
      name = this.uniqueName(name);
    }
    const g: GlobalVariable = {
      kind: 'global',
      type: this.pointerTo(valueType),
      valueType,
      ...(name !== undefined ? { name } : {}),
      linkage: item.linkage,
      isConstant: item.isConstant,
      alignment: item.alignment,
      ...(item.section !== undefined ? { section: item.section } : {}),
      ...(item.visibility !== 'default' ? { visibility: item.visibility } : {}),
      ...(item.threadLocal ? { isThreadLocal: true } : {}),
    };
    this.globalOf.set(item, g);
    this.register(g, name);
    this.module.globals.push(g);
  }

  private declareFunction(item: Function2): Function {
    const ft = this.typeOf(item.fnType) as FunctionType;
    if (ft.returnType.kind !== 'void' && !isFirstClassType(ft.returnType)) this.fail('LLVM functions cannot return aggregate types', item.at);
    const holder = item.name !== undefined ? this.globals.get('@' + item.name) : undefined;
    // r36867 merged a function with an earlier one of its name (`Module::getFunction`); a name a
    // global variable or alias holds gave a new function that the symbol table renamed.
    const existing = holder?.kind === 'function' ? holder : undefined;
    const name = holder !== undefined && existing === undefined ? this.uniqueName(item.name!) : item.name;
    if (existing !== undefined) {
      // r36867 merged a declaration with a later (or earlier) prototype or definition of one type.
      if (existing.functionType !== ft) this.fail(`overload of function '${item.name!}' not permitted`, item.at);
      if (!item.isDeclare && !existing.isDeclaration) this.fail(`redefinition of function '${item.name!}'`, item.at);
      if (!item.isDeclare) {
        this.setFunction(existing, item, ft);
        existing.isDeclaration = false;
      } else if (existing.isDeclaration) {
        existing.linkage = item.linkage;
        this.setVisibility(existing, item);
      }
      return existing;
    }
    const fn: Function = {
      kind: 'function',
      type: this.pointerTo(ft),
      functionType: ft,
      ...(name !== undefined ? { name } : {}),
      linkage: item.linkage,
      callingConv: item.callingConv,
      alignment: item.alignment,
      isDeclaration: item.isDeclare,
      args: [],
      blocks: [],
    };
    this.setFunction(fn, item, ft);
    this.register(fn, name);
    this.module.functions.push(fn);
    return fn;
  }

  private setVisibility(fn: Function, item: Function2): void {
    if (item.visibility !== 'default') fn.visibility = item.visibility;
    else delete fn.visibility;
  }

  private setFunction(fn: Function, item: Function2, ft: FunctionType): void {
    fn.linkage = item.linkage;
    fn.callingConv = item.callingConv;
    fn.alignment = item.alignment;
    if (item.section !== undefined) fn.section = item.section;
    else delete fn.section;
    this.setVisibility(fn, item);
    fn.args = ft.params.map((type, index): Argument => {
      const name = item.isDeclare ? undefined : item.args[index]?.name;
      return { kind: 'argument', type, ...(name !== undefined ? { name } : {}), index };
    });
  }

  private declareAlias(item: Alias2): void {
    const type = this.typeOf(item.aliasee.type);
    if (type.kind !== 'pointer') this.fail('aliases can be made only of global values (of pointer type)', item.at);
    // r36867 made every alias anew: a name already held was renamed by the symbol table.
    const name = item.name !== undefined ? this.uniqueName(item.name) : undefined;
    const alias: GlobalAlias = {
      kind: 'alias',
      type,
      ...(name !== undefined ? { name } : {}),
      linkage: item.linkage,
      aliasee: { kind: 'null', type },
      ...(item.visibility !== 'default' ? { visibility: item.visibility } : {}),
    };
    this.aliasOf.set(item, alias);
    this.register(alias, name);
    this.module.aliases!.push(alias);
  }

  // ---- values -----------------------------------------------------------------------------------

  /** A named or numbered value, of type `t` (r36867's getExistingVal). */
  symbol(t: Type, ref: Extract<ValueRef, { k: 'name' | 'num' }>, locals: LocalScope | undefined): Value {
    let v: Value | undefined;
    let shown: string;
    if (ref.k === 'name') {
      shown = ref.name;
      const local = ref.name[0] === '%';
      v = local ? locals?.names.get(ref.name.slice(1)) : this.globals.get(ref.name);
      if (local && locals === undefined)
        this.fail(`'${ref.name}' is a local name where only globals and constants can be (a constant refers to globals with '@')`, ref.at);
    } else if (ref.n < 0) {
      shown = `@${-ref.n - 1}`;
      v = this.numberedGlobals[-ref.n - 1];
    } else {
      shown = `%${ref.n}`;
      if (locals === undefined) this.fail(`'${shown}' is a local value where only globals and constants can be`, ref.at);
      v = locals.numbered[ref.n];
    }
    if (v === undefined) this.fail(`reference to an undefined value '${shown}'`, ref.at);
    if (v.type !== t) {
      const same = this.show(v.type) === this.show(t);
      this.fail(
        `'${shown}' is of type ${this.show(v.type)}, not ${this.show(t)}${same ? ' (the two differ in parameter attributes or in types of one spelling)' : ''}`,
        ref.at,
      );
    }
    return v;
  }

  /** A constant of type `t` (`ConstVal` after its type; getVal of a constant). */
  constant(t: Type, ref: ValueRef): Constant {
    const at = ref.at;
    switch (ref.k) {
      case 'name':
      case 'num': {
        if (ref.k === 'name' && ref.name[0] === '%')
          this.fail(`'${ref.name}' is a local name where only globals and constants can be (a global's name starts with '@')`, at);
        if (t.kind !== 'pointer') this.fail('global const reference must be a pointer type', at);
        return this.symbol(t, ref, undefined) as Constant;
      }
      case 'int':
        return this.integer(t, ref.text, at);
      case 'fp':
        return this.float(t, ref.text, at);
      case 'bool':
        if (t !== I1) this.fail(`'${ref.value}' is a constant of type i1, not ${this.show(t)}`, at);
        return { kind: 'bool', type: t, value: ref.value };
      case 'null':
        if (t.kind !== 'pointer') this.fail('cannot create a non-pointer null', at);
        return { kind: 'null', type: t };
      case 'undef':
        return { kind: 'undef', type: t };
      case 'zero':
        return nullValue(t) ?? this.fail(`no zero value of type ${this.show(t)}`, at);
      case 'array':
      case 'struct':
      case 'packed':
        return this.aggregateOf(t, ref.k, ref.elements, at);
      case 'string': {
        if (t.kind !== 'array' || t.element !== integerType(8)) this.fail(`a string constant of type ${this.show(t)} (it must be an array of i8)`, at);
        const bytes = unescapeBytes(ref.raw);
        if (bytes.length !== t.length) this.fail(`can't build string constant of size ${bytes.length} when array has size ${t.length}`, at);
        return byteArray(t, bytes, true, this.i8Bytes);
      }
      case 'expr':
        return this.constantExpr(t, ref.expr, at);
      case 'asm':
        return inlineAsm(t, ref) ?? this.fail('invalid type for asm constraint string', at);
    }
  }

  private aggregateOf(t: Type, k: 'array' | 'struct' | 'packed', elements: readonly TypedValue[], at: number): Constant {
    let expected: (i: number) => Type;
    if (t.kind === 'array' && k === 'array') {
      if (elements.length !== t.length) this.fail(`type ${this.show(t)} has ${t.length} elements, but the constant has ${elements.length}`, at);
      expected = () => t.element;
    } else if (t.kind === 'packed' && k === 'packed') {
      if (elements.length !== t.length) this.fail(`type ${this.show(t)} has ${t.length} elements, but the constant has ${elements.length}`, at);
      expected = () => t.element;
    } else if (t.kind === 'struct' && k === 'struct') {
      if (elements.length !== t.elements.length) this.fail('illegal number of initializers for structure type', at);
      expected = (i) => t.elements[i]!;
    } else return this.fail(`a ${k === 'packed' ? 'vector' : k} constant of type ${this.show(t)}`, at);
    const out = elements.map((e, i) => {
      const et = this.typeOf(e.type);
      if (et !== expected(i)) this.fail(`element ${i} is of type ${this.show(et)}, not ${this.show(expected(i))} as the type requires`, e.ref.at);
      return this.constant(et, e.ref);
    });
    return aggregate(k, t, out);
  }

  private integer(t: Type, text: string, at: number): Constant {
    if (t.kind !== 'integer') this.fail(`an integer constant of the non-integer type ${this.show(t)}`, at);
    let v: bigint;
    let signed: boolean;
    if (text.startsWith('s0x') || text.startsWith('u0x')) {
      const digits = text.slice(3);
      v = BigInt('0x' + digits);
      signed = text[0] === 's';
      // r36867's lexer read `s0x…` as a signed number of as many bits as the digits spell.
      if (signed) v = BigInt.asIntN(Math.max(1, digits.length * 4), v);
    } else {
      v = BigInt(text);
      signed = v < 0n;
    }
    const bits = t.bits;
    const lo = -(1n << BigInt(bits - 1));
    const hi = (1n << BigInt(bits)) - 1n;
    if (bits === 1) {
      if (v === 0n || v === 1n || (signed && v === -1n)) return { kind: 'bool', type: t, value: v !== 0n };
      this.fail("constant value doesn't fit in type", at);
    }
    if (v < lo || v > hi) this.fail(`constant value ${text} doesn't fit in type i${bits}`, at);
    return { kind: 'int', type: t, value: BigInt.asIntN(bits, v) };
  }

  private float(t: Type, text: string, at: number): Constant {
    if (t.kind !== 'float' && t.kind !== 'double') this.fail(`a floating-point constant of the non-floating-point type ${this.show(t)}`, at);
    // The lexer made every literal a double (`atof`, or `0x…` as a double's IEEE bits); a float
    // constant was that double rounded (ConstantFP::isValueValidForType took every double).
    const view = new DataView(new ArrayBuffer(8));
    if (text.startsWith('0x')) view.setBigUint64(0, BigInt(text) & 0xffffffffffffffffn);
    else view.setFloat64(0, Number(text));
    const doubleBits = view.getBigUint64(0);
    return t.kind === 'float' ? { kind: 'fp', type: t, ...doubleToFloat(doubleBits) } : { kind: 'fp', type: t, value: view.getFloat64(0), bits: doubleBits };
  }

  private constantExpr(t: Type, e: ConstExprAst, at: number): Constant {
    const ops = e.operands.map((o) => this.constant(this.typeOf(o.type), o.ref));
    const type = this.exprType(e.op as Opcode, ops, e.to === undefined ? undefined : this.typeOf(e.to), at);
    if (type !== t) this.fail(`constant expression type ${this.show(type)} different from required type ${this.show(t)}`, at);
    // r36867 folded each constant expression as it built it (fold.ts).
    const f = this.folder;
    const op = e.op as Opcode;
    switch (op) {
      case 'getelementptr':
        return f.getElementPtr(ops[0]!, ops.slice(1));
      case 'select':
        return f.select(ops[0]!, ops[1]!, ops[2]!);
      case 'icmp':
      case 'fcmp':
        return f.compare(op, e.predicate as IntPredicate | FloatPredicate, ops[0]!, ops[1]!);
      case 'extractelement':
        return f.extractElement(ops[0]!, ops[1]!);
      case 'insertelement':
        return f.insertElement(ops[0]!, ops[1]!, ops[2]!);
      case 'shufflevector':
        // ConstantFoldShuffleVectorInstruction folded nothing at r36867.
        return { kind: 'expr', type, opcode: op, operands: ops };
      default:
        return e.to !== undefined ? f.cast(op as CastOpcode, ops[0]!, type) : f.binary(op, ops[0]!, ops[1]!);
    }
  }

  private readonly folder = new Folder2({ pointerTo: (t) => this.pointerTo(t), indexedType: (base, indices) => this.indexedType(base, indices, 0) });

  /** The result type of an operation on values (constants or instructions), by r36867's checks. */
  exprType(op: Opcode, ops: readonly Value[], to: Type | undefined, at: number): Type {
    const ty = (i: number): Type => ops[i]!.type;
    switch (op) {
      case 'getelementptr':
        if (ty(0).kind !== 'pointer') this.fail('getelementptr requires a pointer operand', at);
        return this.pointerTo(this.indexedType(ty(0), ops.slice(1), at));
      case 'select':
        if (ty(0) !== I1) this.fail('select condition must be of boolean type', at);
        if (ty(1) !== ty(2)) this.fail('select operand types must match', at);
        return ty(1);
      case 'icmp':
      case 'fcmp':
        if (ty(0) !== ty(1)) this.fail(`${op} operand types must match`, at);
        if (op === 'icmp' ? !(ty(0).kind === 'integer' || ty(0).kind === 'pointer') : !(ty(0).kind === 'float' || ty(0).kind === 'double'))
          this.fail(`${op} of values of type ${this.show(ty(0))}`, at);
        return I1;
      case 'extractelement': {
        const v = ty(0);
        if (v.kind !== 'packed' || ty(1) !== I32) this.fail('invalid extractelement operands', at);
        return v.element;
      }
      case 'insertelement': {
        const v = ty(0);
        if (v.kind !== 'packed' || ty(1) !== v.element || ty(2) !== I32) this.fail('invalid insertelement operands', at);
        return v;
      }
      case 'shufflevector': {
        const v = ty(0);
        const m = ty(2);
        if (v.kind !== 'packed' || ty(1) !== v || m.kind !== 'packed' || m.element !== I32 || m.length !== v.length)
          this.fail('invalid shufflevector operands', at);
        return v;
      }
      default:
        if (to !== undefined) {
          if (!castIsValid(op as CastOpcode, ty(0), to)) this.fail(`invalid cast opcode for cast from '${this.show(ty(0))}' to '${this.show(to)}'`, at);
          return to;
        }
        if (ty(0) !== ty(1)) this.fail('binary operator types must match', at);
        return ty(0);
    }
  }

  /** The type `getelementptr` reaches through `indices` from a pointer of type `base`. */
  indexedType(base: Type, indices: readonly Value[], at: number): Type {
    let t: Type = (base as PointerType).element;
    for (let i = 0; i < indices.length; i++) {
      const idx = indices[i]!;
      if (idx.type.kind !== 'integer') this.fail('getelementptr indices must be integers', at);
      if (i === 0) continue;
      if (t.kind === 'struct') {
        if (idx.kind !== 'int' || idx.type !== I32) this.fail('a structure index must be an i32 constant', at);
        const field = t.elements[Number(idx.value)];
        if (field === undefined) this.fail(`structure index ${idx.value} is out of range`, at);
        t = field;
      } else if (t.kind === 'array' || t.kind === 'packed') t = t.element;
      else this.fail(`invalid getelementptr indices for type '${this.show(base)}'`, at);
    }
    return t;
  }

  type(node: number): Type {
    return this.typeOf(node);
  }

  pointer(t: Type): PointerType {
    return this.pointerTo(t);
  }

  error(message: string, at: number): never {
    return this.fail(message, at);
  }

  describe(t: Type): string {
    return this.show(t);
  }
}

/** One function's body: blocks and instructions made first, operands resolved after. */
class BodyBuilder {
  private readonly scope: LocalScope = { names: new Map(), numbered: [] };
  private readonly made: [Inst2, Instruction][] = [];

  constructor(
    private readonly b: Builder2,
    private readonly item: Function2,
    private readonly fn: Function,
  ) {}

  private define(v: Value, name: string | undefined, at: number): void {
    if (name === undefined) {
      if (v.type !== P.void) this.scope.numbered.push(v);
      return;
    }
    if (this.scope.names.has(name)) this.b.error(`redefinition of value '%${name}'`, at);
    this.scope.names.set(name, v);
  }

  build(): void {
    const fn = this.fn;
    fn.args.forEach((a, i) => this.define(a, a.name, this.item.args[i]?.at ?? this.item.at));
    const blocks: BasicBlock[] = [];
    for (const blockAst of this.item.body!) {
      const block: BasicBlock = { kind: 'block', type: P.label, ...(blockAst.name !== undefined ? { name: blockAst.name } : {}), instructions: [] };
      this.define(block, blockAst.name, blockAst.at);
      blocks.push(block);
      for (const ia of blockAst.insts) {
        const inst = this.make(ia);
        block.instructions.push(inst);
        this.define(inst, ia.name, ia.at);
        if (ia.name !== undefined && inst.type === P.void) this.b.error(`a ${ia.op} has no value to name '%${ia.name}'`, ia.at);
      }
    }
    fn.blocks = blocks;
    for (const [ia, inst] of this.made) this.operands(ia, inst);
  }

  private value(tv: TypedValue, t: Type = this.b.type(tv.type)): Value {
    const ref = tv.ref;
    if (t === P.label) {
      if (ref.k !== 'name' && ref.k !== 'num') this.b.error('expected a basic block', ref.at);
      const v = this.b.symbol(t, ref, this.scope);
      return v;
    }
    if (ref.k === 'name' || ref.k === 'num') return this.b.symbol(t, ref, this.scope);
    return this.b.constant(t, ref);
  }

  /** The pointer-to-function type a call or invoke calls through. */
  private calleeType(ia: Inst2): PointerType {
    const written = this.b.type(ia.ty!);
    if (written.kind === 'pointer' && written.element.kind === 'function') return written;
    return this.b.type(ia.impliedType!) as PointerType;
  }

  private make(ia: Inst2): Instruction {
    const b: Builder2 = this.b;
    const op = ia.op as Opcode;
    let type: Type = P.void;
    const extra: Partial<Instruction> = {};
    switch (ia.op) {
      case 'ret':
      case 'br':
      case 'switch':
      case 'unwind':
      case 'unreachable':
      case 'free':
      case 'store':
        break;
      case 'icmp':
      case 'fcmp':
        type = I1;
        extra.predicate = ia.predicate as IntPredicate | FloatPredicate;
        break;
      case 'call':
      case 'invoke': {
        const ft = this.calleeType(ia).element as FunctionType;
        type = ft.returnType;
        if (ia.callingConv !== 0 || ia.op === 'invoke') extra.callingConv = ia.callingConv ?? 0;
        if (ia.tail === true) extra.isTailCall = true;
        break;
      }
      case 'select':
        type = b.type(ia.ops[1]!.type);
        break;
      case 'extractelement': {
        const v = b.type(ia.ops[0]!.type);
        if (v.kind !== 'packed') b.error('invalid extractelement operands', ia.at);
        type = v.element;
        break;
      }
      case 'insertelement':
      case 'shufflevector':
        type = b.type(ia.ops[0]!.type);
        break;
      case 'malloc':
      case 'alloca': {
        const allocated = b.type(ia.ty!);
        type = b.pointer(allocated);
        extra.allocatedType = allocated;
        extra.alignment = ia.alignment ?? 0;
        break;
      }
      case 'load': {
        const p = b.type(ia.ops[0]!.type);
        if (p.kind !== 'pointer') b.error(`can't load from nonpointer type: ${b.describe(p)}`, ia.at);
        if (!isFirstClassType(p.element)) b.error(`can't load from pointer of non-first-class type: ${b.describe(p)}`, ia.at);
        type = p.element;
        extra.isVolatile = ia.volatile === true;
        extra.alignment = ia.alignment ?? 0;
        break;
      }
      case 'getelementptr': {
        const base = b.type(ia.ops[0]!.type);
        if (base.kind !== 'pointer') b.error('getelementptr insn requires pointer operand', ia.at);
        // Struct indices are constants: read them now, the rest need only their types.
        const indices = ia.ops.slice(1).map((o): Value => {
          const t = b.type(o.type);
          return o.ref.k === 'int' ? b.constant(t, o.ref) : ({ kind: 'undef', type: t } as Constant);
        });
        type = b.pointer(b.indexedType(base, indices, ia.at));
        break;
      }
      default:
        // Binary operators, casts, phi and va_arg name their type.
        type = b.type(ia.ty!);
    }
    const inst: Instruction = { kind: 'instruction', opcode: op, type, operands: [], ...(ia.name !== undefined ? { name: ia.name } : {}), ...extra };
    this.made.push([ia, inst]);
    return inst;
  }

  private operands(ia: Inst2, inst: Instruction): void {
    const b: Builder2 = this.b;
    const at = ia.at;
    switch (ia.op) {
      case 'ret': {
        const rt = this.fn.functionType.returnType;
        if (ia.ops.length === 0) {
          if (rt !== P.void) b.error(`'ret void' in a function returning ${b.describe(rt)}`, at);
        } else {
          const v = this.value(ia.ops[0]!);
          if (v.type !== rt) b.error(`a return value of type ${b.describe(v.type)} in a function returning ${b.describe(rt)}`, at);
          inst.operands = [v];
        }
        return;
      }
      case 'br':
        if (ia.ops.length === 3) {
          const cond = this.value(ia.ops[0]!);
          if (cond.type !== I1) b.error('a branch condition must be of type i1', at);
          inst.operands = [cond, this.value(ia.ops[1]!), this.value(ia.ops[2]!)];
        } else inst.operands = [this.value(ia.ops[0]!)];
        return;
      case 'switch': {
        const ops = ia.ops.map((o) => this.value(o));
        if (ops[0]!.type.kind !== 'integer') b.error('a switch on a non-integer value', at);
        for (let i = 2; i < ops.length; i += 2) {
          const c = ops[i]!;
          if ((c.kind !== 'int' && c.kind !== 'bool') || c.type !== ops[0]!.type)
            b.error('switch case is constant, but not a simple integer of the switched type', ia.ops[i]!.ref.at);
        }
        inst.operands = ops;
        return;
      }
      case 'call':
      case 'invoke': {
        const pt = this.calleeType(ia);
        const ft = pt.element as FunctionType;
        const callee = this.value(ia.ops[0]!, pt);
        const fixed = ia.op === 'invoke' ? 3 : 1;
        const args = ia.ops.slice(fixed).map((o) => this.value(o));
        const n = ft.params.length;
        if (args.length < n || (!ft.isVarArg && args.length !== n))
          b.error(n > 0 && args.length === 0 ? 'no arguments passed to a function that expects arguments' : 'invalid number of parameters detected', at);
        for (let i = 0; i < n; i++)
          if (args[i]!.type !== ft.params[i]) b.error(`parameter ${i + 1} is not of type '${b.describe(ft.params[i]!)}'`, ia.ops[fixed + i]!.ref.at);
        inst.operands = ia.op === 'invoke' ? [callee, this.value(ia.ops[1]!), this.value(ia.ops[2]!), ...args] : [callee, ...args];
        return;
      }
      case 'malloc':
      case 'alloca': {
        if (ia.ops.length === 0) {
          inst.operands = [{ kind: 'int', type: I32, value: 1n }];
          return;
        }
        const size = this.value(ia.ops[0]!);
        if (size.type !== I32) b.error(`the size of ${ia.op} must be an i32`, at);
        inst.operands = [size];
        return;
      }
      case 'store': {
        const v = this.value(ia.ops[0]!);
        const p = this.value(ia.ops[1]!);
        if (p.type.kind !== 'pointer') b.error(`can't store to a nonpointer type: ${b.describe(p.type)}`, at);
        if (p.type.element !== v.type) b.error(`can't store '${b.describe(v.type)}' into space of type '${b.describe(p.type.element)}'`, at);
        inst.operands = [v, p];
        inst.isVolatile = ia.volatile === true;
        inst.alignment = ia.alignment ?? 0;
        return;
      }
      case 'free': {
        const p = this.value(ia.ops[0]!);
        if (p.type.kind !== 'pointer') b.error(`trying to free nonpointer type ${b.describe(p.type)}`, at);
        inst.operands = [p];
        return;
      }
      case 'phi': {
        inst.operands = ia.ops.map((o) => this.value(o));
        if (!isFirstClassType(inst.type)) b.error('PHI node operands must be of first class type', at);
        return;
      }
      case 'unwind':
      case 'unreachable':
        return;
      case 'vaarg':
        inst.operands = [this.value(ia.ops[0]!)];
        return;
      case 'load':
        // Its type was checked when the instruction was made.
        inst.operands = [this.value(ia.ops[0]!)];
        return;
      default: {
        const ops = ia.ops.map((o) => this.value(o));
        inst.operands = ops;
        const cast = ia.ops.length === 1 && ia.op !== 'getelementptr';
        const expected = b.exprType(inst.opcode, ops, cast ? inst.type : undefined, at);
        if (ia.op === 'getelementptr' ? expected !== inst.type : expected !== inst.type)
          b.error(`the operands of ${ia.op} give type ${b.describe(expected)}, not ${b.describe(inst.type)}`, at);
        if ((ia.op === 'icmp' || ia.op === 'fcmp') && ops[0]!.type.kind === 'packed') b.error(`vector types not supported by ${ia.op} instruction`, at);
      }
    }
  }
}
