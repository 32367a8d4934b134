/**
 * The ModuleGlobalInfo block (docs/format.md §6): global variables, functions, dependent
 * libraries, target triple, section names and module inline asm.
 */
import type { BinaryReader } from '../binary/reader.js';
import type { FunctionType, PointerType, Type } from '../graph/type.js';
import type { Argument, Function, GlobalVariable, Linkage } from '../graph/value.js';
import { describeType, type ModuleContext } from './context.js';

/** `0 - 1` as LLVM's unsigned arithmetic had it: the convention a stored code of 0 gave. */
const UNSIGNED_MINUS_ONE = 2 ** 32 - 1;

/** Linkage codes as the format numbers them (5–7 from version 6). */
export const LINKAGE_CODES: readonly Linkage[] = ['external', 'weak', 'appending', 'internal', 'linkonce', 'dllimport', 'dllexport', 'extern_weak'];

const INTERNAL = 3;
/** Bits of the v5+ extension words. */
const GLOBAL_EXT_HAS_SECTION = 1 << 9;
const FUNCTION_EXT_HAS_SECTION = 1 << 10;
const FUNCTION_FLAG_DECLARATION = 16;
const FUNCTION_WORD_HAS_EXTENSION = 2 ** 31;

/** `log2(alignment) + 1` as stored (0: none) back to bytes. */
function alignmentFromLog(ctx: ModuleContext, code: number, offset: number): number {
  if (code === 0) return 0;
  if (code > 30) ctx.r.fail(`alignment 2^${code - 1} is too large`, offset);
  return 2 ** (code - 1);
}

function linkageFromCode(ctx: ModuleContext, code: number, offset: number): Linkage {
  const limit = ctx.row.hasDllLinkages ? 7 : 4;
  if (code > limit) ctx.r.fail(`linkage code ${code} is invalid in version ${ctx.row.version}`, offset);
  return LINKAGE_CODES[code]!;
}

