/**
 * Recursive-descent parser for LLVM 1.x assembly: the grammar of LLVM 1.9's
 * `llvmAsmParser.y` (which accepted the older releases' text too, with the obsolete spellings it
 * upgraded), one token of look-ahead. It builds the AST of `ast.ts`, function bodies as tapes of
 * numbers (body-tape.ts); nothing is resolved here but up-references, which only the nesting of
 * the text can resolve. What LLVM 2.0's parser (`llvm2/parser.ts`) does alike is
 * `parser-base.ts`'s; the 1.x dialect's words and messages are `dialect.ts`'s `SYNTAX_1X`.
 */
import { primitiveTypes, type PrimitiveType } from '../graph/type.js';
import type { Linkage } from '../graph/value.js';
import type { ArgAst, ConstExprAst, FunctionItem, ModuleAst, ModuleItem, TypedValue, ValueRef } from './ast.js';
import type { SourceText } from './assembly-error.js';
import { SYNTAX_1X } from './dialect.js';
import { KEYWORD_LIST, Tok, unescapeName } from './lexer.js';
import { type AssemblyLimits, DEFAULT_ASSEMBLY_LIMITS, ParserBase, type ParsedType } from './parser-base.js';
import { BINARY_OPCODES, IntBuffer, Op, Ref, VaArgKind, VECTOR_OPCODES, type BodyTape } from './body-tape.js';

export { type AssemblyLimits, DEFAULT_ASSEMBLY_LIMITS } from './parser-base.js';

const PRIMITIVE_KEYWORDS: Record<string, PrimitiveType> = {
  void: primitiveTypes.void,
  bool: primitiveTypes.bool,
  sbyte: primitiveTypes.sbyte,
  ubyte: primitiveTypes.ubyte,
  short: primitiveTypes.short,
  ushort: primitiveTypes.ushort,
  int: primitiveTypes.int,
  uint: primitiveTypes.uint,
  long: primitiveTypes.long,
  ulong: primitiveTypes.ulong,
  float: primitiveTypes.float,
  double: primitiveTypes.double,
  label: primitiveTypes.label,
};

/** The same, for lookups by the lexer's (interned) keyword strings. */
const PRIMITIVE_OF_KEYWORD: readonly (PrimitiveType | undefined)[] = KEYWORD_LIST.map((w) =>
  Object.hasOwn(PRIMITIVE_KEYWORDS, w) ? PRIMITIVE_KEYWORDS[w] : undefined,
);

const LINKAGES: Record<string, Linkage> = {
  internal: 'internal',
  linkonce: 'linkonce',
  weak: 'weak',
  appending: 'appending',
  dllimport: 'dllimport',
  dllexport: 'dllexport',
  extern_weak: 'extern_weak',
};

/** Per keyword (`Lexer.keyword`), its number among `list`, or -1. */
function byKeyword(list: readonly string[]): Int8Array {
  const table = new Int8Array(KEYWORD_LIST.length).fill(-1);
  list.forEach((word, i) => (table[KEYWORD_LIST.indexOf(word)] = i));
  return table;
}

const BINARY_OPCODE_OF_KEYWORD = byKeyword(BINARY_OPCODES);
const VECTOR_OPCODE_OF_KEYWORD = byKeyword(VECTOR_OPCODES);

/** The other words an instruction starts with, numbered for `Parser.instruction`'s switch (a jump table, not a chain of string comparisons). */
const enum InstructionWord {
  Not,
  Shl,
  Shr,
  Cast,
  Select,
  VaArg,
  ObsoleteVaArg,
  VaNext,
  Phi,
  Tail,
  Call,
  Malloc,
  Alloca,
  Free,
  Volatile,
  Load,
  Store,
  GetElementPtr,
  Ret,
  Br,
  Switch,
  Invoke,
  Unwind,
  Unreachable,
}
const INSTRUCTION_WORD_OF_KEYWORD = byKeyword([
  'not',
  'shl',
  'shr',
  'cast',
  'select',
  'va_arg',
  'vaarg',
  'vanext',
  'phi',
  'tail',
  'call',
  'malloc',
  'alloca',
  'free',
  'volatile',
  'load',
  'store',
  'getelementptr',
  'ret',
  'br',
  'switch',
  'invoke',
  'unwind',
  'unreachable',
]);

/** A body's tape until the module's is finished (see `Parser.module`). */
const EMPTY_TAPE = new Int32Array(0);

export function parseModuleText(source: SourceText, limits: AssemblyLimits = DEFAULT_ASSEMBLY_LIMITS): ModuleAst {
  return new Parser(source, limits).module();
}

