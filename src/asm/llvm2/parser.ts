/**
 * LLVM 2.0-development assembly (r36867's `lib/AsmParser/llvmAsmParser.y`, the last revision
 * whose `llvm-as` wrote bytecode, version 7) to the parser's tree (`ast.ts`). A recursive-descent
 * reading of that grammar: `define`/`declare`, `@global` and `%local` names with their numbered
 * forms, `iN` and packed-struct types, parameter and function attributes, visibility,
 * `thread_local`, aliases, `icmp`/`fcmp`, the twelve casts, aligned and volatile loads and stores.
 *
 * The lexer is the shared one (`../lexer.ts`, with r36867's words and sigils), and what the
 * grammar has in common with 1.x's (tokens, strings and counts, calling conventions, parameter
 * lists, keyword constants, the type table with its up-references and shared spellings) is
 * `../parser-base.ts`'s. Types are nodes of the shared table (`../ast.ts`), so that named,
 * numbered and up-references and LLVM's structural uniquing are the shared resolver's
 * (`../resolve-types.ts`).
 *
 * Why the rest is its own and not the 1.x parser with more cases: 2.0's grammar differs
 * throughout (the module items, `define`, aliases and visibility, attributes in function types,
 * vectors and packed structures, every instruction with a type rule of its own, names that carry
 * their sigil), and the 1.x parser writes bodies onto a compact tape (`../body-tape.ts`) whose
 * records are 1.x's instruction set.
 */
import { PARAM_ATTRIBUTE_BITS, MAX_INTEGER_BITS, primitiveTypes, type ParamAttribute, type PrimitiveType } from '../../graph/type.js';
import type { Linkage, Visibility } from '../../graph/value.js';
import type { ConstExprAst, TypedValue, ValueRef } from '../ast.js';
import type { SourceText } from '../assembly-error.js';
import { Tok } from '../lexer.js';
import { SYNTAX_2_0 } from '../dialect.js';
import { type AssemblyLimits, ParserBase, type ParsedType } from '../parser-base.js';
import type { Alias2, Arg2, Block2, Function2, Global2, Inst2, Item2, Module2Ast } from './ast.js';

const CAST_OPS: ReadonlySet<string> = new Set([
  'trunc',
  'zext',
  'sext',
  'fptrunc',
  'fpext',
  'bitcast',
  'uitofp',
  'sitofp',
  'fptoui',
  'fptosi',
  'inttoptr',
  'ptrtoint',
]);
const ARITHMETIC_OPS: ReadonlySet<string> = new Set(['add', 'sub', 'mul', 'udiv', 'sdiv', 'fdiv', 'urem', 'srem', 'frem']);
const LOGICAL_OPS: ReadonlySet<string> = new Set(['shl', 'lshr', 'ashr', 'and', 'or', 'xor']);
const INT_PREDICATES: ReadonlySet<string> = new Set(['eq', 'ne', 'slt', 'sgt', 'sle', 'sge', 'ult', 'ugt', 'ule', 'uge']);
const FLOAT_PREDICATES: ReadonlySet<string> = new Set([
  'oeq',
  'one',
  'olt',
  'ogt',
  'ole',
  'oge',
  'ord',
  'uno',
  'ueq',
  'une',
  'ult',
  'ugt',
  'ule',
  'uge',
  'true',
  'false',
]);
const TERMINATORS: ReadonlySet<string> = new Set(['ret', 'br', 'switch', 'invoke', 'unwind', 'unreachable']);

