/**
 * The assembly writer: a module view in, the text `llvm-dis` printed out. It follows the order
 * and spacing of LLVM 1.x's AsmWriter exactly (tabs, the `; <type> [#uses=N]` comments, the
 * "preds" lines); what differs between releases comes from the dialect row.
 */
import { nullValue } from '../graph/describe.js';
import { SelfContainingTypes } from '../graph/self-containing.js';
import { primitiveTypes, type Type } from '../graph/type.js';
import type { Constant, Function, GlobalValue, GlobalVariable, Instruction, Linkage, Value } from '../graph/value.js';
import { canonicalConstant, isNullConstant } from './constants.js';
import { BytecodeError } from '../errors/bytecode-error.js';
import type { Dialect } from './dialect.js';
import { renameLocals, renameState, type RenameState } from './locals.js';
import { numberBody, numberModule } from './slots.js';
import { escapeString, formatFloat, llvmName } from './text.js';
import { sortedTypeNames, TypeNamer } from './type-names.js';
import { BY_VALUE, UseCounts, type BodyInfo, type ValueInfo } from './uses.js';
import { instructionsIn, nameIn, type ModuleView } from './view.js';

const CC_FUNCTION: Record<number, string> = { 0: '', 1: 'csretcc ', 8: 'fastcc ', 9: 'coldcc ' };
const CC_CALL: Record<number, string> = { 0: '', 1: ' csretcc', 8: ' fastcc', 9: ' coldcc' };
/** LLVM 1.9 named the x86 conventions; in calls it wrote them without the leading space. */
const CC_X86_FUNCTION: Record<number, string> = { 64: 'x86_stdcallcc ', 65: 'x86_fastcallcc ' };
const CC_X86_CALL: Record<number, string> = { 64: 'x86_stdcallcc ', 65: 'x86_fastcallcc ' };

/** Linkage keywords of a definition (external prints nothing). */
const DEFINITION_LINKAGE: Record<Linkage, string> = {
  external: '',
  internal: 'internal ',
  linkonce: 'linkonce ',
  weak: 'weak ',
  appending: 'appending ',
  dllimport: 'dllimport ',
  dllexport: 'dllexport ',
  extern_weak: 'extern_weak ',
};

/**
 * Collects the text. Appends build a V8 rope; every few KiB the rope is flattened and set aside,
 * so its many small nodes die young (cheap to collect) and flattening stays cache-friendly; the
 * chunks are joined once at the end. One string per call keeps the hot call site monomorphic.
 */
class TextSink {
  private current = '';
  private readonly chunks: string[] = [];

  push(part: string): void {
    const s = this.current + part;
    this.current = s;
    if (s.length > 8192) this.flush();
  }

  private flush(): void {
    // Reading a character makes V8 flatten the rope into one sequential string.
    this.current.charCodeAt(0);
    this.chunks.push(this.current);
    this.current = '';
  }

  text(): string {
    this.flush();
    return this.chunks.join('');
  }
}

export class AsmPrinter {
  private readonly out = new TextSink();
  private readonly types: TypeNamer;
  private readonly uses: UseCounts;
  /** Next slot number of each type after the module's unnamed globals and functions. */
  private readonly moduleNext: Map<Type, number>;
  /** Names of the current function's locals after LLVM's renaming of clashes with globals. */
  private localNames = new Map<Value, string>();
  /** Indentation of multi-line struct constants (LLVM kept it in a static string). */
  private indent = '\n';
  private readonly renames: RenameState;
  /** Compound constants being printed (a cycle can only come from bad input). */
  private readonly activeConstants = new Set<Constant>();
  /** Asked only when the 1.1 dialect expands a zero aggregate (see `expandedNull`). */
  private readonly selfContaining = new SelfContainingTypes();
  /** The body being printed (operand codes refer to its positions). */
  private body: BodyInfo | undefined;
  /** An instruction whose text {@link instructionText} wants, and that text once printed. */
  private capture: Instruction | undefined;
  private captured: string | undefined;
  constructor(
    private readonly view: ModuleView,
    private readonly dialect: Dialect,
  ) {
    this.types = new TypeNamer(view.module);
    this.uses = new UseCounts(view, dialect.foldsCastToFirstElement, dialect.constantPointerRefs);
    const infoFor = (v: Value) => this.uses.infoFor(v);
    this.moduleNext = numberModule(
      [...view.globals, ...view.functions].filter((g) => nameIn(view, g) === undefined),
      infoFor,
    );
    this.renames = renameState(view);
  }

