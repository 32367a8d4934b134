/**
 * Reads back the modern IR that `printModern` writes, into the model the bitcode writer takes
 * (ir.ts). It knows exactly the constructs the printer emits (docs/upgrade.md, "Bitcode"): a
 * text from elsewhere using more of LLVM's language is refused with an `IrSyntaxError` naming the
 * line. Bounded: the token count (lexer.ts) and the nesting of types and constants.
 *
 * Fast, because a large module's bitcode is mostly this read-back (docs/performance.md): tokens
 * are pulled from the lexer one at a time, types are interned without key strings
 * (type-interner.ts), a constant that repeats (`i32 0`, `ptr @g`, `null`) is one object and a
 * local one value object wherever they are used (so the writer's caches by object hit), and every
 * instruction is an object of the one shape.
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
import { BINOP, CAST } from './codes.js';
import { indexable, Keywords, Lexer, Tok } from './lexer.js';
import {
  aggregateInstruction,
  allocaInstruction,
  binaryInstruction,
  callInstruction,
  compareInstruction,
  gepInstruction,
  landingPadInstruction,
  memoryInstruction,
  NO_LABELS,
  phiInstruction,
  plainInstruction,
  switchInstruction,
} from './instruction.js';
import { type FunctionType, TypeInterner } from './type-interner.js';
import type { DirectBody, DirectBodyReader } from './direct-body.js';

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
/** The casts and binary operators the reader knows: the ones the writer has codes for (codes.ts). */
const CASTS: ReadonlySet<string> = new Set(CAST.keys());
const BINARY_OPS: ReadonlySet<string> = new Set(BINOP.keys());

const OPCODE_WORDS = [
  'ret',
  'br',
  'switch',
  'unreachable',
  'resume',
  'icmp',
  'fcmp',
  'getelementptr',
  'load',
  'store',
  'alloca',
  'phi',
  'select',
  'extractelement',
  'insertelement',
  'shufflevector',
  'extractvalue',
  'insertvalue',
  'va_arg',
  'landingpad',
  'tail',
  'call',
  'invoke',
];

/** Every word the reader compares with: the lexer hands these out as the literals themselves. */
const KEYWORDS = new Keywords([
  ...ENUM_ATTRIBUTES,
  ...TYPE_ATTRIBUTES,
  ...INT_ATTRIBUTES,
  ...LINKAGES,
  ...CALLING_CONVENTIONS.keys(),
  ...CASTS,
  ...BINARY_OPS,
  ...OPCODE_WORDS,
  ...['void', 'float', 'double', 'ptr', 'label', 'metadata', 'x86_fp80', 'fp128', 'half', 'i1', 'i8', 'i16', 'i32', 'i64', 'i128', 'x', 'opaque', 'type'],
  ...['true', 'false', 'null', 'undef', 'poison', 'zeroinitializer', 'inbounds', 'to', 'asm', 'sideeffect', 'nuw', 'nsw', 'exact', 'volatile'],
  ...['eq', 'ne', 'ugt', 'uge', 'ult', 'ule', 'sgt', 'sge', 'slt', 'sle', 'oeq', 'ogt', 'oge', 'olt', 'ole', 'one', 'ord', 'ueq', 'une', 'uno'],
  ...['module', 'target', 'triple', 'datalayout', 'declare', 'define', 'source_filename', 'alias', 'global', 'constant', 'section', 'gc', 'personality'],
  ...['hidden', 'protected', 'default', 'dllimport', 'dllexport', 'thread_local', 'cc', 'cleanup', 'catch', 'filter', 'unwind'],
]);

type ConstValue = { readonly kind: 'const'; readonly constant: IrConstant };
type IntType = Extract<IrType, { kind: 'int' }>;

const NO_OPERANDS: readonly IrOperand[] = [];
const NO_ATTRIBUTES: readonly IrAttribute[] = [];

/** A constant of one token as an operand of its type. */
type LeafOperand = { readonly type: IrType; readonly value: ConstValue };

/** Constants by type and then by a second key: one operand object (and so one constant object) for each. */
class ConstantCache<K> {
  private readonly byType = new Map<IrType, Map<K, LeafOperand>>();
  private lastType: IrType | undefined;
  private last = new Map<K, LeafOperand>();

  private of(type: IrType): Map<K, LeafOperand> {
    if (this.lastType !== type) {
      let m = this.byType.get(type);
      if (!m) this.byType.set(type, (m = new Map()));
      this.lastType = type;
      this.last = m;
    }
    return this.last;
  }
  get(type: IrType, key: K): LeafOperand | undefined {
    return this.of(type).get(key);
  }
  add(type: IrType, key: K, constant: IrConstant): LeafOperand {
    const o: LeafOperand = { type, value: { kind: 'const', constant } };
    this.of(type).set(key, o);
    return o;
  }
}

/**
 * The reader. `writeModern` also hands it the bodies it lowered straight to records
 * (direct-body.ts), each standing in the text as `{ ~ }`, and has it read the types and constants
 * those bodies use from their text (`typeOf`, `constantOf`), so that a body lowered directly
 * numbers the same types and constants, in the same objects, as its text would have.
 */