const INTERNAL_LINKAGES: Readonly<Record<string, Linkage>> = {
  internal: 'internal',
  weak: 'weak',
  linkonce: 'linkonce',
  appending: 'appending',
  dllexport: 'dllexport',
};
const EXTERNAL_LINKAGES: Readonly<Record<string, Linkage>> = { dllimport: 'dllimport', extern_weak: 'extern_weak', external: 'external' };
const DEFINE_LINKAGES: Readonly<Record<string, Linkage>> = { internal: 'internal', linkonce: 'linkonce', weak: 'weak', dllexport: 'dllexport' };
const DECLARE_LINKAGES: Readonly<Record<string, Linkage>> = { dllimport: 'dllimport', extern_weak: 'extern_weak' };
const VISIBILITIES: Readonly<Record<string, Visibility>> = { default: 'default', hidden: 'hidden', protected: 'protected' };
const PARAM_ATTRS: Readonly<Record<string, number>> = {
  zext: PARAM_ATTRIBUTE_BITS.zext,
  sext: PARAM_ATTRIBUTE_BITS.sext,
  inreg: PARAM_ATTRIBUTE_BITS.inreg,
  sret: PARAM_ATTRIBUTE_BITS.sret,
};
const FUNC_ATTRS: Readonly<Record<string, number>> = { ...PARAM_ATTRS, noreturn: PARAM_ATTRIBUTE_BITS.noreturn, nounwind: PARAM_ATTRIBUTE_BITS.nounwind };

export function parseModule2(source: SourceText, limits: AssemblyLimits): Module2Ast {
  return new Parser2(source, limits).module();
}

class Parser2 extends ParserBase {
  private readonly items: Item2[] = [];
  private triple = '';
  private dataLayout = '';
  private readonly inlineAsm: string[] = [];
  private readonly libraries: string[] = [];

  constructor(source: SourceText, limits: AssemblyLimits) {
    super(source, limits, SYNTAX_2_0);
    this.voidNode = this.prim(primitiveTypes.void);
    this.labelNode = this.prim(primitiveTypes.label);
  }

  // ---- module -----------------------------------------------------------------------------------

  module(): Module2Ast {
    const lx = this.lx;
    while (lx.kind !== Tok.Eof) {
      const at = lx.start;
      if (this.eatKw('define')) this.function(false, at);
      else if (this.eatKw('declare')) this.function(true, at);
      else if (this.eatKw('module')) {
        this.expectKw('asm', "after 'module'");
        this.inlineAsm.push(this.string('the module-level assembly'));
      } else if (this.eatKw('target')) {
        if (this.eatKw('triple')) {
          this.expectChar('=');
          this.triple = this.string('the target triple');
        } else if (this.eatKw('datalayout')) {
          this.expectChar('=');
          this.dataLayout = this.string('the data layout');
        } else this.fail(`expected 'triple' or 'datalayout' after 'target', found ${this.describe()}`);
      } else if (this.eatKw('deplibs')) {
        for (const library of this.libraryNames()) this.libraries.push(library);
      } else if (this.isKw('type')) {
        lx.next();
        this.typeDefinition(undefined, at);
      } else if (lx.kind === Tok.VarName || lx.kind === Tok.String) {
        // A module-level `%name` (or quoted name) names a type; globals are `@`.
        const name = this.nameText();
        lx.next();
        this.expectChar('=');
        this.expectKw('type', `after '%${name} =' (a module-level '%' name names a type)`);
        this.typeDefinition(name, at);
      } else if (lx.kind === Tok.GlobalName || lx.kind === Tok.GlobalString) {
        const name = this.nameText();
        lx.next();
        this.expectChar('=');
        this.globalOrAlias(name, at);
      } else if (lx.kind === Tok.Keyword) this.globalOrAlias(undefined, at);
      else this.fail(`expected a definition ('define', 'declare', a global, a type, 'target', 'deplibs' or 'module asm'), found ${this.describe()}`);
    }
    return { types: this.types, items: this.items, triple: this.triple, dataLayout: this.dataLayout, inlineAsm: this.inlineAsm, libraries: this.libraries };
  }

  private typeDefinition(name: string | undefined, at: number): void {
    const type = this.closedType(true);
    this.items.push({ k: 'typedef', ...(name !== undefined ? { name } : {}), type, at });
  }

