/**
 * Reads back the modern IR that `printModern` writes, into the model the bitcode writer takes
 * (ir.ts). It knows exactly the constructs the printer emits (docs/upgrade.md, "Bitcode"): a
 * text from elsewhere using more of LLVM's language is refused with an `IrSyntaxError` naming the
 * line. Bounded: the token count (lexer.ts) and the nesting of types and constants.
 */
import type {
  IrAlias,
  IrAttribute,
  IrAttributeSet,
  IrBlock,
  IrConstant,
  IrFunction,
  IrGlobalVariable,
  IrInstruction,
  IrMetadata,
  IrModule,
  IrNamedStruct,
  IrOperand,
  IrType,
  IrValue,
} from './ir.js';
import { IrSyntaxError, lineColumn, tokenize, type Token } from './lexer.js';

/** The deepest nesting of types and constants the reader follows. */
export const MAX_NESTING = 512;

export const ENUM_ATTRIBUTES = new Set([
  'zeroext',
  'signext',
  'inreg',
  'noalias',
  'nocapture',
  'nest',
  'noreturn',
  'nounwind',
  'returns_twice',
  'readnone',
  'readonly',
  'noinline',
  'alwaysinline',
  'optsize',
  'cold',
  'nonnull',
  'noundef',
  'naked',
  'builtin',
  'nobuiltin',
  'willreturn',
  'nofree',
  'nosync',
]);
const TYPE_ATTRIBUTES = new Set(['sret', 'byval', 'elementtype', 'byref', 'preallocated', 'inalloca']);
const INT_ATTRIBUTES = new Set(['align', 'dereferenceable', 'dereferenceable_or_null']);
const LINKAGES = new Set([
  'external',
  'internal',
  'private',
  'weak',
  'weak_odr',
  'linkonce',
  'linkonce_odr',
  'appending',
  'extern_weak',
  'common',
  'available_externally',
]);
const CALLING_CONVENTIONS: ReadonlyMap<string, number> = new Map([
  ['ccc', 0],
  ['fastcc', 8],
  ['coldcc', 9],
  ['x86_stdcallcc', 64],
  ['x86_fastcallcc', 65],
]);
const CASTS = new Set([
  'trunc',
  'zext',
  'sext',
  'fptrunc',
  'fpext',
  'fptoui',
  'fptosi',
  'uitofp',
  'sitofp',
  'ptrtoint',
  'inttoptr',
  'bitcast',
  'addrspacecast',
]);
export const BINARY_OPS = new Set([
  'add',
  'sub',
  'mul',
  'udiv',
  'sdiv',
  'urem',
  'srem',
  'shl',
  'lshr',
  'ashr',
  'and',
  'or',
  'xor',
  'fadd',
  'fsub',
  'fmul',
  'fdiv',
  'frem',
]);

class Parser {
  private pos = 0;
  private depth = 0;
  private readonly structs = new Map<string, IrNamedStruct>();
  private readonly interned = new Map<string, IrType>();
  readonly module: IrModule = {
    triple: undefined,
    dataLayout: undefined,
    asm: [],
    structs: [],
    globals: [],
    functions: [],
    aliases: [],
    metadata: new Map(),
    namedMetadata: [],
  };

  constructor(
    private readonly text: string,
    private readonly toks: Token[],
    /** The text is LLVM 13/14's, with typed pointers (`i32*`). */
    private readonly typedPointers = false,
  ) {}

  // ---- tokens -------------------------------------------------------------------------------

  private fail(msg: string, tok: Token | undefined = this.toks[this.pos]): never {
    const { line, column } = lineColumn(this.text, tok ? tok.at : this.text.length);
    throw new IrSyntaxError(msg, line, column);
  }
  private peek(k = 0): Token | undefined {
    return this.toks[this.pos + k];
  }
  private next(): Token {
    const t = this.toks[this.pos++];
    if (!t) this.fail('unexpected end of text');
    return t;
  }
  private isP(v: string, k = 0): boolean {
    const t = this.peek(k);
    return t !== undefined && t.t === 'punct' && t.v === v;
  }
  private isW(v: string, k = 0): boolean {
    const t = this.peek(k);
    return t !== undefined && t.t === 'word' && t.v === v;
  }
  private eatP(v: string): boolean {
    if (!this.isP(v)) return false;
    this.pos++;
    return true;
  }
  private eatW(v: string): boolean {
    if (!this.isW(v)) return false;
    this.pos++;
    return true;
  }
  private expectP(v: string): void {
    if (!this.eatP(v)) this.fail(`'${v}' expected`);
  }
  private expectW(v: string): void {
    if (!this.eatW(v)) this.fail(`'${v}' expected`);
  }
  private word(): string {
    const t = this.next();
    if (t.t !== 'word') this.fail('a keyword expected', t);
    return t.v;
  }
  private int(): number {
    const t = this.next();
    if (t.t !== 'num' || !/^[0-9]+$/.test(t.v)) this.fail('a number expected', t);
    const n = Number(t.v);
    if (!Number.isSafeInteger(n) || n > 0xffffffff) this.fail('a number below 2^32 expected', t);
    return n;
  }
  private string(): string {
    const t = this.next();
    if (t.t !== 'str') this.fail('a string expected', t);
    return t.v;
  }
  private enter(): void {
    if (++this.depth > MAX_NESTING) this.fail(`nested deeper than ${MAX_NESTING}`);
  }