  print(): string {
    const m = this.view.module;
    const out = this.out;
    const d = this.dialect;
    if (d.moduleIdLine !== null) out.push(d.moduleIdLine + '\n');
    if (d.printsDataLayout) {
      const parts: string[] = [];
      if (m.endianness !== 'any') parts.push(m.endianness === 'little' ? 'e' : 'E');
      if (m.pointerSize !== 'any') parts.push(`p:${m.pointerSize}:${m.pointerSize}`);
      if (parts.length > 0) out.push('target datalayout = "' + parts.join('-') + '"\n');
    }
    if (m.endianness !== 'any') out.push('target endian = ' + m.endianness + '\n');
    if (m.pointerSize !== 'any') out.push('target pointersize = ' + String(m.pointerSize) + '\n');
    if (m.targetTriple !== '') out.push('target triple = "' + m.targetTriple + '"\n');
    if (m.inlineAsm !== '') for (const line of m.inlineAsm.split('\n')) out.push('module asm "' + escapeString(line) + '"\n');
    if (m.dependentLibraries.length > 0) {
      const libs = m.dependentLibraries.map((l) => '"' + l + '"');
      if (d.deplibsOnOneLine) out.push('deplibs = [ ' + libs.join(', ') + ' ]\n');
      else out.push('deplibs = [\n' + libs.join(',\n') + ' ]\n');
    }
    for (const [name, t] of sortedTypeNames(m)) out.push('\t' + llvmName(name) + ' = type ' + this.types.body(t) + '\n');
    for (const g of this.view.globals) this.printGlobal(g);
    out.push('\nimplementation   ; Functions:\n');
    const fns = this.view.functions;
    for (let fi = 0; fi < fns.length; fi++) this.printFunction(fns[fi]!, fi);
    return out.text();
  }

  /** One function's text, exactly as in the whole module's listing (same numbers and names). */
  functionText(f: Function): string {
    this.printFunction(f, this.functionIndex(f));
    return this.out.text().replace(/^\n/, '');
  }

  /** One instruction as its listing line says it, without indentation or the trailing comment. */
  instructionText(f: Function, i: Instruction): string | undefined {
    this.capture = i;
    this.printFunction(f, this.functionIndex(f));
    this.capture = undefined;
    return this.captured;
  }

  /**
   * The number an unnamed value prints as (`%3` → 3): a global or function of the module, or an
   * argument, block or instruction of `f`. Undefined for a named value and for one that takes no
   * number (a void instruction).
   */
  slotNumber(v: Value, f: Function | undefined): number | undefined {
    if (f === undefined) {
      const info = this.uses.infoFor(v);
      return nameIn(this.view, v as GlobalValue) === undefined && info.slot >= 0 ? info.slot : undefined;
    }
    const fi = this.functionIndex(f);
    const body = this.uses.bodies[fi]!;
    if (this.dialect.renamesLocalClashes) this.localNames = renameLocals(this.view, f, this.renames);
    numberBody(this.moduleNext, body, (x) => this.localName(x));
    this.localNames = new Map();
    const pos = body.values.indexOf(v);
    return pos >= 0 && body.slots[pos]! >= 0 ? body.slots[pos] : undefined;
  }

  private functionIndex(f: Function): number {
    const fi = this.view.functions.indexOf(f);
    if (fi < 0) throw new TypeError('the function is not one of this module\'s functions');
    return fi;
  }

  // ---- module level ------------------------------------------------------------------------

  private printGlobal(g: GlobalVariable): void {
    const name = nameIn(this.view, g);
    let s = name !== undefined ? llvmName(name) + ' = ' : '';
    if (g.initializer === undefined) s += this.declarationLinkage(g.linkage, 'external');
    else s += this.definitionLinkage(g.linkage);
    s += (g.isConstant ? 'constant ' : 'global ') + this.types.name(g.valueType);
    if (g.initializer !== undefined) s += ' ' + this.constOperand(g.initializer);
    if (g.section !== undefined && g.section !== '') s += ', section "' + g.section + '"';
    if (g.alignment) s += ', align ' + String(g.alignment);
    this.out.push(s + this.infoComment(g) + '\n');
  }