  private visibility(): Visibility {
    const v = this.lx.kind === Tok.Keyword ? VISIBILITIES[this.lx.value] : undefined;
    if (v === undefined || !Object.hasOwn(VISIBILITIES, this.lx.value)) return 'default';
    this.lx.next();
    return v;
  }

  private globalOrAlias(name: string | undefined, at: number): void {
    const lx = this.lx;
    const word = lx.kind === Tok.Keyword ? lx.value : '';
    let linkage: Linkage = 'external';
    let hasInitializer = true;
    if (Object.hasOwn(INTERNAL_LINKAGES, word)) {
      linkage = INTERNAL_LINKAGES[word]!;
      lx.next();
    } else if (Object.hasOwn(EXTERNAL_LINKAGES, word)) {
      linkage = EXTERNAL_LINKAGES[word]!;
      hasInitializer = false;
      lx.next();
    }
    const visibility = this.visibility();
    if (linkage === 'external' && hasInitializer && this.eatKw('alias')) return this.alias(name, visibility, at);
    const threadLocal = this.eatKw('thread_local');
    let isConstant: boolean;
    if (this.eatKw('global')) isConstant = false;
    else if (this.eatKw('constant')) isConstant = true;
    else this.fail(`expected 'global' or 'constant', found ${this.describe()}`);
    let type: number;
    let initializer: TypedValue | undefined;
    if (hasInitializer) {
      initializer = this.constVal();
      type = initializer.type;
    } else type = this.closedType(false);
    let section: string | undefined;
    let alignment = 0;
    while (this.eatChar(',')) {
      if (this.eatKw('section')) section = this.sectionName();
      else if (this.eatKw('align')) alignment = this.alignment();
      else this.fail(`expected 'section' or 'align' after ',', found ${this.describe()}`);
    }
    const g: Global2 = {
      k: 'global',
      ...(name !== undefined ? { name } : {}),
      linkage,
      visibility,
      threadLocal,
      isConstant,
      type,
      ...(initializer !== undefined ? { initializer } : {}),
      ...(section !== undefined ? { section } : {}),
      alignment,
      at,
    };
    this.items.push(g);
  }

  private alias(name: string | undefined, visibility: Visibility, at: number): void {
    if (name === undefined) this.fail('an alias needs a name (LLVM: "Alias name cannot be empty")', at);
    let linkage: Alias2['linkage'] = 'external';
    if (this.eatKw('weak')) linkage = 'weak';
    else if (this.eatKw('internal')) linkage = 'internal';
    const aliasee = this.aliasee();
    this.items.push({ k: 'alias', name, linkage, visibility, aliasee, at });
  }

  /** `AliaseeRef`: `type @global`, or `bitcast (AliaseeRef to type)`. */
  private aliasee(): TypedValue {
    const at = this.lx.start;
    if (this.eatKw('bitcast')) {
      this.enter();
      this.expectChar('(');
      const inner = this.aliasee();
      this.expectKw('to');
      const to = this.closedType(false);
      this.expectChar(')');
      this.leave();
      const expr: ConstExprAst = { op: 'bitcast', operands: [inner], to };
      return { type: to, ref: { k: 'expr', expr, at } };
    }
    const type = this.closedType(false);
    const ref = this.valueRef();
    if (ref.k !== 'name' && ref.k !== 'num') this.fail('aliases can be made only of global values', ref.at);
    return { type, ref };
  }

  private attributes(table: Readonly<Record<string, number>>): number {
    let bits = 0;
    while (this.lx.kind === Tok.Keyword && Object.hasOwn(table, this.lx.value)) {
      bits |= table[this.lx.value]!;
      this.lx.next();
    }
    return bits;
  }

