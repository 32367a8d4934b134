/**
 * From the parsed text to the module graph, with LLVM 1.9's parser's rules: values live in
 * per-type planes (`%x` of type int and `%x` of type float are two values), unnamed values are
 * numbered per plane (module-level ones first), forward references resolve once everything is
 * defined, a function declared and then defined is one function, and the obsolete spellings the
 * parser still took (`div`, `rem`, `not`) become what LLVM made of them.
 */
import { emptyModule, nullValue } from '../graph/describe.js';
import type { Module } from '../graph/module.js';
import { integerRange, isFirstClassType, isFloatingPoint, isInteger, primitiveTypes, type FunctionType, type PointerType, type Type } from '../graph/type.js';
import type { Constant, ConstantAggregate, Function, GlobalValue, GlobalVariable, InlineAsm, Opcode, Value } from '../graph/value.js';
import type { SourceText } from './assembly-error.js';
import type { ConstExprAst, ConstItem, FunctionItem, GlobalItem, ModuleAst, TypedValue, ValueRef } from './ast.js';
import { unescapeBytes } from './lexer.js';
import { resolveTypes, type ResolvedTypes } from './resolve-types.js';
import { describeType } from '../graph/describe.js';
import { guessSymbolLayouts } from './symbol-layout.js';
import { newVarArgsState, rewriteObsoleteVarArgs, type AfterParsingHost } from './obsolete-varargs.js';
import { upgradeIntrinsicCalls } from './intrinsic-upgrade.js';
import { FunctionSymbolTables } from './function-symbols.js';
import { uniqueName } from '../graph/symbol-names.js';
import { functionDeclaration } from '../graph/declaration.js';
import { buildFunctionBody, refText, upgradeBinaryOpcode, type BodyHost, type LocalScope } from './function-body.js';
import { ConstantFolder, type BinaryOpcode, type Comparison } from '../fold/index.js';
import { DIALECT_VERSION } from './dialect.js';
import { formatFor } from '../format/format-table.js';

/** One symbol table: named values by plane (type), and unnamed ones numbered per plane. */
class Planes {
  readonly named = new Map<Type, Map<string, Value>>();
  readonly numbered = new Map<Type, Value[]>();

  lookupName(t: Type, name: string): Value | undefined {
    return this.named.get(t)?.get(name);
  }

  defineName(t: Type, name: string, v: Value): boolean {
    let plane = this.named.get(t);
    if (plane === undefined) this.named.set(t, (plane = new Map()));
    if (plane.has(name)) return false;
    plane.set(name, v);
    return true;
  }

  /** Numbers an unnamed value; returns its number. */
  number(t: Type, v: Value): number {
    let plane = this.numbered.get(t);
    if (plane === undefined) this.numbered.set(t, (plane = []));
    plane.push(v);
    return plane.length - 1;
  }

  count(t: Type): number {
    return this.numbered.get(t)?.length ?? 0;
  }
}

/**
 * The releases whose assembly text we take; each one's `llvm-as` wrote one bytecode version.
 *
 * @category Assemble
 */
/** Whose assembly a text is: an LLVM 1.x release's, or LLVM 2.0-development's (r36867, `llvm2/`). */
export type Dialect = '1.1' | '1.2' | '1.3' | '1.8' | '1.9' | '2.0';

export function buildModule(ast: ModuleAst, source: SourceText, dialect: Dialect): Module {
  return new ModuleBuilderFromText(ast, source, dialect).build();
}

class ModuleBuilderFromText implements BodyHost {
  private readonly types: ResolvedTypes;
  private readonly module: Module = emptyModule();
  private readonly globals = new Planes();
  private readonly defined = new Set<Function>();
  private readonly pendingGlobals: { gv: GlobalVariable; item: GlobalItem }[] = [];
  private readonly bodies: { fn: Function; item: FunctionItem }[] = [];

  /** Before LLVM 1.6, `vaarg`/`vanext` were instructions of their own (kept as written). */
  readonly legacyVarArgs: boolean;
  /** What parsing 1.6+ text saw of the old variable arguments (obsolete-varargs.ts). */
  readonly varArgs = newVarArgsState();
  /** Functions the parser made while building a body, each placed right after that body's function. */
  private readonly madeAfter = new Map<Function, Function[]>();

  constructor(
    private readonly ast: ModuleAst,
    private readonly source: SourceText,
    readonly dialect: Dialect,
  ) {
    this.legacyVarArgs = dialect === '1.1' || dialect === '1.2' || dialect === '1.3';
    this.types = resolveTypes(ast, source, this.legacyVarArgs);
    this.nodeTypes = ast.types.map((_, node) => this.types.typeOf(node));
    this.folder = this.legacyVarArgs ? undefined : new ConstantFolder({ unique: (c) => this.unique(c), pointerTo: (t) => this.pointerTo(t) });
  }