  // ---- types --------------------------------------------------------------------------------

  private intern(key: string, make: () => IrType): IrType {
    let t = this.interned.get(key);
    if (!t) this.interned.set(key, (t = make()));
    return t;
  }
  private key(t: IrType): string {
    switch (t.kind) {
      case 'int':
        return `i${t.bits}`;
      case 'array':
        return `[${t.length} x ${this.key(t.element)}]`;
      case 'vector':
        return `<${t.length} x ${this.key(t.element)}>`;
      case 'struct':
        return `${t.packed ? '<' : ''}{${t.elements.map((e) => this.key(e)).join(',')}}${t.packed ? '>' : ''}`;
      case 'function':
        return `${this.key(t.ret)}(${t.params.map((e) => this.key(e)).join(',')}${t.varArg ? ',...' : ''})`;
      case 'named':
        return `%${t.name}`;
      case 'pointer':
        return `${this.key(t.element)}*`;
      default:
        return t.kind;
    }
  }
  private simple(kind: 'void' | 'float' | 'double' | 'ptr' | 'label' | 'metadata' | 'x86_fp80' | 'fp128' | 'half'): IrType {
    return this.intern(kind, () => ({ kind }));
  }
  intType(bits: number): IrType {
    return this.intern(`i${bits}`, () => ({ kind: 'int', bits }));
  }
  private named(key: string): IrNamedStruct {
    let s = this.structs.get(key);
    if (!s) {
      s = { kind: 'named', name: key, body: undefined };
      this.structs.set(key, s);
    }
    return s;
  }
  private pointer(element: IrType): IrType {
    const t: IrType = { kind: 'pointer', element };
    return this.intern(this.key(t), () => t);
  }
  /** The type of a pointer to a value of `t`: `ptr`, or with typed pointers `t*`. */
  private pointerTo(t: IrType): IrType {
    return this.typedPointers ? this.pointer(t) : this.simple('ptr');
  }
  private fnType(ret: IrType, params: IrType[], varArg: boolean): IrType & { kind: 'function' } {
    const t: IrType = { kind: 'function', ret, params, varArg };
    return this.intern(this.key(t), () => t) as IrType & { kind: 'function' };
  }

  type(): IrType {
    this.enter();
    let t = this.baseType();
    // Each `*` nests one level more (its key spells the pointee): counted against MAX_NESTING.
    let stars = 0;
    for (;;) {
      if (this.isP('(')) t = this.fnType(t, ...this.paramTypes());
      else if (this.isP('*')) {
        if (!this.typedPointers) this.fail('typed pointers are not part of the IR for LLVM 15 on');
        this.enter();
        stars++;
        this.pos++;
        t = this.pointer(t);
      } else break;
    }
    this.depth -= stars + 1;
    return t;
  }
  private paramTypes(): [IrType[], boolean] {
    this.expectP('(');
    const params: IrType[] = [];
    let varArg = false;
    while (!this.eatP(')')) {
      if (params.length || varArg) this.expectP(',');
      if (this.eatP('...')) {
        varArg = true;
        continue;
      }
      params.push(this.type());
    }
    return [params, varArg];
  }
  private baseType(): IrType {
    const t = this.next();
    if (t.t === 'local') return this.named(t.v);
    if (t.t === 'word') {
      const m = /^i([0-9]+)$/.exec(t.v);
      if (m) {
        const bits = Number(m[1]);
        if (bits < 1 || bits > 8388608) this.fail(`no integer type of ${bits} bits`, t);
        return this.intType(bits);
      }
      if (['void', 'float', 'double', 'ptr', 'label', 'metadata', 'x86_fp80', 'fp128', 'half'].includes(t.v)) return this.simple(t.v as 'void');
      this.fail(`unknown type '${t.v}'`, t);
    }
    if (t.t === 'punct') {
      if (t.v === '[' || t.v === '<') {
        if (t.v === '<' && this.isP('{')) {
          const elements = this.structBody();
          this.expectP('>');
          const s: IrType = { kind: 'struct', elements, packed: true };
          return this.intern(this.key(s), () => s);
        }
        const length = this.int();
        this.expectW('x');
        const element = this.type();
        this.expectP(t.v === '[' ? ']' : '>');
        const a: IrType = { kind: t.v === '[' ? 'array' : 'vector', length, element };
        return this.intern(this.key(a), () => a);
      }
      if (t.v === '{') {
        this.pos--;
        const elements = this.structBody();
        const s: IrType = { kind: 'struct', elements, packed: false };
        return this.intern(this.key(s), () => s);
      }
    }
    this.fail('a type expected', t);
  }
  /** A getelementptr's result element type (typed pointers), or a refusal naming the line. */
  private indexedType(source: IrType, indices: readonly IrOperand[]): IrType {
    return indexedTypeOf(source, indices) ?? this.fail('getelementptr indices that reach no type');
  }
  private structBody(): IrType[] {
    return this.list('{', '}', () => this.type());
  }
  /** `open item, item, … close`. */
  private list<T>(open: string, close: string, item: () => T): T[] {
    this.expectP(open);
    const out: T[] = [];
    while (!this.eatP(close)) {
      if (out.length) this.expectP(',');
      out.push(item());
    }
    return out;
  }