  private function(isDeclare: boolean, at: number): void {
    const lx = this.lx;
    const table = isDeclare ? DECLARE_LINKAGES : DEFINE_LINKAGES;
    let linkage: Linkage = 'external';
    if (lx.kind === Tok.Keyword && Object.hasOwn(table, lx.value)) {
      linkage = table[lx.value]!;
      lx.next();
    }
    const visibility = this.visibility();
    const callingConv = this.callingConv();
    const retAt = lx.start;
    const ret = this.closedType(true);
    if (ret === this.labelNode) this.fail('a function cannot return a label', retAt);
    let name: string | undefined;
    if (lx.kind === Tok.GlobalName || lx.kind === Tok.GlobalString) name = this.nameText();
    else this.fail(`expected the function's name (@name), found ${this.describe()}`);
    lx.next();
    this.expectChar('(', "after the function's name");
    const { items: args, varArg } = this.parameters((): Arg2 => {
      const aAt = lx.start;
      const type = this.closedType(false);
      if (type === this.voidNode) this.fail('void typed arguments are invalid', aAt);
      const attrs = this.attributes(PARAM_ATTRS);
      let argName: string | undefined;
      const k = lx.kind as Tok;
      if (k === Tok.VarName || k === Tok.String) {
        argName = this.nameText();
        lx.next();
      }
      return { type, attrs, ...(argName !== undefined ? { name: argName } : {}), at: aAt };
    }, 'after the parameters');
    const fnAttrs = this.attributes(FUNC_ATTRS);
    let section: string | undefined;
    if (this.eatKw('section')) section = this.sectionName();
    const alignment = this.eatKw('align') ? this.alignment() : 0;
    const attrs: ParamAttribute[] = [];
    if (fnAttrs !== 0) attrs.push({ index: 0, attributes: fnAttrs });
    args.forEach((a, i) => {
      if (a.attrs !== 0) attrs.push({ index: i + 1, attributes: a.attrs });
    });
    const fnType = this.shape({ k: 'function', ret, params: args.map((a) => a.type), varArg, ...(attrs.length ? { attrs } : {}) });
    let body: Block2[] | undefined;
    if (!isDeclare) {
      if (!this.eatChar('{') && !this.eatKw('begin')) this.fail(`expected '{' to begin the function's body, found ${this.describe()}`);
      body = this.body();
    }
    const f: Function2 = {
      k: 'function',
      isDeclare,
      name,
      linkage,
      visibility,
      callingConv,
      fnType,
      args,
      ...(section !== undefined ? { section } : {}),
      alignment,
      ...(body !== undefined ? { body } : {}),
      at,
    };
    this.items.push(f);
  }

  // ---- types ------------------------------------------------------------------------------------

  private prim(t: PrimitiveType): number {
    return this.shape({ k: 'prim', t });
  }

  /** A complete type (`Types`); `void` only where `allowVoid` (a type definition's `= type void`). */
  closedType(allowVoid: boolean): number {
    const at = this.lx.start;
    const t = this.type();
    if (t.ups.length > 0) this.fail('invalid up-reference in type (\\N climbs out of it)', at);
    if (!allowVoid && t.id === this.voidNode) this.fail('void is not allowed here', at);
    return t.id;
  }

  /** `...`, each `.` expected in turn. */
  protected override ellipsis(): void {
    for (let i = 0; i < 3; i++) this.expectChar('.', "('...')");
  }

  protected override type(): ParsedType {
    this.enter();
    let t = this.baseType();
    for (;;) {
      const at = this.lx.start;
      if (this.eatChar('*')) {
        if (t.id === this.labelNode) this.fail('cannot form a pointer to a basic block', at);
        if (t.id === this.voidNode) this.fail('cannot form a pointer to void (use i8*)', at);
        t = this.close({ k: 'pointer', el: t.id }, [t]);
      } else if (this.isChar('(')) {
        this.lx.next();
        const attrs: ParamAttribute[] = [];
        let count = 0;
        const { items: params, varArg } = this.parameters(() => {
          const p = this.type();
          const a = this.attributes(PARAM_ATTRS);
          count++;
          if (a !== 0) attrs.push({ index: count, attributes: a });
          return p;
        }, 'after the parameter types');
        const r = this.attributes(FUNC_ATTRS);
        if (r !== 0) attrs.unshift({ index: 0, attributes: r });
        t = this.close({ k: 'function', ret: t.id, params: params.map((p) => p.id), varArg, ...(attrs.length ? { attrs } : {}) }, [t, ...params]);
      } else break;
    }
    this.leave();
    return t;
  }