class Parser extends ParserBase {
  /** The type nodes each function body made, `[first, end)`, in the order of the text. */
  private readonly bodyTypeRanges: [number, number][] = [];
  /** How many type nodes the module's first part (before `implementation` or a function) made. */
  private constPoolTypes = -1;
  /** The node of each primitive type's keyword (by `Lexer.keyword`), -1 until the text names it. */
  private readonly primNodes = new Int32Array(KEYWORD_LIST.length).fill(-1);
  /** The same for pointers (by pointee node), named references and numbered ones. */
  private readonly pointerNodes = new Map<number, number>();
  /** Array and packed nodes by element node, then length (no key string per `[N x T]`). */
  private readonly arrayNodes = new Map<number, Map<number, number>>();
  private readonly packedNodes = new Map<number, Map<number, number>>();
  private readonly namedNodes = new Map<string, number>();
  private readonly numberedNodes = new Map<number, number>();
  /**
   * One tape for every body of the module (no copy per body), with its strings and references;
   * each body's `code` is set to the finished tape at the end (see `module`).
   */
  private readonly code: IntBuffer;
  private readonly strings: string[] = [];
  private readonly refs: ValueRef[] = [];
  private readonly bodies: BodyTape[] = [];
  /** Where each instruction of the body being read starts on the tape (reused from body to body). */
  private readonly instructionStarts = new IntBuffer(1 << 10);

  constructor(source: SourceText, limits: AssemblyLimits) {
    super(source, limits, SYNTAX_1X);
    // About one number per four characters of text: a listing's tape rarely grows.
    this.code = new IntBuffer(Math.max(1 << 12, Math.min(source.text.length >> 2, 1 << 24)));
  }

  // -------------------------------------------------------------------------------------------
  // Module

  module(): ModuleAst {
    const items: ModuleItem[] = [];
    let inFunctions = false;
    while (this.lx.kind !== Tok.Eof) {
      const at = this.lx.start;
      if (this.eatKw('implementation')) {
        if (!inFunctions) this.constPoolTypes = this.types.length;
        inFunctions = true;
        continue;
      }
      if (this.eatKw('target')) {
        items.push(this.target(at));
        continue;
      }
      if (this.eatKw('deplibs')) {
        items.push({ k: 'deplibs', libraries: this.libraryNames() });
        continue;
      }
      if (this.eatKw('module')) {
        this.expectKw('asm');
        items.push({ k: 'asm', text: this.string('the assembly') });
        continue;
      }
      if (this.isKw('declare')) {
        this.lx.next();
        let linkage: Linkage = 'external';
        // LLVM 1.9's grammar gave `declare extern_weak` the dllimport linkage (its
        // FnDeclareLinkage rule set DLLImportLinkage for both words); so do we.
        if (this.eatKw('dllimport') || this.eatKw('extern_weak')) linkage = 'dllimport';
        items.push(this.functionHeader(at, true, linkage));
        continue;
      }
      // `%name =` / `"name" =`, then a type or global definition.
      let name: string | undefined;
      if ((this.lx.kind === Tok.VarName || this.lx.kind === Tok.String) && !inFunctions) {
        const isString = this.lx.kind === Tok.String;
        const n = this.lx.value;
        const nameAt = this.lx.start;
        this.lx.next();
        if (!this.eatChar('=')) this.fail(`expected '=' after ${isString ? 'the name' : `'%${n}'`}, found ${this.describe()}`);
        name = n;
        void nameAt;
      }
      if (!inFunctions && this.lx.kind === Tok.Char && this.lx.takeBareWord('const')) {
        const value = this.constVal();
        items.push(name === undefined ? { k: 'const', value, at } : { k: 'const', name, value, at });
        continue;
      }
      if (!inFunctions && this.isKw('type')) {
        this.lx.next();
        const t = this.closedType(true);
        items.push(name === undefined ? { k: 'typedef', type: t, at } : { k: 'typedef', name, type: t, at });
        continue;
      }
      const linkAt = this.lx.start;
      let linkage: Linkage | undefined;
      if (this.lx.kind === Tok.Keyword && LINKAGES[this.lx.value] !== undefined && Object.hasOwn(LINKAGES, this.lx.value)) {
        linkage = LINKAGES[this.lx.value]!;
        this.lx.next();
      }
      if (!inFunctions && (this.isKw('global') || this.isKw('constant') || this.isKw('external') || this.isKw('uninitialized'))) {
        items.push(this.globalVariable(at, name, linkage, linkAt));
        continue;
      }
      if (name !== undefined) this.fail(`expected 'type', 'global', 'constant' or 'external' after '=', found ${this.describe()}`);
      // Before the first function, LLVM's grammar read a linkage as the start of a global.
      if (linkage !== undefined && !inFunctions)
        this.fail(`expected 'global' or 'constant' after '${linkageWord(linkage)}' (a function with a linkage must come after 'implementation')`);
      // A function definition.
      if (!inFunctions) this.constPoolTypes = this.types.length;
      items.push(this.functionHeader(at, false, linkage ?? 'external'));
      inFunctions = true;
    }
    // The tape is finished: every body reads it from here on.
    const tape = this.code.view();
    for (const body of this.bodies) body.code = tape;
    const constPoolTypes = this.constPoolTypes < 0 ? this.types.length : this.constPoolTypes;
    return { types: this.types, items, constPoolTypes, bodyTypeRanges: this.bodyTypeRanges };
  }

