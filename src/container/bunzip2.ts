/**
 * A bzip2 decoder (one stream, the format libbzip2 0.9.5–1.0.x writes), written for a cold start.
 *
 * `dis` of a large `llvc2` file runs this once, before V8 has optimized anything: what counts is
 * how little code runs per output byte in the interpreter and how soon the hot loops are
 * optimized (on-stack replacement optimizes a long-running loop inside its function). So each
 * stage is one loop over typed arrays with its state in locals: the Huffman symbols through a
 * lookup table (one probe for nearly every code), move-to-front and the run-length symbols in the
 * same loop, the inverse Burrows–Wheeler transform as one array walk, and the final run-length
 * decoding and the block CRC in the loop that writes the output. No objects per block beyond a
 * few typed arrays, no callbacks per byte (the decoder it replaces, seek-bzip, called an
 * output function for each byte and spent about twice as long cold).
 *
 * Errors are `Bzip2Error`s carrying the number of compressed bytes consumed when the problem was
 * found; input that ends early is an `Bzip2Truncated`. The caller turns both into BytecodeErrors.
 */

/** The stream stopped making sense; `consumed` compressed bytes had been read. */
export class Bzip2Error extends Error {
  constructor(
    message: string,
    readonly consumed: number,
  ) {
    super(message);
  }
}

/** The input ended before the stream's end-of-stream marker and CRC. */
export class Bzip2Truncated extends Error {}

/** The output grew past the caller's cap; `consumed` compressed bytes had been read. */
export class Bzip2TooLarge extends Error {
  constructor(readonly consumed: number) {
    super('bzip2 output exceeds the cap');
  }
}

const MAX_GROUPS = 6;
const MIN_GROUPS = 2;
const MAX_ALPHA = 258;
const MAX_CODE_LEN = 20;
const GROUP_SIZE = 50;
/** libbzip2 1.0.8 reads more selectors than this but uses only this many (CVE-2019-12900). */
const MAX_SELECTORS = 18002;
/** Bits the Huffman lookup table resolves in one probe; longer codes take the slow path. */
const TABLE_BITS = 10;
const TABLE_SIZE = 1 << TABLE_BITS;

/** CRC-32 as bzip2 computes it: polynomial 0x04c11db7, most significant bit first. */
const CRC_TABLE = (() => {
  const t = new Int32Array(256);
  for (let i = 0; i < 256; i++) {
    let c = i << 24;
    for (let k = 0; k < 8; k++) c = c & 0x80000000 ? (c << 1) ^ 0x04c11db7 : c << 1;
    t[i] = c;
  }
  return t;
})();

/**
 * Decodes the bzip2 stream at the start of `input`. The output goes after `prefixLength` reserved
 * bytes of a buffer that starts with `initialCapacity` bytes (prefix included) and doubles as
 * needed up to `prefixLength + maxSize`; a stream that would write more throws `Bzip2TooLarge` at
 * that byte. Returns the buffer, where the output ends in it, and how many input bytes the
 * stream took (the rest are trailing bytes).
 */
export function bunzip2(input: Uint8Array, maxSize: number, prefixLength: number, initialCapacity: number): { buffer: Uint8Array; end: number; consumed: number } {
  const d = new Decoder(input);
  const output = new Output(new Uint8Array(Math.max(prefixLength, Math.min(initialCapacity, prefixLength + maxSize))), prefixLength, prefixLength + maxSize);

  if (d.bits(8) !== 0x42 || d.bits(8) !== 0x5a || d.bits(8) !== 0x68) d.fail('bad magic: not a bzip2 stream');
  const level = d.bits(8) - 0x30;
  if (level < 1 || level > 9) d.fail('bad block size in the stream header');
  const blockMax = level * 100000;
  const tt = new Uint32Array(blockMax);
  const scratch = new BlockScratch();
  let streamCrc = 0;
  for (;;) {
    const magicHigh = d.bits(24);
    const magicLow = d.bits(24);
    if (magicHigh === 0x177245 && magicLow === 0x385090) {
      const expected = d.bits(32) | 0;
      if (expected !== streamCrc) d.fail(`bad stream CRC (got ${hex(streamCrc)}, expected ${hex(expected)})`);
      break;
    }
    if (magicHigh !== 0x314159 || magicLow !== 0x265359) d.fail('bad block header');
    const blockCrc = d.bits(32) | 0;
    const count = readBlock(d, scratch, tt, blockMax);
    const from = output.end;
    if (!undoBwt(tt, scratch.origPtr, count, output)) throw new Bzip2TooLarge(d.consumed());
    const crc = blockCrcOf(output.buffer, from, output.end);
    if (crc !== blockCrc) d.fail(`bad block CRC (got ${hex(crc)}, expected ${hex(blockCrc)})`);
    streamCrc = ((streamCrc << 1) | (streamCrc >>> 31)) ^ crc;
  }
  return { buffer: output.buffer, end: output.end, consumed: d.consumed() };
}