  private baseType(): ParsedType {
    const lx = this.lx;
    const at = lx.start;
    if (lx.kind === Tok.Keyword) {
      const w = lx.value;
      if (w[0] === 'i' && /^i[0-9]+$/.test(w)) {
        const bits = Number(w.slice(1));
        if (!(bits >= 1 && bits <= MAX_INTEGER_BITS)) this.fail(`bitwidth for integer type out of range (1 to ${MAX_INTEGER_BITS})`);
        lx.next();
        return this.closed(this.shape({ k: 'int', bits }));
      }
      const p =
        w === 'float'
          ? primitiveTypes.float
          : w === 'double'
            ? primitiveTypes.double
            : w === 'label'
              ? primitiveTypes.label
              : w === 'void'
                ? primitiveTypes.void
                : undefined;
      if (p !== undefined) {
        lx.next();
        return this.closed(this.prim(p));
      }
      if (w === 'opaque') {
        lx.next();
        return this.closed(this.node({ k: 'opaque' }));
      }
    }
    if (lx.kind === Tok.VarName || lx.kind === Tok.String) {
      const name = this.nameText();
      lx.next();
      return this.closed(this.shape({ k: 'named', name, at }));
    }
    if (lx.kind === Tok.VarNumber) {
      const n = Number(lx.value);
      if (!Number.isSafeInteger(n) || n > 0xffffffff) this.fail(`invalid type number %${lx.value}`);
      lx.next();
      return this.closed(this.shape({ k: 'numbered', n, at }));
    }
    if (this.eatChar('\\')) return this.upReference(at);
    if (this.eatChar('[')) {
      const length = this.elementCount();
      const el = this.type();
      this.expectChar(']');
      if (el.id === this.voidNode) this.fail('an array of void', at);
      return this.close({ k: 'array', el: el.id, length }, [el]);
    }
    if (this.eatChar('<')) {
      if (this.eatChar('{')) {
        const els = this.structElements();
        this.expectChar('>', "after a packed structure's '}'");
        return this.close({ k: 'struct', els: els.map((e) => e.id), packed: true }, els);
      }
      const length = this.elementCount();
      const elAt = this.lx.start;
      const el = this.type();
      this.expectChar('>');
      const en = this.types[el.id]!;
      if (!(en.k === 'int' || (en.k === 'prim' && (en.t === primitiveTypes.float || en.t === primitiveTypes.double))))
        this.fail('element type of a vector type must be an integer or floating-point type', elAt);
      if (length === 0 || (length & (length - 1)) !== 0) this.fail('vector length should be a power of 2', at);
      return this.close({ k: 'packed', el: el.id, length }, [el]);
    }
    if (this.eatChar('{')) {
      const els = this.structElements();
      return this.close({ k: 'struct', els: els.map((e) => e.id) }, els);
    }
    return this.fail(`expected a type, found ${this.describe()}`);
  }

  // ---- constants and values ---------------------------------------------------------------------

  /** `ConstVal`: a type, then a constant of it. */
  protected override constVal(): TypedValue {
    const type = this.closedType(false);
    return { type, ref: this.valueRef() };
  }

