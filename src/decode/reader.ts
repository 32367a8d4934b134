/**
 * The reader every walk of a bytecode stream reads through: the module-graph builder (this
 * folder) and the analyzer (analyze/) both take their cursor from here, so the bounds, block
 * paths and error offsets of a read are the same whoever asks (binary/reader.ts does the bytes).
 *
 * `TallyingReader` is the same cursor counting the VBRs it reads, as LLVM 1.9's bytecode reader
 * counted them for `llvm-bcanalyzer`'s statistics: one tally may span several cursors (the
 * analyzer reads each function body with a cursor of its own).
 */
import { BinaryReader } from '../binary/reader.js';

export { BinaryReader as BytecodeReader };

/** VBRs read so far: how many of each width, and the bytes they took. */
export interface VbrTally {
  count32: number;
  count64: number;
  bytes: number;
}

export function newVbrTally(): VbrTally {
  return { count32: 0, count64: 0, bytes: 0 };
}

export class TallyingReader extends BinaryReader {
  constructor(
    bytes: Uint8Array,
    start: number,
    end: number,
    readonly tally: VbrTally,
  ) {
    super(bytes, start, end);
  }

  override vbr32(): number {
    const start = this.pos;
    const v = super.vbr32();
    this.tally.bytes += this.pos - start;
    this.tally.count32++;
    return v;
  }

  override vbr64(): bigint {
    const start = this.pos;
    const v = super.vbr64();
    this.tally.bytes += this.pos - start;
    this.tally.count64++;
    return v;
  }
}