  private fail(message: string, at: number): never {
    throw this.source.error(message, at);
  }

  private t(node: number): Type {
    return this.nodeTypes[node]!;
  }

  readonly nodeTypes: readonly Type[];

  private show(t: Type): string {
    return describeType(t);
  }

  build(): Module {
    const m = this.module;
    let dataLayout = '';
    for (const item of this.ast.items) {
      switch (item.k) {
        case 'target':
          if (item.what === 'triple') m.targetTriple = item.value;
          else if (item.what === 'datalayout') dataLayout = item.value;
          else if (item.what === 'endian') dataLayout += (dataLayout ? '-' : '') + (item.value === 'little' ? 'e' : 'E');
          else dataLayout += (dataLayout ? '-' : '') + `p:${item.value}:${item.value}`;
          break;
        case 'deplibs':
          m.dependentLibraries.push(...item.libraries);
          break;
        case 'asm':
          m.inlineAsm = m.inlineAsm ? `${m.inlineAsm}\n${unescapeBytes(item.text)}` : unescapeBytes(item.text);
          break;
        case 'typedef':
          break;
        case 'const':
          this.declareConstant(item);
          break;
        case 'global':
          this.declareGlobal(item);
          break;
        case 'function':
          this.declareFunction(item);
          break;
      }
    }
    applyDataLayout(m, dataLayout);
    m.typeNames = this.types.names;
    m.types = this.types.derived;
    this.resolveNamedConstants();
    this.resolveInitializers();
    for (const { fn, item } of this.bodies) buildFunctionBody(this, fn, item, item.body!);
    this.placeFunctionsMadeInBodies();
    if (!this.legacyVarArgs) {
      // LLVM ran this after parsing: what it makes, it made after every type of the text.
      this.types.interner.mark = this.ast.types.length;
      // What LLVM's parser did once the module was read: old intrinsics renamed, then old varargs.
      const host = this.varArgsHost();
      const tables = new FunctionSymbolTables(this.varArgs.lastUnique);
      if (this.folder !== undefined) upgradeIntrinsicCalls(host, this.folder, tables);
      rewriteObsoleteVarArgs(host, this.varArgs, tables);
    }
    if (this.dialect === '1.8' || this.dialect === '1.9') guessSymbolLayouts(m, (t) => this.types.interner.creationRank(t));
    // LLVM 1.4-1.9's llvm-as kept dependent libraries as a set: a library named again was dropped.
    if (formatFor(DIALECT_VERSION[this.dialect])?.uniqueDependentLibraries === true) m.dependentLibraries = [...new Set(m.dependentLibraries)];
    return m;
  }

  // -------------------------------------------------------------------------------------------
  // Globals and functions

  private declareGlobal(item: GlobalItem): void {
    this.types.interner.mark = item.mark;
    const valueType = this.t(item.type);
    if (valueType.kind === 'function') this.fail('a global variable cannot have a function type', item.at);
    if (valueType.kind === 'void' || valueType.kind === 'label') this.fail(`a global variable of type ${this.show(valueType)}`, item.at);
    const type = this.types.interner.pointer(valueType) as PointerType;
    let name = item.name;
    if (name !== undefined) {
      const existing = this.globals.lookupName(type, name);
      // LLVM 1.3-1.9 looked for the earlier definition with `Module::getGlobalVariable`, which
      // passes over internal globals: the new one was made beside it, and the symbol table gave
      // it a unique name (`%B` → `%B1`). LLVM 1.1 and 1.2 merged whatever the plane held.
      const passedOver = existing?.kind === 'global' && existing.linkage === 'internal' && !this.mergesInternalGlobals;
      if (existing !== undefined && !passedOver) {
        // A front end's habit LLVM's parser tolerated: the same global defined again is merged
        // when at most one of the two has an initializer, or both have the same one (checked
        // once initializers are known, in resolveInitializers).
        if (existing.kind !== 'global') this.fail(`redefinition of global variable '%${name}' of type ${this.show(valueType)}`, item.at);
        if (item.isConstant) existing.isConstant = true;
        existing.linkage = item.linkage;
        if (item.section !== undefined) existing.section = item.section;
        if (item.alignment !== 0) existing.alignment = item.alignment;
        if (item.initializer !== undefined) this.pendingGlobals.push({ gv: existing, item });
        return;
      }
      if (passedOver) name = uniqueName((n) => this.globals.lookupName(type, n) !== undefined, name, this.moduleLastUnique);
    }
    const gv: GlobalVariable = {
      kind: 'global',
      type,
      valueType,
      linkage: item.linkage,
      isConstant: item.isConstant,
      alignment: item.alignment,
      ...(name !== undefined ? { name } : {}),
      ...(item.section !== undefined ? { section: item.section } : {}),
    };
    if (name !== undefined) this.globals.defineName(type, name, gv);
    else this.globals.number(type, gv);
    this.module.globals.push(gv);
    if (item.initializer !== undefined) this.pendingGlobals.push({ gv, item });
  }