  /**
   * The keyword(s) opening a declaration: `external ` for a global variable, `declare ` for a
   * function; LLVM 1.9 named dllimport and extern_weak there (`dllimport `, `declare dllimport `).
   */
  private declarationLinkage(linkage: Linkage, keyword: 'external' | 'declare'): string {
    const named = this.dialect.dllLinkages && (linkage === 'dllimport' || linkage === 'extern_weak');
    if (keyword === 'external') return named ? linkage + ' ' : 'external ';
    return named ? 'declare ' + linkage + ' ' : 'declare ';
  }

  private definitionLinkage(linkage: Linkage): string {
    return DEFINITION_LINKAGE[linkage];
  }

  private callingConv(cc: number, table: Record<number, string>, x86: Record<number, string>, prefix: string, suffix: string): string {
    const known = table[cc];
    if (known !== undefined) return known;
    if (this.dialect.x86CallingConvNames) {
      const name = x86[cc];
      if (name !== undefined) return name;
    }
    return prefix + 'cc' + cc + suffix;
  }

  // ---- functions ---------------------------------------------------------------------------

  private printFunction(f: Function, fi: number): void {
    const view = this.view;
    if (this.dialect.renamesLocalClashes) this.localNames = renameLocals(view, f, this.renames);
    const isDeclaration = f.isDeclaration || f.blocks.length === 0;
    let s = '\n';
    if (isDeclaration) s += this.declarationLinkage(f.linkage, 'declare');
    else s += this.definitionLinkage(f.linkage);
    s += this.callingConv(f.callingConv, CC_FUNCTION, CC_X86_FUNCTION, '', ' ');
    const ft = f.functionType;
    s += this.types.name(ft.returnType) + ' ';
    const name = nameIn(view, f);
    s += (name !== undefined ? llvmName(name) : '""') + '(';
    const body = this.uses.bodies[fi]!;
    this.body = body;
    numberBody(this.moduleNext, body, (v) => this.localName(v));
    const args: string[] = [];
    if (f.args.length === ft.params.length) {
      for (let k = 0; k < f.args.length; k++) {
        const a = f.args[k]!;
        const an = body.names[k];
        args.push(an !== undefined ? this.types.name(a.type) + ' ' + llvmName(an) : this.types.name(a.type));
      }
    } else {
      for (const p of ft.params) args.push(this.types.name(p));
    }
    if (ft.isVarArg) args.push('...');
    s += args.join(', ') + ')';
    if (f.section !== undefined && f.section !== '') s += ' section "' + f.section + '"';
    if (f.alignment) s += ' align ' + String(f.alignment);
    if (isDeclaration) {
      this.out.push(s + '\n');
    } else {
      this.out.push(s + ' {');
      const newestFirst = this.dialect.predecessorOrder === 'newestFirst';
      // `d` walks the body's positions (arguments, then each block and its instructions); `p`
      // walks the operand codes in the same order as the module pass wrote them.
      const values = body.values;
      let p = 0;
      for (let d = f.args.length; d < values.length; d++) {
        const v = values[d]!;
        if (v.kind === 'instruction') {
          this.printInstruction(v, body, d, p);
          p += v.operands.length;
        } else {
          this.printBlockHeader(body, d, d === f.args.length, newestFirst);
        }
      }
      this.out.push('}\n');
    }
    this.localNames = new Map();
    this.body = undefined;
  }

  private printBlockHeader(body: BodyInfo, pos: number, isEntry: boolean, newestFirst: boolean): void {
    const name = body.names[pos];
    let s = '';
    if (name !== undefined) s = '\n' + (this.dialect.quotesLabels ? llvmName(name, false) : name) + ':';
    else if (body.uses[pos]! > 0) s = '\n; <label>:' + (body.slots[pos]! >= 0 ? String(body.slots[pos]) : '<badref>');
    if (!isEntry) {
      const preds = body.preds[pos];
      if (preds === undefined) s += '\t\t; No predecessors!';
      else {
        s += '\t\t; preds =';
        const n = preds.length;
        for (let k = 0; k < n; k++) s += (k > 0 ? ', ' : ' ') + body.refs[preds[newestFirst ? n - 1 - k : k]!]!;
      }
    }
    this.out.push(s + '\n');
  }