  /** `ValueRef` and the constant forms of `ConstVal`: what follows a type. */
  valueRef(): ValueRef {
    const lx = this.lx;
    const at = lx.start;
    switch (lx.kind) {
      case Tok.VarName:
      case Tok.String: {
        const name = this.nameText();
        lx.next();
        return { k: 'name', name: '%' + name, at };
      }
      case Tok.GlobalName:
      case Tok.GlobalString: {
        const name = this.nameText();
        lx.next();
        return { k: 'name', name: '@' + name, at };
      }
      case Tok.VarNumber:
      case Tok.GlobalNumber: {
        const n = Number(lx.value);
        if (!Number.isSafeInteger(n) || n > 0xffffffff) this.fail('invalid value number (too large)');
        const local = lx.kind === Tok.VarNumber;
        lx.next();
        // Global numbers are kept apart from local ones by sign: `@N` is -(N+1).
        return { k: 'num', n: local ? n : -(n + 1), at };
      }
      case Tok.Integer:
      case Tok.Float:
        return this.numberConstant(at);
      case Tok.Char:
        return this.punctuated(at);
      case Tok.Keyword:
        return this.wordValue(at);
      default:
        return this.fail(`expected a value, found ${this.describe()}`);
    }
  }

  private punctuated(at: number): ValueRef {
    const lx = this.lx;
    this.enter();
    try {
      if (this.eatChar('[')) {
        const elements = this.constList(']');
        this.expectChar(']');
        return { k: 'array', elements, at };
      }
      if (this.eatChar('{')) {
        const elements = this.constList('}');
        this.expectChar('}');
        return { k: 'struct', elements, at };
      }
      if (this.eatChar('<')) {
        if (this.eatChar('{')) {
          const elements = this.constList('}');
          this.expectChar('}');
          this.expectChar('>');
          return { k: 'struct', elements, at };
        }
        const elements = this.constList('>');
        if (elements.length === 0) this.fail('a vector constant needs at least one element', at);
        this.expectChar('>');
        return { k: 'packed', elements, at };
      }
      if (this.isChar('c')) {
        lx.next();
        if (lx.kind !== Tok.String) this.fail(`expected a string after 'c', found ${this.describe()}`);
        const raw = lx.value;
        lx.next();
        return { k: 'string', raw, at };
      }
      return this.fail(`expected a value, found ${this.describe()}`);
    } finally {
      this.leave();
    }
  }

  private wordValue(at: number): ValueRef {
    return this.keywordConstant(at) ?? { k: 'expr', expr: this.constExpr(), at };
  }

  private constExpr(): ConstExprAst {
    const lx = this.lx;
    const op = lx.value;
    this.enter();
    lx.next();
    let expr: ConstExprAst;
    if (CAST_OPS.has(op)) {
      this.expectChar('(');
      const v = this.constVal();
      this.expectKw('to');
      const to = this.closedType(false);
      this.expectChar(')');
      expr = { op, operands: [v], to };
    } else if (op === 'icmp' || op === 'fcmp') {
      const predicate = this.predicate(op);
      expr = { op, operands: this.parenthesized(2), predicate };
    } else if (op === 'getelementptr') {
      this.expectChar('(');
      const operands = [this.constVal()];
      while (this.eatChar(',')) operands.push(this.constVal());
      this.expectChar(')');
      expr = { op, operands };
    } else if (op === 'select' || op === 'insertelement' || op === 'shufflevector') expr = { op, operands: this.parenthesized(3) };
    else if (ARITHMETIC_OPS.has(op) || LOGICAL_OPS.has(op) || op === 'extractelement') expr = { op, operands: this.parenthesized(2) };
    else this.fail(`expected a value, found '${op}'`);
    this.leave();
    return expr;
  }

  private parenthesized(count: number): TypedValue[] {
    this.expectChar('(');
    const out = [this.constVal()];
    for (let i = 1; i < count; i++) {
      this.expectChar(',');
      out.push(this.constVal());
    }
    this.expectChar(')');
    return out;
  }

  private predicate(op: 'icmp' | 'fcmp'): string {
    const lx = this.lx;
    const table = op === 'icmp' ? INT_PREDICATES : FLOAT_PREDICATES;
    if (lx.kind !== Tok.Keyword || !table.has(lx.value))
      this.fail(`expected ${op === 'icmp' ? 'an integer' : 'a floating-point'} comparison predicate after '${op}', found ${this.describe()}`);
    const p = lx.value;
    lx.next();
    return p;
  }