  /**
   * `%X = const int 0` (LLVM 1.1 and 1.2; 1.3 dropped the word): the constant itself named in the
   * module's symbol table, so `%X` of its type is that constant, and the file's symbol table names
   * it. An unnamed one went into the first function's numbered values (the parser filed it in the
   * wrong table), which is not reproduced: it is refused.
   */
  private declareConstant(item: ConstItem): void {
    if (this.dialect !== '1.1' && this.dialect !== '1.2') {
      this.fail(
        `'const' definitions were LLVM 1.1 and 1.2's (1.3 dropped them): assemble this text as one of theirs (--dialect 1.2), or write a global constant`,
        item.at,
      );
    }
    if (item.name === undefined)
      this.fail("an unnamed 'const' definition (LLVM 1.1 and 1.2 numbered it among the first function's values; not supported): name it", item.at);
    this.pendingConstants.push(item as ConstItem & { name: string });
  }

  private readonly pendingConstants: (ConstItem & { name: string })[] = [];

  /** Named constants, before initializers and bodies refer to them (see declareConstant). */
  private resolveNamedConstants(): void {
    if (this.pendingConstants.length === 0) return;
    const planes: { type: Type; values: Value[] }[] = [];
    for (const item of this.pendingConstants) {
      const c = this.constant(this.t(item.value.type), item.value.ref, null);
      const existing = this.globals.lookupName(c.type, item.name);
      // The same constant named again was taken (constants are unique); anything else is a redefinition.
      if (existing === c) continue;
      if (existing !== undefined || ('name' in c && c.name !== undefined && c.name !== item.name)) {
        this.fail(`redefinition of '%${item.name}' of type ${this.show(c.type)}`, item.at);
      }
      if (c.kind === 'global' || c.kind === 'function') this.fail(`'const' of a global value ('%${item.name}')`, item.at);
      (c as { name?: string }).name = item.name;
      this.globals.defineName(c.type, item.name, c);
      let plane = planes.find((p) => p.type === c.type);
      if (plane === undefined) planes.push((plane = { type: c.type, values: [] }));
      plane.values.push(c);
    }
    // The writer finds named constants in the symbol table's layout (as a file read back gives them).
    this.module.layout = { valuePlanes: planes };
  }

  /** LLVM 1.1 and 1.2 merged a global defined again even when the first was internal (see declareGlobal). */
  private get mergesInternalGlobals(): boolean {
    return this.dialect === '1.1' || this.dialect === '1.2';
  }

  /** The module symbol table's counter for unique names (`SymbolTable::LastUnique`). */
  private readonly moduleLastUnique = { value: 0 };

  /**
   * Each global's initializer, in the order of the text. A global defined twice with two
   * initializers was merged only when both are the same constant (LLVM's constants are unique, so
   * its parser compared pointers); otherwise every release refused it.
   */
  private resolveInitializers(): void {
    for (const { gv, item } of this.pendingGlobals) {
      if (item.initializer === undefined) continue;
      const init = this.constant(this.t(item.initializer.type), item.initializer.ref, null);
      if (gv.initializer !== undefined && gv.initializer !== init) {
        this.fail(`redefinition of global variable '%${item.name ?? ''}' of type ${this.show(gv.valueType)} with another initializer`, item.at);
      }
      gv.initializer = init;
    }
  }