export class ModernIrReader implements DirectBodyReader {
  private depth = 0;
  private lex: Lexer;
  private readonly types: TypeInterner;
  private readonly definedStructs = new Set<IrNamedStruct>();
  /** Locals' values by name key, constants' by type and value (see the file's comment). */
  private readonly namedLocals = new Map<string, IrOperand>();
  private readonly numberedLocals: (IrOperand | undefined)[] = [];
  private readonly ints = new ConstantCache<number>();
  private readonly fps = new ConstantCache<string>();
  private readonly globalRefs = new ConstantCache<string>();
  private readonly plain = new ConstantCache<'null' | 'undef' | 'poison' | 'zero'>();
  private readonly enumAttributes = new Map<string, IrAttribute>();
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

  /** Bodies lowered directly, in the order their `~` stand in the text, and the next one's index. */
  private readonly directBodies: DirectBody[] = [];
  private nextDirectBody = 0;
  /** Types and constants read from their text for the direct bodies, by that text. */
  private readonly typesByText = new Map<string, IrType>();
  private readonly constantsByText = new Map<IrType, Map<string, IrConstant>>();

  constructor(
    /** The text is LLVM 13/14's, with typed pointers (`i32*`). */
    private readonly typedPointers = false,
  ) {
    this.lex = new Lexer('', KEYWORDS);
    this.types = new TypeInterner((bits) => this.fail(`no integer type of ${bits} bits`));
  }

  // ---- tokens -------------------------------------------------------------------------------

  private fail(msg: string, at: number = this.lex.at): never {
    return this.lex.fail(msg, at);
  }
  /** The current token's kind; fails at the end of the text, where a token is needed. */
  private need(): Tok {
    if (this.lex.kind === Tok.End) this.fail('unexpected end of text');
    return this.lex.kind;
  }
  private isP(v: string): boolean {
    return this.lex.kind === Tok.Punct && this.lex.val === v;
  }
  private isW(v: string): boolean {
    return this.lex.kind === Tok.Word && this.lex.val === v;
  }
  private eatP(v: string): boolean {
    if (!this.isP(v)) return false;
    this.lex.advance();
    return true;
  }
  private eatW(v: string): boolean {
    if (!this.isW(v)) return false;
    this.lex.advance();
    return true;
  }
  private expectP(v: string): void {
    if (!this.eatP(v)) this.fail(`'${v}' expected`);
  }
  private expectW(v: string): void {
    if (!this.eatW(v)) this.fail(`'${v}' expected`);
  }
  private word(): string {
    this.need();
    if (this.lex.kind !== Tok.Word) this.fail('a keyword expected');
    const v = this.lex.val;
    this.lex.advance();
    return v;
  }
  private int(): number {
    const lex = this.lex;
    this.need();
    if (lex.kind !== Tok.Num || !lex.plain) this.fail('a number expected');
    const n = Number.isNaN(lex.int) ? Number(lex.raw()) : lex.int;
    if (!Number.isSafeInteger(n) || n > 0xffffffff) this.fail('a number below 2^32 expected');
    lex.advance();
    return n;
  }
  private string(): string {
    this.need();
    if (this.lex.kind !== Tok.Str) this.fail('a string expected');
    const v = this.lex.val;
    this.lex.advance();
    return v;
  }
  private enter(): void {
    if (++this.depth > MAX_NESTING) this.fail(`nested deeper than ${MAX_NESTING}`);
  }

  // ---- types --------------------------------------------------------------------------------

  /** The type of a pointer to a value of `t`: `ptr`, or with typed pointers `t*`. */
  private pointerTo(t: IrType): IrType {
    return this.typedPointers ? this.types.pointer(t) : this.types.ptr;
  }

  type(): IrType {
    this.enter();
    const lex = this.lex;
    let t = this.baseType();
    // Each `*` nests one level more (its key spells the pointee): counted against MAX_NESTING.
    let stars = 0;
    while (lex.kind === Tok.Punct) {
      if (lex.val === '(') t = this.functionType(t);
      else if (lex.val === '*') {
        if (!this.typedPointers) this.fail('typed pointers are not part of the IR for LLVM 15 on');
        this.enter();
        stars++;
        lex.advance();
        t = this.types.pointer(t);
      } else break;
    }
    this.depth -= stars + 1;
    return t;
  }
  private functionType(ret: IrType): FunctionType {
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
    return this.types.function(ret, params, varArg);
  }
  private baseType(): IrType {
    const lex = this.lex;
    const at = lex.at;
    switch (lex.kind) {
      case Tok.Local: {
        const s = this.types.namedStruct(lex.val);
        lex.advance();
        return s;
      }
      case Tok.Word: {
        const t = this.types.ofWord(lex.val);
        if (t === undefined) this.fail(`unknown type '${lex.val}'`);
        lex.advance();
        return t;
      }
      case Tok.Punct: {
        const v = lex.val;
        if (v === '[' || v === '<') {
          lex.advance();
          if (v === '<' && this.isP('{')) {
            const elements = this.structBody();
            this.expectP('>');
            return this.types.struct(elements, true);
          }
          const length = this.int();
          this.expectW('x');
          const element = this.type();
          this.expectP(v === '[' ? ']' : '>');
          return v === '[' ? this.types.array(length, element) : this.types.vector(length, element);
        }
        if (v === '{') return this.types.struct(this.structBody(), false);
        break;
      }
      case Tok.End:
        this.fail('unexpected end of text');
    }
    this.fail('a type expected', at);
  }
  /** A getelementptr's result element type (typed pointers), or a refusal naming the line. */
  private indexedType(source: IrType, operands: readonly IrOperand[]): IrType {
    return indexedTypeOf(source, operands, 2) ?? this.fail('getelementptr indices that reach no type');
  }
  private structBody(): IrType[] {
    this.expectP('{');
    const out: IrType[] = [];
    while (!this.eatP('}')) {
      if (out.length) this.expectP(',');
      out.push(this.type());
    }
    return out;
  }

