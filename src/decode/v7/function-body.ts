/**
 * One version-7 Function block (r36867's ParseFunctionBody): `linkage | visibility << 16`, then
 * blocks: a constant pool (with the function's own types), one instruction list, a value symbol
 * table. Arguments take their slots before the first constant pool or instruction list. Once the
 * block ends, forward references are replaced by the values they named, and every basic block an
 * instruction named must exist.
 *
 * Why its own: a version-7 body has no compaction table (a retired stage's is refused by name),
 * linkage and visibility in one word, and a value symbol table numbered by r36867's slots; the
 * 1.x body (`decode/function-block.ts`) is tuned around its body arena and compaction tables.
 * The block frames are the shared ones (`decode/block-frame.ts`).
 */
import type { BinaryReader } from '../../binary/reader.js';
import { readBlockFrame } from '../block-frame.js';
import { formatFor } from '../../format/format-table.js';
import { UnsupportedVersionError } from '../../format/version-word.js';
import { V7_LINKAGES, V7_VISIBILITIES } from '../../format/version7.js';
import { describeType } from '../../graph/describe.js';
import type { Function, Value } from '../../graph/value.js';
import { readConstantPoolV7 } from './constants.js';
import { BlockTable, readInstructionList } from './instructions.js';
import type { ForwardRef, V7Scope } from './scope.js';
import { NameScope, readValueSymbolTableV7 } from './symbol-tables.js';

/** Version 7's row: its block ids name the blocks. */
const V7_ROW = formatFor(7)!;

/** The compaction table's block id before version 7 dropped it (2007-01-30). */
const COMPACTION_TABLE_BLOCK_ID = 8;
const COMPACTION_TABLE_STAGE =
  'a compaction table (block 8) in a version-7 function: written by LLVM trunk between 2007-01-26 and 2007-01-30, an earlier version-7 stage than the one read here (r36867, which dropped compaction tables); it is not supported';

export function readFunctionBlockV7(scope: V7Scope, fn: Function): void {
  const r: BinaryReader = scope.r;
  const at = r.pos;
  const word = r.vbr32();
  const linkage = word & 0xffff;
  const visibility = word >>> 16;
  if (linkage >= V7_LINKAGES.length) r.fail(`unknown linkage ${linkage} of a function`, at);
  if (visibility >= V7_VISIBILITIES.length) r.fail(`unknown visibility ${visibility} of a function`, at);
  fn.linkage = V7_LINKAGES[linkage]!;
  if (visibility !== 0) fn.visibility = V7_VISIBILITIES[visibility];

  const blocks = new BlockTable(scope);
  const names = new NameScope();
  let argumentsPlaced = false;
  let blockCount = 0;
  const placeArguments = (): void => {
    if (argumentsPlaced) return;
    argumentsPlaced = true;
    for (const a of fn.args) scope.define(a, scope.slotOf(a.type, r.pos), false, r.pos);
  };
  while (!r.atEnd()) {
    if (r.depth >= scope.limits.maxBlockDepth) r.fail(`blocks nest deeper than the limit of ${scope.limits.maxBlockDepth}`);
    const frame = readBlockFrame(r, V7_ROW);
    switch (frame.kind) {
      case 'constantPool':
        r.enterBlock('ConstantPool', frame.size, frame.headerOffset);
        placeArguments();
        readConstantPoolV7(scope, false);
        break;
      case 'instructionList':
        r.enterBlock('InstructionList', frame.size, frame.headerOffset);
        placeArguments();
        if (blockCount > 0) r.fail('a second instruction list in one function', frame.headerOffset);
        blockCount = readInstructionList(scope, blocks);
        break;
      case 'symbolTable':
        r.enterBlock('ValueSymbolTable', frame.size, frame.headerOffset);
        fn.layout = readValueSymbolTableV7(scope, names, blocks.blocks.slice(0, blockCount));
        break;
      case 'typeSymbolTable':
        r.fail('a type symbol table inside a function (only modules have one)', frame.headerOffset);
        break;
      default:
        // A compaction table (no block of version 7's row): r36867 would skip it and misnumber
        // every slot after it: name the stage instead.
        if (frame.id === COMPACTION_TABLE_BLOCK_ID)
          throw new UnsupportedVersionError({ version: 7, layout: 'bare', flags: 0 }, frame.headerOffset, r.blockPath, COMPACTION_TABLE_STAGE);
        // r36867 skipped blocks it did not know.
        r.enterBlock(`Unknown block ${frame.id}`, frame.size, frame.headerOffset);
    }
    r.leaveBlock();
  }
  const unreached = blocks.unreachedBlock();
  if (unreached !== undefined) r.fail(`an instruction names basic block ${unreached}, but the function has ${blockCount}`);
  replaceForwardReferences(scope);
  fn.blocks = blocks.blocks;
  // A body without basic blocks leaves the function a declaration, as in LLVM.
  if (blockCount === 0) {
    fn.isDeclaration = true;
    fn.linkageOnlyBlock = true;
  }
  scope.leaveFunction();
}

function replaceForwardReferences(scope: V7Scope): void {
  if (scope.forwardRefs.size === 0) return;
  const resolved = new Map<ForwardRef, Value>();
  for (const ref of scope.forwardRefs.values()) {
    const { typeSlot, slot, offset } = ref.forward;
    const v = scope.find(typeSlot, slot, offset);
    if (v === undefined) scope.r.fail(`an operand refers to slot ${slot} of type ${describeType(ref.type)}, which the function never defines`, offset);
    resolved.set(ref, v);
  }
  patchOperands(resolved, scope);
}

function patchOperands(resolved: Map<ForwardRef, Value>, scope: V7Scope): void {
  for (const plane of scope.functionValues) {
    if (plane === undefined) continue;
    for (const v of plane) {
      if (v.kind !== 'instruction') continue;
      const ops = v.operands;
      for (let i = 0; i < ops.length; i++) {
        const got = resolved.get(ops[i] as unknown as ForwardRef);
        if (got !== undefined) ops[i] = got;
      }
    }
  }
}