  private target(at: number): ModuleItem {
    if (this.eatKw('endian')) {
      this.expectChar('=');
      if (this.eatKw('little')) return { k: 'target', what: 'endian', value: 'little', at };
      if (this.eatKw('big')) return { k: 'target', what: 'endian', value: 'big', at };
      this.fail(`expected 'little' or 'big', found ${this.describe()}`);
    }
    if (this.eatKw('pointersize')) {
      this.expectChar('=');
      const vAt = this.lx.start;
      const v = this.unsigned('a pointer size');
      if (v !== 32 && v !== 64) this.fail(`invalid pointer size ${v}: 32 or 64`, vAt);
      return { k: 'target', what: 'pointersize', value: String(v), at };
    }
    if (this.eatKw('triple')) {
      this.expectChar('=');
      return { k: 'target', what: 'triple', value: this.string('the target triple'), at };
    }
    if (this.eatKw('datalayout')) {
      this.expectChar('=');
      return { k: 'target', what: 'datalayout', value: this.string('the data layout'), at };
    }
    return this.fail(`expected 'endian', 'pointersize', 'triple' or 'datalayout' after 'target', found ${this.describe()}`);
  }

  private globalVariable(at: number, name: string | undefined, linkage: Linkage | undefined, linkAt: number): ModuleItem {
    let external = false;
    if (this.isKw('external') || this.isKw('uninitialized')) {
      if (linkage !== undefined) this.fail(`'${this.lx.value}' after a linkage`);
      external = true;
      this.lx.next();
      linkage = 'external';
    } else if (linkage === 'dllimport' || linkage === 'extern_weak') {
      external = true;
    }
    let isConstant: boolean;
    if (this.eatKw('global')) isConstant = false;
    else if (this.eatKw('constant')) isConstant = true;
    else return this.fail(`expected 'global' or 'constant', found ${this.describe()}`);
    void linkAt;
    let type: number;
    let initializer: TypedValue | undefined;
    if (external) type = this.closedType(false);
    else {
      initializer = this.constVal();
      type = initializer.type;
    }
    let section: string | undefined;
    let alignment = 0;
    while (this.eatChar(',')) {
      if (this.eatKw('section')) section = this.sectionName();
      else if (this.eatKw('align')) alignment = this.alignment();
      else this.fail(`expected 'section' or 'align', found ${this.describe()}`);
    }
    return {
      k: 'global',
      mark: this.types.length,
      ...(name !== undefined ? { name } : {}),
      linkage: linkage ?? 'external',
      isConstant,
      type,
      ...(initializer !== undefined ? { initializer } : {}),
      ...(section !== undefined ? { section } : {}),
      alignment,
      at,
    };
  }

