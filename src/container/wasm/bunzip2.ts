/**
 * The bzip2 decoder, in AssemblyScript: compiled to WebAssembly by `npm run build`
 * (src/container/wasm/build.mjs) and run by ../bunzip2.ts. It is the decoder that bunzip2.ts
 * held in TypeScript before, ported statement by statement (same checks, in the same order, at
 * the same bit positions, so every error and its offset are unchanged).
 *
 * Why WebAssembly: a CLI run decodes one file once, before V8 has optimized any JavaScript; the
 * TypeScript decoder then ran mostly in V8's interpreter (~35 ms of CPU for big-bf cold, 8 ms
 * warm). WebAssembly is compiled before its first call by V8's baseline compiler (Liftoff: well
 * under a millisecond for this module), whose code decodes big-bf in ~7.5 ms against ~6 ms for
 * V8's optimized code; a first call in a fresh process takes ~11 ms, of which ~1.5 ms is the
 * operating system handing out the memory the block and the output first touch.
 *
 * No allocator, no runtime: one linear memory, laid out below, and module globals. The module
 * stays under 4 KB so that every browser compiles it synchronously on its main thread too.
 *
 * Errors set `errorCode` (and `errorConsumed`, the compressed bytes read) and trap; the caller
 * reads them and throws. Codes are listed in ../bunzip2.ts (they index its messages).
 */

// ---- Memory layout (bytes) --------------------------------------------------------------------
const CRC_TABLE: u32 = 0; // 256 × u32
const SYM_TO_BYTE: u32 = 1024; // 256 × u8
const MTF: u32 = 1280; // 256 × u8
const COUNTS: u32 = 1536; // 256 × i32
const MAX_LEN: u32 = 2560; // MAX_GROUPS × i32
const LIMIT: u32 = 2592; // MAX_GROUPS × (MAX_CODE_LEN + 2) × i32
const BASE: u32 = 3120; // likewise
const LENGTH_COUNT: u32 = 3648; // (MAX_CODE_LEN + 2) × i32
const MTF_GROUPS: u32 = 3744; // MAX_GROUPS × u8
const LENGTHS: u32 = 3760; // MAX_GROUPS × MAX_ALPHA × u8
const PERM: u32 = 5312; // MAX_GROUPS × MAX_ALPHA × i32
const TABLE: u32 = 11520; // MAX_GROUPS × TABLE_SIZE × i32: symbol << 5 | length (0: longer code)
const SELECTORS: u32 = 36096; // MAX_SELECTORS × u8
/** Where the caller puts the compressed input; after it, 8 zero bytes, the block's `tt`, the output. */
export const INPUT: u32 = 65536;

const MAX_GROUPS: i32 = 6;
const MIN_GROUPS: i32 = 2;
const MAX_ALPHA: i32 = 258;
const MAX_CODE_LEN: i32 = 20;
const GROUP_SIZE: i32 = 50;
/** libbzip2 1.0.8 reads more selectors than this but uses only this many (CVE-2019-12900). */
const MAX_SELECTORS: i32 = 18002;
const TABLE_BITS: i32 = 10;
const TABLE_SIZE: i32 = 1 << TABLE_BITS;
/**
 * The long loops run in calls of at most this many steps: V8 compiles a WebAssembly function
 * again, optimized, once it has run long enough, but a call already running keeps the code it
 * started with (no on-stack replacement), so only later calls get the faster code.
 */
const CHUNK: i32 = 16384;

// ---- Error codes (the messages are in ../bunzip2.ts, in this order) ---------------------------
const E_TRUNCATED = 1;
const E_TOO_LARGE = 2;
const E_NO_MEMORY = 3;
const E_BAD_MAGIC = 4;
const E_BAD_LEVEL = 5;
const E_BAD_STREAM_CRC = 6;
const E_BAD_BLOCK_HEADER = 7;
const E_BAD_BLOCK_CRC = 8;
const E_RANDOMISED = 9;
const E_ORIGIN = 10;
const E_NO_BYTES = 11;
const E_GROUPS = 12;
const E_NO_SELECTORS = 13;
const E_SELECTOR = 14;
const E_CODE_LENGTH = 15;
const E_SELECTORS_USED_UP = 16;
const E_CODE = 17;
const E_RUN_TOO_LONG = 18;
const E_BLOCK_TOO_LONG = 19;