  private opcodeName(op: Instruction['opcode']): string {
    switch (op) {
      case 'udiv':
      case 'sdiv':
      case 'fdiv':
        return this.dialect.signlessDivRem ? 'div' : op;
      case 'urem':
      case 'srem':
      case 'frem':
        return this.dialect.signlessDivRem ? 'rem' : op;
      case 'vaarg':
        return this.dialect.vaArgName;
      default:
        return op;
    }
  }

  /**
   * One instruction line: `i` is at position `pos` of `body`, and its operand k has the code
   * `body.operands[p + k]`.
   */
  private printInstruction(i: Instruction, body: BodyInfo, pos: number, p: number): void {
    // One string per line: far fewer appends to the sink on the hottest path.
    const name = body.names[pos];
    let s = name !== undefined ? '\t' + body.refs[pos]! + ' = ' : '\t';
    if ((i.opcode === 'load' || i.opcode === 'store') && i.isVolatile) s += 'volatile ';
    else if (i.opcode === 'call' && i.isTailCall) s += 'tail ';
    s += this.opcodeName(i.opcode);
    const ops = i.operands;
    switch (i.opcode) {
      case 'br':
        if (ops.length > 1) s += this.typedAt(ops, p, 0) + ',' + this.typedAt(ops, p, 1) + ',' + this.typedAt(ops, p, 2);
        else s += this.generic(i, p);
        break;
      case 'switch': {
        s += this.typedAt(ops, p, 0) + ',' + this.typedAt(ops, p, 1) + ' [';
        for (let k = 2; k + 1 < ops.length; k += 2) s += '\n\t\t' + this.typedAt(ops, p, k) + ',' + this.typedAt(ops, p, k + 1);
        s += '\n\t]';
        break;
      }
      case 'phi': {
        s += ' ' + this.types.name(i.type) + ' ';
        for (let k = 0; k + 1 < ops.length; k += 2) {
          if (k > 0) s += ', ';
          s += '[ ' + this.operandAt(ops, p, k) + ', ' + this.operandAt(ops, p, k + 1) + ' ]';
        }
        break;
      }
      case 'ret':
        s += ops.length === 0 ? ' void' : this.generic(i, p);
        break;
      case 'call':
      case 'invoke': {
        const isInvoke = i.opcode === 'invoke';
        s += this.callingConv(i.callingConv ?? 0, CC_CALL, CC_X86_CALL, ' ', '');
        const callee = ops[0];
        const ft = callee === undefined ? undefined : calleeType(callee.type);
        const ret = ft?.returnType;
        if (callee !== undefined && ft !== undefined && ret !== undefined && !ft.isVarArg && !(ret.kind === 'pointer' && ret.element.kind === 'function')) {
          s += ' ' + this.types.name(ret) + ' ' + this.operandAt(ops, p, 0);
        } else {
          s += this.typedAt(ops, p, 0);
        }
        s += '(';
        for (let k = isInvoke ? 3 : 1, first = k; k < ops.length; k++) s += (k > first ? ',' : '') + this.typedAt(ops, p, k);
        s += ' )';
        if (isInvoke) s += '\n\t\t\tto' + this.typedAt(ops, p, 1) + ' ' + this.dialect.invokeUnwindKeyword + this.typedAt(ops, p, 2);
        break;
      }
      case 'malloc':
      case 'alloca': {
        s += ' ' + this.types.name(i.allocatedType ?? elementOf(i.type));
        const size = ops[0];
        if (size !== undefined && !(size.kind === 'int' && BigInt.asUintN(64, size.value) === 1n)) s += ',' + this.typedAt(ops, p, 0);
        if (i.alignment) s += ', align ' + i.alignment;
        break;
      }
      case 'cast':
        if (ops[0] !== undefined) s += this.typedAt(ops, p, 0);
        s += ' to ' + this.types.name(i.type);
        break;
      case 'vaarg':
        if (ops[0] !== undefined) s += this.typedAt(ops, p, 0);
        s += ', ' + this.types.name(i.type);
        break;
      case 'vanext':
        if (ops[0] !== undefined) s += this.typedAt(ops, p, 0);
        s += ', ' + this.types.name(i.argType ?? i.type);
        break;
      default:
        s += this.generic(i, p);
    }
    if (i === this.capture) this.captured = s.slice(1);
    if (i.type.kind === 'void') {
      this.out.push(s + '\n');
      return;
    }
    s += '\t\t; <' + this.types.name(i.type) + '>';
    if (name === undefined) s += body.slots[pos]! >= 0 ? ':' + body.slots[pos] : ':<badref>';
    this.out.push(s + ' [#uses=' + body.uses[pos] + ']\n');
  }