  private functionHeader(at: number, isDeclare: boolean, linkage: Linkage): FunctionItem {
    const callingConv = this.callingConv();
    const returnType = this.closedType(true);
    let name: string;
    if (this.lx.kind === Tok.VarName) name = this.lx.value;
    else if (this.lx.kind === Tok.String) name = unescapeName(this.lx.value);
    else return this.fail(`expected the function's name, found ${this.describe()}`);
    this.lx.next();
    this.expectChar('(', 'before the parameters');
    const { items: args, varArg } = this.parameters((): ArgAst => {
      const aAt = this.lx.start;
      const type = this.closedType(false);
      let argName: string | undefined;
      if (this.lx.kind === Tok.VarName || this.lx.kind === Tok.String) {
        argName = this.lx.value;
        this.lx.next();
      }
      return argName === undefined ? { type, at: aAt } : { type, name: argName, at: aAt };
    }, 'after the parameters');
    let section: string | undefined;
    if (this.eatKw('section')) section = this.sectionName();
    let alignment = 0;
    if (this.eatKw('align')) alignment = this.alignment();
    const mark = this.types.length;
    let body: BodyTape | undefined;
    if (!isDeclare) {
      if (!this.eatKw('begin') && !this.eatChar('{')) this.fail(`expected '{' or 'begin' to open the function body, found ${this.describe()}`);
      body = this.body();
      this.bodyTypeRanges.push([mark, this.types.length]);
    }
    return {
      k: 'function',
      mark,
      isDeclare,
      name,
      linkage,
      callingConv,
      returnType,
      args,
      varArg,
      ...(section !== undefined ? { section } : {}),
      alignment,
      body,
      at,
    };
  }

  /** `...` comes from the lexer as three '.' characters. */
  protected override ellipsis(): void {
    const at = this.lx.start;
    for (let i = 0; i < 3; i++) if (!this.eatChar('.')) this.fail("expected '...'", at);
  }

  // -------------------------------------------------------------------------------------------
  // Types

  /** The node of primitive type `t`, whose keyword is number `keyword`. */
  private prim(t: PrimitiveType, keyword: number): number {
    let id = this.primNodes[keyword]!;
    if (id < 0) {
      this.primNodes[keyword] = id = this.node({ k: 'prim', t });
      if (t === primitiveTypes.void) this.voidNode = id;
      else if (t === primitiveTypes.label) this.labelNode = id;
    }
    return id;
  }

  /** A complete type: no up-reference may still be waiting. `allowVoid` for TypesV. */
  closedType(allowVoid: boolean): number {
    const lx = this.lx;
    const at = lx.start;
    // The common case first, in fewer steps than `type` takes (a cold run spends much of its
    // time in V8's interpreter, where every call counts): a primitive or named type and `*`s.
    let id = -1;
    if (this.depth < this.limits.maxNesting) {
      if (lx.kind === Tok.Keyword) {
        const p = PRIMITIVE_OF_KEYWORD[lx.keyword];
        if (p !== undefined) {
          const keyword = lx.keyword;
          lx.next();
          id = this.prim(p, keyword);
        }
      } else if (lx.kind === Tok.VarName || lx.kind === Tok.String) {
        const name = lx.value;
        lx.next();
        id = this.namedNode(name, at);
      }
    }
    let t: ParsedType;
    if (id < 0) t = this.type();
    else {
      while (lx.kind === Tok.Char && lx.value === '*') {
        const star = lx.start;
        lx.next();
        this.checkPointee(id, star);
        id = this.pointerNode(id);
      }
      if (lx.kind !== Tok.Char || lx.value !== '(') {
        if (!allowVoid && id === this.voidNode) this.fail('void is not allowed here', at);
        return id;
      }
      // A function type: on as `type` goes, at the nesting level it would be at.
      this.enter();
      t = this.postfix(this.closed(id));
      this.leave();
    }
    if (t.ups.length > 0) this.fail('an up-reference (\\N) that climbs out of its type', at);
    if (!allowVoid && t.id === this.voidNode) this.fail('void is not allowed here', at);
    return t.id;
  }

  /** The node of a named type reference (one per name). */
  private namedNode(name: string, at: number): number {
    let id = this.namedNodes.get(name);
    if (id === undefined) this.namedNodes.set(name, (id = this.node({ k: 'named', name, at })));
    return id;
  }

  /** `id*` as LLVM's grammar took it: no pointer to void or to a label (`star`: where the `*` is). */
  private checkPointee(id: number, star: number): void {
    if (id === this.voidNode) this.fail('a pointer to void is not allowed (use sbyte*)');
    // (A basic block has no address in LLVM 1.x.)
    if (id === this.labelNode) this.fail('a pointer to a label is not allowed (LLVM: cannot form a pointer to a basic block)', star);
  }

  /** The node of a pointer to node `el`, which has nothing pending (one per pointee). */
  private pointerNode(el: number): number {
    let id = this.pointerNodes.get(el);
    if (id === undefined) this.pointerNodes.set(el, (id = this.node({ k: 'pointer', el })));
    return id;
  }

  protected override type(): ParsedType {
    this.enter();
    const t = this.postfix(this.baseType());
    this.leave();
    return t;
  }