  // ---- constants ----------------------------------------------------------------------------

  private constant(type: IrType): IrConstant {
    this.enter();
    const leaf = this.leaf(type);
    const c = leaf !== undefined ? leaf.value.constant : this.composite(type);
    this.depth--;
    return c;
  }
  private typedConstant(): IrConstant {
    return this.constant(this.type());
  }
  /** `open typed-constant, … close`. */
  private constants(open: string, close: string): IrConstant[] {
    this.expectP(open);
    const out: IrConstant[] = [];
    while (!this.eatP(close)) {
      if (out.length) this.expectP(',');
      out.push(this.typedConstant());
    }
    return out;
  }
  /** A constant of one token (a number, a global, `null`, `true` …) as the one operand for it, or undefined (nothing read) for another. */
  private leaf(type: IrType): LeafOperand | undefined {
    const lex = this.lex;
    let o: LeafOperand;
    switch (lex.kind) {
      case Tok.Num:
        return this.number(type);
      case Tok.Global: {
        const name = lex.val;
        o = this.globalRefs.get(type, name) ?? this.globalRefs.add(type, name, { kind: 'global', type, name });
        break;
      }
      case Tok.Word:
        switch (lex.val) {
          case 'true':
          case 'false': {
            const value = lex.val === 'true' ? 1 : 0;
            o = type.kind === 'int' ? this.intOperand(type, value) : { type, value: { kind: 'const', constant: { kind: 'int', type, value: BigInt(value) } } };
            break;
          }
          case 'null':
            o = this.plainOperand(type, 'null');
            break;
          case 'undef':
            o = this.plainOperand(type, 'undef');
            break;
          case 'poison':
            o = this.plainOperand(type, 'poison');
            break;
          case 'zeroinitializer':
            o = this.plainOperand(type, 'zero');
            break;
          default:
            return undefined;
        }
        break;
      default:
        return undefined;
    }
    lex.advance();
    return o;
  }
  private plainOperand(type: IrType, kind: 'null' | 'undef' | 'poison' | 'zero'): LeafOperand {
    return this.plain.get(type, kind) ?? this.plain.add(type, kind, { kind, type });
  }
  private intOperand(type: IntType, value: number): LeafOperand {
    return this.ints.get(type, value) ?? this.ints.add(type, value, { kind: 'int', type, value: BigInt.asUintN(type.bits, BigInt(value)) });
  }
  private number(type: IrType): LeafOperand {
    const lex = this.lex;
    let o: LeafOperand;
    if (type.kind === 'int') {
      if (!lex.integer) this.fail('an integer expected');
      if (!Number.isNaN(lex.int)) o = this.intOperand(type, lex.int);
      else o = { type, value: { kind: 'const', constant: { kind: 'int', type, value: BigInt.asUintN(type.bits, BigInt(lex.raw())) } } };
    } else if (type.kind === 'float' || type.kind === 'double') {
      const raw = lex.raw();
      o = this.fps.get(type, raw) ?? this.fps.add(type, raw, { kind: 'fp', type, bits: parseFloatBits(raw, type.kind) });
    } else this.fail('a number of this type is not supported');
    lex.advance();
    return o;
  }
  /** A constant of more than one token: an aggregate, `c"…"`, a constant expression. */
  private composite(type: IrType): IrConstant {
    const lex = this.lex;
    const at = lex.at;
    switch (lex.kind) {
      case Tok.CStr: {
        const s = lex.val;
        const bytes = new Uint8Array(s.length);
        for (let i = 0; i < s.length; i++) bytes[i] = s.charCodeAt(i);
        lex.advance();
        return { kind: 'bytes', type, bytes };
      }
      case Tok.Punct: {
        const v = lex.val;
        // `<` before `{` opens a packed struct, otherwise a vector
        if (v === '[' || (v === '<' && lex.nextChar() !== 123)) return { kind: 'aggregate', type, elements: this.constants(v, v === '[' ? ']' : '>') };
        if (v === '{' || v === '<') {
          if (v === '<') lex.advance();
          const elements = this.constants('{', '}');
          if (v === '<') this.expectP('>');
          return { kind: 'aggregate', type, elements };
        }
        break;
      }
      case Tok.Word:
        return this.expression(type);
      case Tok.End:
        this.fail('unexpected end of text');
    }
    this.fail('a constant expected', at);
  }
  private expression(type: IrType): IrConstant {
    const lex = this.lex;
    const at = lex.at;
    const w = lex.val;
    lex.advance();
    switch (w) {
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
        const operands = this.constants('(', ')');
        return { kind: 'expr', type, opcode: w, operands, predicate };
      }
      case 'select':
      case 'extractelement':
      case 'insertelement':
      case 'shufflevector':
        return { kind: 'expr', type, opcode: w, operands: this.constants('(', ')') };
    }
    if (CASTS.has(w)) {
      this.expectP('(');
      const operand = this.typedConstant();
      this.expectW('to');
      const to = this.type();
      this.expectP(')');
      return { kind: 'expr', type: to, opcode: w, operands: [operand] };
    }
    if (BINARY_OPS.has(w)) {
      const flags = this.binaryFlags();
      return { kind: 'expr', type, opcode: w, operands: this.constants('(', ')'), flags };
    }
    this.fail(`unknown constant '${w}'`, at);
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
    return this.sharedOperand(type)?.value ?? this.freshValue(type);
  }
  /** A local or a constant of one token, as the one operand object for it (while its type stays the same); undefined (nothing read) for another. */
  private sharedOperand(type: IrType): IrOperand | undefined {
    const lex = this.lex;
    if (lex.kind === Tok.Local) {
      const o = this.local(type, lex.val, lex.index);
      lex.advance();
      return o;
    }
    this.enter();
    const o = this.leaf(type);
    this.depth--;
    return o;
  }
  /** A constant of more than one token, or inline asm: a value of its own. */
  private freshValue(type: IrType): IrValue {
    if (this.isW('asm')) return { kind: 'const', constant: this.inlineAsm(type) };
    this.enter();
    const v: IrValue = { kind: 'const', constant: this.composite(type) };
    this.depth--;
    return v;
  }
  /** The local `name` (`index` its number, or -1) as an operand of `type`. */
  private local(type: IrType, name: string, index: number): IrOperand {
    const byNumber = this.numberedLocals;
    if (index >= 0 && (index < byNumber.length || indexable(index, byNumber.length))) return this.numberedLocal(type, name, index);
    let o = this.namedLocals.get(name);
    if (o === undefined || o.type !== type) this.namedLocals.set(name, (o = { type, value: o?.value ?? { kind: 'local', name } }));
    return o;
  }
  private numberedLocal(type: IrType, name: string, index: number): IrOperand {
    const byNumber = this.numberedLocals;
    while (byNumber.length <= index) byNumber.push(undefined);
    let o = byNumber[index];
    // A number names another value in each function, maybe of another type: one value object, one operand a type.
    if (o === undefined || o.type !== type) byNumber[index] = o = { type, value: o?.value ?? { kind: 'local', name } };
    return o;
  }
  private operand(): IrOperand {
    return this.operandOf(this.type());
  }
  /** A value of `type` as an operand. */
  private operandOf(type: IrType): IrOperand {
    return this.sharedOperand(type) ?? { type, value: this.freshValue(type) };
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
  private attributes(alignIsAttribute = true): readonly IrAttribute[] {
    const lex = this.lex;
    let out: IrAttribute[] | undefined;
    while (lex.kind === Tok.Word) {
      const w = lex.val;
      if (ENUM_ATTRIBUTES.has(w)) {
        lex.advance();
        let a = this.enumAttributes.get(w);
        if (!a) this.enumAttributes.set(w, (a = { kind: 'enum', name: w }));
        (out ??= []).push(a);
      } else if (INT_ATTRIBUTES.has(w) && lex.nextChar() !== 40 && (alignIsAttribute || w !== 'align')) {
        if (lex.nextKind() !== Tok.Num) break;
        lex.advance();
        (out ??= []).push({ kind: 'int', name: w, value: this.int() });
      } else if (TYPE_ATTRIBUTES.has(w) && lex.nextChar() === 40) {
        lex.advance();
        lex.advance();
        const type = this.type();
        this.expectP(')');
        (out ??= []).push({ kind: 'type', name: w, type });
      } else break;
    }
    return out ?? NO_ATTRIBUTES;
  }
  private label(): string {
    this.expectW('label');
    this.need();
    if (this.lex.kind !== Tok.Local) this.fail('a label expected');
    const v = this.lex.val;
    this.lex.advance();
    return v;
  }

  // ---- module -------------------------------------------------------------------------------

  /** The module of `text`, whose `{ ~ }` bodies are those added (`addDirectBody`) before, in order. */
  parse(text: string): IrModule {
    this.lex.restart(text);
    while (this.lex.kind !== Tok.End) this.topLevel();
    if (this.nextDirectBody !== this.directBodies.length)
      this.fail(`${this.directBodies.length - this.nextDirectBody} bodies lowered directly that the text has no place for`);
    return this.module;
  }

  // ---- for the bodies lowered directly ------------------------------------------------------

  addDirectBody(body: DirectBody): void {
    this.directBodies.push(body);
  }

  typeOf(text: string): IrType {
    let t = this.typesByText.get(text);
    if (t === undefined) this.typesByText.set(text, (t = this.fragment(text, () => this.type())));
    return t;
  }

  constantOf(type: IrType, text: string): IrConstant {
    let byText = this.constantsByText.get(type);
    if (byText === undefined) this.constantsByText.set(type, (byText = new Map()));
    let c = byText.get(text);
    if (c === undefined) {
      const v = this.fragment(text, () => this.value(type));
      if (v.kind !== 'const') this.fail(`'${text}' is not a constant`);
      byText.set(text, (c = v.constant));
    }
    return c;
  }

  /** The lexer of `fragment`'s texts, made at the first. */
  private fragmentLexer: Lexer | undefined;

  /** `text` read whole by `read`, on a lexer of its own (between two reads of the module's text). */
  private fragment<T>(text: string, read: () => T): T {
    const outer = this.lex;
    if (this.fragmentLexer === undefined) this.fragmentLexer = new Lexer(text, KEYWORDS);
    else this.fragmentLexer.restart(text);
    this.lex = this.fragmentLexer;
    try {
      const value = read();
      if (this.lex.kind !== Tok.End) this.fail(`'${text}' is more than one type or value`);
      return value;
    } finally {
      this.lex = outer;
    }
  }
  private topLevel(): void {
    const lex = this.lex;
    const { kind, at, val } = lex;
    lex.advance();
    if (kind === Tok.Word) {
      if (val === 'module') {
        this.expectW('asm');
        this.module.asm.push(this.string());
        return;
      }
      if (val === 'target') {
        const what = this.word();
        this.expectP('=');
        const s = this.string();
        if (what === 'triple') (this.module as { triple: string | undefined }).triple = s;
        else if (what === 'datalayout') (this.module as { dataLayout: string | undefined }).dataLayout = s;
        else this.fail(`unknown target field '${what}'`, at);
        return;
      }
      if (val === 'declare' || val === 'define') return this.function(val === 'define');
      if (val === 'source_filename') {
        this.expectP('=');
        this.string();
        return;
      }
    }
    if (kind === Tok.Local) {
      this.expectP('=');
      this.expectW('type');
      const s = this.types.namedStruct(val);
      if (s.body !== undefined || this.definedStructs.has(s)) this.fail('type defined twice', at);
      this.definedStructs.add(s);
      this.module.structs.push(s);
      if (this.eatW('opaque')) return;
      const packed = this.eatP('<');
      const elements = this.structBody();
      if (packed) this.expectP('>');
      s.body = { elements, packed };
      return;
    }
    if (kind === Tok.Global) return this.globalOrAlias(val);
    if (kind === Tok.Meta) return this.metadata(val);
    this.fail('a declaration expected', at);
  }
  /** The metadata number of the current token (`!3`), or undefined when it is not a numbered node. */
  private metadataNumber(): number | undefined {
    const lex = this.lex;
    return lex.kind === Tok.Meta && /^[0-9]+$/.test(lex.val) ? Number(lex.val) : undefined;
  }
  private metadata(name: string): void {
    const lex = this.lex;
    this.expectP('=');
    if (/^[0-9]+$/.test(name)) {
      const id = Number(name);
      if (this.eatP('!{')) {
        const elements: number[] = [];
        while (!this.eatP('}')) {
          if (elements.length) this.expectP(',');
          this.need();
          const n = this.metadataNumber();
          if (lex.kind === Tok.MStr) {
            // an inline string: give it an id of its own above every numbered node
            const sid = -1 - this.module.metadata.size;
            this.module.metadata.set(sid, { kind: 'string', value: lex.val });
            elements.push(sid);
          } else if (n !== undefined) elements.push(n);
          else this.fail('a metadata operand expected');
          lex.advance();
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
      this.need();
      const n = this.metadataNumber();
      if (n === undefined) this.fail('a metadata node expected');
      nodes.push(n);
      lex.advance();
    }
    this.module.namedMetadata.push({ name, nodes });
  }
  private prefixes(): { linkage: string; visibility: string; dllStorage: string; threadLocal: boolean; declaration: boolean } {
    const lex = this.lex;
    let declaration = false;
    let linkage = 'external';
    let visibility = 'default';
    let dllStorage = '';
    let threadLocal = false;
    while (lex.kind === Tok.Word) {
      const w = lex.val;
      if (LINKAGES.has(w)) {
        linkage = w;
        declaration ||= w === 'external' || w === 'extern_weak';
      } else if (w === 'hidden' || w === 'protected' || w === 'default') visibility = w;
      else if (w === 'dllimport' || w === 'dllexport') dllStorage = w;
      else if (w === 'thread_local') threadLocal = true;
      else break;
      lex.advance();
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
    const lex = this.lex;
    const p = this.prefixes();
    let callingConv = 0;
    const cc = this.callingConv();
    if (cc !== undefined) callingConv = cc;
    const retAttrs = this.attributes();
    const ret = this.type();
    if (this.need() !== Tok.Global) this.fail('a function name expected');
    const name = lex.val;
    lex.advance();
    this.expectP('(');
    const params: IrType[] = [];
    const paramAttrs: (readonly IrAttribute[])[] = [];
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
      if (lex.kind === Tok.Local) {
        names.push(lex.val);
        lex.advance();
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
    const type = this.types.function(ret, params, varArg);
    const attributes: IrAttributeSet = { fn: fnAttrs, ret: retAttrs, params: paramAttrs };
    const direct = isDefinition ? this.directBody() : undefined;
    const blocks = isDefinition ? (direct ? [] : this.body()) : undefined;
    const f: IrFunction = {
      name,
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
      direct,
    };
    this.module.functions.push(f);
  }
  private callingConv(): number | undefined {
    const lex = this.lex;
    if (lex.kind !== Tok.Word) return undefined;
    const known = CALLING_CONVENTIONS.get(lex.val);
    if (known !== undefined) {
      lex.advance();
      return known;
    }
    if (lex.val === 'cc' && lex.nextKind() === Tok.Num) {
      lex.advance();
      return this.int();
    }
    return undefined;
  }

  // ---- function bodies ----------------------------------------------------------------------

  /** A body written as `{ ~ }`: the next one lowered directly; undefined (nothing read) for a body of text. */
  private directBody(): DirectBody | undefined {
    const lex = this.lex;
    const mark = lex.at;
    this.expectP('{');
    if (!this.eatP('~')) {
      lex.reset(mark);
      return undefined;
    }
    this.expectP('}');
    const body = this.directBodies[this.nextDirectBody++];
    if (body === undefined) this.fail("'~' where no body was lowered directly", mark);
    return body;
  }

  private body(): IrBlock[] {
    const lex = this.lex;
    this.expectP('{');
    const blocks: IrBlock[] = [];
    let current: IrBlock | undefined;
    let unnamed = 0;
    while (!this.eatP('}')) {
      if (lex.kind === Tok.Label) {
        current = { name: lex.val, instructions: [] };
        blocks.push(current);
        lex.advance();
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
    const lex = this.lex;
    let result: string | undefined;
    if (lex.kind === Tok.Local && lex.nextChar() === 61) {
      // `%x =`
      result = lex.val;
      lex.advance();
      lex.advance();
    }
    this.need();
    if (lex.kind !== Tok.Word) this.fail('an instruction expected');
    const op = lex.val;
    const opAt = lex.at;
    lex.advance();
    switch (OPCODES.get(op)) {
      case Op.GetElementPtr:
        return this.readGetElementPtr(result);
      case Op.Load:
        return this.readLoad(result, op);
      case Op.Store:
        return this.readStore(result, op);
      case Op.Binary:
        return this.readBinary(result, op);
      case Op.Compare:
        return this.readCompare(result, op);
      case Op.Cast:
        return this.readCast(result, op);
      case Op.Br:
        return this.readBr(result, op);
      case Op.Phi:
        return this.readPhi(result);
      case Op.Call:
        return this.call(result, false, false);
      case Op.Tail:
        this.expectW('call');
        return this.call(result, true, false);
      case Op.Invoke:
        return this.call(result, false, true);
      case Op.Ret:
        return this.readRet(result, op);
      case Op.Switch:
        return this.readSwitch(result);
      case Op.Unreachable:
        return plainInstruction(result, this.types.void, op, NO_OPERANDS);
      case Op.Resume:
        return plainInstruction(result, this.types.void, op, [this.operand()]);
      case Op.Alloca:
        return this.readAlloca(result);
      case Op.Select:
        return this.readSelect(result, op);
      case Op.ExtractElement:
        return this.readExtractElement(result, op);
      case Op.InsertElement:
        return this.readInsertElement(result, op);
      case Op.ShuffleVector:
        return this.readShuffleVector(result, op);
      case Op.ExtractValue:
      case Op.InsertValue:
        return this.readExtractOrInsertValue(result, op);
      case Op.VaArg:
        return this.readVaArg(result, op);
      case Op.LandingPad:
        return this.readLandingPad(result);
    }
    this.fail(`unknown instruction '${op}'`, opAt);
  }
  private readGetElementPtr(result: string | undefined): IrInstruction {
    const inbounds = this.eatW('inbounds');
    const auxType = this.type();
    const operands: IrOperand[] = [];
    while (this.eatP(',')) operands.push(this.operand());
    const first = operands[0]?.type;
    const type = first !== undefined && first.kind === 'vector' ? first : this.pointerTo(this.indexedType(auxType, operands));
    return gepInstruction(result, type, operands, auxType, inbounds);
  }
  private readLoad(result: string | undefined, op: string): IrInstruction {
    const isVolatile = this.eatW('volatile');
    const type = this.type();
    this.expectP(',');
    const p = this.operand();
    const align = this.eatP(',') && this.eatW('align') ? this.int() : 0;
    return memoryInstruction(result, type, op, [p], type, isVolatile, align);
  }
  private readStore(result: string | undefined, op: string): IrInstruction {
    const v = this.types.void;
    const isVolatile = this.eatW('volatile');
    const val = this.operand();
    this.expectP(',');
    const p = this.operand();
    const align = this.eatP(',') && this.eatW('align') ? this.int() : 0;
    return memoryInstruction(result, v, op, [p, val], undefined, isVolatile, align);
  }
  private readBinary(result: string | undefined, op: string): IrInstruction {
    const flags = this.binaryFlags();
    const a = this.operand();
    this.expectP(',');
    return binaryInstruction(result, a.type, op, [a, this.operandOf(a.type)], flags);
  }
  private readCompare(result: string | undefined, op: string): IrInstruction {
    const predicate = this.word();
    const a = this.operand();
    this.expectP(',');
    const b = this.operandOf(a.type);
    const type = a.type.kind === 'vector' ? this.types.vector(a.type.length, this.types.i1) : this.types.i1;
    return compareInstruction(result, type, op, [a, b], predicate);
  }
  private readCast(result: string | undefined, op: string): IrInstruction {
    const a = this.operand();
    this.expectW('to');
    return plainInstruction(result, this.type(), op, [a]);
  }
  private readBr(result: string | undefined, op: string): IrInstruction {
    const v = this.types.void;
    if (this.isW('label')) return plainInstruction(result, v, op, NO_OPERANDS, [this.label()]);
    const cond = this.operand();
    this.expectP(',');
    const a = this.label();
    this.expectP(',');
    const b = this.label();
    return plainInstruction(result, v, op, [cond], [a, b]);
  }
  private readPhi(result: string | undefined): IrInstruction {
    const lex = this.lex;
    const type = this.type();
    const incoming: { value: IrValue; block: string }[] = [];
    do {
      this.expectP('[');
      const value = this.value(type);
      this.expectP(',');
      if (this.need() !== Tok.Local) this.fail('a block expected');
      const block = lex.val;
      lex.advance();
      this.expectP(']');
      incoming.push({ value, block });
    } while (this.eatP(','));
    return phiInstruction(result, type, NO_OPERANDS, incoming);
  }
  private readRet(result: string | undefined, op: string): IrInstruction {
    const v = this.types.void;
    if (this.eatW('void')) return plainInstruction(result, v, op, NO_OPERANDS);
    return plainInstruction(result, v, op, [this.operand()]);
  }
  private readSwitch(result: string | undefined): IrInstruction {
    const v = this.types.void;
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
    return switchInstruction(result, v, [cond], [dflt], cases);
  }
  private readAlloca(result: string | undefined): IrInstruction {
    const auxType = this.type();
    const operands: IrOperand[] = [];
    let align = 0;
    while (this.eatP(',')) {
      if (this.eatW('align')) align = this.int();
      else operands.push(this.operand());
    }
    return allocaInstruction(result, this.pointerTo(auxType), operands, auxType, align);
  }
  private readSelect(result: string | undefined, op: string): IrInstruction {
    const ops = this.operandList(3);
    return plainInstruction(result, ops[1]!.type, op, ops);
  }
  private readExtractElement(result: string | undefined, op: string): IrInstruction {
    const ops = this.operandList(2);
    const vt = ops[0]!.type;
    if (vt.kind !== 'vector') this.fail('extractelement of a non-vector');
    return plainInstruction(result, vt.element, op, ops);
  }
  private readInsertElement(result: string | undefined, op: string): IrInstruction {
    const ops = this.operandList(3);
    return plainInstruction(result, ops[0]!.type, op, ops);
  }
  private readShuffleVector(result: string | undefined, op: string): IrInstruction {
    const ops = this.operandList(3);
    const vt = ops[0]!.type;
    const mt = ops[2]!.type;
    if (vt.kind !== 'vector' || mt.kind !== 'vector') this.fail('shufflevector of non-vectors');
    return plainInstruction(result, this.types.vector(mt.length, vt.element), op, ops);
  }
  private readExtractOrInsertValue(result: string | undefined, op: string): IrInstruction {
    const ops = op === 'extractvalue' ? [this.operand()] : this.operandList(2);
    const indices: number[] = [];
    while (this.eatP(',')) indices.push(this.int());
    let type = ops[0]!.type;
    if (op === 'extractvalue') for (const index of indices) type = memberType(type, index) ?? this.fail('extractvalue index out of range');
    return aggregateInstruction(result, type, op, ops, indices);
  }
  private readVaArg(result: string | undefined, op: string): IrInstruction {
    const p = this.operand();
    this.expectP(',');
    const type = this.type();
    return plainInstruction(result, type, op, [p], undefined, type);
  }
  private readLandingPad(result: string | undefined): IrInstruction {
    const type = this.type();
    const cleanup = this.eatW('cleanup');
    const clauses: { kind: 0 | 1; value: IrOperand }[] = [];
    for (;;) {
      if (this.eatW('catch')) clauses.push({ kind: 0, value: this.operand() });
      else if (this.eatW('filter')) clauses.push({ kind: 1, value: this.operand() });
      else break;
    }
    return landingPadInstruction(result, type, NO_OPERANDS, cleanup, clauses);
  }
  private operandList(n: number): IrOperand[] {
    const ops: IrOperand[] = [];
    for (let i = 0; i < n; i++) {
      if (i) this.expectP(',');
      ops.push(this.operand());
    }
    return ops;
  }
  /** A call's arguments, after a first slot kept for the callee; their attributes. */
  private callArguments(): { ops: IrOperand[]; attrs: (readonly IrAttribute[])[] } {
    this.expectP('(');
    const ops: IrOperand[] = [CALLEE_SLOT];
    const attrs: (readonly IrAttribute[])[] = [];
    while (!this.eatP(')')) {
      if (ops.length > 1) this.expectP(',');
      const type = this.type();
      attrs.push(this.attributes());
      ops.push(this.operandOf(type));
    }
    return { ops, attrs };
  }
  /** The same constant with another type (a callee's, once its function type is known). */
  private retyped(c: IrConstant, type: IrType): IrValue {
    switch (c.kind) {
      case 'global':
        return (this.globalRefs.get(type, c.name) ?? this.globalRefs.add(type, c.name, { kind: 'global', type, name: c.name })).value;
      case 'null':
      case 'undef':
      case 'poison':
      case 'zero':
        return this.plainOperand(type, c.kind).value;
    }
    return { kind: 'const', constant: { ...c, type } as IrConstant };
  }
  private call(result: string | undefined, tail: boolean, invoke: boolean): IrInstruction {
    const lex = this.lex;
    const callingConv = this.callingConv() ?? 0;
    const retAttrs = this.attributes();
    const written = this.type();
    const declared = written.kind === 'function' ? written : undefined;
    let callee: IrValue;
    if (this.isW('asm')) {
      // the function type is known only once the arguments are read
      const mark = lex.at;
      this.inlineAsm(written);
      const first = this.callArguments();
      const asmType = declared ?? this.types.functionOfOperands(written, first.ops, 1);
      lex.reset(mark);
      callee = { kind: 'const', constant: this.inlineAsm(asmType) };
    } else callee = this.value(this.types.ptr);
    const args = this.callArguments();
    const fnType = declared ?? this.types.functionOfOperands(written, args.ops, 1);
    // Typed pointers: a constant callee (`@f`, `null`, `undef`) read before its function type was
    // known has the type of a pointer to the function type called.
    if (this.typedPointers && callee.kind === 'const' && callee.constant.type.kind === 'ptr')
      callee = this.retyped(callee.constant, this.types.pointer(fnType));
    const fnAttrs = this.attributes();
    let labels = NO_LABELS;
    if (invoke) {
      this.expectW('to');
      const normal = this.label();
      this.expectW('unwind');
      labels = [normal, this.label()];
    }
    const operands = args.ops;
    operands[0] = { type: this.pointerTo(fnType), value: callee };
    return callInstruction(result, invoke ? 'invoke' : 'call', operands, labels, fnType, tail, callingConv, { fn: fnAttrs, ret: retAttrs, params: args.attrs });
  }
}

/** What a call's first operand holds until its callee is known. */
const CALLEE_SLOT: IrOperand = { type: { kind: 'void' }, value: { kind: 'local', name: '' } };

const enum Op {
  Ret,
  Br,
  Switch,
  Unreachable,
  Resume,
  Binary,
  Compare,
  Cast,
  GetElementPtr,
  Load,
  Store,
  Alloca,
  Phi,
  Select,
  ExtractElement,
  InsertElement,
  ShuffleVector,
  ExtractValue,
  InsertValue,
  VaArg,
  LandingPad,
  Tail,
  Call,
  Invoke,
}

/** Each instruction's keyword and what the reader does with it. */
const OPCODES: ReadonlyMap<string, Op> = new Map<string, Op>([
  ['ret', Op.Ret],
  ['br', Op.Br],
  ['switch', Op.Switch],
  ['unreachable', Op.Unreachable],
  ['resume', Op.Resume],
  ['icmp', Op.Compare],
  ['fcmp', Op.Compare],
  ['getelementptr', Op.GetElementPtr],
  ['load', Op.Load],
  ['store', Op.Store],
  ['alloca', Op.Alloca],
  ['phi', Op.Phi],
  ['select', Op.Select],
  ['extractelement', Op.ExtractElement],
  ['insertelement', Op.InsertElement],
  ['shufflevector', Op.ShuffleVector],
  ['extractvalue', Op.ExtractValue],
  ['insertvalue', Op.InsertValue],
  ['va_arg', Op.VaArg],
  ['landingpad', Op.LandingPad],
  ['tail', Op.Tail],
  ['call', Op.Call],
  ['invoke', Op.Invoke],
  ...[...BINARY_OPS].map((o): [string, Op] => [o, Op.Binary]),
  ...[...CASTS].map((o): [string, Op] => [o, Op.Cast]),
]);

/** The type a getelementptr's indices after the first reach inside `source` (constant struct indices). */
function indexedTypeOf(source: IrType, operands: readonly IrOperand[], first: number): IrType | undefined {
  let t: IrType | undefined = source;
  for (let i = first; i < operands.length; i++) {
    const idx = operands[i]!;
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
  return new ModernIrReader(options.typedPointers ?? false).parse(text);
}