  // ---- function bodies --------------------------------------------------------------------------

  private body(): Block2[] {
    const lx = this.lx;
    const blocks: Block2[] = [];
    for (;;) {
      if (this.eatChar('}') || this.eatKw('end')) break;
      if (lx.kind === Tok.Eof) this.fail("the function's body has no closing '}'");
      const at = lx.start;
      let name: string | undefined;
      if (lx.kind === Tok.Label) {
        name = lx.value;
        lx.next();
      }
      const insts: Inst2[] = [];
      for (;;) {
        const inst = this.instruction();
        insts.push(inst);
        if (TERMINATORS.has(inst.op)) break;
      }
      blocks.push({ ...(name !== undefined ? { name } : {}), at, insts });
    }
    if (blocks.length === 0) this.fail('a function body needs at least one basic block');
    return blocks;
  }

  private typed(): TypedValue {
    const type = this.closedType(false);
    return { type, ref: this.valueRef() };
  }

  private label(): TypedValue {
    this.expectKw('label');
    return { type: this.labelNode, ref: this.valueRef() };
  }

  private instruction(): Inst2 {
    const lx = this.lx;
    const at = lx.start;
    let name: string | undefined;
    if (lx.kind === Tok.VarName || lx.kind === Tok.String) {
      name = this.nameText();
      lx.next();
      this.expectChar('=', `after '%${name}'`);
    }
    const named = name !== undefined ? { name } : {};
    let volatile = false;
    if (this.eatKw('volatile')) volatile = true;
    let tail = false;
    if (this.eatKw('tail')) {
      tail = true;
      if (!this.isKw('call')) this.fail(`expected 'call' after 'tail', found ${this.describe()}`);
    }
    if (lx.kind !== Tok.Keyword) this.fail(`expected an instruction, found ${this.describe()}`);
    const op = lx.value;
    const opAt = lx.start;
    if (volatile && op !== 'load' && op !== 'store') this.fail(`expected 'load' or 'store' after 'volatile', found ${this.describe()}`);
    lx.next();
    if (ARITHMETIC_OPS.has(op) || LOGICAL_OPS.has(op)) {
      const ty = this.closedType(false);
      return { op, ...named, at, ty, ops: this.operandPair(ty) };
    }
    if (op === 'icmp' || op === 'fcmp') {
      const predicate = this.predicate(op);
      const ty = this.closedType(false);
      return { op, ...named, at, ty, predicate, ops: this.operandPair(ty) };
    }
    if (CAST_OPS.has(op)) {
      const v = this.typed();
      this.expectKw('to');
      return { op, ...named, at, ty: this.closedType(false), ops: [v] };
    }
    switch (op) {
      case 'ret':
        if (this.eatKw('void')) return { op, ...named, at, ops: [] };
        return { op, ...named, at, ops: [this.typed()] };
      case 'br': {
        if (this.isKw('label')) return { op, ...named, at, ops: [this.label()] };
        const cond = this.typed();
        this.expectChar(',');
        const t = this.label();
        this.expectChar(',');
        return { op, ...named, at, ops: [cond, t, this.label()] };
      }
      case 'switch': {
        const cond = this.typed();
        this.expectChar(',');
        const ops = [cond, this.label()];
        this.expectChar('[');
        while (!this.eatChar(']')) {
          ops.push(this.typed());
          this.expectChar(',');
          ops.push(this.label());
        }
        return { op, ...named, at, ops };
      }
      case 'unwind':
      case 'unreachable':
        return { op, ...named, at, ops: [] };
      case 'invoke':
      case 'call':
        return this.call(op, named, at, tail);
      case 'select':
      case 'insertelement':
      case 'shufflevector': {
        const ops = [this.typed()];
        for (let i = 1; i < 3; i++) {
          this.expectChar(',');
          ops.push(this.typed());
        }
        return { op, ...named, at, ops };
      }
      case 'extractelement': {
        const v = this.typed();
        this.expectChar(',');
        return { op, ...named, at, ops: [v, this.typed()] };
      }
      case 'va_arg': {
        const v = this.typed();
        this.expectChar(',');
        return { op: 'vaarg', ...named, at, ty: this.closedType(false), ops: [v] };
      }
      case 'phi': {
        const ty = this.closedType(false);
        const ops: TypedValue[] = [];
        do {
          this.expectChar('[');
          ops.push({ type: ty, ref: this.valueRef() });
          this.expectChar(',');
          ops.push({ type: this.labelNode, ref: this.valueRef() });
          this.expectChar(']');
        } while (this.eatChar(','));
        return { op, ...named, at, ty, ops };
      }
      case 'malloc':
      case 'alloca': {
        const ty = this.closedType(false);
        const ops: TypedValue[] = [];
        let alignment = 0;
        while (this.eatChar(',')) {
          if (this.eatKw('align')) alignment = this.alignment();
          else if (ops.length === 0 && alignment === 0) ops.push(this.typed());
          else this.fail(`expected 'align', found ${this.describe()}`);
        }
        return { op, ...named, at, ty, ops, alignment };
      }
      case 'free':
        return { op, ...named, at, ops: [this.typed()] };
      case 'load': {
        const p = this.typed();
        const alignment = this.eatChar(',') ? (this.expectKw('align'), this.alignment()) : 0;
        return { op, ...named, at, ops: [p], alignment, volatile };
      }
      case 'store': {
        const v = this.typed();
        this.expectChar(',');
        const p = this.typed();
        const alignment = this.eatChar(',') ? (this.expectKw('align'), this.alignment()) : 0;
        return { op, ...named, at, ops: [v, p], alignment, volatile };
      }
      case 'getelementptr': {
        const ops = [this.typed()];
        while (this.eatChar(',')) ops.push(this.typed());
        return { op, ...named, at, ops };
      }
      default:
        return this.fail(`expected an instruction, found '${op}'`, opAt);
    }
  }