  // ---- constants ----------------------------------------------------------------------------

  private constant(type: IrType): IrConstant {
    this.enter();
    const c = this.constantInner(type);
    this.depth--;
    return c;
  }
  private typedConstant(): IrConstant {
    return this.constant(this.type());
  }
  private constantInner(type: IrType): IrConstant {
    const t = this.next();
    switch (t.t) {
      case 'num':
        if (type.kind === 'int') return { kind: 'int', type, value: parseInteger(t.v, type.bits, () => this.fail('an integer expected', t)) };
        if (type.kind === 'float' || type.kind === 'double') return { kind: 'fp', type, bits: parseFloatBits(t.v, type.kind) };
        return this.fail('a number of this type is not supported', t);
      case 'global':
        return { kind: 'global', type, name: t.v };
      case 'cstr': {
        const bytes = Uint8Array.from(t.v, (ch) => ch.charCodeAt(0));
        return { kind: 'bytes', type, bytes };
      }
      case 'punct': {
        if (t.v === '[' || (t.v === '<' && !this.isP('{'))) {
          this.pos--;
          return { kind: 'aggregate', type, elements: this.list(t.v, t.v === '[' ? ']' : '>', () => this.typedConstant()) };
        }
        if (t.v === '{' || t.v === '<') {
          if (t.v === '{') this.pos--;
          const elements = this.list('{', '}', () => this.typedConstant());
          if (t.v === '<') this.expectP('>');
          return { kind: 'aggregate', type, elements };
        }
        break;
      }
      case 'word':
        return this.wordConstant(t, type);
    }
    this.fail('a constant expected', t);
  }
  private wordConstant(t: Token, type: IrType): IrConstant {
    switch (t.v) {
      case 'true':
      case 'false':
        return { kind: 'int', type, value: t.v === 'true' ? 1n : 0n };
      case 'null':
        return { kind: 'null', type };
      case 'undef':
      case 'poison':
        return { kind: t.v, type };
      case 'zeroinitializer':
        return { kind: 'zero', type };
      case 'getelementptr': {
        const inbounds = this.eatW('inbounds');
        this.expectP('(');
        const sourceType = this.type();
        const operands: IrConstant[] = [];
        while (this.eatP(',')) operands.push(this.typedConstant());
        this.expectP(')');
        return { kind: 'expr', type, opcode: 'getelementptr', operands, sourceType, inbounds };
      }
      case 'icmp':
      case 'fcmp': {
        const predicate = this.word();
        const operands = this.constantList();
        return { kind: 'expr', type, opcode: t.v, operands, predicate };
      }
    }
    if (CASTS.has(t.v)) {
      this.expectP('(');
      const operand = this.typedConstant();
      this.expectW('to');
      const to = this.type();
      this.expectP(')');
      return { kind: 'expr', type: to, opcode: t.v, operands: [operand] };
    }
    if (BINARY_OPS.has(t.v)) {
      const flags = this.binaryFlags();
      return { kind: 'expr', type, opcode: t.v, operands: this.constantList(), flags };
    }
    if (['select', 'extractelement', 'insertelement', 'shufflevector'].includes(t.v)) return { kind: 'expr', type, opcode: t.v, operands: this.constantList() };
    this.fail(`unknown constant '${t.v}'`, t);
  }
  private constantList(): IrConstant[] {
    return this.list('(', ')', () => this.typedConstant());
  }
  private binaryFlags(): number {
    let flags = 0;
    for (;;) {
      if (this.eatW('nuw') || this.eatW('exact')) flags |= 1;
      else if (this.eatW('nsw')) flags |= 2;
      else return flags;
    }
  }