  /** After a type `t`: `T*` and `T (args)`. */
  private postfix(t: ParsedType): ParsedType {
    for (;;) {
      const star = this.lx.start;
      if (this.eatChar('*')) {
        this.checkPointee(t.id, star);
        // The common case, without a key string: one node per pointee.
        if (t.ups.length === 0) t = this.closed(this.pointerNode(t.id));
        else t = this.close({ k: 'pointer', el: t.id }, [t]);
      } else if (this.isChar('(')) {
        this.lx.next();
        const { items: params, varArg } = this.parameters(() => this.type(), 'after the parameter types');
        t = this.close({ k: 'function', ret: t.id, params: params.map((p) => p.id), varArg }, [t, ...params]);
      } else return t;
    }
  }

  private baseType(): ParsedType {
    const lx = this.lx;
    const at = lx.start;
    if (lx.kind === Tok.Keyword) {
      const p = PRIMITIVE_OF_KEYWORD[lx.keyword];
      if (p !== undefined) {
        const keyword = lx.keyword;
        lx.next();
        return this.closed(this.prim(p, keyword));
      }
      if (lx.value === 'opaque') {
        lx.next();
        return this.closed(this.node({ k: 'opaque' }));
      }
      if (lx.value === 'type') this.fail("the type 'type' is not supported");
    }
    if (lx.kind === Tok.VarName || lx.kind === Tok.String) {
      const name = lx.value;
      lx.next();
      return this.closed(this.namedNode(name, at));
    }
    if (lx.kind === Tok.VarNumber) {
      const n = Number(lx.value);
      if (!Number.isSafeInteger(n) || n < 0) this.fail(`invalid type number %${lx.value}`);
      lx.next();
      let id = this.numberedNodes.get(n);
      if (id === undefined) this.numberedNodes.set(n, (id = this.node({ k: 'numbered', n, at })));
      return this.closed(id);
    }
    if (this.eatChar('\\')) return this.upReference(at);
    if (this.eatChar('[') || this.isChar('<')) {
      const packed = this.eatChar('<');
      const length = this.elementCount();
      const el = this.type();
      this.expectChar(packed ? '>' : ']');
      if (packed) {
        const en = this.types[el.id]!;
        if (length === 0) this.fail('a packed type needs at least one element', at);
        if (en.k !== 'prim' || en.t === primitiveTypes.void || en.t === primitiveTypes.label || en.t === primitiveTypes.bool)
          this.fail('packed types hold only integer or floating-point elements', at);
      } else if (el.id === this.voidNode) this.fail('an array of void', at);
      if (el.ups.length === 0) {
        // The common case: the node is looked up before it is made.
        const byElement = packed ? this.packedNodes : this.arrayNodes;
        let byLength = byElement.get(el.id);
        if (byLength === undefined) byElement.set(el.id, (byLength = new Map()));
        let id = byLength.get(length);
        if (id === undefined) byLength.set(length, (id = this.node({ k: packed ? 'packed' : 'array', el: el.id, length })));
        return this.closed(id);
      }
      return this.close({ k: packed ? 'packed' : 'array', el: el.id, length }, [el]);
    }
    if (this.eatChar('{')) {
      const els = this.structElements();
      return this.close({ k: 'struct', els: els.map((e) => e.id) }, els);
    }
    return this.fail(`expected a type, found ${this.describe()}`);
  }

  // -------------------------------------------------------------------------------------------
  // Constants and values

  /** `ConstVal`: a type, then a constant of that type. */
  override constVal(): TypedValue {
    const type = this.closedType(false);
    return { type, ref: this.constBody() };
  }

  private constBody(): ValueRef {
    const lx = this.lx;
    const at = lx.start;
    this.enter();
    try {
      if (this.eatChar('[')) return { k: 'array', elements: this.closedConstList(']'), at };
      if (this.eatChar('{')) return { k: 'struct', elements: this.closedConstList('}'), at };
      if (this.isChar('c')) {
        lx.next();
        if (lx.kind !== Tok.String) this.fail(`expected a string after 'c', found ${this.describe()}`);
        const raw = lx.value;
        lx.next();
        return { k: 'string', raw, at };
      }
      return this.valueRef();
    } finally {
      this.leave();
    }
  }

  /** Constants up to `close`, and the `close`. */
  private closedConstList(close: string): TypedValue[] {
    const out = this.constList(close);
    this.expectChar(close);
    return out;
  }