  private declareFunction(item: FunctionItem): void {
    this.types.interner.mark = item.mark;
    const returnType = this.t(item.returnType);
    if (!isFirstClassType(returnType) && returnType.kind !== 'void') this.fail('functions cannot return aggregate types', item.at);
    const params = item.args.map((a) => {
      const p = this.t(a.type);
      if (p.kind === 'void') this.fail('a parameter of type void', a.at);
      return p;
    });
    const functionType = this.types.interner.function(returnType, params, item.varArg) as FunctionType;
    const type = this.types.interner.pointer(functionType) as PointerType;
    let fn = this.globals.lookupName(type, item.name) as Function | undefined;
    if (fn !== undefined) {
      if (fn.kind !== 'function') this.fail(`'%${item.name}' is already a global variable of this type`, item.at);
      if (!item.isDeclare && this.defined.has(fn)) this.fail(`redefinition of function '%${item.name}'`, item.at);
    } else {
      fn = functionDeclaration(functionType, type);
      if (item.name !== '') {
        fn.name = item.name;
        this.globals.defineName(type, item.name, fn);
      } else this.globals.number(type, fn);
      // A declaration's arguments exist but have no names (bytecode keeps none for them).
      this.module.functions.push(fn);
    }
    if (item.isDeclare || !this.defined.has(fn)) {
      // A declaration always sets the linkage (LLVM 1.9 did, for a pointer to a declared function).
      if (item.isDeclare) fn.linkage = item.linkage;
    }
    fn.callingConv = item.callingConv;
    fn.alignment = item.alignment;
    if (item.section !== undefined) fn.section = item.section;
    if (!item.isDeclare) {
      fn.linkage = item.linkage;
      fn.isDeclaration = false;
      this.defined.add(fn);
      this.bodies.push({ fn, item });
    }
  }

  /**
   * LLVM's `Module::getOrInsertFunction` while parsing `inside`'s body: the function of that name
   * in that type's plane, else a new declaration, which LLVM appended to the module there and
   * then, so it comes right after `inside` (and what `inside`'s body made before).
   */
  getOrInsertFunctionWhileParsing(name: string, functionType: FunctionType, inside: Function, at: number): Function {
    const existing = this.globals.lookupName(this.pointerTo(functionType), name);
    if (existing !== undefined) {
      if (existing.kind !== 'function') this.error(`'%${name}' is a global variable, not the function LLVM's parser needed here`, at);
      return existing;
    }
    const fn = this.newDeclaration(name, functionType);
    const made = this.madeAfter.get(inside);
    if (made === undefined) this.madeAfter.set(inside, [fn]);
    else made.push(fn);
    return fn;
  }

  private newDeclaration(name: string, functionType: FunctionType): Function {
    const type = this.pointerTo(functionType);
    const fn = functionDeclaration(functionType, type, name);
    this.globals.defineName(type, name, fn);
    return fn;
  }

  private placeFunctionsMadeInBodies(): void {
    if (this.madeAfter.size === 0) return;
    const ordered: Function[] = [];
    for (const fn of this.module.functions) ordered.push(fn, ...(this.madeAfter.get(fn) ?? []));
    this.module.functions = ordered;
  }

  private varArgsHost(): AfterParsingHost {
    return {
      module: this.module,
      pointerTo: (t) => this.pointerTo(t),
      functionType: (r, p, v) => this.functionType(r, p, v),
      structType: (elements) => this.types.interner.struct(elements),
      getOrInsertFunction: (name, functionType) => {
        const existing = this.globals.lookupName(this.pointerTo(functionType), name);
        if (existing !== undefined && existing.kind === 'function') return existing;
        if (existing !== undefined) this.fail(`'%${name}' is a global variable, not the function LLVM's parser needed`, 0);
        const fn = this.newDeclaration(name, functionType);
        this.module.functions.push(fn);
        return fn;
      },
      eraseFunction: (fn) => {
        // LLVM freed the function; on the corpus (Feature/varargs) the type LLVM made next took
        // that memory, below every type of the text but above those made at start-up.
        this.types.interner.reusingFreedMemory = true;
        this.types.interner.mark = -0.3;
        this.module.functions = this.module.functions.filter((f) => f !== fn);
        if (fn.name !== undefined) this.globals.named.get(fn.type)?.delete(fn.name);
      },
      fail: (message) => {
        throw this.source.error(message, 0);
      },
    };
  }

  lookupGlobal(type: Type, ref: ValueRef & ({ k: 'name' } | { k: 'num' })): Value | undefined {
    if (ref.k === 'name') return this.globals.lookupName(type, ref.name);
    return this.globals.numbered.get(type)?.[ref.n];
  }

  lookupGlobalName(type: Type, name: string): Value | undefined {
    return this.globals.lookupName(type, name);
  }

  lookupGlobalNumber(type: Type, n: number): Value | undefined {
    return this.globals.numbered.get(type)?.[n];
  }

  moduleCount(type: Type): number {
    return this.globals.count(type);
  }

  pointerTo(t: Type): PointerType {
    return this.types.interner.pointer(t) as PointerType;
  }

  functionType(ret: Type, params: readonly Type[], varArg: boolean): FunctionType {
    return this.types.interner.function(ret, params, varArg) as FunctionType;
  }

  /** Types made from here on were made, in LLVM's parser, where the parser had made `mark` nodes. */
  markTypes(mark: number): void {
    this.types.interner.mark = mark;
  }