  // ---- values and attributes ----------------------------------------------------------------

  private value(type: IrType): IrValue {
    const t = this.peek();
    if (t && t.t === 'local') {
      this.pos++;
      return { kind: 'local', name: t.v };
    }
    if (this.isW('asm')) return { kind: 'const', constant: this.inlineAsm(type) };
    return { kind: 'const', constant: this.constant(type) };
  }
  private operand(): IrOperand {
    const type = this.type();
    return { type, value: this.value(type) };
  }
  private inlineAsm(fnType: IrType): IrConstant {
    this.expectW('asm');
    const sideEffect = this.eatW('sideeffect');
    const asm = this.string();
    this.expectP(',');
    const constraints = this.string();
    return { kind: 'asm', type: this.pointerTo(fnType), fnType, asm, constraints, sideEffect };
  }
  /** Attributes; `align N` is one unless it is a function's alignment (`define … align 16`). */
  private attributes(alignIsAttribute = true): IrAttribute[] {
    const out: IrAttribute[] = [];
    for (;;) {
      const t = this.peek();
      if (!t || t.t !== 'word') return out;
      if (ENUM_ATTRIBUTES.has(t.v)) {
        this.pos++;
        out.push({ kind: 'enum', name: t.v });
      } else if (INT_ATTRIBUTES.has(t.v) && !this.isP('(', 1) && (alignIsAttribute || t.v !== 'align')) {
        if (this.peek(1)?.t !== 'num') return out;
        this.pos++;
        out.push({ kind: 'int', name: t.v, value: this.int() });
      } else if (TYPE_ATTRIBUTES.has(t.v) && this.isP('(', 1)) {
        this.pos += 2;
        const type = this.type();
        this.expectP(')');
        out.push({ kind: 'type', name: t.v, type });
      } else return out;
    }
  }
  private label(): string {
    this.expectW('label');
    const t = this.next();
    if (t.t !== 'local') this.fail('a label expected', t);
    return t.v;
  }

  // ---- module -------------------------------------------------------------------------------

