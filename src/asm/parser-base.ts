/**
 * What the parsers of LLVM 1.x text (`parser.ts`) and of r36867's LLVM 2.0 text
 * (`llvm2/parser.ts`) do alike: the tokens (looking, taking, expecting, describing them in a
 * message), the bounded nesting, the small pieces of grammar the two agree on (strings, 32-bit
 * counts, alignments, section names, calling conventions, `deplibs`, parameter lists, the
 * constants named by a keyword, comma lists of constants), and the type table: nodes, the sharing
 * of equal spellings, and up-references (`\N`) landing as their types close. Where the dialects
 * word a message differently, the `SyntaxDialect` (`dialect.ts`) says how; each parser keeps what
 * only its grammar has.
 */
import type { TypeNode, TypedValue, ValueRef } from './ast.js';
import type { SourceText } from './assembly-error.js';
import type { SyntaxDialect } from './dialect.js';
import { Lexer, Tok, unescapeName } from './lexer.js';

/**
 * Limits on what a text may make the parser build (docs/limits.md).
 *
 * @category Assemble
 */
export interface AssemblyLimits {
  /** Nesting of types, constants and parentheses. */
  maxNesting: number;
  /** Type nodes in one module. */
  maxTypeNodes: number;
}

/** @category Assemble */
export const DEFAULT_ASSEMBLY_LIMITS: AssemblyLimits = { maxNesting: 1000, maxTypeNodes: 10_000_000 };

/** A type just parsed, with the up-references inside it still waiting for their level. */
export interface ParsedType {
  readonly id: number;
  /** Pending `\N` nodes and the levels still to climb. */
  readonly ups: readonly { readonly node: number; readonly level: number }[];
}

/** Pending up-references of a type that has none (shared: most types have none). */
const NO_UPS: ParsedType['ups'] = Object.freeze([]);

export abstract class ParserBase {
  protected readonly lx: Lexer;
  protected depth = 0;
  /** The module's type nodes, in the order they were made. */
  protected readonly types: TypeNode[] = [];
  /** The node of `void` and of `label` (-1 until made). */
  protected voidNode = -1;
  protected labelNode = -1;
  /** Nodes shared by spelling (`typeKey`): types without pending up-references. */
  private readonly shared = new Map<string, number>();
  /** See `closed`. */
  private readonly closedTypes: ParsedType[] = [];

  constructor(
    readonly source: SourceText,
    protected readonly limits: AssemblyLimits,
    protected readonly syntax: SyntaxDialect,
  ) {
    this.lx = new Lexer(source, syntax.lexical);
  }

  /** A type, its up-references pending (each dialect's grammar of types). */
  protected abstract type(): ParsedType;
  /** `ConstVal`: a type, then a constant of it. */
  protected abstract constVal(): TypedValue;
  /** `...` at the end of a parameter list (each dialect's parser reported it its own way). */
  protected abstract ellipsis(): void;

  // ---- tokens -----------------------------------------------------------------------------------

  protected fail(message: string, at = this.lx.start): never {
    return this.lx.fail(message, at);
  }

  /** The current token as a message shows it. */
  protected describe(): string {
    const lx = this.lx;
    switch (lx.kind) {
      case Tok.Eof:
        return 'the end of the text';
      case Tok.VarName:
      case Tok.VarNumber:
        return `'%${lx.value}'`;
      case Tok.GlobalName:
      case Tok.GlobalNumber:
        return `'@${lx.value}'`;
      case Tok.Label:
        return `the label '${lx.value}:'`;
      case Tok.String:
        return 'a string';
      case Tok.GlobalString:
        return 'a quoted global name';
      case Tok.Integer:
      case Tok.Float:
        return this.syntax.numberShown === 'the number' ? `the number ${lx.value}` : `'${lx.value}'`;
      default:
        return `'${lx.value}'`;
    }
  }

  protected isKw(w: string): boolean {
    return this.lx.kind === Tok.Keyword && this.lx.value === w;
  }

  protected isChar(c: string): boolean {
    return this.lx.kind === Tok.Char && this.lx.value === c;
  }

  protected eatKw(w: string): boolean {
    if (!this.isKw(w)) return false;
    this.lx.next();
    return true;
  }

  protected eatChar(c: string): boolean {
    if (!this.isChar(c)) return false;
    this.lx.next();
    return true;
  }