  /** `ValueRef`: a reference by name or number, or a constant whose type the context gives. */
  valueRef(): ValueRef {
    const lx = this.lx;
    const at = lx.start;
    switch (lx.kind) {
      case Tok.VarName:
      case Tok.String: {
        const name = this.nameText();
        lx.next();
        return { k: 'name', name, at };
      }
      case Tok.VarNumber: {
        const n = Number(lx.value);
        if (!Number.isSafeInteger(n) || n > 0xffffffff) this.fail(`invalid value number %${lx.value}`);
        lx.next();
        return { k: 'num', n, at };
      }
      case Tok.Integer:
      case Tok.Float:
        return this.numberConstant(at);
      case Tok.Keyword: {
        const constant = this.keywordConstant(at);
        if (constant !== undefined) return constant;
        if (isConstExprOp(lx.value)) return { k: 'expr', expr: this.constExpr(), at };
        break;
      }
      case Tok.Char:
        if (lx.value === '<') {
          lx.next();
          this.enter();
          const elements = this.closedConstList('>');
          this.leave();
          return { k: 'packed', elements, at };
        }
        break;
      default:
        break;
    }
    return this.fail(`expected a value, found ${this.describe()}`);
  }

  private constExpr(): ConstExprAst {
    const op = this.lx.value;
    this.lx.next();
    this.expectChar('(', `after '${op}'`);
    this.enter();
    let result: ConstExprAst;
    if (op === 'cast') {
      const v = this.constVal();
      this.expectKw('to');
      const to = this.closedType(false);
      result = { op, operands: [v], to };
    } else if (op === 'getelementptr') {
      const operands = [this.constVal()];
      while (this.eatChar(',')) operands.push(this.constVal());
      result = { op, operands };
    } else {
      const n = op === 'select' || op === 'insertelement' || op === 'shufflevector' ? 3 : 2;
      const operands = [this.constVal()];
      for (let i = 1; i < n; i++) {
        this.expectChar(',');
        operands.push(this.constVal());
      }
      result = { op, operands };
    }
    this.expectChar(')');
    this.leave();
    return result;
  }

  // -------------------------------------------------------------------------------------------
  // Function bodies, onto the tape (body-tape.ts)

  /** The body after its `{` or `begin`, through its `}` or `end`. */
  private body(): BodyTape {
    const code = this.code;
    const instructions = this.instructionStarts;
    instructions.clear();
    const blockFirst = new IntBuffer(16);
    const blockNames = new IntBuffer(16);
    const blockAts = new IntBuffer(16);
    do {
      const lx = this.lx;
      blockAts.push(lx.start);
      blockFirst.push(instructions.length);
      if (lx.kind === Tok.Label) {
        blockNames.push(this.str(lx.value));
        lx.next();
      } else blockNames.push(-1);
      for (;;) {
        if (lx.kind === Tok.Eof) this.fail("the function's body has no end ('}' or 'end')");
        instructions.push(code.length);
        if (this.instruction()) break;
      }
    } while (!this.isKw('end') && !this.isChar('}'));
    this.lx.next();
    const body: BodyTape = {
      code: EMPTY_TAPE,
      instructions: instructions.copy(),
      blockFirst: blockFirst.copy(),
      blockNames: blockNames.copy(),
      blockAts: blockAts.copy(),
      strings: this.strings,
      refs: this.refs,
    };
    this.bodies.push(body);
    return body;
  }

  /** `s`'s index in the module's tape strings. */
  private str(s: string): number {
    this.strings.push(s);
    return this.strings.length - 1;
  }

  /** A value reference onto the tape (see `valueRef`). */
  private ref(): void {
    const lx = this.lx;
    const code = this.code;
    const at = lx.start;
    switch (lx.kind) {
      case Tok.VarName:
      case Tok.String:
        code.push3(Ref.Name, this.str(lx.kind === Tok.String ? unescapeName(lx.value) : lx.value), at);
        lx.next();
        return;
      case Tok.VarNumber: {
        const n = Number(lx.value);
        if (n <= 0x7fffffff) {
          code.push3(Ref.Num, n, at);
          lx.next();
          return;
        }
        break;
      }
      case Tok.Integer:
        code.push3(Ref.Int, this.str(lx.value), at);
        lx.next();
        return;
      default:
        break;
    }
    this.refs.push(this.valueRef());
    code.push3(Ref.Other, this.refs.length - 1, at);
  }

  /** A type and a value of it onto the tape (`typedValue`). */
  private typedRef(): void {
    this.code.push(this.closedType(false));
    this.ref();
  }