  parse(): IrModule {
    while (this.peek()) this.topLevel();
    return this.module;
  }
  private topLevel(): void {
    const t = this.next();
    if (t.t === 'word') {
      if (t.v === 'module') {
        this.expectW('asm');
        this.module.asm.push(this.string());
        return;
      }
      if (t.v === 'target') {
        const what = this.word();
        this.expectP('=');
        const s = this.string();
        if (what === 'triple') (this.module as { triple: string | undefined }).triple = s;
        else if (what === 'datalayout') (this.module as { dataLayout: string | undefined }).dataLayout = s;
        else this.fail(`unknown target field '${what}'`, t);
        return;
      }
      if (t.v === 'declare' || t.v === 'define') return this.function(t.v === 'define');
      if (t.v === 'source_filename') {
        this.expectP('=');
        this.string();
        return;
      }
    }
    if (t.t === 'local') {
      this.expectP('=');
      this.expectW('type');
      const s = this.named(t.v);
      if (s.body !== undefined || this.module.structs.includes(s)) this.fail('type defined twice', t);
      this.module.structs.push(s);
      if (this.eatW('opaque')) return;
      const packed = this.eatP('<');
      const elements = this.structBody();
      if (packed) this.expectP('>');
      s.body = { elements, packed };
      return;
    }
    if (t.t === 'global') return this.globalOrAlias(t.v);
    if (t.t === 'meta') return this.metadata(t);
    this.fail('a declaration expected', t);
  }
  private metadata(t: Token): void {
    this.expectP('=');
    if (/^[0-9]+$/.test(t.v)) {
      const id = Number(t.v);
      if (this.eatP('!{')) {
        const elements: number[] = [];
        while (!this.eatP('}')) {
          if (elements.length) this.expectP(',');
          const e = this.next();
          if (e.t === 'mstr') {
            // an inline string: give it an id of its own above every numbered node
            const sid = -1 - this.module.metadata.size;
            this.module.metadata.set(sid, { kind: 'string', value: e.v });
            elements.push(sid);
          } else if (e.t === 'meta' && /^[0-9]+$/.test(e.v)) elements.push(Number(e.v));
          else this.fail('a metadata operand expected', e);
        }
        const node: IrMetadata = { kind: 'node', elements };
        this.module.metadata.set(id, node);
        return;
      }
      this.fail('a metadata node expected');
    }
    this.expectP('!{');
    const nodes: number[] = [];
    while (!this.eatP('}')) {
      if (nodes.length) this.expectP(',');
      const e = this.next();
      if (e.t !== 'meta' || !/^[0-9]+$/.test(e.v)) this.fail('a metadata node expected', e);
      nodes.push(Number(e.v));
    }
    this.module.namedMetadata.push({ name: t.v, nodes });
  }
  private prefixes(): { linkage: string; visibility: string; dllStorage: string; threadLocal: boolean; declaration: boolean } {
    let declaration = false;
    let linkage = 'external';
    let visibility = 'default';
    let dllStorage = '';
    let threadLocal = false;
    for (;;) {
      const t = this.peek();
      if (!t || t.t !== 'word') break;
      if (LINKAGES.has(t.v)) {
        linkage = t.v;
        declaration ||= t.v === 'external' || t.v === 'extern_weak';
      } else if (t.v === 'hidden' || t.v === 'protected' || t.v === 'default') visibility = t.v;
      else if (t.v === 'dllimport' || t.v === 'dllexport') dllStorage = t.v;
      else if (t.v === 'thread_local') threadLocal = true;
      else break;
      this.pos++;
    }
    return { linkage, visibility, dllStorage, threadLocal, declaration };
  }
  private globalOrAlias(name: string): void {
    this.expectP('=');
    const p = this.prefixes();
    if (this.eatW('alias')) {
      const valueType = this.type();
      this.expectP(',');
      const aliasee = this.typedConstant();
      const a: IrAlias = { name, valueType, aliasee, linkage: p.linkage, visibility: p.visibility };
      this.module.aliases.push(a);
      return;
    }
    const kind = this.word();
    if (kind !== 'global' && kind !== 'constant') this.fail(`'global' or 'constant' expected, not '${kind}'`);
    const valueType = this.type();
    // A declaration says `external` (or `extern_weak`); a definition has an initializer.
    const initializer = p.declaration ? undefined : this.constant(valueType);
    let section: string | undefined;
    let align = 0;
    while (this.eatP(',')) {
      const w = this.word();
      if (w === 'section') section = this.string();
      else if (w === 'align') align = this.int();
      else this.fail(`unknown global field '${w}'`);
    }
    const g: IrGlobalVariable = {
      name,
      valueType,
      isConstant: kind === 'constant',
      initializer,
      linkage: p.linkage,
      visibility: p.visibility,
      dllStorage: p.dllStorage,
      threadLocal: p.threadLocal,
      section,
      align,
    };
    this.module.globals.push(g);
  }
  private function(isDefinition: boolean): void {
    const p = this.prefixes();
    let callingConv = 0;
    const cc = this.callingConv();
    if (cc !== undefined) callingConv = cc;
    const retAttrs = this.attributes();
    const ret = this.type();
    const nameTok = this.next();
    if (nameTok.t !== 'global') this.fail('a function name expected', nameTok);
    this.expectP('(');
    const params: IrType[] = [];
    const paramAttrs: IrAttribute[][] = [];
    const names: string[] = [];
    let varArg = false;
    let unnamedArg = 0;
    while (!this.eatP(')')) {
      if (params.length || varArg) this.expectP(',');
      if (this.eatP('...')) {
        varArg = true;
        continue;
      }
      params.push(this.type());
      paramAttrs.push(this.attributes());
      const n = this.peek();
      if (n && n.t === 'local') {
        this.pos++;
        names.push(n.v);
      } else names.push(`#${unnamedArg++}`);
    }
    const fnAttrs = this.attributes(false);
    let section: string | undefined;
    let align = 0;
    let gc: string | undefined;
    let personality: IrConstant | undefined;
    for (;;) {
      if (this.eatW('section')) section = this.string();
      else if (this.eatW('align')) align = this.int();
      else if (this.eatW('gc')) gc = this.string();
      else if (this.eatW('personality')) personality = this.typedConstant();
      else break;
    }
    const type = this.fnType(ret, params, varArg);
    const attributes: IrAttributeSet = { fn: fnAttrs, ret: retAttrs, params: paramAttrs };
    const blocks = isDefinition ? this.body() : undefined;
    const f: IrFunction = {
      name: nameTok.v,
      type,
      linkage: p.linkage === 'extern_weak' && isDefinition ? 'weak' : p.linkage,
      visibility: p.visibility,
      dllStorage: p.dllStorage,
      callingConv,
      attributes,
      section,
      align,
      gc,
      personality,
      params: names,
      blocks,
    };
    this.module.functions.push(f);
  }
  private callingConv(): number | undefined {
    const t = this.peek();
    if (!t || t.t !== 'word') return undefined;
    const known = CALLING_CONVENTIONS.get(t.v);
    if (known !== undefined) {
      this.pos++;
      return known;
    }
    if (t.v === 'cc' && this.peek(1)?.t === 'num') {
      this.pos++;
      return this.int();
    }
    return undefined;
  }

