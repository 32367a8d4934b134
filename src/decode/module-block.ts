/**
 * The module: header, version word, and the blocks of docs/format.md §4.3, decoded into the
 * module graph.
 */
import { BinaryReader } from '../binary/reader.js';
import { formatFor, VERSION_WORD_FLAGS, type FormatRow } from '../format/format-table.js';
import { readModuleBlocks } from './module-blocks.js';
import { isReadableVersionWord, parseVersionWord, peekVersionWord, UnsupportedVersionError } from '../format/version-word.js';
import { decodeVersion7Module } from './v7/module.js';
import { emptyModule } from '../graph/describe.js';
import type { Limits } from '../limits.js';
import type { Module } from '../graph/module.js';
import { primitiveTypesById, type Type, type PointerType } from '../graph/type.js';
import type { Function, Value } from '../graph/value.js';
import { isConstantValue, readConstantPool } from './constant-pool.js';
import { readFunctionBlock, skipPadding } from './function-block.js';
import { readModuleGlobalInfo } from './global-info.js';
import { ModulePlanes } from './planes.js';
import { applyLateNames, readSymbolTable } from './symbol-table.js';
import { TypeTable } from './types.js';
import { blockName, describeType, registerTypes, type ModuleContext } from './context.js';
import { TypeRegistry } from './type-identity.js';
import { sharedNameInterner } from './name-interner.js';

const MODULE_BLOCK_ID = 1;

/**
 * Decodes the module stream `stream` (starting with the 4-byte `llvm` signature, as the container
 * layer delivers it).
 */
export function decodeModuleStream(stream: Uint8Array, limits: Limits): { module: Module; row: FormatRow } {
  const r: BinaryReader = new BinaryReader(stream);
  r.pos = 4;
  const headerOffset = r.pos;
  const id = r.uint32();
  const size = r.uint32();
  if (id !== MODULE_BLOCK_ID) r.fail(`expected the module block (id 1), found block id ${id}`, headerOffset);
  const versionAt = r.pos;
  // The version decides everything after it, so a version we do not read is said first, before
  // any complaint about sizes that a newer layout would explain.
  const peeked = peekVersionWord(stream);
  if (peeked !== undefined && !isReadableVersionWord(peeked)) throw new UnsupportedVersionError(peeked, versionAt, ['Module']);
  r.enterBlock('Module', size, headerOffset);
  const word = parseVersionWord(r.vbr32());
  const row = formatFor(word.version);
  if (row === undefined || !isReadableVersionWord(word)) throw new UnsupportedVersionError(word, versionAt, r.blockPath);
  // The row's type-id scheme names the reader of what follows: 1.x's (versions 0–6) here, LLVM
  // 2.0 development's (version 7) in v7/module.ts.
  const module = MODULE_READERS[row.typeIdScheme](r, row, limits, word.flags);
  r.leaveBlock();
  return { module, row };
}

/** Reads a module's contents as `row`'s scheme lays them out; `r` is inside the module block, after the version word. */
type ModuleReader = (r: BinaryReader, row: FormatRow, limits: Limits, flags: number) => Module;

const MODULE_READERS: Readonly<Record<FormatRow['typeIdScheme'], ModuleReader>> = {
  llvm1: decodeLlvm1Module,
  llvm2: (r, _row, limits) => decodeVersion7Module(r, limits),
};