  /** One instruction onto the tape; whether it ends its block. */
  private instruction(): boolean {
    const lx = this.lx;
    const code = this.code;
    const at = lx.start;
    let name = -1;
    if (lx.kind === Tok.VarName || lx.kind === Tok.String) {
      const n = lx.kind === Tok.String ? unescapeName(lx.value) : lx.value;
      name = this.str(n);
      lx.next();
      this.expectChar('=', `after '%${n}'`);
    }
    const mark = this.types.length;
    const opAt = lx.start;
    if (lx.kind !== Tok.Keyword) {
      if (lx.kind === Tok.Label) this.fail('a block label where an instruction (or the terminator of the block before) was expected');
      this.fail(`expected an instruction, found ${this.describe()}`);
    }
    const op = lx.value;
    const binary = BINARY_OPCODE_OF_KEYWORD[lx.keyword]!;
    if (binary >= 0) {
      lx.next();
      this.head(Op.Binary, name, at, mark);
      code.push(binary);
      code.push(this.closedType(false));
      this.ref();
      this.expectChar(',');
      this.ref();
      return false;
    }
    const vector = VECTOR_OPCODE_OF_KEYWORD[lx.keyword]!;
    if (vector >= 0) {
      lx.next();
      this.head(Op.Vector, name, at, mark);
      code.push(vector);
      const n = op === 'extractelement' ? 2 : 3;
      this.typedRef();
      for (let i = 1; i < n; i++) {
        this.expectChar(',');
        this.typedRef();
      }
      return false;
    }
    const word = INSTRUCTION_WORD_OF_KEYWORD[lx.keyword]!;
    lx.next();
    switch (word as InstructionWord) {
      case InstructionWord.Not:
        this.head(Op.Not, name, at, mark);
        this.typedRef();
        return false;
      case InstructionWord.Shl:
      case InstructionWord.Shr:
        this.head(Op.Shift, name, at, mark);
        code.push(op === 'shl' ? 0 : 1);
        this.typedRef();
        this.expectChar(',');
        this.typedRef();
        return false;
      case InstructionWord.Cast:
        this.head(Op.Cast, name, at, mark);
        this.typedRef();
        this.expectKw('to');
        code.push(this.closedType(false));
        return false;
      case InstructionWord.Select:
        this.head(Op.Select, name, at, mark);
        this.typedRef();
        this.expectChar(',');
        this.typedRef();
        this.expectChar(',');
        this.typedRef();
        return false;
      case InstructionWord.VaArg:
      case InstructionWord.ObsoleteVaArg:
      case InstructionWord.VaNext:
        this.head(Op.VaArg, name, at, mark);
        code.push(op === 'va_arg' ? VaArgKind.VaArg : op === 'vaarg' ? VaArgKind.ObsoleteVaArg : VaArgKind.VaNext);
        this.typedRef();
        this.expectChar(',');
        code.push(this.closedType(false));
        return false;
      case InstructionWord.Phi: {
        this.head(Op.Phi, name, at, mark);
        code.push(this.closedType(false));
        const countAt = code.length;
        code.push(0);
        let count = 0;
        do {
          this.expectChar('[');
          this.ref();
          this.expectChar(',');
          this.ref();
          this.expectChar(']');
          count++;
        } while (this.eatChar(','));
        code.set(countAt, count);
        return false;
      }
      case InstructionWord.Tail:
        this.expectKw('call', "after 'tail'");
        this.call(name, at, mark, 1);
        return false;
      case InstructionWord.Call:
        this.call(name, at, mark, 0);
        return false;
      case InstructionWord.Malloc:
      case InstructionWord.Alloca: {
        this.head(Op.Alloc, name, at, mark);
        code.push(op === 'malloc' ? 0 : 1);
        code.push(this.closedType(false));
        const countAt = code.length;
        code.push(0); // whether a count follows
        let hasCount = false;
        let alignment = 0;
        while (this.eatChar(',')) {
          if (this.eatKw('align')) {
            alignment = this.alignment();
            break;
          }
          if (hasCount) this.fail("expected 'align'");
          this.expectKw('uint', 'as the type of the number of elements');
          this.ref();
          hasCount = true;
        }
        code.set(countAt, hasCount ? 1 : 0);
        code.push(alignment | 0);
        return false;
      }
      case InstructionWord.Free:
        this.head(Op.Free, name, at, mark);
        this.typedRef();
        return false;
      case InstructionWord.Volatile:
        if (this.eatKw('load')) this.load(name, at, mark, 1);
        else if (this.eatKw('store')) this.store(name, at, mark, 1);
        else this.fail(`expected 'load' or 'store' after 'volatile', found ${this.describe()}`);
        return false;
      case InstructionWord.Load:
        this.load(name, at, mark, 0);
        return false;
      case InstructionWord.Store:
        this.store(name, at, mark, 0);
        return false;
      case InstructionWord.GetElementPtr: {
        this.head(Op.GetElementPtr, name, at, mark);
        code.push(this.closedType(false));
        this.ref();
        const countAt = code.length;
        code.push(0);
        let count = 0;
        while (this.eatChar(',')) {
          this.typedRef();
          count++;
        }
        code.set(countAt, count);
        return false;
      }
      case InstructionWord.Ret:
        this.head(Op.Ret, name, at, mark);
        if (this.isKw('void')) {
          this.lx.next();
          code.push(0);
        } else {
          code.push(1);
          this.typedRef();
        }
        return true;
      case InstructionWord.Br:
        if (this.eatKw('label')) {
          this.head(Op.Br, name, at, mark);
          this.ref();
          return true;
        }
        this.expectKw('bool', "or 'label' after 'br'");
        this.head(Op.CondBr, name, at, mark);
        this.ref();
        this.expectChar(',');
        this.expectKw('label');
        this.ref();
        this.expectChar(',');
        this.expectKw('label');
        this.ref();
        return true;
      case InstructionWord.Switch: {
        this.head(Op.Switch, name, at, mark);
        code.push(this.closedType(false));
        this.ref();
        this.expectChar(',');
        this.expectKw('label');
        this.ref();
        this.expectChar('[');
        const countAt = code.length;
        code.push(0);
        let count = 0;
        while (!this.eatChar(']')) {
          code.push(this.closedType(false));
          this.ref();
          this.expectChar(',');
          this.expectKw('label');
          this.ref();
          count++;
        }
        code.set(countAt, count);
        return true;
      }
      case InstructionWord.Invoke: {
        this.head(Op.Invoke, name, at, mark);
        code.push(this.callingConv() | 0);
        code.push(this.closedType(true));
        this.ref();
        this.argumentList();
        this.expectKw('to');
        this.expectKw('label');
        this.ref();
        if (!this.eatKw('except') && !this.eatKw('unwind')) this.fail(`expected 'except' or 'unwind', found ${this.describe()}`);
        this.expectKw('label');
        this.ref();
        return true;
      }
      case InstructionWord.Unwind:
        this.head(Op.Unwind, name, at, mark);
        return true;
      case InstructionWord.Unreachable:
        this.head(Op.Unreachable, name, at, mark);
        return true;
      default:
        return this.fail(`expected an instruction, found '${op}'`, opAt);
    }
  }