  // ---- function bodies ----------------------------------------------------------------------

  private body(): IrBlock[] {
    this.expectP('{');
    const blocks: IrBlock[] = [];
    let current: IrBlock | undefined;
    let unnamed = 0;
    while (!this.eatP('}')) {
      const t = this.peek()!;
      if (t && t.t === 'label') {
        this.pos++;
        current = { name: t.v, instructions: [] };
        blocks.push(current);
        continue;
      }
      if (!current) {
        // The entry block without a label: LLVM numbers it after the arguments.
        current = { name: `#entry${unnamed++}`, instructions: [] };
        blocks.push(current);
      }
      current.instructions.push(this.instruction());
    }
    return blocks;
  }

  private instruction(): IrInstruction {
    let result: string | undefined;
    const t = this.peek();
    if (t && t.t === 'local' && this.isP('=', 1)) {
      result = t.v;
      this.pos += 2;
    }
    const opTok = this.next();
    if (opTok.t !== 'word') this.fail('an instruction expected', opTok);
    const op = opTok.v;
    // Each instruction is a literal, not `{ ...base, … }`: V8 gives every object made by a spread
    // followed by more properties a map of its own, and the writer's reads of 80,000 instructions
    // with 80,000 maps each missed the property caches (most of its time on a large module).
    const base = { result, labels: [] as string[] };
    const v = this.simple('void');
    if (op === 'ret') {
      if (this.eatW('void')) return { result, labels: [], type: v, opcode: 'ret', operands: [] };
      return { result, labels: [], type: v, opcode: 'ret', operands: [this.operand()] };
    }
    if (op === 'br') {
      if (this.isW('label')) return { result, type: v, opcode: 'br', operands: [], labels: [this.label()] };
      const cond = this.operand();
      this.expectP(',');
      const a = this.label();
      this.expectP(',');
      const b = this.label();
      return { result, type: v, opcode: 'br', operands: [cond], labels: [a, b] };
    }
    if (op === 'switch') {
      const cond = this.operand();
      this.expectP(',');
      const dflt = this.label();
      this.expectP('[');
      const cases: { value: IrConstant; block: string }[] = [];
      while (!this.eatP(']')) {
        const value = this.typedConstant();
        this.expectP(',');
        cases.push({ value, block: this.label() });
      }
      return { result, type: v, opcode: 'switch', operands: [cond], labels: [dflt], cases };
    }
    if (op === 'unreachable') return { result, labels: [], type: v, opcode: op, operands: [] };
    if (op === 'resume') return { result, labels: [], type: v, opcode: op, operands: [this.operand()] };
    if (BINARY_OPS.has(op)) {
      const flags = this.binaryFlags();
      const a = this.operand();
      this.expectP(',');
      const b = { type: a.type, value: this.value(a.type) };
      return { result, labels: [], type: a.type, opcode: op, operands: [a, b], flags };
    }
    if (op === 'icmp' || op === 'fcmp') {
      const predicate = this.word();
      const a = this.operand();
      this.expectP(',');
      const b = { type: a.type, value: this.value(a.type) };
      const type =
        a.type.kind === 'vector'
          ? this.intern(`<${a.type.length} x i1>`, () => ({ kind: 'vector', length: (a.type as { length: number }).length, element: this.intType(1) }))
          : this.intType(1);
      return { result, labels: [], type, opcode: op, operands: [a, b], predicate };
    }
    if (CASTS.has(op)) {
      const a = this.operand();
      this.expectW('to');
      return { result, labels: [], type: this.type(), opcode: op, operands: [a] };
    }
    switch (op) {
      case 'getelementptr': {
        const inbounds = this.eatW('inbounds');
        const auxType = this.type();
        const operands: IrOperand[] = [];
        while (this.eatP(',')) operands.push(this.operand());
        const type = operands[0]?.type.kind === 'vector' ? operands[0].type : this.pointerTo(this.indexedType(auxType, operands.slice(2)));
        return { result, labels: [], type, opcode: op, operands, auxType, inbounds };
      }
      case 'load': {
        const isVolatile = this.eatW('volatile');
        const type = this.type();
        this.expectP(',');
        const p = this.operand();
        const align = this.eatP(',') && this.eatW('align') ? this.int() : 0;
        return { result, labels: [], type, opcode: op, operands: [p], auxType: type, volatile: isVolatile, align };
      }
      case 'store': {
        const isVolatile = this.eatW('volatile');
        const val = this.operand();
        this.expectP(',');
        const p = this.operand();
        const align = this.eatP(',') && this.eatW('align') ? this.int() : 0;
        return { result, labels: [], type: v, opcode: op, operands: [p, val], volatile: isVolatile, align };
      }
      case 'alloca': {
        const auxType = this.type();
        const operands: IrOperand[] = [];
        let align = 0;
        while (this.eatP(',')) {
          if (this.eatW('align')) align = this.int();
          else operands.push(this.operand());
        }
        return { result, labels: [], type: this.pointerTo(auxType), opcode: op, operands, auxType, align };
      }
      case 'phi': {
        const type = this.type();
        const incoming: { value: IrValue; block: string }[] = [];
        do {
          this.expectP('[');
          const value = this.value(type);
          this.expectP(',');
          const b = this.next();
          if (b.t !== 'local') this.fail('a block expected', b);
          this.expectP(']');
          incoming.push({ value, block: b.v });
        } while (this.eatP(','));
        return { result, labels: [], type, opcode: op, operands: [], incoming };
      }
      case 'select': {
        const ops = this.operandList(3);
        return { result, labels: [], type: ops[1]!.type, opcode: op, operands: ops };
      }
      case 'extractelement': {
        const ops = this.operandList(2);
        const vt = ops[0]!.type;
        if (vt.kind !== 'vector') this.fail('extractelement of a non-vector');
        return { result, labels: [], type: vt.element, opcode: op, operands: ops };
      }
      case 'insertelement': {
        const ops = this.operandList(3);
        return { result, labels: [], type: ops[0]!.type, opcode: op, operands: ops };
      }
      case 'shufflevector': {
        const ops = this.operandList(3);
        const vt = ops[0]!.type;
        const mt = ops[2]!.type;
        if (vt.kind !== 'vector' || mt.kind !== 'vector') this.fail('shufflevector of non-vectors');
        const type = this.intern(`<${mt.length} x ${this.key(vt.element)}>`, () => ({ kind: 'vector', length: mt.length, element: vt.element }));
        return { result, labels: [], type, opcode: op, operands: ops };
      }
      case 'extractvalue':
      case 'insertvalue': {
        const ops = op === 'extractvalue' ? [this.operand()] : this.operandList(2, false);
        const indices: number[] = [];
        while (this.eatP(',')) indices.push(this.int());
        let type = ops[0]!.type;
        if (op === 'extractvalue') for (const i of indices) type = memberType(type, i) ?? this.fail('extractvalue index out of range');
        return { result, labels: [], type, opcode: op, operands: ops, indices };
      }
      case 'va_arg': {
        const p = this.operand();
        this.expectP(',');
        const type = this.type();
        return { result, labels: [], type, opcode: op, operands: [p], auxType: type };
      }
      case 'landingpad': {
        const type = this.type();
        const cleanup = this.eatW('cleanup');
        const clauses: { kind: 0 | 1; value: IrOperand }[] = [];
        for (;;) {
          if (this.eatW('catch')) clauses.push({ kind: 0, value: this.operand() });
          else if (this.eatW('filter')) clauses.push({ kind: 1, value: this.operand() });
          else break;
        }
        return { result, labels: [], type, opcode: op, operands: [], cleanup, clauses };
      }
      case 'tail':
        this.expectW('call');
        return this.call(base, true);
      case 'call':
        return this.call(base, false);
      case 'invoke':
        return this.call(base, false, true);
    }
    this.fail(`unknown instruction '${op}'`, opTok);
  }
  private operandList(n: number, allTyped = true): IrOperand[] {
    const ops: IrOperand[] = [];
    for (let i = 0; i < n; i++) {
      if (i) this.expectP(',');
      ops.push(allTyped || i === 0 ? this.operand() : this.operand());
    }
    return ops;
  }
  private call(base: { result: string | undefined; labels: string[] }, tail: boolean, invoke = false): IrInstruction {
    const callingConv = this.callingConv() ?? 0;
    const retAttrs = this.attributes();
    const written = this.type();
    const calleeTok = this.peek();
    let fnType: IrType & { kind: 'function' };
    let callee: IrValue;
    const argsStart = (): { types: IrType[]; attrs: IrAttribute[][]; ops: IrOperand[] } => {
      this.expectP('(');
      const ops: IrOperand[] = [];
      const attrs: IrAttribute[][] = [];
      while (!this.eatP(')')) {
        if (ops.length) this.expectP(',');
        const type = this.type();
        attrs.push(this.attributes());
        ops.push({ type, value: this.value(type) });
      }
      return { types: ops.map((o) => o.type), attrs, ops };
    };
    if (calleeTok && calleeTok.t === 'word' && calleeTok.v === 'asm') {
      // the function type is known only once the arguments are read
      const save = this.pos;
      this.inlineAsm(written);
      const args = argsStart();
      fnType = written.kind === 'function' ? written : this.fnType(written, args.types, false);
      this.pos = save;
      callee = { kind: 'const', constant: this.inlineAsm(fnType) };
    } else {
      callee = this.value(this.simple('ptr'));
      fnType = written.kind === 'function' ? written : this.fnType(written, [], false); // replaced below
    }
    const args = argsStart();
    if (written.kind !== 'function') fnType = this.fnType(written, args.types, false);
    // Typed pointers: a constant callee (`@f`, `null`, `undef`) read before its function type was
    // known has the type of a pointer to the function type called.
    if (this.typedPointers && callee.kind === 'const' && callee.constant.type.kind === 'ptr')
      callee = { kind: 'const', constant: { ...callee.constant, type: this.pointer(fnType) } as IrConstant };
    const fnAttrs = this.attributes();
    const labels: string[] = [];
    if (invoke) {
      this.expectW('to');
      labels.push(this.label());
      this.expectW('unwind');
      labels.push(this.label());
    }
    const attributes: IrAttributeSet = { fn: fnAttrs, ret: retAttrs, params: args.attrs };
    return {
      result: base.result,
      labels,
      type: fnType.ret,
      opcode: invoke ? 'invoke' : 'call',
      operands: [{ type: this.pointerTo(fnType), value: callee }, ...args.ops],
      auxType: fnType,
      tail,
      callingConv,
      attributes,
    };
  }
}