// ---- State ------------------------------------------------------------------------------------
/** The bit reader: next input address, the last bytes read (its low `have` bits unconsumed). */
let pos: u32 = 0;
let buf: u32 = 0;
let have: i32 = 0;
let inEnd: u32 = 0;
let outStart: u32 = 0;
let outEnd: u32 = 0;
/** Where the output must end: the caller's cap, or the end of 32-bit memory if sooner. */
let outLimit: u32 = 0;
/** Whether outLimit is the end of memory rather than the cap. */
let outLimitIsMemory = false;
let errorCode: i32 = 0;
let errorConsumed: u32 = 0;
let crcGot: u32 = 0;
let crcExpected: u32 = 0;
let crcReady = false;

export function getOutStart(): u32 {
  return outStart;
}
export function getOutEnd(): u32 {
  return outEnd;
}
export function getConsumed(): u32 {
  return consumed();
}
export function getErrorCode(): i32 {
  return errorCode;
}
export function getErrorConsumed(): u32 {
  return errorConsumed;
}
export function getCrcGot(): u32 {
  return crcGot;
}
export function getCrcExpected(): u32 {
  return crcExpected;
}

/**
 * Decodes the bzip2 stream of `inLen` bytes at INPUT (the caller has made memory reach
 * INPUT + inLen + 8). The output may hold up to `maxSize` bytes; it ends up at
 * [getOutStart(), getOutEnd()).
 */
export function decode(inLen: u32, maxSize: u32): void {
  if (!crcReady) makeCrcTable();
  pos = INPUT;
  buf = 0;
  have = 0;
  errorCode = 0;
  inEnd = INPUT + inLen;
  // The symbol loop reads up to 4 bytes ahead; past the end they must be zeros.
  store<u64>(inEnd, 0);

  if (bits(8) != 0x42 || bits(8) != 0x5a || bits(8) != 0x68) fail(E_BAD_MAGIC);
  const level = <i32>bits(8) - 0x30;
  if (level < 1 || level > 9) fail(E_BAD_LEVEL);
  const blockMax = level * 100000;
  const tt = (inEnd + 8 + 7) & ~7;
  outStart = tt + <u32>blockMax * 4;
  outEnd = outStart;
  const limit = <u64>outStart + <u64>maxSize;
  outLimitIsMemory = limit > 0xffffffff;
  outLimit = outLimitIsMemory ? 0xffffffff : <u32>limit;
  // Room for tt and a first guess at the output (bytecode compresses 5–7:1); it grows as needed.
  reserve(<u64>outStart + min<u64>(<u64>maxSize, max<u64>(65536, <u64>inLen * 8)));
  let streamCrc: u32 = 0;
  for (;;) {
    const magicHigh = bits(24);
    const magicLow = bits(24);
    if (magicHigh == 0x177245 && magicLow == 0x385090) {
      const expected = bits32();
      if (expected != streamCrc) {
        crcGot = streamCrc;
        crcExpected = expected;
        fail(E_BAD_STREAM_CRC);
      }
      break;
    }
    if (magicHigh != 0x314159 || magicLow != 0x265359) fail(E_BAD_BLOCK_HEADER);
    const blockCrc = bits32();
    const origPtr = readBlock(tt, blockMax);
    if (!undoBwt(tt, origPtr)) {
      errorCode = outLimitIsMemory ? E_NO_MEMORY : E_TOO_LARGE;
      errorConsumed = consumed();
      unreachable();
    }
    const crc = bwtCrc;
    if (crc != blockCrc) {
      crcGot = crc;
      crcExpected = blockCrc;
      fail(E_BAD_BLOCK_CRC);
    }
    streamCrc = ((streamCrc << 1) | (streamCrc >>> 31)) ^ crc;
  }
}

/**
 * Makes memory reach `end` bytes: doubling, but never past what the output limit needs (a bomb
 * costs at most the cap in memory). Traps when the engine gives no more memory.
 */