/** The output buffer, growing up to `limit` bytes. */
class Output {
  constructor(
    public buffer: Uint8Array,
    public end: number,
    readonly limit: number,
  ) {}
}

/**
 * Undoes the Burrows–Wheeler transform of a block (`tt` linked by readBlock) and the initial
 * run-length coding, appending the bytes to `output`; false when they would pass its limit.
 * (Its own function, as is the CRC below: a loop that does one thing is optimized sooner.)
 */
function undoBwt(tt: Uint32Array, origPtr: number, count: number, output: Output): boolean {
  let out = output.buffer;
  let o = output.end;
  const limit = output.limit;
  let tPos = tt[origPtr]! >>> 8;
  let last = -1;
  let run = 0;
  for (let left = count; left > 0; left--) {
    const entry = tt[tPos]!;
    const ch = entry & 0xff;
    tPos = entry >>> 8;
    if (run === 4) {
      // After four equal bytes, the next byte is how many more copies follow.
      if (o + ch > out.length) {
        if (o + ch > limit) return false;
        out = grown(out, o + ch, limit);
      }
      out.fill(last, o, o + ch);
      o += ch;
      run = 0;
      last = -1;
      continue;
    }
    if (ch === last) run++;
    else {
      run = 1;
      last = ch;
    }
    if (o >= out.length) {
      if (o >= limit) return false;
      out = grown(out, o + 1, limit);
    }
    out[o++] = ch;
  }
  output.buffer = out;
  output.end = o;
  return true;
}

/** bzip2's CRC of `bytes[from, to)`. */
function blockCrcOf(bytes: Uint8Array, from: number, to: number): number {
  let crc = -1;
  for (let i = from; i < to; i++) crc = (crc << 8) ^ CRC_TABLE[((crc >>> 24) ^ bytes[i]!) & 0xff]!;
  return ~crc;
}

function hex(n: number): string {
  return (n >>> 0).toString(16).padStart(8, '0');
}

/** A buffer of at least `need` bytes (doubling, at most `limit`) holding `out`'s bytes. */
function grown(out: Uint8Array, need: number, limit: number): Uint8Array<ArrayBuffer> {
  let size = Math.max(out.length * 2, 1024);
  while (size < need) size *= 2;
  const bigger = new Uint8Array(Math.min(size, limit));
  bigger.set(out);
  return bigger;
}

/** The tables one block needs, kept across blocks. */
class BlockScratch {
  origPtr = 0;
  readonly symToByte = new Uint8Array(256);
  readonly selectors = new Uint8Array(MAX_SELECTORS);
  readonly lengths = new Uint8Array(MAX_GROUPS * MAX_ALPHA);
  /** Per group: TABLE_SIZE entries of `symbol << 5 | length` (0: the code is longer than TABLE_BITS). */
  readonly table = new Int32Array(MAX_GROUPS * TABLE_SIZE);
  /** Per group, canonical decoding for the long codes: limit and base by length, symbols by rank. */
  readonly limit = new Int32Array(MAX_GROUPS * (MAX_CODE_LEN + 2));
  readonly base = new Int32Array(MAX_GROUPS * (MAX_CODE_LEN + 2));
  readonly perm = new Int32Array(MAX_GROUPS * MAX_ALPHA);
  readonly minLen = new Int32Array(MAX_GROUPS);
  readonly maxLen = new Int32Array(MAX_GROUPS);
  readonly mtf = new Uint8Array(256);
  readonly counts = new Int32Array(256);
}

/**
 * Reads one block's header and Huffman-coded symbols, undoing move-to-front and the symbol run
 * lengths into `tt` (low byte of each entry), then links `tt` for the inverse BWT (entry `i`
 * gets the index of its successor in its upper 24 bits). Returns the block's length.
 */