  /** Takes the character `c`, or fails: "expected 'c' WHAT, found …". */
  protected expectChar(c: string, what?: string): void {
    if (!this.eatChar(c)) this.fail(`expected '${c}'${what ? ` ${what}` : ''}, found ${this.describe()}`);
  }

  protected expectKw(w: string, what?: string): void {
    if (!this.eatKw(w)) this.fail(`expected '${w}'${what ? ` ${what}` : ''}, found ${this.describe()}`);
  }

  protected enter(): void {
    if (++this.depth > this.limits.maxNesting) this.fail(`nesting deeper than the limit of ${this.limits.maxNesting}`);
  }

  protected leave(): void {
    this.depth--;
  }

  // ---- small pieces of grammar --------------------------------------------------------------------

  /** The name the current token spells (`%name`, `@name`, `"name"`, `@"name"`), a quoted one's escapes resolved. */
  protected nameText(): string {
    const lx = this.lx;
    return lx.kind === Tok.String || lx.kind === Tok.GlobalString ? unescapeName(lx.value) : lx.value;
  }

  /** A string token's raw contents. */
  protected string(what: string): string {
    if (this.lx.kind !== Tok.String) this.fail(`expected ${what} (${this.syntax.stringNoun}), found ${this.describe()}`);
    const v = this.lx.value;
    this.lx.next();
    return v;
  }

  /** `EUINT64VAL` where a count of at most 32 bits is meant (alignment, element counts, levels). */
  protected unsigned(what: string): number {
    const first = this.lx.value.charCodeAt(0);
    if (this.lx.kind !== Tok.Integer || first === 45 /* - */ || first === 115 /* s */ || first === 117 /* u */)
      this.fail(`expected ${what}, found ${this.describe()}`);
    const v = Number(this.lx.value);
    if (!Number.isSafeInteger(v) || v > 0xffffffff) this.fail(`${what} ${this.lx.value} ${this.syntax.tooLarge}`);
    this.lx.next();
    return v;
  }

  protected alignment(): number {
    const at = this.lx.start;
    const v = this.unsigned('an alignment');
    if (v !== 0 && (v & (v - 1)) !== 0) this.fail('alignment must be a power of two', at);
    return v;
  }