  describe(t: Type): string {
    return this.show(t);
  }

  error(message: string, at: number): never {
    return this.fail(message, at);
  }

  // -------------------------------------------------------------------------------------------
  // Constants

  /**
   * A constant of type `t`. `scope` resolves `%name`/`%N` inside a function (for the values a
   * function may use as constants: globals, through the module's planes, as LLVM did).
   */
  constant(t: Type, ref: ValueRef, scope: LocalScope | null): Constant {
    if (ref.k === 'int') return this.integerConstant(t, ref.text, ref.at);
    return this.unique(this.makeConstant(t, ref, scope));
  }

  integerConstant(t: Type, text: string, at: number): Constant {
    // Integer literals repeat (`int 0` thousands of times): one parse and one key per spelling.
    let byText = this.intConstants.get(t);
    if (byText === undefined) this.intConstants.set(t, (byText = new Map()));
    let c = byText.get(text);
    if (c === undefined) byText.set(text, (c = this.unique({ kind: 'int', type: t, value: this.integer(t, text, at) })));
    return c;
  }

  /** The unique integer constant of each type and literal spelling (see `constant`). */
  private readonly intConstants = new Map<Type, Map<string, Constant>>();
  /** The element constants of string constants, by element type and byte (see makeConstant). */
  private readonly stringBytes = new Map<Type, Constant[]>();

  /**
   * LLVM's constants are unique (one `int 5`, one `cast (int* %g to long)`): what a global's
   * `#uses` counts are the distinct constants that name it, so equal constants are one object.
   */
  private unique(c: Constant): Constant {
    const key = this.constantKey(c);
    if (key === undefined) return c;
    const existing = this.constants.get(key);
    if (existing !== undefined) return existing;
    this.constants.set(key, c);
    return c;
  }

  private constantKey(c: Constant): string | undefined {
    const t = this.typeId(c.type);
    switch (c.kind) {
      case 'int':
      case 'bool':
        return `${c.kind}${t}:${String(c.value)}`;
      case 'fp':
        return `fp${t}:${c.bits}`;
      case 'null':
      case 'undef':
      case 'zeroinitializer':
        return `${c.kind}${t}`;
      case 'array':
      case 'struct':
      case 'packed':
        return `${c.kind}${t}(${c.elements.map((e) => this.valueId(e)).join(',')})`;
      case 'expr':
        return `expr${t}:${c.opcode}(${c.operands.map((e) => this.valueId(e)).join(',')})`;
      default:
        return undefined; // globals are themselves; inline asm is not uniqued by the printer
    }
  }

  private readonly constants = new Map<string, Constant>();
  private readonly ids = new Map<object, number>();

  private typeId(t: Type): number {
    return this.idOf(t);
  }

  private valueId(v: Value): number {
    return this.idOf(v);
  }

  private idOf(o: object): number {
    let id = this.ids.get(o);
    if (id === undefined) this.ids.set(o, (id = this.ids.size));
    return id;
  }