function readBlock(d: Decoder, s: BlockScratch, tt: Uint32Array, blockMax: number): number {
  if (d.bits(1) !== 0) d.fail('randomised blocks (bzip2 before 0.9.5) are not supported');
  const origPtr = d.bits(24);
  if (origPtr > blockMax + 10) d.fail('block origin out of range');
  s.origPtr = origPtr;

  const symToByte = s.symToByte;
  let inUse = 0;
  const used16 = d.bits(16);
  for (let i = 0; i < 16; i++) {
    if ((used16 & (0x8000 >>> i)) === 0) continue;
    const bits = d.bits(16);
    for (let j = 0; j < 16; j++) if ((bits & (0x8000 >>> j)) !== 0) symToByte[inUse++] = i * 16 + j;
  }
  if (inUse === 0) d.fail('block uses no byte values');
  const alphaSize = inUse + 2;

  const groups = d.bits(3);
  if (groups < MIN_GROUPS || groups > MAX_GROUPS) d.fail('bad number of Huffman tables');
  const selectorCount = d.bits(15);
  if (selectorCount < 1) d.fail('no Huffman table selectors');
  // Selectors, move-to-front coded in unary.
  const mtfGroups = [0, 1, 2, 3, 4, 5];
  const selectors = s.selectors;
  for (let i = 0; i < selectorCount; i++) {
    let j = 0;
    while (d.bits(1) !== 0) if (++j >= groups) d.fail('bad Huffman table selector');
    const v = mtfGroups[j]!;
    for (; j > 0; j--) mtfGroups[j] = mtfGroups[j - 1]!;
    mtfGroups[0] = v;
    if (i < MAX_SELECTORS) selectors[i] = v;
  }
  const usedSelectors = Math.min(selectorCount, MAX_SELECTORS);

  // Code lengths, delta coded, then the decoding tables of each group.
  const lengths = s.lengths;
  for (let g = 0; g < groups; g++) {
    let len = d.bits(5);
    const at = g * MAX_ALPHA;
    for (let i = 0; i < alphaSize; i++) {
      for (;;) {
        if (len < 1 || len > MAX_CODE_LEN) d.fail('bad Huffman code length');
        if (d.bits(1) === 0) break;
        len += d.bits(1) === 0 ? 1 : -1;
      }
      lengths[at + i] = len;
    }
    buildTables(s, g, alphaSize);
  }

  // The symbols: a new table every 50, runs of RUNA/RUNB, move-to-front positions, end of block.
  const mtf = s.mtf;
  for (let i = 0; i < 256; i++) mtf[i] = i;
  const counts = s.counts;
  counts.fill(0);
  const table = s.table;
  const limitT = s.limit;
  const baseT = s.base;
  const perm = s.perm;
  const endOfBlock = inUse + 1;
  let count = 0;
  let runLength = 0;
  let runWeight = 1;
  let selector = 0;
  let groupLeft = 0;
  let group = 0;
  // The bit reader's state, in locals for this loop.
  const input = d.input;
  const inLen = input.length;
  let pos = d.pos;
  let buf = d.buf;
  let have = d.have;
  for (;;) {
    if (groupLeft === 0) {
      if (selector >= usedSelectors) {
        d.pos = pos;
        d.have = have;
        d.fail('more symbols than Huffman table selectors');
      }
      group = selectors[selector++]!;
      groupLeft = GROUP_SIZE;
    }
    groupLeft--;
    while (have <= 24) {
      buf = (buf << 8) | (pos < inLen ? input[pos]! : 0);
      pos++;
      have += 8;
    }
    let entry = table[group * TABLE_SIZE + ((buf >>> (have - TABLE_BITS)) & (TABLE_SIZE - 1))]!;
    let sym: number;
    if (entry !== 0) {
      have -= entry & 31;
      sym = entry >>> 5;
    } else {
      // A code longer than TABLE_BITS: canonical decoding, one more bit at a time.
      const lb = group * (MAX_CODE_LEN + 2);
      let len = TABLE_BITS + 1;
      let code = (buf >>> (have - len)) & ((1 << len) - 1);
      const maxLen = s.maxLen[group]!;
      while (code > limitT[lb + len]!) {
        if (++len > maxLen) {
          d.pos = pos;
          d.have = have;
          d.fail('bad Huffman code');
        }
        code = (buf >>> (have - len)) & ((1 << len) - 1);
      }
      have -= len;
      entry = code - baseT[lb + len]!;
      if (entry < 0 || entry >= MAX_ALPHA) {
        d.pos = pos;
        d.have = have;
        d.fail('bad Huffman code');
      }
      sym = perm[group * MAX_ALPHA + entry]!;
    }
    if (pos > inLen && (pos - inLen) * 8 > have) throw new Bzip2Truncated();
    if (sym <= 1) {
      // RUNA (0) adds the weight, RUNB (1) twice the weight: bijective base 2.
      runLength += runWeight << sym;
      runWeight <<= 1;
      if (runLength > blockMax) {
        d.pos = pos;
        d.have = have;
        d.fail('run of bytes longer than the block');
      }
      continue;
    }
    if (runLength > 0) {
      if (count + runLength > blockMax) {
        d.pos = pos;
        d.have = have;
        d.fail('block longer than its declared size');
      }
      const b = symToByte[mtf[0]!]!;
      counts[b] += runLength;
      tt.fill(b, count, count + runLength);
      count += runLength;
      runLength = 0;
      runWeight = 1;
    }
    if (sym === endOfBlock) break;
    if (count >= blockMax) {
      d.pos = pos;
      d.have = have;
      d.fail('block longer than its declared size');
    }
    // Move-to-front: position sym - 1.
    // (Bytecode's positions are far: 28 on average in a large module; the builtin moves them
    // in one call where a loop would run, unoptimized at first, once per position.)
    let k = sym - 1;
    const v = mtf[k]!;
    if (k > 8) mtf.copyWithin(1, 0, k);
    else for (; k > 0; k--) mtf[k] = mtf[k - 1]!;
    mtf[0] = v;
    const b = symToByte[v]!;
    counts[b]++;
    tt[count++] = b;
  }
  d.pos = pos;
  d.buf = buf;
  d.have = have;
  if (origPtr >= count) d.fail('block origin out of range');

  // Inverse BWT links: the i-th occurrence of byte c in sorted order is at counts[c] + i.
  let sum = 0;
  for (let i = 0; i < 256; i++) {
    const c = counts[i]!;
    counts[i] = sum;
    sum += c;
  }
  for (let i = 0; i < count; i++) {
    const b = tt[i]! & 0xff;
    tt[counts[b]++] |= i << 8;
  }
  return count;
}