/** Versions 0–6: the module's blocks into the graph. */
function decodeLlvm1Module(r: BinaryReader, row: FormatRow, limits: Limits, flags: number): Module {
  if (row.hasAlignment) skipModulePadding(r);

  const F = VERSION_WORD_FLAGS;
  // (Assigned rather than spread into a new literal: a spread object reads measurably slower in
  // V8, and the decoder touches the module constantly.)
  const module: Module = emptyModule();
  module.endianness = flags & F.noEndianness ? 'any' : flags & F.bigEndian ? 'big' : 'little';
  module.pointerSize = flags & F.noPointerSize ? 'any' : flags & F.pointer64 ? 64 : 32;
  const types = new TypeTable(primitiveTypesById);
  const pointerTypes = new Map<Type, PointerType>();
  const ctx: ModuleContext = {
    r,
    row,
    limits,
    module,
    types,
    planes: new ModulePlanes(row, (t) => types.planeTypeId(t)),
    bodiesToRead: [],
    bodyFunctionIndexes: [],
    pendingInitializers: [],
    pointerTypes,
    typeRegistry: new TypeRegistry(pointerTypes),
    names: sharedNameInterner(),
  };
  let nextBody = 0;
  let sawTypes = false;
  let sawGlobals = false;
  readModuleBlocks(r, row, {
    enter: (frame) => {
      r.enterBlock(blockName(frame.kind, frame.id), frame.size, frame.headerOffset);
      return frame.kind;
    },
    globalTypePlane: (frame) => {
      if (sawTypes) r.fail('a second global type block', frame.headerOffset);
      sawTypes = true;
      if (frame.size > 0) readGlobalTypes(ctx);
    },
    moduleGlobalInfo: (frame) => {
      if (sawGlobals) r.fail('a second module global info block', frame.headerOffset);
      sawGlobals = true;
      readModuleGlobalInfo(ctx);
    },
    constantPool: () =>
      readConstantPool(
        ctx,
        {
          types,
          typesToDefine: () => types,
          lookup: (t: Type, slot: number): Value | undefined => ctx.planes.get(t, slot),
          define: (t: Type, v: Value): void => {
            const plane = ctx.planes.plane(t);
            if (plane.length >= limits.maxValuesPerPlane)
              r.fail(`the plane of type ${describeType(t)} holds more than the limit of ${limits.maxValuesPerPlane} values`);
            plane.push(v);
          },
          registerTypes: (added) => registerTypes(ctx, added),
        },
        false,
      ),
    function: (frame) => {
      const fn = ctx.bodiesToRead[nextBody++];
      if (fn === undefined) r.fail('a function block for which the module declares no function', frame.headerOffset);
      r.renameBlock(`Function #${ctx.bodyFunctionIndexes[nextBody - 1]!}`);
      readFunctionBlock(ctx, fn);
    },
    symbolTable: () => {
      module.layout = readSymbolTable(ctx, { types, lookup: (t, slot) => ctx.planes.get(t, slot) });
    },
    leave: () => {
      r.leaveBlock();
      if (row.hasAlignment) skipPadding(ctx);
    },
  });
  if (nextBody < ctx.bodiesToRead.length) {
    const missing = ctx.bodiesToRead[nextBody]!;
    r.fail(
      `the module declares ${ctx.bodiesToRead.length} function bodies but holds ${nextBody} (missing the body of a function of type ${describeType(missing.functionType)})`,
    );
  }
  applyLateNames(ctx);
  for (const { global, slot, offset } of ctx.pendingInitializers) {
    const v = ctx.planes.get(global.valueType, slot);
    if (v === undefined || !isConstantValue(v)) r.fail(`initializer slot ${slot} of type ${describeType(global.valueType)} is not a constant`, offset);
    global.initializer = v;
  }
  ctx.functionScope?.arena.finish();
  for (const fn of module.functions) if (!('blocks' in fn)) (fn as Function).blocks = [];
  module.types = types.types.slice(primitiveTypesById.length);
  return module;
}

function readGlobalTypes(ctx: ModuleContext): void {
  const r: BinaryReader = ctx.r;
  const { row, limits } = ctx;
  const count = r.vbr32();
  if (row.globalTypesHavePlaneId) r.vbr32(); // always the type-type plane id; LLVM ignored it
  registerTypes(ctx, ctx.types.readDefinitions(r, row, limits, count));
}

function skipModulePadding(r: BinaryReader): void {
  const pad = (4 - (r.pos & 3)) & 3;
  r.pos += Math.min(pad, r.end - r.pos);
}