  /** Operands with one shared type printed once, or every type when they differ. */
  private generic(i: Instruction, p: number): string {
    const ops = i.opcode === 'getelementptr' ? this.gepOperands(i.operands) : i.operands;
    if (ops.length === 0) return '';
    const first = ops[0]!.type;
    let all =
      i.opcode === 'shl' || i.opcode === 'shr' || i.opcode === 'select' || i.opcode === 'shufflevector' || (i.opcode === 'store' && this.dialect.storePrintsAllTypes);
    if (!all) for (let k = 1; k < ops.length; k++) if (ops[k]!.type !== first) all = true;
    // ` <type> <first>` is the first operand's typed text in both cases.
    let s = this.typedAt(ops, p, 0);
    for (let k = 1; k < ops.length; k++) s += all ? ',' + this.typedAt(ops, p, k) : ', ' + this.operandAt(ops, p, k);
    return s;
  }

  /** Whether a byte array prints as `c"..."` in this dialect. */
  private isStringArray(et: Type, elements: readonly Constant[]): boolean {
    if (et.kind !== 'ubyte' && et.kind !== 'sbyte') return false;
    const nonNegative = this.dialect.stringArrays === 'nonNegativeBytes' && et.kind === 'sbyte';
    for (const e of elements) {
      if (e.kind !== 'int') return false;
      if (nonNegative && e.value < 0n) return false;
    }
    return true;
  }

  /** getelementptr operands, with `ubyte` struct indices widened when the dialect's reader did. */
  private gepOperands<T extends Value>(ops: readonly T[]): readonly (T | Value)[] {
    if (!this.dialect.widensStructIndices || ops.length < 3) return ops;
    const base = ops[0]!.type;
    if (base.kind !== 'pointer') return ops;
    let t: Type = base.element;
    let out: (T | Value)[] | undefined;
    for (let k = 2; k < ops.length; k++) {
      if (t.kind === 'struct') {
        const w = widenIndex(ops[k]!);
        if (w !== ops[k]) (out ??= [...ops])[k] = w;
        const idx = ops[k]!;
        const n = idx.kind === 'int' ? Number(idx.value) : -1;
        if (n < 0 || n >= t.elements.length) break;
        t = t.elements[n]!;
      } else if (t.kind === 'array' || t.kind === 'packed' || t.kind === 'pointer') {
        t = t.element;
      } else {
        break;
      }
    }
    return out ?? ops;
  }

  /** `\t\t; <type>:slot [#uses=N]` after a value-producing line (nothing for void). */
  private infoComment(v: Value): string {
    if (v.type.kind === 'void') return '';
    let s = '\t\t; <' + this.types.name(v.type) + '>';
    const info = this.uses.info.get(v);
    if (this.nameOf(v) === undefined) s += ':' + (info !== undefined && info.slot >= 0 ? info.slot : '<badref>');
    return s + ' [#uses=' + (info !== undefined ? info.uses : 0) + ']';
  }

  // ---- operands ----------------------------------------------------------------------------

  private localName(v: Value): string | undefined {
    const renamed = this.localNames.size === 0 ? undefined : this.localNames.get(v);
    return renamed !== undefined ? renamed : nameIn(this.view, v);
  }

  private nameOf(v: Value): string | undefined {
    return v.kind === 'global' || v.kind === 'function' ? nameIn(this.view, v) : this.localName(v);
  }