/** Group `g`'s lookup table and canonical tables from its code lengths. */
function buildTables(s: BlockScratch, g: number, alphaSize: number): void {
  const lengths = s.lengths;
  const at = g * MAX_ALPHA;
  let minLen = 32;
  let maxLen = 0;
  for (let i = 0; i < alphaSize; i++) {
    const l = lengths[at + i]!;
    if (l > maxLen) maxLen = l;
    if (l < minLen) minLen = l;
  }
  s.minLen[g] = minLen;
  s.maxLen[g] = maxLen;
  // Canonical codes (libbzip2's BZ2_hbCreateDecodeTables): symbols ranked by length, then value.
  const perm = s.perm;
  let pp = 0;
  for (let len = minLen; len <= maxLen; len++) for (let i = 0; i < alphaSize; i++) if (lengths[at + i] === len) perm[at + pp++] = i;
  const lb = g * (MAX_CODE_LEN + 2);
  const limit = s.limit;
  const base = s.base;
  const lengthCount = new Int32Array(MAX_CODE_LEN + 2);
  for (let i = 0; i < alphaSize; i++) lengthCount[lengths[at + i]!]++;
  // First code and rank of each length.
  const table = s.table;
  const tb = g * TABLE_SIZE;
  table.fill(0, tb, tb + TABLE_SIZE);
  let code = 0;
  let rank = 0;
  for (let len = 1; len <= MAX_CODE_LEN + 1; len++) {
    const n = len <= MAX_CODE_LEN ? lengthCount[len]! : 0;
    // Codes of this length are code .. code + n - 1, for the symbols perm[rank .. rank + n).
    base[lb + len] = code - rank;
    limit[lb + len] = code + n - 1;
    if (len <= TABLE_BITS) {
      // (Codes past 2^len exist only in a damaged table: they are left out, and fail below.)
      for (let k = 0; k < n && code + k < 1 << len; k++) {
        const entry = (perm[at + rank + k]! << 5) | len;
        const first = (code + k) << (TABLE_BITS - len);
        table.fill(entry, tb + first, tb + first + (1 << (TABLE_BITS - len)));
      }
    }
    rank += n;
    code = (code + n) << 1;
  }
}

/** The bit reader for everything but the symbol loop (which keeps the same state in locals). */
class Decoder {
  pos = 0;
  /** The last bytes read; its low `have` bits are not consumed yet. */
  buf = 0;
  have = 0;
  constructor(readonly input: Uint8Array) {}

  /** The next `n` (≤ 24, or 32) bits, most significant first. */
  bits(n: number): number {
    if (n > 24) return ((this.bits(16) << 16) | this.bits(n - 16)) >>> 0;
    while (this.have < n) {
      if (this.pos >= this.input.length) throw new Bzip2Truncated();
      this.buf = (this.buf << 8) | this.input[this.pos++]!;
      this.have += 8;
    }
    this.have -= n;
    // The symbol loop reads ahead, past the end with zeros: taking those is running out of input.
    if (this.pos > this.input.length && (this.pos - this.input.length) * 8 > this.have) throw new Bzip2Truncated();
    return (this.buf >>> this.have) & ((1 << n) - 1);
  }

  /** Compressed bytes consumed so far (a partly read byte counts). */
  consumed(): number {
    return Math.min(this.input.length, this.pos - (this.have >> 3));
  }

  fail(message: string): never {
    // Zeros read ahead past the end made no sense: the stream was cut short.
    if (this.pos > this.input.length) throw new Bzip2Truncated();
    throw new Bzip2Error(message, this.consumed());
  }
}