function reserve(end: u64): void {
  const size = <u64>memory.size();
  const need = (end + 0xffff) >> 16;
  if (need <= size) return;
  const cap = (<u64>outLimit + 0xffff) >> 16;
  let pages = size * 2;
  if (pages > cap) pages = cap;
  if (pages < need) pages = need;
  if (pages > 65536 || memory.grow(<i32>(pages - size)) < 0) {
    errorCode = E_NO_MEMORY;
    unreachable();
  }
}

/** Where the output may run to before memory grows: the end of memory or the limit, if sooner. */
function room(): u32 {
  const size = <u64>memory.size() << 16;
  return size < <u64>outLimit ? <u32>size : outLimit;
}

function makeCrcTable(): void {
  for (let i: u32 = 0; i < 256; i++) {
    let c = i << 24;
    for (let k = 0; k < 8; k++) c = c & 0x80000000 ? (c << 1) ^ 0x04c11db7 : c << 1;
    store<u32>(CRC_TABLE + (i << 2), c);
  }
  crcReady = true;
}

/** The next `n` (≤ 24) bits, most significant first. */
function bits(n: i32): u32 {
  while (have < n) {
    if (pos >= inEnd) truncated();
    buf = (buf << 8) | <u32>load<u8>(pos++);
    have += 8;
  }
  have -= n;
  // The symbol loop reads ahead, past the end with zeros: taking those is running out of input.
  if (pos > inEnd && <i32>(pos - inEnd) * 8 > have) truncated();
  return (buf >>> have) & ((1 << n) - 1);
}

function bits32(): u32 {
  const high = bits(16);
  return (high << 16) | bits(16);
}

/** Compressed bytes consumed so far (a partly read byte counts). */
function consumed(): u32 {
  const used = <i32>(pos - INPUT) - (have >> 3);
  const inLen = <i32>(inEnd - INPUT);
  return <u32>(used < inLen ? used : inLen);
}

function truncated(): void {
  errorCode = E_TRUNCATED;
  unreachable();
}

function fail(code: i32): void {
  // Zeros read ahead past the end made no sense: the stream was cut short.
  if (pos > inEnd) truncated();
  errorCode = code;
  errorConsumed = consumed();
  unreachable();
}

/** The length of the block readBlock read last. */
let blockCount: i32 = 0;

/**
 * Reads one block's header and Huffman-coded symbols, undoing move-to-front and the symbol run
 * lengths into `tt` (low byte of each entry), then links `tt` for the inverse BWT (entry `i`
 * gets the index of its successor in its upper 24 bits). Returns the block's origin pointer;
 * its length is left in `blockCount`.
 */