  private slotText(v: Value): string {
    const info = this.uses.info.get(v);
    if (info !== undefined) return info.slot >= 0 ? String(info.slot) : '<badref>';
    const o = this.uses.ownerOf(v);
    const slot = o === undefined ? -1 : this.uses.bodies[o.fi]!.slots[o.pos]!;
    return slot >= 0 ? String(slot) : '<badref>';
  }

  /** `typed(ops[k])` of the current instruction, from the body's texts when possible. */
  private typedAt(ops: readonly Value[], p: number, k: number): string {
    const v = ops[k];
    if (v === undefined) return '<null operand!>';
    const body = this.body!;
    const code = body.operands[p + k]!;
    if (code >= 0) return ' ' + this.types.name(v.type) + ' ' + body.refs[code]!;
    if (code === BY_VALUE) return this.typed(v);
    const r = this.uses.globalInfos[-2 - code]!;
    let t = r.typed;
    if (t === undefined) r.typed = t = ' ' + this.types.name(v.type) + ' ' + this.globalRef(v, r);
    return t;
  }

  /** `operand(ops[k])` of the current instruction, from the body's texts when possible. */
  private operandAt(ops: readonly Value[], p: number, k: number): string {
    const v = ops[k]!;
    const body = this.body!;
    const code = body.operands[p + k]!;
    if (code >= 0) return body.refs[code]!;
    if (code === BY_VALUE) return this.operand(v);
    return this.globalRef(v, this.uses.globalInfos[-2 - code]!);
  }

  /** A global's or function's operand text (the same in every function). */
  private globalRef(v: Value, r: ValueInfo): string {
    let ref = r.ref;
    if (ref === undefined) r.ref = ref = this.operand(v);
    return ref;
  }

  /** ` <type> <operand>` (LLVM's writeOperand with its type; it also survived a missing operand). */
  private typed(v: Value | undefined): string {
    return v === undefined ? '<null operand!>' : ' ' + this.types.name(v.type) + ' ' + this.operand(v);
  }

  /**
   * An operand of a constant (or an initializer). LLVM ≤ 1.2 reached globals there through a
   * ConstantPointerRef, whose printing added a second space.
   */
  private constOperand(v: Value): string {
    const text = this.operand(v);
    return this.dialect.pointerRefExtraSpace && (v.kind === 'global' || v.kind === 'function') ? ' ' + text : text;
  }

  /** A value as an operand: its name, its slot, or a constant's text. */
  private operand(v: Value): string {
    switch (v.kind) {
      case 'int':
        return intText(v.value);
      case 'argument':
      case 'block':
      case 'instruction':
      case 'global':
      case 'function': {
        const name = this.nameOf(v);
        return name !== undefined ? llvmName(name) : '%' + this.slotText(v);
      }
      case 'inlineasm':
        return 'asm ' + (v.hasSideEffects ? 'sideeffect ' : '') + '"' + escapeString(v.asm) + '", "' + escapeString(v.constraints) + '"';
      default:
        return this.constant(v);
    }
  }

  private constant(c0: Constant): string {
    const d = this.dialect;
    const c = canonicalConstant(c0, d.foldsCastToFirstElement, d.zeroAggregates === 'canonical');
    if (d.zeroAggregates === 'aboveFive') {
      if ((c.kind === 'array' || c.kind === 'struct') && c.elements.length > 5 && isNullConstant(c)) return 'zeroinitializer';
      if (c.kind === 'zeroinitializer') {
        const expanded = expandedNull(c.type, this.selfContaining);
        if (expanded !== undefined) return this.constant(expanded);
      }
    }
    if (c.kind === 'expr' || c.kind === 'array' || c.kind === 'struct' || c.kind === 'packed') {
      if (this.activeConstants.has(c)) throw new BytecodeError('a constant contains itself (cyclic constant references)', 0, ['Module']);
      this.activeConstants.add(c);
      try {
        return this.compound(c);
      } finally {
        this.activeConstants.delete(c);
      }
    }
    return this.compound(c);
  }

