/**
 * The ModuleGlobalInfo block (docs/format.md §6): global variables, functions, dependent
 * libraries, target triple, section names and module inline asm.
 */
import type { BinaryReader } from '../binary/reader.js';
import type { Limits } from '../limits.js';
import type { FunctionType, PointerType, Type } from '../graph/type.js';
import type { Argument, Function, GlobalVariable, Linkage } from '../graph/value.js';
import { describeType, type ModuleContext } from './context.js';
import { readGlobalInfoRecords } from './global-info-records.js';

/** `0 - 1` as LLVM's unsigned arithmetic had it: the convention a stored code of 0 gave. */
const UNSIGNED_MINUS_ONE = 2 ** 32 - 1;

/** Linkage codes as the format numbers them (5–7 from version 6). */
export const LINKAGE_CODES: readonly Linkage[] = ['external', 'weak', 'appending', 'internal', 'linkonce', 'dllimport', 'dllexport', 'extern_weak'];

/** Bit 4 of a function's word: a declaration (versions 5+). */
const FUNCTION_FLAG_DECLARATION = 16;

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
  const sections: string[] = [];
  // The pointer type of the global or function being read (checked when its word is read).
  let type!: PointerType;
  let alignment = 0;
  const end = readGlobalInfoRecords<GlobalVariable>(r, row, {
    globalWord: (g) => {
      const at = g.wordEnd;
      if (module.globals.length >= limits.maxGlobals) r.fail(`more than the limit of ${limits.maxGlobals} global variables`, at);
      const t = ctx.types.at(r, normalizedSlot(ctx, g.slot, at), at);
      if (t.kind !== 'pointer') r.fail(`global variable of non-pointer type ${describeType(t)}`, at);
      type = t;
      alignment = 0;
    },
    alignment: (log, at) => {
      alignment = alignmentFromLog(ctx, log, at);
    },
    global: (g) => {
      const at = g.wordEnd;
      const global: GlobalVariable = {
        kind: 'global',
        type,
        valueType: type.element,
        linkage: linkageFromCode(ctx, g.linkage, at),
        isConstant: g.isConstant,
        alignment,
      };
      if (g.section) sectionUsers.push({ value: global, id: g.section, offset: at });
      return global;
    },
    globalDone: (global, initializer, g) => {
      if (initializer !== undefined) ctx.pendingInitializers.push({ global, slot: initializer, offset: g.wordEnd });
      module.globals.push(global);
      ctx.planes.plane(global.type).push(global);
    },
    functionWord: (f) => {
      const at = f.at;
      if (module.functions.length >= limits.maxFunctions) r.fail(`more than the limit of ${limits.maxFunctions} functions`, at);
      const t = ctx.types.at(r, normalizedSlot(ctx, f.slot, at), at);
      if (t.kind !== 'pointer' || t.element.kind !== 'function') r.fail(`function of type ${describeType(t)}, not a pointer to a function type`, at);
      type = t;
      alignment = 0;
    },
    function: (f) => {
      const at = f.at;
      const pointer = type;
      const functionType = pointer.element as FunctionType;
      let callingConv = (f.flags & 15) - 1;
      let linkage: Linkage = 'external';
      if (f.hasExtension) {
        callingConv = ((f.callingConvHigh << 4) | (f.flags & 15)) - 1;
        if (f.declarationLinkage === 1) linkage = 'dllimport';
        else if (f.declarationLinkage === 2) linkage = 'extern_weak';
        else if (f.declarationLinkage === 3) r.fail('invalid declaration linkage 3 in a function extension word', at);
      }
      // The format stores the convention plus one; LLVM's reader took the one off in unsigned
      // arithmetic (`setCallingConv(CC-1)`), so a damaged code 0 read as 4294967295, which llvm-dis
      // printed as `cc4294967295` and LLVM's writer stored as 0 again.
      if (callingConv < 0) callingConv = UNSIGNED_MINUS_ONE;
      // No `blocks` yet: the body's compact form adds them (graph/compact-body.ts), and a function
      // without a body gets an empty list when the module is complete.
      const fn = {
        kind: 'function',
        type: pointer,
        functionType,
        linkage,
        callingConv,
        alignment,
        isDeclaration: (f.flags & FUNCTION_FLAG_DECLARATION) !== 0,
        // (`name` from the start, undefined until the symbol table names the argument: adding it later
        // gave every named argument a property array of its own.)
        args: argumentsOf(functionType.params),
      } as Omit<Function, 'blocks'> as Function;
      if (f.section) sectionUsers.push({ value: fn, id: f.section, offset: at });
      module.functions.push(fn);
      if (row.declarationsHaveFunctionBlocks || !fn.isDeclaration) {
        ctx.bodiesToRead.push(fn);
        ctx.bodyFunctionIndexes.push(module.functions.length - 1);
      }
      ctx.planes.plane(pointer).push(fn);
    },
    libraryCount: (n, at) => r.checkCount(n, 1, limits.maxDependentLibraries, 'dependent libraries', at),
    sectionCount: (n) => r.checkCount(n, 1, limits.maxSymbolTableEntries, 'section names'),
    string: (_r, what) => readString(ctx, what),
    library: (name) => module.dependentLibraries.push(name),
    triple: (triple) => {
      module.targetTriple = triple;
    },
    section: (name) => sections.push(name),
    inlineAsm: (asm) => {
      module.inlineAsm = asm;
    },
  });
  // LLVM 1.4–1.6 ended the block after the triple or the section names (the writer gives it back).
  if (row.hasSectionNames && row.hasPackedAndAttributes && (end === 'triple' || end === 'sections')) module.globalInfoEnd = end;
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

/** A length-prefixed string, its length held to `maxStringLength` (`what` names it in errors). */
export function readString(ctx: { readonly r: BinaryReader; readonly limits: Limits }, what: string): string {
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