  protected sectionName(): string {
    const at = this.lx.start;
    const s = this.string('the section name');
    if (/["\\]/.test(s)) this.fail(this.syntax.badSectionName, at);
    return s;
  }

  /** A calling convention word or `cc N`, else 0 (C's). */
  protected callingConv(): number {
    const lx = this.lx;
    if (lx.kind !== Tok.Keyword) return 0;
    const conventions = this.syntax.callingConventions;
    const cc = conventions[lx.value];
    if (cc !== undefined && Object.hasOwn(conventions, lx.value)) {
      lx.next();
      return cc;
    }
    if (lx.value === 'cc') {
      lx.next();
      return this.unsigned('a calling convention number');
    }
    return 0;
  }

  /** After `deplibs`: `= [ "name", … ]`. */
  protected libraryNames(): string[] {
    this.expectChar('=');
    this.expectChar('[');
    const libraries: string[] = [];
    if (!this.isChar(']')) {
      do libraries.push(this.string('a library name'));
      while (this.eatChar(','));
    }
    this.expectChar(']');
    return libraries;
  }

  /**
   * A parameter list after its `(`: items separated by commas, possibly ending in `...`, then the
   * `)` (what a function header and a function type share).
   */
  protected parameters<T>(item: () => T, closing: string): { items: T[]; varArg: boolean } {
    const items: T[] = [];
    let varArg = false;
    if (!this.isChar(')')) {
      do {
        if (this.isChar('.')) {
          this.ellipsis();
          varArg = true;
          break;
        }
        items.push(item());
      } while (this.eatChar(','));
    }
    this.expectChar(')', closing);
    return { items, varArg };
  }

  /** Constants up to (not taking) `close`, separated by commas. */
  protected constList(close: string): TypedValue[] {
    const out: TypedValue[] = [];
    if (this.isChar(close)) return out;
    do out.push(this.constVal());
    while (this.eatChar(','));
    return out;
  }

  /** The integer or floating-point literal that is the current token, as a constant. */
  protected numberConstant(at: number): ValueRef {
    const text = this.lx.value;
    const k = this.lx.kind === Tok.Integer ? 'int' : 'fp';
    this.lx.next();
    return { k, text, at };
  }

  /** The constants a keyword names (`true`, `null`, `undef`, `zeroinitializer`, inline `asm`), or undefined. */
  protected keywordConstant(at: number): ValueRef | undefined {
    const lx = this.lx;
    switch (lx.value) {
      case 'true':
      case 'false': {
        const value = lx.value === 'true';
        lx.next();
        return { k: 'bool', value, at };
      }
      case 'null':
        lx.next();
        return { k: 'null', at };
      case 'undef':
        lx.next();
        return { k: 'undef', at };
      case 'zeroinitializer':
        lx.next();
        return { k: 'zero', at };
      case 'asm': {
        lx.next();
        const sideEffect = this.eatKw('sideeffect');
        const asm = this.string('the inline assembly');
        this.expectChar(',');
        const constraints = this.string('the constraints');
        return { k: 'asm', sideEffect, asm, constraints, at };
      }
      default:
        return undefined;
    }
  }

  // ---- the type table -----------------------------------------------------------------------------

  protected node(n: TypeNode): number {
    if (this.types.length >= this.limits.maxTypeNodes) this.fail(this.syntax.tooManyTypes(this.limits.maxTypeNodes));
    this.types.push(n);
    return this.types.length - 1;
  }

  /** The node of a type with nothing pending, one per spelling. */
  protected shape(n: TypeNode): number {
    const key = typeKey(n);
    let id = this.shared.get(key);
    if (id === undefined) this.shared.set(key, (id = this.node(n)));
    return id;
  }

  /** The parsed form of node `id` with nothing pending: one object per node, made once. */
  protected closed(id: number): ParsedType {
    let t = this.closedTypes[id];
    if (t === undefined) this.closedTypes[id] = t = { id, ups: NO_UPS };
    return t;
  }

  /**
   * A composite node: its children's pending up-references climb one level; those at 0 land
   * here. A node with none pending is shared by every equal spelling (`int*` written a thousand
   * times is one node), which keeps the type table as small as the module's types.
   */
  protected close(n: TypeNode, children: readonly ParsedType[]): ParsedType {
    let pending = false;
    for (const c of children) if (c.ups.length > 0) pending = true;
    if (!pending) return this.closed(this.shape(n));
    const id = this.node(n);
    const ups: { node: number; level: number }[] = [];
    for (const c of children) {
      for (const u of c.ups) {
        const level = u.level - 1;
        if (level === 0) (this.types[u.node] as { target: number }).target = id;
        else ups.push({ node: u.node, level });
      }
    }
    return { id, ups };
  }

  /** After `\`: an up-reference, `\N`, pending until N types close around it. */
  protected upReference(at: number): ParsedType {
    const level = this.unsigned('an up-reference level');
    if (level === 0) this.fail('an up-reference level must be at least 1', at);
    const id = this.node({ k: 'up', target: -1, at });
    return { id, ups: [{ node: id, level }] };
  }

  /** After `[` or `<`: the number of elements and its `x`. */
  protected elementCount(): number {
    const length = this.unsigned('the number of elements');
    if (!this.eatChar('x')) this.fail(`expected 'x' after the number of elements, found ${this.describe()}`);
    return length;
  }

  /** After `{`: a structure's element types and the `}`. */
  protected structElements(): ParsedType[] {
    const els: ParsedType[] = [];
    if (!this.isChar('}')) {
      do {
        const at = this.lx.start;
        const e = this.type();
        if (e.id === this.voidNode) this.fail('a structure member of type void', at);
        els.push(e);
      } while (this.eatChar(','));
    }
    this.expectChar('}');
    return els;
  }
}

/** A node's spelling, for sharing the nodes of equal spellings. */
function typeKey(n: TypeNode): string {
  switch (n.k) {
    case 'prim':
      return 'p' + n.t.kind;
    case 'int':
      return 'i' + n.bits;
    case 'named':
      return 'n' + n.name;
    case 'numbered':
      return '#' + n.n;
    case 'pointer':
      return `*${n.el}`;
    case 'array':
      return `[${n.length}x${n.el}`;
    case 'packed':
      return `<${n.length}x${n.el}`;
    case 'struct':
      return `{${n.packed === true ? 'p' : ''}${n.els.join(',')}`;
    case 'function':
      return `(${n.ret}:${n.params.join(',')}${n.varArg ? ',...' : ''}${n.attrs ? ':' + n.attrs.map((a) => `${a.index}=${a.attributes}`).join(',') : ''}`;
    default:
      throw new Error(`internal error: no shared node for ${n.k}`);
  }
}