function readBlock(tt: u32, blockMax: i32): i32 {
  if (bits(1) != 0) fail(E_RANDOMISED);
  const origPtr = <i32>bits(24);
  if (origPtr > blockMax + 10) fail(E_ORIGIN);

  let inUse = 0;
  const used16 = bits(16);
  for (let i = 0; i < 16; i++) {
    if ((used16 & (0x8000 >>> i)) == 0) continue;
    const b16 = bits(16);
    for (let j = 0; j < 16; j++) if ((b16 & (0x8000 >>> j)) != 0) store<u8>(SYM_TO_BYTE + inUse++, i * 16 + j);
  }
  if (inUse == 0) fail(E_NO_BYTES);
  const alphaSize = inUse + 2;

  const groups = <i32>bits(3);
  if (groups < MIN_GROUPS || groups > MAX_GROUPS) fail(E_GROUPS);
  const selectorCount = <i32>bits(15);
  if (selectorCount < 1) fail(E_NO_SELECTORS);
  // Selectors, move-to-front coded in unary.
  for (let g = 0; g < MAX_GROUPS; g++) store<u8>(MTF_GROUPS + g, g);
  for (let i = 0; i < selectorCount; i++) {
    let j = 0;
    while (bits(1) != 0) if (++j >= groups) fail(E_SELECTOR);
    const v = load<u8>(MTF_GROUPS + j);
    for (; j > 0; j--) store<u8>(MTF_GROUPS + j, load<u8>(MTF_GROUPS + j - 1));
    store<u8>(MTF_GROUPS, v);
    if (i < MAX_SELECTORS) store<u8>(SELECTORS + i, v);
  }
  const usedSelectors = selectorCount < MAX_SELECTORS ? selectorCount : MAX_SELECTORS;

  // Code lengths, delta coded, then the decoding tables of each group.
  for (let g = 0; g < groups; g++) {
    let len = <i32>bits(5);
    const at = LENGTHS + g * MAX_ALPHA;
    for (let i = 0; i < alphaSize; i++) {
      for (;;) {
        if (len < 1 || len > MAX_CODE_LEN) fail(E_CODE_LENGTH);
        if (bits(1) == 0) break;
        len += bits(1) == 0 ? 1 : -1;
      }
      store<u8>(at + i, len);
    }
    buildTables(g, alphaSize);
  }

  // The symbols: a new table every 50, runs of RUNA/RUNB, move-to-front positions, end of block.
  // The move-to-front list holds the byte values themselves (one load less per symbol).
  memory.copy(MTF, SYM_TO_BYTE, inUse);
  memory.fill(COUNTS, 0, 1024);
  symTt = tt;
  symBlockMax = blockMax;
  symEndOfBlock = inUse + 1;
  symUsedSelectors = usedSelectors;
  symCount = 0;
  symRunLength = 0;
  symRunWeight = 1;
  symSelector = 0;
  symGroupLeft = 0;
  symGroup = 0;
  symTable = 0;
  while (!decodeSymbols()) {}
  const count = symCount;
  if (origPtr >= count) fail(E_ORIGIN);

  // Inverse BWT links: the i-th occurrence of byte c in sorted order is at counts[c] + i.
  let sum = 0;
  for (let i: u32 = 0; i < 256; i++) {
    const c = load<i32>(COUNTS + (i << 2));
    store<i32>(COUNTS + (i << 2), sum);
    sum += c;
  }
  for (let from = 0; from < count; from += CHUNK) link(tt, from, min(count, from + CHUNK));
  blockCount = count;
  return origPtr;
}

/**
 * Links entries [from, to) of `tt` (see readBlock). Exported only so that the optimizer keeps it
 * a function of its own instead of inlining it into readBlock's single call (see CHUNK).
 */
export function link(tt: u32, from: i32, to: i32): void {
  const stop = tt + (<u32>to << 2);
  let i = <u32>from;
  for (let at = tt + (i << 2); at < stop; at += 4) {
    const c = COUNTS + ((load<u32>(at) & 0xff) << 2);
    const target = load<i32>(c);
    store<i32>(c, target + 1);
    const t = tt + (<u32>target << 2);
    store<u32>(t, load<u32>(t) | (i << 8));
    i++;
  }
}

// The symbol decoder's state between chunks.
let symTt: u32 = 0;
let symBlockMax: i32 = 0;
let symEndOfBlock: i32 = 0;
let symUsedSelectors: i32 = 0;
let symCount: i32 = 0;
let symRunLength: i32 = 0;
let symRunWeight: i32 = 0;
let symSelector: i32 = 0;
let symGroupLeft: i32 = 0;
let symGroup: i32 = 0;
let symTable: u32 = 0;

/**
 * Decodes up to CHUNK symbols of the block into `tt`, undoing move-to-front and the symbol run
 * lengths; true at the end of the block.
 */
