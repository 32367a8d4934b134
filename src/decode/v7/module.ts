/**
 * A version-7 module stream as LLVM trunk r36867 wrote it (docs/format.md §14): after the module
 * block header and the bare version word `7`, blocks with one-word headers (format/version7.ts
 * `V7_BLOCK_IDS`): the global type plane, ModuleGlobalInfo, the module constant pool, one
 * Function block per function with a body (in declaration order), the value symbol table and the
 * type symbol table. Unknown blocks are skipped, as r36867 did.
 *
 * The reader the format table's `typeIdScheme: 'llvm2'` names (`decode/module-block.ts`
 * `MODULE_READERS`), handed the reader positioned after the version word. Its blocks come from the
 * one module block loop (`decode/module-blocks.ts`), its type definitions and global info from the
 * shared record readers.
 *
 * Why its own: what it builds with them is held in version 7's scope (`V7Scope`: its slot
 * numbering, integer types of any width in fixed slots the 1.x reader has no notion of, aliases),
 * with r36867's block names and checks; the 1.x builder's context is `decode/context.ts`.
 */
import { readModuleBlocks } from '../module-blocks.js';
import { formatFor, type BlockKind } from '../../format/format-table.js';
import { BytecodeError } from '../../errors/bytecode-error.js';
import { EARLIER_V7_STAGE_HINT, UnsupportedVersionError } from '../../format/version-word.js';
import type { BinaryReader } from '../../binary/reader.js';
import { V7_FIRST_DERIVED_TYPE_SLOT, V7_FIXED_TYPE_SLOTS } from '../../format/version7.js';
import { describeType, emptyModule } from '../../graph/describe.js';
import type { Module } from '../../graph/module.js';
import { integerType, type Type } from '../../graph/type.js';
import type { Limits } from '../../limits.js';
import { readConstantPoolV7 } from './constants.js';
import { readFunctionBlockV7 } from './function-body.js';
import { readGlobalInfoV7, type GlobalInfo } from './global-info.js';
import { isConstant, V7Scope } from './scope.js';
import { NameScope, readTypeSymbolTableV7, readValueSymbolTableV7 } from './symbol-tables.js';
import { readTypeList } from './types.js';

/** Version 7's row: its block ids name the blocks. */
const V7_ROW = formatFor(7)!;

/**
 * Reads the module block's contents; `r` is inside the module block, after the version word. A
 * file this reader cannot make sense of may be of an earlier version-7 stage: its errors say so.
 */
export function decodeVersion7Module(r: BinaryReader, limits: Limits): Module {
  try {
    return readModule(r, limits);
  } catch (e) {
    if (e instanceof BytecodeError && !(e instanceof UnsupportedVersionError)) throw new BytecodeError(e.reason + EARLIER_V7_STAGE_HINT, e.offset, e.blockPath);
    throw e;
  }
}