/** The type a getelementptr's indices after the first reach inside `source` (constant struct indices). */
function indexedTypeOf(source: IrType, indices: readonly IrOperand[]): IrType | undefined {
  let t: IrType | undefined = source;
  for (const idx of indices) {
    if (t === undefined) return undefined;
    if (t.kind === 'struct' || t.kind === 'named') {
      const c = idx.value.kind === 'const' ? idx.value.constant : undefined;
      t = c?.kind === 'int' ? memberType(t, Number(c.value)) : undefined;
    } else if (t.kind === 'array' || t.kind === 'vector') t = t.element;
    else return undefined;
  }
  return t;
}

/** The type of member `i` of an aggregate type. */
export function memberType(t: IrType, i: number): IrType | undefined {
  if (t.kind === 'struct') return t.elements[i];
  if (t.kind === 'named') return t.body?.elements[i];
  if (t.kind === 'array' || t.kind === 'vector') return i < t.length ? t.element : undefined;
  return undefined;
}

/** An integer literal as the type's bits hold it (two's complement, `bits` wide). */
function parseInteger(text: string, bits: number, fail: () => never): bigint {
  if (!/^-?[0-9]+$/.test(text)) fail();
  return BigInt.asUintN(bits, BigInt(text));
}

/**
 * A floating-point literal's bits in its type's format. LLVM writes `0x…` as the bits of the value
 * as a double, for a float too; decimals are exact in the printer's output.
 */