function decodeSymbols(): bool {
  const tt = symTt;
  const blockMax = symBlockMax;
  const endOfBlock = symEndOfBlock;
  const usedSelectors = symUsedSelectors;
  let count = symCount;
  let runLength = symRunLength;
  let runWeight = symRunWeight;
  let selector = symSelector;
  let groupLeft = symGroupLeft;
  let group = symGroup;
  let table = symTable;
  // The bit reader's state, in locals for this loop.
  let p = pos;
  let bb = buf;
  let hv = have;
  const end = inEnd;
  let done = false;
  for (let budget = CHUNK; budget > 0; budget--) {
    if (groupLeft == 0) {
      if (selector >= usedSelectors) {
        pos = p;
        have = hv;
        fail(E_SELECTORS_USED_UP);
      }
      group = load<u8>(SELECTORS + selector++);
      table = TABLE + ((<u32>group * TABLE_SIZE) << 2);
      groupLeft = GROUP_SIZE;
    }
    groupLeft--;
    while (hv <= 24) {
      bb = (bb << 8) | <u32>load<u8>(p++);
      hv += 8;
    }
    let entry = load<i32>(table + ((((bb >>> (hv - TABLE_BITS)) & (TABLE_SIZE - 1))) << 2));
    let sym: i32;
    if (entry != 0) {
      hv -= entry & 31;
      sym = entry >>> 5;
    } else {
      // A code longer than TABLE_BITS: canonical decoding, one more bit at a time.
      const lb = LIMIT + ((group * (MAX_CODE_LEN + 2)) << 2);
      let len = TABLE_BITS + 1;
      let code = <i32>((bb >>> (hv - len)) & ((1 << len) - 1));
      const maxLen = load<i32>(MAX_LEN + (group << 2));
      while (code > load<i32>(lb + (len << 2))) {
        if (++len > maxLen) {
          pos = p;
          have = hv;
          fail(E_CODE);
        }
        code = <i32>((bb >>> (hv - len)) & ((1 << len) - 1));
      }
      hv -= len;
      entry = code - load<i32>(lb + (BASE - LIMIT) + (len << 2));
      if (entry < 0 || entry >= MAX_ALPHA) {
        pos = p;
        have = hv;
        fail(E_CODE);
      }
      sym = load<i32>(PERM + ((group * MAX_ALPHA + entry) << 2));
    }
    if (p > end && <i32>(p - end) * 8 > hv) truncated();
    if (sym <= 1) {
      // RUNA (0) adds the weight, RUNB (1) twice the weight: bijective base 2.
      runLength += runWeight << sym;
      runWeight <<= 1;
      if (runLength > blockMax) {
        pos = p;
        have = hv;
        fail(E_RUN_TOO_LONG);
      }
      continue;
    }
    if (runLength > 0) {
      if (count + runLength > blockMax) {
        pos = p;
        have = hv;
        fail(E_BLOCK_TOO_LONG);
      }
      const b = <u32>load<u8>(MTF);
      const c = COUNTS + (b << 2);
      store<i32>(c, load<i32>(c) + runLength);
      let at = tt + (<u32>count << 2);
      const stop = at + (<u32>runLength << 2);
      for (; at < stop; at += 4) store<u32>(at, b);
      count += runLength;
      runLength = 0;
      runWeight = 1;
    }
    if (sym == endOfBlock) {
      done = true;
      break;
    }
    if (count >= blockMax) {
      pos = p;
      have = hv;
      fail(E_BLOCK_TOO_LONG);
    }
    // Move-to-front: position sym - 1.
    const k = sym - 1;
    const b = <u32>load<u8>(MTF + k);
    memory.copy(MTF + 1, MTF, k);
    store<u8>(MTF, b);
    const c = COUNTS + (b << 2);
    store<i32>(c, load<i32>(c) + 1);
    store<u32>(tt + (<u32>count << 2), b);
    count++;
  }
  pos = p;
  buf = bb;
  have = hv;
  symCount = count;
  symRunLength = runLength;
  symRunWeight = runWeight;
  symSelector = selector;
  symGroupLeft = groupLeft;
  symGroup = group;
  symTable = table;
  return done;
}