function readModule(r: BinaryReader, limits: Limits): Module {
  const module: Module = emptyModule();
  const scope = new V7Scope(r, limits, module);
  const names = new NameScope();
  let info: GlobalInfo | undefined;
  let sawTypes = false;
  let nextBody = 0;
  readModuleBlocks(r, V7_ROW, {
    enter: (frame) => {
      const name = frame.kind === 'function' ? `Function #${nextBody}` : frame.kind && BLOCK_NAMES.get(frame.kind);
      r.enterBlock(name ?? `Unknown block ${frame.id}`, frame.size, frame.headerOffset);
      return frame.kind;
    },
    globalTypePlane: (frame) => {
      if (sawTypes) r.fail('a second global type block', frame.headerOffset);
      sawTypes = true;
      if (frame.size > 0) {
        const count = r.vbr32();
        const types = readTypeList(scope, count, V7_FIRST_DERIVED_TYPE_SLOT, (s, at) => scope.typeAt(s, at));
        checkFixedIntegerSlots(r, types, frame.headerOffset);
        scope.setModuleTypes(types);
      }
    },
    moduleGlobalInfo: (frame) => {
      if (info !== undefined) r.fail('a second module global info block', frame.headerOffset);
      info = readGlobalInfoV7(scope);
    },
    constantPool: () => readConstantPoolV7(scope, true),
    function: (frame) => {
      const fn = info?.bodies[nextBody];
      if (fn === undefined) r.fail('a function block for which the module declares no function with a body', frame.headerOffset);
      r.renameBlock(`Function #${info!.bodyIndexes[nextBody]!}`);
      nextBody++;
      readFunctionBlockV7(scope, fn);
    },
    symbolTable: () => {
      module.layout = { ...readValueSymbolTableV7(scope, names, undefined), ...(module.layout?.typeNames ? { typeNames: module.layout.typeNames } : {}) };
    },
    typeSymbolTable: () => {
      const typeNames = readTypeSymbolTableV7(scope);
      module.layout = { valuePlanes: module.layout?.valuePlanes ?? [], typeNames };
    },
    leave: () => r.leaveBlock(),
  });
  finish(scope, info, nextBody);
  return module;
}

/** The names of the blocks a module holds, in block paths (a block of another kind is skipped as unknown). */
const BLOCK_NAMES: ReadonlyMap<BlockKind, string> = new Map<BlockKind, string>([
  ['globalTypePlane', 'GlobalTypePlane'],
  ['moduleGlobalInfo', 'ModuleGlobalInfo'],
  ['constantPool', 'ConstantPool'],
  ['symbolTable', 'ValueSymbolTable'],
  ['typeSymbolTable', 'TypeSymbolTable'],
]);

/** Initializers and aliasees (now that every constant is read), and the bodies promised. */
function finish(scope: V7Scope, info: GlobalInfo | undefined, bodiesRead: number): void {
  const r: BinaryReader = scope.r;
  const module = scope.module;
  if (info !== undefined) {
    for (const { global, slot, offset } of info.initializers) {
      const v = scope.find(scope.slotOf(global.valueType, offset), slot, offset);
      if (v === undefined || !isConstant(v))
        r.fail(`the initializer (slot ${slot} of type ${describeType(global.valueType)}) is not a constant the module defines`, offset);
      global.initializer = v;
    }
    for (const { alias, slot, offset } of info.aliasees) {
      const v = scope.find(scope.slotOf(alias.type, offset), slot, offset);
      if (v === undefined || !isConstant(v))
        r.fail(`the aliasee (slot ${slot} of type ${describeType(alias.type)}) is not a constant the module defines`, offset);
      alias.aliasee = v;
    }
    if (bodiesRead < info.bodies.length) {
      const missing = info.bodies[bodiesRead]!;
      r.fail(
        `the module declares ${info.bodies.length} function bodies but holds ${bodiesRead} (missing the body of a function of type ${describeType(missing.functionType)})`,
      );
    }
  }
  module.types = scope.moduleTypes.slice();
  module.endianness = 'any';
  module.pointerSize = 'any';
  if (module.dataLayout === undefined) module.dataLayout = '';
}

/**
 * r36867's writer put i1, i8, i16, i32 and i64 first in the global type plane, and its reader
 * took branch conditions, `select` conditions, array sizes and element indices from those slots
 * by number whatever they held: a file with another type there cannot be read as LLVM meant it.
 */
function checkFixedIntegerSlots(r: BinaryReader, types: readonly Type[], at: number): void {
  for (const [name, slot] of Object.entries(V7_FIXED_TYPE_SLOTS)) {
    const t = types[slot - V7_FIRST_DERIVED_TYPE_SLOT];
    const bits = Number(name.slice(3));
    if (t !== undefined && t !== integerType(bits))
      r.fail(`type slot ${slot} holds ${describeType(t)}, where version 7 keeps i${bits} (the integer types i1, i8, i16, i32 and i64 take slots 4–8)`, at);
  }
}