export function readModuleGlobalInfo(ctx: ModuleContext): void {
  const r: BinaryReader = ctx.r;
  const { row, limits, module } = ctx;
  const sectionUsers: { value: GlobalVariable | Function; id: number; offset: number }[] = [];

  // Global variables: a zero-terminated list of words.
  for (let word = r.vbr32(); word !== 0; word = r.vbr32()) {
    const at = r.pos;
    if (module.globals.length >= limits.maxGlobals) r.fail(`more than the limit of ${limits.maxGlobals} global variables`, at);
    const slot = normalizedSlot(ctx, Math.floor(word / 32), at);
    const type = ctx.types.at(r, slot, at);
    if (type.kind !== 'pointer') r.fail(`global variable of non-pointer type ${describeType(type)}`, at);
    let linkageCode = (word >>> 2) & 7;
    let hasInitializer = (word & 2) !== 0;
    let alignment = 0;
    let sectionId = 0;
    if (row.hasPackedAndAttributes && linkageCode === INTERNAL && !hasInitializer) {
      // "Internal without initializer" cannot exist, so it escapes to an extension word.
      const ext = r.vbr32();
      hasInitializer = (ext & 1) !== 0;
      linkageCode = (ext >>> 1) & 7;
      alignment = alignmentFromLog(ctx, (ext >>> 4) & 31, at);
      if (ext & GLOBAL_EXT_HAS_SECTION) sectionId = r.vbr32();
    }
    const global: GlobalVariable = {
      kind: 'global',
      type,
      valueType: type.element,
      linkage: linkageFromCode(ctx, linkageCode, at),
      isConstant: (word & 1) !== 0,
      alignment,
    };
    if (hasInitializer) ctx.pendingInitializers.push({ global, slot: r.vbr32(), offset: at });
    if (sectionId) sectionUsers.push({ value: global, id: sectionId, offset: at });
    module.globals.push(global);
    ctx.planes.plane(type).push(global);
  }

  // Functions: words until one whose type slot is zero.
  for (;;) {
    const at = r.pos;
    let word = r.vbr32();
    // Before version 5 the word is the bare type slot: a C function whose body (or linkage-only
    // block, for a declaration) follows later.
    if (row.noFlagsForFunctions) word = word * 32 + 1;
    const rawSlot = Math.floor(word / 32) % 2 ** 26;
    if (rawSlot === 0) break;
    if (module.functions.length >= limits.maxFunctions) r.fail(`more than the limit of ${limits.maxFunctions} functions`, at);
    const type = ctx.types.at(r, normalizedSlot(ctx, rawSlot, at), at);
    if (type.kind !== 'pointer' || type.element.kind !== 'function') r.fail(`function of type ${describeType(type)}, not a pointer to a function type`, at);
    const functionType = type.element as FunctionType;
    const flags = word & 31;
    let callingConv = (flags & 15) - 1;
    let alignment = 0;
    let sectionId = 0;
    let linkage: Linkage = 'external';
    if (word >= FUNCTION_WORD_HAS_EXTENSION) {
      const ext = r.vbr32();
      alignment = alignmentFromLog(ctx, ext & 31, at);
      callingConv = ((((ext >>> 5) & 15) << 4) | (flags & 15)) - 1;
      if (ext & FUNCTION_EXT_HAS_SECTION) sectionId = r.vbr32();
      const declLinkage = (ext >>> 11) & 3;
      if (declLinkage === 1) linkage = 'dllimport';
      else if (declLinkage === 2) linkage = 'extern_weak';
      else if (declLinkage === 3) r.fail('invalid declaration linkage 3 in a function extension word', at);
    }
    // The format stores the convention plus one; LLVM's reader took the one off in unsigned
    // arithmetic (`setCallingConv(CC-1)`), so a damaged code 0 read as 4294967295, which llvm-dis
    // printed as `cc4294967295` and LLVM's writer stored as 0 again.
    if (callingConv < 0) callingConv = UNSIGNED_MINUS_ONE;
    // No `blocks` yet: the body's compact form adds them (graph/compact-body.ts), and a function
    // without a body gets an empty list when the module is complete.
    const fn = {
      kind: 'function',
      type: type as PointerType,
      functionType,
      linkage,
      callingConv,
      alignment,
      isDeclaration: (flags & FUNCTION_FLAG_DECLARATION) !== 0,
      // (`name` from the start, undefined until the symbol table names the argument: adding it later
      // gave every named argument a property array of its own.)
      args: argumentsOf(functionType.params),
    } as Omit<Function, 'blocks'> as Function;
    if (sectionId) sectionUsers.push({ value: fn, id: sectionId, offset: at });
    module.functions.push(fn);
    if (row.declarationsHaveFunctionBlocks || !fn.isDeclaration) {
      ctx.bodiesToRead.push(fn);
      ctx.bodyFunctionIndexes.push(module.functions.length - 1);
    }
    ctx.planes.plane(type).push(fn);
  }

  if (!row.noDependentLibraries) {
    const at = r.pos;
    const n = r.checkCount(r.vbr32(), 1, limits.maxDependentLibraries, 'dependent libraries', at);
    for (let i = 0; i < n; i++) module.dependentLibraries.push(readString(ctx, 'a dependent library name'));
    module.targetTriple = readString(ctx, 'the target triple');
  }
  const sections: string[] = [];
  if (row.hasSectionNames && !r.atEnd()) {
    const n = r.checkCount(r.vbr32(), 1, limits.maxSymbolTableEntries, 'section names');
    for (let i = 0; i < n; i++) sections.push(readString(ctx, 'a section name'));
    if (!r.atEnd()) module.inlineAsm = readString(ctx, 'the module inline asm');
    else if (row.hasPackedAndAttributes) module.globalInfoEnd = 'sections';
  } else if (row.hasSectionNames && row.hasPackedAndAttributes) {
    module.globalInfoEnd = 'triple';
  }
  for (const { value, id, offset } of sectionUsers) {
    const name = sections[id - 1];
    if (name === undefined) r.fail(`section id ${id} names none of the ${sections.length} sections`, offset);
    value.section = name;
  }
  // Anything after this point up to the block end is ignored, as LLVM did: padding in versions 0
  // and 3 (docs/format.md §6.4, §6.5), room for future fields otherwise.
}

/** A type slot stored in a bit field, normalized like a type id (the v0–v1 type-type shift). */
function normalizedSlot(ctx: ModuleContext, slot: number, offset: number): number {
  if (ctx.row.typeTypePlaneId === null) return slot;
  if (slot === ctx.row.typeTypePlaneId) ctx.r.fail('a global of the type type', offset);
  return slot > ctx.row.typeTypePlaneId ? slot - 1 : slot;
}

export function readString(ctx: ModuleContext, what: string): string {
  const at = ctx.r.pos;
  const len = ctx.r.vbr32();
  if (len > ctx.limits.maxStringLength) ctx.r.fail(`${what} of ${len} bytes exceeds the limit of ${ctx.limits.maxStringLength}`, at);
  ctx.r.pos = at;
  return ctx.r.string(what);
}

/** A function's arguments, unnamed (by a loop: `map` and its callback cost a module of thousands of functions more than the arguments). */
function argumentsOf(params: readonly Type[]): Argument[] {
  const args: Argument[] = new Array(params.length);
  for (let index = 0; index < params.length; index++) args[index] = { kind: 'argument', type: params[index]!, index, name: undefined };
  return args;
}
