/**
 * The one loop over the module block's blocks (docs/format.md §4.3, version 7's §14.2), for every
 * version: each block's frame is read as the row says (`readBlockFrame`), handed to the
 * consumer's handler for its kind, and left, the consumer skipping the padding where the version
 * aligned. Its consumers are the module-graph builder (`module-block.ts` for versions 0–6,
 * `v7/module.ts`) and the analyzer (`analyze/walk-base.ts`); each checks a frame as its reader
 * did, names the block in its block paths, refuses a second global type or global info block in
 * its own words, and reads what a block holds through the record readers of this folder.
 */
import type { BlockKind, FormatRow } from '../format/format-table.js';
import { readBlockFrame, type BlockFrame } from './block-frame.js';
import type { BytecodeReader } from './reader.js';

/** What a consumer does with each block of the module. */
export interface ModuleBlockReading {
  /**
   * A block's frame, just read: the consumer checks it and enters the block (its block path);
   * returns the kind it reads the block as (`undefined`: a block it skips).
   */
  enter(frame: BlockFrame): BlockKind | 'unknown' | undefined;
  globalTypePlane(frame: BlockFrame): void;
  moduleGlobalInfo(frame: BlockFrame): void;
  constantPool(frame: BlockFrame): void;
  function(frame: BlockFrame): void;
  symbolTable(frame: BlockFrame): void;
  /** Version 7's type symbol table (a block of no earlier version). */
  typeSymbolTable?(frame: BlockFrame): void;
  /** Any other block: unknown, or of a kind a module does not hold. */
  other?(frame: BlockFrame): void;
  /** The block is read: leave it, and skip the padding after it where the version aligned. */
  leave(): void;
}

/** Reads the module's blocks to the end of the module block (the reader is inside it). */
export function readModuleBlocks(r: BytecodeReader, row: FormatRow, reading: ModuleBlockReading): void {
  while (!r.atEnd()) {
    const frame = readBlockFrame(r, row);
    switch (reading.enter(frame)) {
      case 'globalTypePlane':
        reading.globalTypePlane(frame);
        break;
      case 'moduleGlobalInfo':
        reading.moduleGlobalInfo(frame);
        break;
      case 'constantPool':
        reading.constantPool(frame);
        break;
      case 'function':
        reading.function(frame);
        break;
      case 'symbolTable':
        reading.symbolTable(frame);
        break;
      case 'typeSymbolTable':
        if (reading.typeSymbolTable) reading.typeSymbolTable(frame);
        else reading.other?.(frame);
        break;
      default:
        reading.other?.(frame);
        break;
    }
    reading.leave();
  }
}