  private makeConstant(t: Type, ref: ValueRef, scope: LocalScope | null): Constant {
    const at = ref.at;
    switch (ref.k) {
      case 'name':
      case 'num': {
        const v = this.lookupGlobal(t, ref);
        if (v === undefined) {
          if (scope !== null) {
            if (scope.isLocal(t, ref)) this.fail(`'${refText(ref)}' is not a constant`, at);
          }
          if (t.kind !== 'pointer') this.fail(`a reference to a global value must have a pointer type, not ${this.show(t)}`, at);
          this.fail(`use of undefined global '${refText(ref)}' of type ${this.show(t)}`, at);
        }
        return v as GlobalValue;
      }
      case 'int':
        return { kind: 'int', type: t, value: this.integer(t, ref.text, at) };
      case 'fp':
        return this.float(t, ref.text, at);
      case 'bool':
        if (t.kind !== 'bool') this.fail(`'${ref.value}' is not a constant of type ${this.show(t)}`, at);
        return { kind: 'bool', type: t, value: ref.value };
      case 'null':
        if (t.kind !== 'pointer') this.fail(`'null' of the non-pointer type ${this.show(t)}`, at);
        return { kind: 'null', type: t };
      case 'undef':
        if (t.kind === 'void' || t.kind === 'label') this.fail(`'undef' of type ${this.show(t)}`, at);
        return { kind: 'undef', type: t };
      case 'zero':
        if (t.kind === 'function' || t.kind === 'label' || t.kind === 'opaque' || t.kind === 'void') this.fail(`'zeroinitializer' of type ${this.show(t)}`, at);
        return nullValue(t);
      case 'array': {
        if (t.kind !== 'array') this.fail(`an array constant of the non-array type ${this.show(t)}`, at);
        if (ref.elements.length !== t.length) this.fail(`an array of ${t.length} elements initialized with ${ref.elements.length}`, at);
        return aggregate(
          'array',
          t,
          ref.elements.map((e) => this.typedConstant(e, t.element, scope)),
        );
      }
      case 'packed': {
        if (t.kind !== 'packed') this.fail(`a packed constant of the non-packed type ${this.show(t)}`, at);
        if (ref.elements.length !== t.length) this.fail(`a packed type of ${t.length} elements initialized with ${ref.elements.length}`, at);
        return aggregate(
          'packed',
          t,
          ref.elements.map((e) => this.typedConstant(e, t.element, scope)),
        );
      }
      case 'struct': {
        if (t.kind !== 'struct') this.fail(`a structure constant of the non-structure type ${this.show(t)}`, at);
        if (ref.elements.length !== t.elements.length) this.fail(`a structure of ${t.elements.length} members initialized with ${ref.elements.length}`, at);
        return aggregate(
          'struct',
          t,
          ref.elements.map((e, i) => this.typedConstant(e, t.elements[i]!, scope)),
        );
      }
      case 'string': {
        if (t.kind !== 'array' || (t.element.kind !== 'sbyte' && t.element.kind !== 'ubyte'))
          this.fail(`a string constant of type ${this.show(t)}: only arrays of sbyte or ubyte`, at);
        const bytes = unescapeBytes(ref.raw);
        if (bytes.length !== t.length) this.fail(`a string of ${bytes.length} bytes for an array of ${t.length}`, at);
        const el = t.element;
        let byByte = this.stringBytes.get(el);
        if (byByte === undefined) this.stringBytes.set(el, (byByte = new Array<Constant>(256)));
        return byteArray(t, bytes, el.kind === 'sbyte', byByte);
      }
      case 'expr':
        return this.constantExpr(t, ref.expr, at, scope);
      case 'asm':
        return inlineAsm(t, ref) ?? this.fail('inline assembly must have a pointer-to-function type', at);
    }
  }

  private typedConstant(tv: TypedValue, expected: Type, scope: LocalScope | null): Constant {
    const t = this.t(tv.type);
    if (t !== expected) this.fail(`an element of type ${this.show(t)} where ${this.show(expected)} is expected`, tv.ref.at);
    return this.constant(t, tv.ref, scope);
  }

  integer(t: Type, text: string, at: number): bigint {
    let byText = this.intValues.get(t);
    if (byText === undefined) this.intValues.set(t, (byText = new Map()));
    let v = byText.get(text);
    if (v === undefined) byText.set(text, (v = this.parseInteger(t, text, at)));
    return v;
  }

  /** The value of each type and literal spelling `integer` read (a spelling that does not fit fails each time). */
  private readonly intValues = new Map<Type, Map<string, bigint>>();

  private parseInteger(t: Type, text: string, at: number): bigint {
    if (!isInteger(t)) this.fail(`an integer constant of the non-integer type ${this.show(t)}`, at);
    let v: bigint;
    let signedToken: boolean;
    if (text.startsWith('s0x') || text.startsWith('u0x')) {
      v = BigInt('0x' + text.slice(3)) & 0xffffffffffffffffn;
      signedToken = text[0] === 's';
      if (signedToken) v = BigInt.asIntN(64, v);
    } else {
      v = BigInt(text);
      signedToken = v < 0n;
      if (signedToken && v < -(1n << 63n)) this.fail(`the constant ${text} is too large for 64 bits`, at);
      if (!signedToken && v > 0xffffffffffffffffn) this.fail(`the constant ${text} is too large for 64 bits`, at);
    }
    const [lo, hi] = integerRange(t);
    if (v >= lo && v <= hi) return v;
    // An unsigned literal too large for a signed type is that type's two's complement reading
    // (LLVM 1.9's getVal: "this is really a signed reference").
    if (!signedToken) {
      const asSigned = BigInt.asIntN(64, v);
      if (asSigned >= lo && asSigned <= hi) return asSigned;
    }
    return this.fail(`the constant ${text} does not fit ${this.show(t)}`, at);
  }