export function parseFloatBits(text: string, kind: 'float' | 'double'): bigint {
  const dv = new DataView(new ArrayBuffer(8));
  let value: number;
  const neg = text.startsWith('-');
  const body = neg ? text.slice(1) : text;
  if (body.startsWith('0x')) {
    dv.setBigUint64(0, BigInt(body));
    value = dv.getFloat64(0);
    if (kind === 'double') return neg ? dv.getBigUint64(0) ^ (1n << 63n) : dv.getBigUint64(0);
    if (Number.isNaN(value)) {
      // Keep a NaN's payload: the float's mantissa is the double's top 23 bits.
      const d = dv.getBigUint64(0);
      const f = (((d >> 63n) & 1n) << 31n) | (0xffn << 23n) | ((d >> 29n) & 0x7fffffn);
      return neg ? f ^ (1n << 31n) : f;
    }
  } else value = Number(body);
  if (neg) value = -value;
  if (kind === 'double') {
    dv.setFloat64(0, value);
    return dv.getBigUint64(0);
  }
  dv.setFloat32(0, value);
  return BigInt(dv.getUint32(0));
}

/** The module `printModern` wrote as `text`. Throws IrSyntaxError where the text leaves the subset the printer writes. */
export function parseModernIr(text: string, options: { readonly typedPointers?: boolean } = {}): IrModule {
  return new Parser(text, tokenize(text), options.typedPointers ?? false).parse();
}