  /** A record's head: kind, name, offset, mark (body-tape.ts). */
  private head(kind: Op, name: number, at: number, mark: number): void {
    this.code.push4(kind, name, at, mark);
  }

  /** `call`: calling convention, type, callee, arguments. */
  private call(name: number, at: number, mark: number, tail: number): void {
    this.head(Op.Call, name, at, mark);
    const code = this.code;
    code.push(tail);
    code.push(this.callingConv() | 0);
    code.push(this.closedType(true));
    this.ref();
    this.argumentList();
  }

  /** `( typed, … )`: the count, then each typed value. */
  private argumentList(): void {
    const code = this.code;
    this.expectChar('(', 'before the arguments');
    const countAt = code.length;
    code.push(0);
    let count = 0;
    if (!this.isChar(')')) {
      do {
        this.typedRef();
        count++;
      } while (this.eatChar(','));
    }
    code.set(countAt, count);
    this.expectChar(')', 'after the arguments');
  }

  private load(name: number, at: number, mark: number, volatile: number): void {
    this.head(Op.Load, name, at, mark);
    this.code.push(volatile);
    this.code.push(this.closedType(false));
    this.ref();
  }

  private store(name: number, at: number, mark: number, volatile: number): void {
    this.head(Op.Store, name, at, mark);
    this.code.push(volatile);
    this.typedRef();
    this.expectChar(',');
    this.code.push(this.closedType(false));
    this.ref();
  }
}

function linkageWord(l: Linkage): string {
  return l;
}

function isConstExprOp(w: string): boolean {
  return (
    w === 'cast' ||
    w === 'getelementptr' ||
    w === 'select' ||
    w === 'shl' ||
    w === 'shr' ||
    BINARY_OPCODES.includes(w as (typeof BINARY_OPCODES)[number]) ||
    VECTOR_OPCODES.includes(w as (typeof VECTOR_OPCODES)[number])
  );
}

export { isConstExprOp };