  private float(t: Type, text: string, at: number): Constant {
    if (!isFloatingPoint(t)) this.fail(`a floating-point constant of the non-floating-point type ${this.show(t)}`, at);
    // The lexer made every literal a double (`atof`, or `0x…` as a double's IEEE bits), and every
    // release took any double for either type (`ConstantFP::isValueValidForType` said yes to all).
    const view = new DataView(new ArrayBuffer(8));
    if (text.startsWith('0x')) view.setBigUint64(0, BigInt(text) & 0xffffffffffffffffn);
    else view.setFloat64(0, Number(text));
    const doubleBits = view.getBigUint64(0);
    const c: Constant =
      t.kind === 'float' ? { kind: 'fp', type: t, ...doubleToFloat(doubleBits) } : { kind: 'fp', type: t, value: view.getFloat64(0), bits: doubleBits };
    return this.dialect === '1.1' ? this.firstEqualFloat(c, view.getFloat64(0)) : c;
  }

  /**
   * LLVM 1.1 kept floating-point constants in a map keyed by the double value itself (1.2 keyed
   * them by their bits), so `-0.0` and `0.0` compared equal: whichever of the two the text used
   * first stood for both. (A `float` constant also kept its unrounded double, which only the
   * writer rounded; two spellings that round to one float were two constants of the same bytes,
   * which the writer here, keying constants by their bits, makes one.)
   */
  private firstEqualFloat(c: Constant, value: number): Constant {
    if (value !== 0) return c;
    const key = `${this.typeId(c.type)}`;
    const first = this.firstZeros.get(key);
    if (first !== undefined) return first;
    this.firstZeros.set(key, c);
    return c;
  }

  /** LLVM 1.1: the first zero (`0.0` or `-0.0`) of each floating-point type (see firstEqualFloat). */
  private readonly firstZeros = new Map<string, Constant>();

  private constantExpr(t: Type, e: ConstExprAst, at: number, scope: LocalScope | null): Constant {
    const ops = e.operands.map((o) => this.constant(this.t(o.type), o.ref, scope));
    const opType = (i: number): Type => ops[i]!.type;
    let type: Type;
    let opcode = e.op as Opcode;
    switch (e.op) {
      case 'cast': {
        const to = this.t(e.to!);
        if (!isFirstClassType(to) || !isFirstClassType(opType(0))) this.fail(`a cast between ${this.show(opType(0))} and ${this.show(to)}`, at);
        type = to;
        break;
      }
      case 'getelementptr': {
        const base = opType(0);
        if (base.kind !== 'pointer') this.fail('getelementptr of a non-pointer', at);
        type = this.pointerTo(this.indexedType(base, ops.slice(1), at));
        break;
      }
      case 'select':
        if (opType(0).kind !== 'bool') this.fail('select needs a bool condition', at);
        if (opType(1) !== opType(2)) this.fail('the two values of a select have different types', at);
        type = opType(1);
        break;
      case 'shl':
      case 'shr':
        if (!isInteger(opType(0))) this.fail('a shift of a non-integer', at);
        if (opType(1).kind !== 'ubyte') this.fail('a shift amount must be a ubyte', at);
        type = opType(0);
        break;
      case 'extractelement':
        if (opType(0).kind !== 'packed') this.fail('extractelement of a non-packed value', at);
        type = (opType(0) as { element: Type }).element;
        break;
      case 'insertelement':
      case 'shufflevector':
        type = opType(0);
        break;
      default: {
        if (opType(0) !== opType(1)) this.fail(`the operands of ${e.op} have different types`, at);
        opcode = upgradeBinaryOpcode(e.op, opType(0));
        type = opcode.startsWith('set') ? primitiveTypes.bool : opType(0);
      }
    }
    if (type !== t) this.fail(`a constant expression of type ${this.show(type)} where ${this.show(t)} is expected`, at);
    if (this.folder === undefined) return { kind: 'expr', type, opcode, operands: ops };
    return this.fold(this.folder, opcode, type, ops);
  }

  /**
   * LLVM 1.8 and 1.9 built a constant expression through `ConstantExpr::get*`, which folded it
   * (src/fold): the module holds what they held. (Earlier releases folded by other rules, which
   * no tool at hand can check; their text is kept as written.)
   */
  private readonly folder: ConstantFolder | undefined;

  private fold(f: ConstantFolder, opcode: Opcode, type: Type, ops: Constant[]): Constant {
    switch (opcode) {
      case 'cast':
        return f.cast(ops[0]!, type);
      case 'getelementptr':
        return f.getElementPtr(ops[0]!, ops.slice(1));
      case 'select':
        return f.select(ops[0]!, ops[1]!, ops[2]!);
      case 'extractelement':
        return f.extractElement(ops[0]!, ops[1]!);
      case 'insertelement':
        return f.insertElement(ops[0]!, ops[1]!, ops[2]!);
      case 'shufflevector':
        return f.shuffleVector(ops[0]!, ops[1]!, ops[2]!);
      default:
        return f.binary(opcode as BinaryOpcode | Comparison, ops[0]!, ops[1]!);
    }
  }