/** Group `g`'s lookup table and canonical tables from its code lengths. */
function buildTables(g: i32, alphaSize: i32): void {
  const at = LENGTHS + g * MAX_ALPHA;
  let minLen = 32;
  let maxLen = 0;
  for (let i = 0; i < alphaSize; i++) {
    const l = <i32>load<u8>(at + i);
    if (l > maxLen) maxLen = l;
    if (l < minLen) minLen = l;
  }
  store<i32>(MAX_LEN + (g << 2), maxLen);
  // Canonical codes (libbzip2's BZ2_hbCreateDecodeTables): symbols ranked by length, then value.
  const perm = PERM + ((g * MAX_ALPHA) << 2);
  let pp = 0;
  for (let len = minLen; len <= maxLen; len++)
    for (let i = 0; i < alphaSize; i++) if (<i32>load<u8>(at + i) == len) store<i32>(perm + (pp++ << 2), i);
  const lb = (g * (MAX_CODE_LEN + 2)) << 2;
  memory.fill(LENGTH_COUNT, 0, (MAX_CODE_LEN + 2) << 2);
  for (let i = 0; i < alphaSize; i++) {
    const c = LENGTH_COUNT + (<u32>load<u8>(at + i) << 2);
    store<i32>(c, load<i32>(c) + 1);
  }
  // First code and rank of each length.
  const tb = TABLE + ((g * TABLE_SIZE) << 2);
  memory.fill(tb, 0, TABLE_SIZE << 2);
  let code = 0;
  let rank = 0;
  for (let len = 1; len <= MAX_CODE_LEN + 1; len++) {
    const n = len <= MAX_CODE_LEN ? load<i32>(LENGTH_COUNT + (len << 2)) : 0;
    // Codes of this length are code .. code + n - 1, for the symbols perm[rank .. rank + n).
    store<i32>(BASE + lb + (len << 2), code - rank);
    store<i32>(LIMIT + lb + (len << 2), code + n - 1);
    if (len <= TABLE_BITS) {
      // (Codes past 2^len exist only in a damaged table: they are left out, and fail later.)
      for (let k = 0; k < n && code + k < 1 << len; k++) {
        const entry = (load<i32>(perm + ((rank + k) << 2)) << 5) | len;
        const first = tb + (<u32>((code + k) << (TABLE_BITS - len)) << 2);
        const last = first + (<u32>(1 << (TABLE_BITS - len)) << 2);
        for (let e = first; e < last; e += 4) store<i32>(e, entry);
      }
    }
    rank += n;
    code = (code + n) << 1;
  }
}

// The inverse BWT's state between chunks.
let bwtPos: u32 = 0;
let bwtLast: i32 = -1;
let bwtRun: i32 = 0;
let bwtLeft: i32 = 0;
let bwtCrc: u32 = 0;

/**
 * Undoes the Burrows–Wheeler transform of a block (`tt` linked by readBlock) and the initial
 * run-length coding, appending the bytes to the output and leaving their CRC in `bwtCrc`; false
 * when they would pass the output's limit.
 */
function undoBwt(tt: u32, origPtr: i32): bool {
  bwtPos = load<u32>(tt + (<u32>origPtr << 2)) >>> 8;
  bwtLast = -1;
  bwtRun = 0;
  bwtLeft = blockCount;
  bwtCrc = 0xffffffff;
  while (bwtLeft > 0) if (!undoBwtSome(tt)) return false;
  bwtCrc = ~bwtCrc;
  return true;
}

/**
 * Up to CHUNK steps of undoBwt. The CRC is computed here, not in a pass of its own: the walk
 * through `tt` waits on memory at each step (its entries are read in no useful order), and the
 * processor does the CRC's arithmetic in that time.
 */
function undoBwtSome(tt: u32): bool {
  let o = outEnd;
  let end = room();
  let tPos = bwtPos;
  let last = bwtLast;
  let run = bwtRun;
  let left = bwtLeft;
  let crc = bwtCrc;
  const stop = left > CHUNK ? left - CHUNK : 0;
  for (; left > stop; left--) {
    const entry = load<u32>(tt + (tPos << 2));
    const ch = entry & 0xff;
    tPos = entry >>> 8;
    if (run == 4) {
      // After four equal bytes, the next byte is how many more copies follow.
      if (ch > end - o) {
        if (ch > outLimit - o) return false;
        reserve(<u64>o + <u64>ch);
        end = room();
      }
      memory.fill(o, <u8>last, ch);
      o += ch;
      for (let k: u32 = 0; k < ch; k++) crc = (crc << 8) ^ load<u32>(CRC_TABLE + ((((crc >>> 24) ^ <u32>last) & 0xff) << 2));
      run = 0;
      last = -1;
      continue;
    }
    if (<i32>ch == last) run++;
    else {
      run = 1;
      last = ch;
    }
    if (o >= end) {
      if (o >= outLimit) return false;
      reserve(<u64>o + 1);
      end = room();
    }
    store<u8>(o++, ch);
    crc = (crc << 8) ^ load<u32>(CRC_TABLE + (((crc >>> 24) ^ ch) << 2));
  }
  outEnd = o;
  bwtPos = tPos;
  bwtLast = last;
  bwtRun = run;
  bwtLeft = left;
  bwtCrc = crc;
  return true;
}