  /** `V, V`: two operands of the type `ty` the instruction named. */
  private operandPair(ty: number): TypedValue[] {
    const a = this.valueRef();
    this.expectChar(',');
    return [
      { type: ty, ref: a },
      { type: ty, ref: this.valueRef() },
    ];
  }

  /** `call`/`invoke`: `cc`, the written type, the callee, arguments with attributes, function attributes. */
  private call(op: 'call' | 'invoke', named: { name?: string }, at: number, tail: boolean): Inst2 {
    const callingConv = this.callingConv();
    const ty = this.closedType(true);
    const callee = this.valueRef();
    this.expectChar('(', 'after the called value');
    const args: TypedValue[] = [];
    const argAttrs: number[] = [];
    if (!this.isChar(')')) {
      do {
        args.push(this.typed());
        argAttrs.push(this.attributes(PARAM_ATTRS));
      } while (this.eatChar(','));
    }
    this.expectChar(')', 'after the arguments');
    const fnAttrs = this.attributes(FUNC_ATTRS);
    // The short form names the return type only: LLVM made the function type from the arguments.
    const attrs: ParamAttribute[] = [];
    if (fnAttrs !== 0) attrs.push({ index: 0, attributes: fnAttrs });
    argAttrs.forEach((a, i) => {
      if (a !== 0) attrs.push({ index: i + 1, attributes: a });
    });
    const fnType = this.shape({ k: 'function', ret: ty, params: args.map((a) => a.type), varArg: false, ...(attrs.length ? { attrs } : {}) });
    const impliedType = this.shape({ k: 'pointer', el: fnType });
    const ops: TypedValue[] = [{ type: -1, ref: callee }];
    if (op === 'invoke') {
      this.expectKw('to');
      ops.push(this.label());
      this.expectKw('unwind');
      ops.push(this.label());
    }
    ops.push(...args);
    return { op, ...named, at, ty, ops, callingConv, tail, argAttrs, fnAttrs, impliedType };
  }
}