  /** Whether a byte array prints as `c"..."` in this dialect. */
  private compound(c: Constant): string {
    switch (c.kind) {
      case 'bool':
        return c.value ? 'true' : 'false';
      case 'int':
        return intText(c.value);
      case 'fp':
        return formatFloat(c.value, c.bits, c.type.kind === 'float', this.dialect.floatsAlwaysHex);
      case 'zeroinitializer':
        return 'zeroinitializer';
      case 'null':
        return 'null';
      case 'undef':
        return 'undef';
      case 'array': {
        const et = c.type.kind === 'array' ? c.type.element : c.type;
        if (this.isStringArray(et, c.elements)) {
          let s = '';
          for (const e of c.elements) s += String.fromCharCode(Number(BigInt.asUintN(8, (e as { value: bigint }).value)));
          return 'c"' + escapeString(s) + '"';
        }
        if (c.elements.length === 0) return '[ ]';
        const tn = this.types.name(et);
        return '[ ' + c.elements.map((e) => tn + ' ' + this.constOperand(e)).join(', ') + ' ]';
      }
      case 'packed': {
        const et = c.type.kind === 'packed' ? c.type.element : c.type;
        const tn = this.types.name(et);
        return '< ' + c.elements.map((e) => tn + ' ' + this.constOperand(e)).join(', ') + ' >';
      }
      case 'struct': {
        const n = c.elements.length;
        if (n === 0) return '{ }';
        const parts: string[] = ['{'];
        const multiLine = n > 2 && this.dialect.multiLineStructs;
        if (multiLine) {
          this.indent += '    ';
          parts.push(this.indent);
        } else {
          parts.push(' ');
        }
        for (let k = 0; k < n; k++) {
          const e = c.elements[k]!;
          if (k > 0) {
            parts.push(', ');
            if (multiLine) parts.push(this.indent);
          }
          parts.push(this.types.name(e.type), ' ', this.constOperand(e));
        }
        if (multiLine) this.indent = this.indent.slice(0, -4);
        parts.push(' }');
        return parts.join('');
      }
      case 'expr': {
        const operands = c.opcode === 'getelementptr' ? this.gepOperands(c.operands) : c.operands;
        const ops = operands.map((o) => this.types.name(o.type) + ' ' + this.constOperand(o)).join(', ');
        return this.opcodeName(c.opcode) + ' (' + ops + (c.opcode === 'cast' ? ' to ' + this.types.name(c.type) : '') + ')';
      }
      default:
        return this.operand(c);
    }
  }
}

/** An integer's decimal text; through a double when exact, which is cheaper than BigInt's. */
function intText(v: bigint): string {
  const n = Number(v);
  return n <= Number.MAX_SAFE_INTEGER && n >= -Number.MAX_SAFE_INTEGER ? String(n) : String(v);
}

const widened = new WeakMap<Value, Constant>();

/** A `ubyte` struct index as the `uint` constant LLVM 1.9's reader made of it. */
function widenIndex(v: Value): Value {
  if (v.kind !== 'int' || v.type.kind !== 'ubyte') return v;
  let w = widened.get(v);
  if (w === undefined) {
    w = { kind: 'int', type: primitiveTypes.uint, value: v.value };
    widened.set(v, w);
  }
  return w;
}

/**
 * LLVM 1.1 had no zeroinitializer constant: the null value of an aggregate was an aggregate of
 * nulls (printed `zeroinitializer` only above five elements). Returns that aggregate when it has
 * at most five elements, else undefined. A type that contains itself has no such finite
 * aggregate (LLVM 1.1 recursed until it crashed; no file of it can hold one): it stays
 * `zeroinitializer`.
 */
function expandedNull(t: Type, selfContaining: SelfContainingTypes): Constant | undefined {
  if (selfContaining.has(t)) return undefined;
  if (t.kind === 'struct' && t.elements.length <= 5) return { kind: 'struct', type: t, elements: t.elements.map(nullOf) };
  if (t.kind === 'array' && t.length <= 5) return { kind: 'array', type: t, elements: Array.from({ length: t.length }, () => nullOf(t.element)) };
  return undefined;
}

const nullOf = nullValue;

function calleeType(t: Type): import('../graph/type.js').FunctionType | undefined {
  return t.kind === 'pointer' && t.element.kind === 'function' ? t.element : undefined;
}

function elementOf(t: Type): Type {
  return t.kind === 'pointer' ? t.element : t;
}
