/**
 * What the graph builders (1.x `constant-pool.ts`, version 7's `v7/constants.ts`) make of a
 * constant alike, whatever the version: a plane's type and its layout (`graphTypeLayout`), `undef`,
 * and floating-point values kept as their raw bits (so NaN payloads survive). Each builder adds
 * what its version's constants mean (integers, expressions, aggregates, pointers) and its messages.
 */
import type { Type } from '../graph/type.js';
import type { Constant } from '../graph/value.js';
import { graphTypeLayout, ValueLayout, type ConstantTexts } from './constant-record.js';

export abstract class GraphConstantReading {
  abstract readonly texts: ConstantTexts;
  /** The current plane's type. */
  protected type: Type;
  private layout = ValueLayout.None;
  bits = 0;
  count = 0;

  constructor(initial: Type) {
    this.type = initial;
  }

  /** The plane's type: how its values are laid out. */
  setType(t: Type): void {
    this.type = t;
    const { layout, bits, count } = graphTypeLayout(t);
    this.layout = layout;
    this.bits = bits;
    this.count = count;
  }

  valueLayout(): ValueLayout {
    return this.layout;
  }

  undef(): Constant {
    return { kind: 'undef', type: this.type };
  }

  float(bits: number): Constant {
    FLOAT_BITS[0] = bits;
    return { kind: 'fp', type: this.type, value: FLOAT_VIEW[0]!, bits: BigInt(bits) } as Constant;
  }

  double(bits: bigint): Constant {
    DOUBLE_BITS[0] = bits;
    return { kind: 'fp', type: this.type, value: DOUBLE_VIEW[0]!, bits } as Constant;
  }
}

const FLOAT_BITS = new Uint32Array(1);
const FLOAT_VIEW = new Float32Array(FLOAT_BITS.buffer);
const DOUBLE_BITS = new BigUint64Array(1);
const DOUBLE_VIEW = new Float64Array(DOUBLE_BITS.buffer);