  /** The type `getelementptr` reaches through `indices` from a pointer of type `base`. */
  indexedType(base: Type, indices: readonly Value[], at: number): Type {
    let t: Type = (base as PointerType).element;
    for (let i = 1; i < indices.length; i++) {
      const idx = indices[i]!;
      if (t.kind === 'struct') {
        if (idx.kind !== 'int' || (idx.type.kind !== 'ubyte' && idx.type.kind !== 'uint')) this.fail('a structure index must be a ubyte or uint constant', at);
        const field = t.elements[Number(idx.value)];
        if (field === undefined) this.fail(`structure index ${idx.value} is out of range`, at);
        t = field;
      } else if (t.kind === 'array' || t.kind === 'packed') {
        if (!isInteger(idx.type)) this.fail('an array index must be an integer', at);
        t = t.element;
      } else this.fail(`getelementptr indexes into ${this.show(t)}, which is not a structure or an array`, at);
    }
    if (indices.length > 0 && !isInteger(indices[0]!.type)) this.fail('a getelementptr index must be an integer', at);
    return t;
  }
}

/**
 * `target endian`, `target pointersize` and `target datalayout` as LLVM 1.9 kept them: one
 * data-layout string (`endian` and `pointersize` append to it, `datalayout` replaces it), read
 * back at the end for the two facts bytecode stores.
 */
function applyDataLayout(m: Module, layout: string): void {
  for (const token of layout.split('-')) {
    if (token.startsWith('e')) m.endianness = 'little';
    else if (token.startsWith('E')) m.endianness = 'big';
    else if (token.startsWith('p')) {
      const size = Number.parseInt(token.split(':')[1] ?? '', 10);
      if (size === 32 || size === 64) m.pointerSize = size;
    }
  }
}

/**
 * A `c"…"` string's bytes (escapes resolved) as a constant of the array type `t`, its elements
 * signed bytes where `signed`. One element constant per byte value, shared through `byByte` by
 * every string of the element type: a string of a million bytes made a million objects (and as
 * many BigInts) otherwise.
 */
export function byteArray(t: Type, bytes: string, signed: boolean, byByte: Constant[]): Constant {
  const el = (t as { element: Type }).element;
  const elements: Constant[] = new Array<Constant>(bytes.length);
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes.charCodeAt(i);
    elements[i] = byByte[b] ??= { kind: 'int', type: el, value: BigInt(signed && b > 127 ? b - 256 : b) };
  }
  return aggregate('array', t, elements);
}

/** `asm "…", "…"` as a constant of type `t`, or undefined where `t` is no pointer to a function (each dialect words that refusal). */
export function inlineAsm(t: Type, ref: Extract<ValueRef, { k: 'asm' }>): InlineAsm | undefined {
  if (t.kind !== 'pointer' || t.element.kind !== 'function') return undefined;
  return { kind: 'inlineasm', type: t, asm: unescapeBytes(ref.asm), constraints: unescapeBytes(ref.constraints), hasSideEffects: ref.sideEffect };
}

export function aggregate(kind: 'array' | 'struct' | 'packed', type: Type, elements: Constant[]): Constant {
  // LLVM's ConstantArray/Struct/Packed::get: all elements null (or none) is the zero value.
  if (elements.every(isNullConstant)) return { kind: 'zeroinitializer', type };
  const c: ConstantAggregate = { kind, type, elements };
  return c;
}

function isNullConstant(c: Constant): boolean {
  switch (c.kind) {
    case 'int':
      return c.value === 0n;
    case 'bool':
      return !c.value;
    case 'fp':
      return c.bits === 0n;
    case 'null':
    case 'zeroinitializer':
      return true;
    default:
      return false;
  }
}

/**
 * A double (its IEEE bits) as C's `(float)` made it on LLVM's hosts (x86's SSE or x87 store):
 * rounded to nearest even, too large becoming an infinity and too small a zero (a double's
 * denormal is one), and a NaN kept as a quiet NaN with its sign and the top of its payload.
 */
export function doubleToFloat(doubleBits: bigint): { value: number; bits: bigint } {
  const view = new DataView(new ArrayBuffer(8));
  view.setBigUint64(0, doubleBits);
  const d = view.getFloat64(0);
  if (Number.isNaN(d)) {
    const sign = (doubleBits >> 63n) << 31n;
    const payload = (doubleBits & 0xfffffffffffffn) >> 29n;
    const bits = sign | 0x7fc00000n | payload;
    view.setUint32(0, Number(bits));
    return { value: view.getFloat32(0), bits };
  }
  view.setFloat32(0, d);
  return { value: Math.fround(d), bits: BigInt(view.getUint32(0)) };
}
