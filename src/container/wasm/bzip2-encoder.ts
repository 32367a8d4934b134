/**
 * The bzip2 encoder, in AssemblyScript: compiled to WebAssembly by `npm run build`
 * (src/container/wasm/build.mjs) and run by ../bzip2-encoder.ts.
 *
 * A statement-by-statement port of libbzip2 1.0.x's compressor (bzlib.c's input run-length
 * stage and stream driver for a single BZ_FINISH call, as BZ2_bzBuffToBuffCompress makes it;
 * blocksort.c's mainSort / fallbackSort with the same work-factor budget; compress.c;
 * huffman.c; the CRC), so that its output is byte-identical to libbzip2's. Every loop, tie
 * break and budget decrement is kept as libbzip2 has it: the sort order of equal rotations
 * (and so the block's origin pointer) depends on which sort ran, and the Huffman tables on the
 * exact heap order.
 *
 * libbzip2 is:
 *
 *   Copyright (C) 1996-2010 Julian R Seward. All rights reserved.
 *
 *   Redistribution and use in source and binary forms, with or without modification, are
 *   permitted provided that the following conditions are met:
 *
 *   1. Redistributions of source code must retain the above copyright notice, this list of
 *      conditions and the following disclaimer.
 *   2. The origin of this software must not be misrepresented; you must not claim that you
 *      wrote the original software. If you use this software in a product, an acknowledgment
 *      in the product documentation would be appreciated but is not required.
 *   3. Altered source versions must be plainly marked as such, and must not be misrepresented
 *      as being the original software.
 *   4. The name of the author may not be used to endorse or promote products derived from this
 *      software without specific prior written permission.
 *
 *   THIS SOFTWARE IS PROVIDED BY THE AUTHOR ``AS IS'' AND ANY EXPRESS OR IMPLIED WARRANTIES,
 *   INCLUDING, BUT NOT LIMITED TO, THE IMPLIED WARRANTIES OF MERCHANTABILITY AND FITNESS FOR A
 *   PARTICULAR PURPOSE ARE DISCLAIMED. IN NO EVENT SHALL THE AUTHOR BE LIABLE FOR ANY DIRECT,
 *   INDIRECT, INCIDENTAL, SPECIAL, EXEMPLARY, OR CONSEQUENTIAL DAMAGES (INCLUDING, BUT NOT
 *   LIMITED TO, PROCUREMENT OF SUBSTITUTE GOODS OR SERVICES; LOSS OF USE, DATA, OR PROFITS; OR
 *   BUSINESS INTERRUPTION) HOWEVER CAUSED AND ON ANY THEORY OF LIABILITY, WHETHER IN CONTRACT,
 *   STRICT LIABILITY, OR TORT (INCLUDING NEGLIGENCE OR OTHERWISE) ARISING IN ANY WAY OUT OF THE
 *   USE OF THIS SOFTWARE, EVEN IF ADVISED OF THE POSSIBILITY OF SUCH DAMAGE.
 *
 * This is an altered version (a port to AssemblyScript by the llvm-bytecode project): no
 * verbosity output, no incremental (BZ_RUN / BZ_FLUSH) interface, one linear memory laid out
 * below instead of allocated structures. The algorithms are unchanged.
 *
 * The passes that libbzip2 runs once per block over the whole block are cut into functions
 * called many times (sortBigBucket, mtfRange, chooseTables, addInput): V8 moves a WebAssembly
 * function from baseline to optimized code only at a later call, so one long call runs baseline
 * code throughout. The cuts change no operation and no order.
 *
 * Memory: fixed tables below FTAB; then arr1 (ptr / mtfv), arr2 (block, quadrant, the block's
 * compressed bits) sized for the largest block this input can make (not for the block size:
 * small inputs stay small), then the input. An internal consistency failure traps.
 */

// ---- Constants (bzlib_private.h) --------------------------------------------------------------
const N_RADIX: i32 = 2;
const N_QSORT: i32 = 12;
const N_SHELL: i32 = 18;
const N_OVERSHOOT: i32 = N_RADIX + N_QSORT + N_SHELL + 2;
const N_GROUPS: i32 = 6;
const G_SIZE: i32 = 50;
const N_ITERS: i32 = 4;
const MAX_ALPHA_SIZE: i32 = 258;
const MAX_SELECTORS: i32 = 2 + 900000 / G_SIZE;
const RUNA: i32 = 0;
const RUNB: i32 = 1;

// ---- Memory layout (bytes) --------------------------------------------------------------------
const CRC_TABLE: u32 = 0; // 256 × u32
const IN_USE: u32 = 1024; // 256 × u8
const UNSEQ_TO_SEQ: u32 = 1280; // 256 × u8
const MTF_FREQ: u32 = 1536; // MAX_ALPHA_SIZE × i32
const LEN: u32 = 2576; // N_GROUPS × MAX_ALPHA_SIZE × u8
const CODE: u32 = 4128; // N_GROUPS × MAX_ALPHA_SIZE × i32
const RFREQ: u32 = 10320; // N_GROUPS × MAX_ALPHA_SIZE × i32
const LEN_PACK: u32 = 16512; // MAX_ALPHA_SIZE × 3 × u32
const SELECTOR: u32 = 19608; // MAX_SELECTORS × u8
const SELECTOR_MTF: u32 = 37612; // MAX_SELECTORS × u8
const RUNNING_ORDER: u32 = 56000; // 256 × i32
const BIG_DONE: u32 = 57024; // 256 × u8
const COPY_START: u32 = 57280; // 256 × i32
const COPY_END: u32 = 58304; // 256 × i32
const FB_FTAB: u32 = 59328; // 257 × i32
const FB_FTAB_COPY: u32 = 60360; // 256 × i32
const STACK_LO: u32 = 61384; // 100 × i32
const STACK_HI: u32 = 61784; // 100 × i32
const STACK_D: u32 = 62184; // 100 × i32
const HEAP: u32 = 62584; // (MAX_ALPHA_SIZE + 2) × i32
const WEIGHT: u32 = 63624; // MAX_ALPHA_SIZE × 2 × i32
const PARENT: u32 = 65688; // MAX_ALPHA_SIZE × 2 × i32
const YY: u32 = 67752; // 256 × u8
const COST: u32 = 68008; // N_GROUPS × i32
const FAVE: u32 = 68032; // N_GROUPS × i32
const INCS: u32 = 68064; // 14 × i32
const FTAB: u32 = 68128; // 65537 × u32 (fallbackSort: bhtab)
const ARRAYS: u32 = 330752; // arr1, arr2, input

// ---- State ------------------------------------------------------------------------------------
let arr1: u32 = 0; // ptr (u32) and, after sorting, mtfv (u16)
let arr2: u32 = 0; // block (u8), quadrant (u16), then the block's compressed bits
let inPos: u32 = 0;
let inEnd: u32 = 0;
let blockSize100k: i32 = 0;
let workFactor: i32 = 0;
let nblockMAX: i32 = 0;
let nblock: i32 = 0;
let blockNo: i32 = 0;
let blockCRC: u32 = 0;
let combinedCRC: u32 = 0;
let stateInCh: u32 = 256;
let stateInLen: i32 = 0;
let origPtr: i32 = 0;
let nInUse: i32 = 0;
let nMTF: i32 = 0;
let budget: i32 = 0;
let bsBuff: u32 = 0;
let bsLive: i32 = 0;
let numZ: i32 = 0;
let zbits: u32 = 0;
let finished = false;
let ready = false;

export function getZbits(): u32 {
  return zbits;
}
export function getNumZ(): i32 {
  return numZ;
}
export function isFinished(): bool {
  return finished;
}

/**
 * Sets up a stream over `inputLength` bytes: makes the memory large enough and returns where the
 * caller must put the input. Each later `compressNext()` writes one block's bytes (the first
 * with the stream header, the last with the trailer) to [getZbits(), getZbits() + getNumZ()).
 */
export function begin(level: i32, factor: i32, inputLength: u32): u32 {
  blockSize100k = level;
  // BZ2_bzCompressInit: 0 means the default, 30.
  workFactor = factor == 0 ? 30 : factor;
  nblockMAX = 100000 * level - 19;
  // The run-length stage turns runs of 4..255 into 5 bytes, so a block never holds more than
  // 5/4 of the input; libbzip2 sizes for the whole block, which small inputs do not need.
  const capacity = <u32>min<u64>(<u64>(100000 * level), <u64>inputLength + (<u64>inputLength >> 2) + 8);
  arr1 = ARRAYS;
  arr2 = arr1 + capacity * 4;
  // arr2 also takes the compressed bits after the block: slack for a tiny block's tables.
  const input = (arr2 + (capacity + <u32>N_OVERSHOOT) * 4 + 4096 + 7) & ~7;
  const need = <u64>input + <u64>inputLength + 8;
  const pages = (need + 65535) >> 16;
  const size = <u64>memory.size();
  if (pages > size && (pages > 65536 || memory.grow(<i32>(pages - size)) < 0)) unreachable();
  if (!ready) setUp();
  inPos = input;
  inEnd = input + inputLength;
  blockNo = 0;
  combinedCRC = 0;
  finished = false;
  stateInCh = 256;
  stateInLen = 0;
  return input;
}

function setUp(): void {
  for (let i: u32 = 0; i < 256; i++) {
    let c = i << 24;
    for (let k = 0; k < 8; k++) c = c & 0x80000000 ? (c << 1) ^ 0x04c11db7 : c << 1;
    store<u32>(CRC_TABLE + i * 4, c);
  }
  // Knuth's increments, 1, 4, 13, 40, …, 2391484 (libbzip2's incs[]).
  let h = 1;
  for (let i = 0; i < 14; i++) {
    store<i32>(INCS + <u32>i * 4, h);
    h = 3 * h + 1;
  }
  ready = true;
}

/** Compresses the next block (handle_compress for a stream given all its input at once). */
export function compressNext(): void {
  // prepare_new_block
  nblock = 0;
  numZ = 0;
  blockCRC = 0xffffffff;
  memory.fill(IN_USE, 0, 256);
  blockNo++;
  // copy_input_until_stop (BZ_M_FINISHING: avail_in_expect is the input left)
  while (nblock < nblockMAX && inPos < inEnd) addInput(INPUT_CHUNK);
  if (inPos >= inEnd) {
    flushRL();
    compressBlock(true);
    finished = true;
  } else {
    compressBlock(false);
  }
}

/** Input bytes per addInput call. */
const INPUT_CHUNK: i32 = 65536;

/**
 * copy_input_until_stop for at most `count` bytes. A function of its own, called in chunks and
 * exported so that Binaryen keeps it one, for the reason given at sortBigBucket.
 */
export function addInput(count: i32): void {
  for (let n = 0; n < count && nblock < nblockMAX && inPos < inEnd; n++) {
    addChar(<u32>load<u8>(inPos));
    inPos++;
  }
}

// ---- bzlib.c: the run-length stage ----------------------------------------------------------------

// @ts-ignore: decorator
@inline function updateCrc(ch: u32): void {
  blockCRC = (blockCRC << 8) ^ load<u32>(CRC_TABLE + (((blockCRC >> 24) ^ ch) << 2));
}

function addPairToBlock(): void {
  const ch = stateInCh;
  for (let i = 0; i < stateInLen; i++) updateCrc(ch);
  store<u8>(IN_USE + ch, 1);
  const block = arr2 + <u32>nblock;
  switch (stateInLen) {
    case 1:
      store<u8>(block, ch);
      nblock += 1;
      break;
    case 2:
      store<u8>(block, ch);
      store<u8>(block + 1, ch);
      nblock += 2;
      break;
    case 3:
      store<u8>(block, ch);
      store<u8>(block + 1, ch);
      store<u8>(block + 2, ch);
      nblock += 3;
      break;
    default:
      store<u8>(IN_USE + <u32>(stateInLen - 4), 1);
      store<u8>(block, ch);
      store<u8>(block + 1, ch);
      store<u8>(block + 2, ch);
      store<u8>(block + 3, ch);
      store<u8>(block + 4, stateInLen - 4);
      nblock += 5;
      break;
  }
}

function flushRL(): void {
  if (stateInCh < 256) addPairToBlock();
  stateInCh = 256;
  stateInLen = 0;
}

// @ts-ignore: decorator
@inline function addChar(ch: u32): void {
  if (ch != stateInCh && stateInLen == 1) {
    updateCrc(stateInCh);
    store<u8>(IN_USE + stateInCh, 1);
    store<u8>(arr2 + <u32>nblock, stateInCh);
    nblock++;
    stateInCh = ch;
  } else if (ch != stateInCh || stateInLen == 255) {
    if (stateInCh < 256) addPairToBlock();
    stateInCh = ch;
    stateInLen = 1;
  } else {
    stateInLen++;
  }
}

// ---- compress.c: bit output ---------------------------------------------------------------------

// @ts-ignore: decorator
@inline function bsW(n: i32, v: u32): void {
  while (bsLive >= 8) {
    store<u8>(zbits + <u32>numZ, bsBuff >> 24);
    numZ++;
    bsBuff <<= 8;
    bsLive -= 8;
  }
  bsBuff |= v << (32 - bsLive - n);
  bsLive += n;
}

function bsFinishWrite(): void {
  while (bsLive > 0) {
    store<u8>(zbits + <u32>numZ, bsBuff >> 24);
    numZ++;
    bsBuff <<= 8;
    bsLive -= 8;
  }
}

function bsPutUInt32(u: u32): void {
  bsW(8, (u >> 24) & 0xff);
  bsW(8, (u >> 16) & 0xff);
  bsW(8, (u >> 8) & 0xff);
  bsW(8, u & 0xff);
}

function bsPutUChar(c: u32): void {
  bsW(8, c);
}

// ---- compress.c: the block ------------------------------------------------------------------------

function compressBlock(isLastBlock: bool): void {
  if (nblock > 0) {
    blockCRC = ~blockCRC;
    combinedCRC = (combinedCRC << 1) | (combinedCRC >> 31);
    combinedCRC ^= blockCRC;
    if (blockNo > 1) numZ = 0;
    blockSort();
  }
  zbits = arr2 + <u32>nblock;
  if (blockNo == 1) {
    bsBuff = 0;
    bsLive = 0;
    bsPutUChar(0x42);
    bsPutUChar(0x5a);
    bsPutUChar(0x68);
    bsPutUChar(0x30 + blockSize100k);
  }
  if (nblock > 0) {
    bsPutUChar(0x31);
    bsPutUChar(0x41);
    bsPutUChar(0x59);
    bsPutUChar(0x26);
    bsPutUChar(0x53);
    bsPutUChar(0x59);
    bsPutUInt32(blockCRC);
    bsW(1, 0);
    bsW(24, origPtr);
    generateMTFValues();
    sendMTFValues();
  }
  if (isLastBlock) {
    bsPutUChar(0x17);
    bsPutUChar(0x72);
    bsPutUChar(0x45);
    bsPutUChar(0x38);
    bsPutUChar(0x50);
    bsPutUChar(0x90);
    bsPutUInt32(combinedCRC);
    bsFinishWrite();
  }
}

function makeMapsE(): void {
  nInUse = 0;
  for (let i: u32 = 0; i < 256; i++) {
    if (load<u8>(IN_USE + i)) {
      store<u8>(UNSEQ_TO_SEQ + i, nInUse);
      nInUse++;
    }
  }
}

function generateMTFValues(): void {
  const mtfv = arr1;
  makeMapsE();
  const EOB = nInUse + 1;
  for (let i = 0; i <= EOB; i++) store<i32>(MTF_FREQ + <u32>i * 4, 0);
  for (let i = 0; i < nInUse; i++) store<u8>(YY + <u32>i, i);
  mtfWr = 0;
  mtfZPend = 0;
  for (let i = 0; i < nblock; i += MTF_CHUNK) mtfRange(i, min(i + MTF_CHUNK, nblock));
  let wr = mtfWr;
  let zPend = mtfZPend;
  if (zPend > 0) {
    wr = writeZeroRun(mtfv, wr, zPend);
    zPend = 0;
  }
  store<u16>(mtfv + <u32>wr * 2, EOB);
  wr++;
  incFreq(EOB);
  nMTF = wr;
}

/** generateMTFValues's output position and pending run of zeros between the calls of mtfRange. */
let mtfWr: i32 = 0;
let mtfZPend: i32 = 0;
/** Positions of the block per mtfRange call. */
const MTF_CHUNK: i32 = 16384;

/**
 * generateMTFValues's main loop over positions [from, to). A function of its own, called in
 * chunks and exported so that Binaryen keeps it one, for the reason given at sortBigBucket.
 */
export function mtfRange(from: i32, to: i32): void {
  const ptr = arr1;
  const block = arr2;
  const mtfv = arr1;
  let wr = mtfWr;
  let zPend = mtfZPend;
  for (let i = from; i < to; i++) {
    let j = load<i32>(ptr + <u32>i * 4) - 1;
    if (j < 0) j += nblock;
    const llI = <u32>load<u8>(UNSEQ_TO_SEQ + <u32>load<u8>(block + <u32>j));
    if (<u32>load<u8>(YY) == llI) {
      zPend++;
    } else {
      if (zPend > 0) {
        wr = writeZeroRun(mtfv, wr, zPend);
        zPend = 0;
      }
      let rtmp = <u32>load<u8>(YY + 1);
      store<u8>(YY + 1, load<u8>(YY));
      let ryyJ: u32 = YY + 1;
      while (llI != rtmp) {
        ryyJ++;
        const rtmp2 = rtmp;
        rtmp = <u32>load<u8>(ryyJ);
        store<u8>(ryyJ, rtmp2);
      }
      store<u8>(YY, rtmp);
      const k = <i32>(ryyJ - YY);
      store<u16>(mtfv + <u32>wr * 2, k + 1);
      wr++;
      incFreq(k + 1);
    }
  }
  mtfWr = wr;
  mtfZPend = zPend;
}

/**
 * Writes a run of `zPend` (> 0) zeros of the move-to-front output at `wr` as libbzip2 codes it
 * (bijective base 2 in RUNA / RUNB symbols, least significant first); the new write position.
 */
// @ts-ignore: decorator
@inline function writeZeroRun(mtfv: u32, wr: i32, zPend: i32): i32 {
  zPend--;
  for (;;) {
    const symbol = zPend & 1 ? RUNB : RUNA;
    store<u16>(mtfv + <u32>wr * 2, symbol);
    wr++;
    incFreq(symbol);
    if (zPend < 2) break;
    zPend = (zPend - 2) / 2;
  }
  return wr;
}

// @ts-ignore: decorator
@inline function incFreq(v: i32): void {
  const a = MTF_FREQ + <u32>v * 4;
  store<i32>(a, load<i32>(a) + 1);
}

// @ts-ignore: decorator
@inline function lenAt(t: i32, v: i32): i32 {
  return <i32>load<u8>(LEN + <u32>(t * MAX_ALPHA_SIZE + v));
}

const LESSER_ICOST: i32 = 0;
const GREATER_ICOST: i32 = 15;

/**
 * One of sendMTFValues's iterations over the groups of 50 symbols: each group's best table
 * (written as its selector), and the symbol frequencies per table (RFREQ) that the next code
 * lengths come from; returns the number of selectors. A function of its own, and exported so that
 * Binaryen keeps it one: called N_ITERS times per block, its later calls run optimized code
 * (see sortBigBucket).
 */
export function chooseTables(nGroups: i32): i32 {
  const mtfv = arr1;
  let nSelectors = 0;
  let gs = 0;
  for (;;) {
    if (gs >= nMTF) break;
    let ge = gs + G_SIZE - 1;
    if (ge >= nMTF) ge = nMTF - 1;
    for (let t = 0; t < nGroups; t++) store<i32>(COST + <u32>t * 4, 0);
    if (nGroups == 6 && 50 == ge - gs + 1) {
      let cost01: u32 = 0;
      let cost23: u32 = 0;
      let cost45: u32 = 0;
      for (let i = gs; i <= ge; i++) {
        const p = LEN_PACK + <u32>load<u16>(mtfv + <u32>i * 2) * 12;
        cost01 += load<u32>(p);
        cost23 += load<u32>(p + 4);
        cost45 += load<u32>(p + 8);
      }
      // UInt16 cost[]: the packed halves, each truncated to 16 bits.
      store<i32>(COST, cost01 & 0xffff);
      store<i32>(COST + 4, (cost01 >> 16) & 0xffff);
      store<i32>(COST + 8, cost23 & 0xffff);
      store<i32>(COST + 12, (cost23 >> 16) & 0xffff);
      store<i32>(COST + 16, cost45 & 0xffff);
      store<i32>(COST + 20, (cost45 >> 16) & 0xffff);
    } else {
      for (let i = gs; i <= ge; i++) {
        const icv = <i32>load<u16>(mtfv + <u32>i * 2);
        for (let t = 0; t < nGroups; t++) {
          const a = COST + <u32>t * 4;
          store<i32>(a, (load<i32>(a) + lenAt(t, icv)) & 0xffff);
        }
      }
    }
    // Find the coding table which is best for this group.
    let bc = 999999999;
    let bt = -1;
    for (let t = 0; t < nGroups; t++) {
      const c = load<i32>(COST + <u32>t * 4);
      if (c < bc) {
        bc = c;
        bt = t;
      }
    }
    const fa = FAVE + <u32>bt * 4;
    store<i32>(fa, load<i32>(fa) + 1);
    store<u8>(SELECTOR + <u32>nSelectors, bt);
    nSelectors++;
    const rf = RFREQ + <u32>(bt * MAX_ALPHA_SIZE) * 4;
    for (let i = gs; i <= ge; i++) {
      const a = rf + <u32>load<u16>(mtfv + <u32>i * 2) * 4;
      store<i32>(a, load<i32>(a) + 1);
    }
    gs = ge + 1;
  }
  return nSelectors;
}

function sendMTFValues(): void {
  const mtfv = arr1;
  let nGroups: i32;
  let nSelectors: i32 = 0;
  const alphaSize = nInUse + 2;
  for (let t = 0; t < N_GROUPS; t++)
    for (let v = 0; v < alphaSize; v++) store<u8>(LEN + <u32>(t * MAX_ALPHA_SIZE + v), GREATER_ICOST);

  if (nMTF <= 0) unreachable();
  if (nMTF < 200) nGroups = 2;
  else if (nMTF < 600) nGroups = 3;
  else if (nMTF < 1200) nGroups = 4;
  else if (nMTF < 2400) nGroups = 5;
  else nGroups = 6;

  // Generate an initial set of coding tables.
  {
    let nPart = nGroups;
    let remF = nMTF;
    let gs = 0;
    while (nPart > 0) {
      const tFreq = remF / nPart;
      let ge = gs - 1;
      let aFreq = 0;
      while (aFreq < tFreq && ge < alphaSize - 1) {
        ge++;
        aFreq += load<i32>(MTF_FREQ + <u32>ge * 4);
      }
      if (ge > gs && nPart != nGroups && nPart != 1 && (nGroups - nPart) % 2 == 1) {
        aFreq -= load<i32>(MTF_FREQ + <u32>ge * 4);
        ge--;
      }
      for (let v = 0; v < alphaSize; v++) {
        store<u8>(LEN + <u32>((nPart - 1) * MAX_ALPHA_SIZE + v), v >= gs && v <= ge ? LESSER_ICOST : GREATER_ICOST);
      }
      nPart--;
      gs = ge + 1;
      remF -= aFreq;
    }
  }

  // Iterate up to N_ITERS times to improve the tables.
  for (let iter = 0; iter < N_ITERS; iter++) {
    for (let t = 0; t < nGroups; t++) store<i32>(FAVE + <u32>t * 4, 0);
    for (let t = 0; t < nGroups; t++)
      for (let v = 0; v < alphaSize; v++) store<i32>(RFREQ + <u32>(t * MAX_ALPHA_SIZE + v) * 4, 0);
    if (nGroups == 6) {
      for (let v = 0; v < alphaSize; v++) {
        const p = LEN_PACK + <u32>v * 12;
        store<u32>(p, (<u32>lenAt(1, v) << 16) | <u32>lenAt(0, v));
        store<u32>(p + 4, (<u32>lenAt(3, v) << 16) | <u32>lenAt(2, v));
        store<u32>(p + 8, (<u32>lenAt(5, v) << 16) | <u32>lenAt(4, v));
      }
    }
    nSelectors = chooseTables(nGroups);
    // maxLen 17, as libbzip2 since 1.0.3.
    for (let t = 0; t < nGroups; t++) {
      makeCodeLengths(LEN + <u32>(t * MAX_ALPHA_SIZE), RFREQ + <u32>(t * MAX_ALPHA_SIZE) * 4, alphaSize, 17);
    }
  }
  if (!(nGroups < 8)) unreachable();
  if (!(nSelectors < 32768 && nSelectors <= MAX_SELECTORS)) unreachable();

  // Compute MTF values for the selectors (pos[] in YY: generateMTFValues is done with it).
  {
    for (let i = 0; i < nGroups; i++) store<u8>(YY + <u32>i, i);
    for (let i = 0; i < nSelectors; i++) {
      const llI = <u32>load<u8>(SELECTOR + <u32>i);
      let j: u32 = 0;
      let tmp = <u32>load<u8>(YY + j);
      while (llI != tmp) {
        j++;
        const tmp2 = tmp;
        tmp = <u32>load<u8>(YY + j);
        store<u8>(YY + j, tmp2);
      }
      store<u8>(YY, tmp);
      store<u8>(SELECTOR_MTF + <u32>i, j);
    }
  }

  // Assign actual codes for the tables.
  for (let t = 0; t < nGroups; t++) {
    let minLen = 32;
    let maxLen = 0;
    for (let i = 0; i < alphaSize; i++) {
      const l = lenAt(t, i);
      if (l > maxLen) maxLen = l;
      if (l < minLen) minLen = l;
    }
    if (maxLen > 17 || minLen < 1) unreachable();
    assignCodes(CODE + <u32>(t * MAX_ALPHA_SIZE) * 4, LEN + <u32>(t * MAX_ALPHA_SIZE), minLen, maxLen, alphaSize);
  }

  // Transmit the mapping table.
  {
    let inUse16: u32 = 0;
    for (let i = 0; i < 16; i++) {
      for (let j = 0; j < 16; j++) {
        if (load<u8>(IN_USE + <u32>(i * 16 + j))) inUse16 |= 1 << i;
      }
    }
    for (let i = 0; i < 16; i++) bsW(1, (inUse16 >> i) & 1);
    for (let i = 0; i < 16; i++) {
      if ((inUse16 >> i) & 1) {
        for (let j = 0; j < 16; j++) bsW(1, load<u8>(IN_USE + <u32>(i * 16 + j)) ? 1 : 0);
      }
    }
  }

  // Now the selectors.
  bsW(3, nGroups);
  bsW(15, nSelectors);
  for (let i = 0; i < nSelectors; i++) {
    const m = <i32>load<u8>(SELECTOR_MTF + <u32>i);
    for (let j = 0; j < m; j++) bsW(1, 1);
    bsW(1, 0);
  }

  // Now the coding tables.
  for (let t = 0; t < nGroups; t++) {
    let curr = lenAt(t, 0);
    bsW(5, curr);
    for (let i = 0; i < alphaSize; i++) {
      const l = lenAt(t, i);
      while (curr < l) {
        bsW(2, 2);
        curr++;
      }
      while (curr > l) {
        bsW(2, 3);
        curr--;
      }
      bsW(1, 0);
    }
  }

  // And finally, the block data proper.
  let selCtr = 0;
  let gs = 0;
  for (;;) {
    if (gs >= nMTF) break;
    let ge = gs + G_SIZE - 1;
    if (ge >= nMTF) ge = nMTF - 1;
    const sel = <i32>load<u8>(SELECTOR + <u32>selCtr);
    if (!(sel < nGroups)) unreachable();
    const lenSel = LEN + <u32>(sel * MAX_ALPHA_SIZE);
    const codeSel = CODE + <u32>(sel * MAX_ALPHA_SIZE) * 4;
    for (let i = gs; i <= ge; i++) {
      const v = <u32>load<u16>(mtfv + <u32>i * 2);
      bsW(<i32>load<u8>(lenSel + v), load<u32>(codeSel + v * 4));
    }
    gs = ge + 1;
    selCtr++;
  }
  if (selCtr != nSelectors) unreachable();
}

// ---- huffman.c ------------------------------------------------------------------------------------

// @ts-ignore: decorator
@inline function heapAt(i: i32): i32 {
  return load<i32>(HEAP + <u32>i * 4);
}
// @ts-ignore: decorator
@inline function setHeap(i: i32, v: i32): void {
  store<i32>(HEAP + <u32>i * 4, v);
}
// @ts-ignore: decorator
@inline function weightAt(i: i32): i32 {
  return load<i32>(WEIGHT + <u32>i * 4);
}
// @ts-ignore: decorator
@inline function parentAt(i: i32): i32 {
  return load<i32>(PARENT + <u32>i * 4);
}
// @ts-ignore: decorator
@inline function setParent(i: i32, v: i32): void {
  store<i32>(PARENT + <u32>i * 4, v);
}

function upHeap(z: i32): void {
  let zz = z;
  const tmp = heapAt(zz);
  while (weightAt(tmp) < weightAt(heapAt(zz >> 1))) {
    setHeap(zz, heapAt(zz >> 1));
    zz >>= 1;
  }
  setHeap(zz, tmp);
}

function downHeap(z: i32, nHeap: i32): void {
  let zz = z;
  const tmp = heapAt(zz);
  for (;;) {
    let yy = zz << 1;
    if (yy > nHeap) break;
    if (yy < nHeap && weightAt(heapAt(yy + 1)) < weightAt(heapAt(yy))) yy++;
    if (weightAt(tmp) < weightAt(heapAt(yy))) break;
    setHeap(zz, heapAt(yy));
    zz = yy;
  }
  setHeap(zz, tmp);
}

function makeCodeLengths(len: u32, freq: u32, alphaSize: i32, maxLen: i32): void {
  for (let i = 0; i < alphaSize; i++) {
    const f = load<i32>(freq + <u32>i * 4);
    store<i32>(WEIGHT + <u32>(i + 1) * 4, (f == 0 ? 1 : f) << 8);
  }
  for (;;) {
    let nNodes = alphaSize;
    let nHeap = 0;
    setHeap(0, 0);
    store<i32>(WEIGHT, 0);
    setParent(0, -2);
    for (let i = 1; i <= alphaSize; i++) {
      setParent(i, -1);
      nHeap++;
      setHeap(nHeap, i);
      upHeap(nHeap);
    }
    if (!(nHeap < MAX_ALPHA_SIZE + 2)) unreachable();
    while (nHeap > 1) {
      const n1 = heapAt(1);
      setHeap(1, heapAt(nHeap));
      nHeap--;
      downHeap(1, nHeap);
      const n2 = heapAt(1);
      setHeap(1, heapAt(nHeap));
      nHeap--;
      downHeap(1, nHeap);
      nNodes++;
      setParent(n1, nNodes);
      setParent(n2, nNodes);
      const w1 = weightAt(n1);
      const w2 = weightAt(n2);
      const d1 = w1 & 0xff;
      const d2 = w2 & 0xff;
      store<i32>(WEIGHT + <u32>nNodes * 4, ((w1 & 0xffffff00) + (w2 & 0xffffff00)) | (1 + (d1 > d2 ? d1 : d2)));
      setParent(nNodes, -1);
      nHeap++;
      setHeap(nHeap, nNodes);
      upHeap(nHeap);
    }
    if (!(nNodes < MAX_ALPHA_SIZE * 2)) unreachable();
    let tooLong = false;
    for (let i = 1; i <= alphaSize; i++) {
      let j = 0;
      let k = i;
      while (parentAt(k) >= 0) {
        k = parentAt(k);
        j++;
      }
      store<u8>(len + <u32>(i - 1), j);
      if (j > maxLen) tooLong = true;
    }
    if (!tooLong) break;
    for (let i = 1; i <= alphaSize; i++) {
      let j = weightAt(i) >> 8;
      j = 1 + j / 2;
      store<i32>(WEIGHT + <u32>i * 4, j << 8);
    }
  }
}

function assignCodes(code: u32, length: u32, minLen: i32, maxLen: i32, alphaSize: i32): void {
  let vec = 0;
  for (let n = minLen; n <= maxLen; n++) {
    for (let i = 0; i < alphaSize; i++) {
      if (<i32>load<u8>(length + <u32>i) == n) {
        store<i32>(code + <u32>i * 4, vec);
        vec++;
      }
    }
    vec <<= 1;
  }
}

// ---- blocksort.c ----------------------------------------------------------------------------------

// @ts-ignore: decorator
@inline function getU32(base: u32, i: i32): u32 {
  return load<u32>(base + (<u32>i << 2));
}
// @ts-ignore: decorator
@inline function setU32(base: u32, i: i32, v: u32): void {
  store<u32>(base + (<u32>i << 2), v);
}

function blockSort(): void {
  const ptr = arr1;
  const block = arr2;
  if (nblock < 10000) {
    fallbackSort(arr1, arr2, FTAB, nblock);
  } else {
    let i = nblock + N_OVERSHOOT;
    if (i & 1) i++;
    const quadrant = block + <u32>i;
    let wfact = workFactor;
    if (wfact < 1) wfact = 1;
    if (wfact > 100) wfact = 100;
    const budgetInit = nblock * ((wfact - 1) / 3);
    budget = budgetInit;
    mainSort(ptr, block, quadrant, FTAB, nblock);
    if (budget < 0) fallbackSort(arr1, arr2, FTAB, nblock);
  }
  origPtr = -1;
  for (let i = 0; i < nblock; i++) {
    if (getU32(ptr, i) == 0) {
      origPtr = i;
      break;
    }
  }
  if (origPtr == -1) unreachable();
}

// -- Fallback O(N log(N)^2) sorting algorithm, for repetitive blocks --

function fallbackSimpleSort(fmap: u32, eclass: u32, lo: i32, hi: i32): void {
  if (lo == hi) return;
  if (hi - lo > 3) {
    for (let i = hi - 4; i >= lo; i--) {
      const tmp = getU32(fmap, i);
      const ecTmp = getU32(eclass, <i32>tmp);
      let j = i + 4;
      for (; j <= hi && ecTmp > getU32(eclass, <i32>getU32(fmap, j)); j += 4) setU32(fmap, j - 4, getU32(fmap, j));
      setU32(fmap, j - 4, tmp);
    }
  }
  for (let i = hi - 1; i >= lo; i--) {
    const tmp = getU32(fmap, i);
    const ecTmp = getU32(eclass, <i32>tmp);
    let j = i + 1;
    for (; j <= hi && ecTmp > getU32(eclass, <i32>getU32(fmap, j)); j++) setU32(fmap, j - 1, getU32(fmap, j));
    setU32(fmap, j - 1, tmp);
  }
}

// @ts-ignore: decorator
@inline function swap32(base: u32, a: i32, b: i32): void {
  const pa = base + (<u32>a << 2);
  const pb = base + (<u32>b << 2);
  const t = load<u32>(pa);
  store<u32>(pa, load<u32>(pb));
  store<u32>(pb, t);
}

function vswap32(base: u32, p1: i32, p2: i32, n: i32): void {
  while (n > 0) {
    swap32(base, p1, p2);
    p1++;
    p2++;
    n--;
  }
}

// @ts-ignore: decorator
@inline function push2(sp: i32, lo: i32, hi: i32): void {
  store<i32>(STACK_LO + <u32>sp * 4, lo);
  store<i32>(STACK_HI + <u32>sp * 4, hi);
}

function fallbackQSort3(fmap: u32, eclass: u32, loSt: i32, hiSt: i32): void {
  let r: u32 = 0;
  let sp = 0;
  push2(sp, loSt, hiSt);
  sp++;
  while (sp > 0) {
    if (!(sp < 100 - 1)) unreachable();
    sp--;
    const lo = load<i32>(STACK_LO + <u32>sp * 4);
    const hi = load<i32>(STACK_HI + <u32>sp * 4);
    if (hi - lo < 10) {
      fallbackSimpleSort(fmap, eclass, lo, hi);
      continue;
    }
    r = (r * 7621 + 1) % 32768;
    const r3 = r % 3;
    let med: u32;
    if (r3 == 0) med = getU32(eclass, <i32>getU32(fmap, lo));
    else if (r3 == 1) med = getU32(eclass, <i32>getU32(fmap, (lo + hi) >> 1));
    else med = getU32(eclass, <i32>getU32(fmap, hi));
    let unLo = lo;
    let ltLo = lo;
    let unHi = hi;
    let gtHi = hi;
    for (;;) {
      for (;;) {
        if (unLo > unHi) break;
        const n = <i32>getU32(eclass, <i32>getU32(fmap, unLo)) - <i32>med;
        if (n == 0) {
          swap32(fmap, unLo, ltLo);
          ltLo++;
          unLo++;
          continue;
        }
        if (n > 0) break;
        unLo++;
      }
      for (;;) {
        if (unLo > unHi) break;
        const n = <i32>getU32(eclass, <i32>getU32(fmap, unHi)) - <i32>med;
        if (n == 0) {
          swap32(fmap, unHi, gtHi);
          gtHi--;
          unHi--;
          continue;
        }
        if (n < 0) break;
        unHi--;
      }
      if (unLo > unHi) break;
      swap32(fmap, unLo, unHi);
      unLo++;
      unHi--;
    }
    if (gtHi < ltLo) continue;
    let n = min(ltLo - lo, unLo - ltLo);
    vswap32(fmap, lo, unLo - n, n);
    let m = min(hi - gtHi, gtHi - unHi);
    vswap32(fmap, unLo, hi - m + 1, m);
    n = lo + unLo - ltLo - 1;
    m = hi - (gtHi - unHi) + 1;
    if (n - lo > hi - m) {
      push2(sp, lo, n);
      sp++;
      push2(sp, m, hi);
      sp++;
    } else {
      push2(sp, m, hi);
      sp++;
      push2(sp, lo, n);
      sp++;
    }
  }
}

// @ts-ignore: decorator
@inline function setBH(bhtab: u32, zz: i32): void {
  const a = bhtab + ((<u32>zz >> 5) << 2);
  store<u32>(a, load<u32>(a) | (1 << (<u32>zz & 31)));
}
// @ts-ignore: decorator
@inline function clearBH(bhtab: u32, zz: i32): void {
  const a = bhtab + ((<u32>zz >> 5) << 2);
  store<u32>(a, load<u32>(a) & ~(1 << (<u32>zz & 31)));
}
// @ts-ignore: decorator
@inline function isSetBH(bhtab: u32, zz: i32): bool {
  return (load<u32>(bhtab + ((<u32>zz >> 5) << 2)) & (1 << (<u32>zz & 31))) != 0;
}
// @ts-ignore: decorator
@inline function wordBH(bhtab: u32, zz: i32): u32 {
  return load<u32>(bhtab + ((<u32>zz >> 5) << 2));
}

function fallbackSort(fmap: u32, eclass: u32, bhtab: u32, nblock: i32): void {
  const eclass8 = eclass;
  const ftab = FB_FTAB;
  const ftabCopy = FB_FTAB_COPY;
  for (let i = 0; i < 257; i++) store<i32>(ftab + <u32>i * 4, 0);
  for (let i = 0; i < nblock; i++) {
    const a = ftab + <u32>load<u8>(eclass8 + <u32>i) * 4;
    store<i32>(a, load<i32>(a) + 1);
  }
  for (let i = 0; i < 256; i++) store<i32>(ftabCopy + <u32>i * 4, load<i32>(ftab + <u32>i * 4));
  for (let i = 1; i < 257; i++) store<i32>(ftab + <u32>i * 4, load<i32>(ftab + <u32>i * 4) + load<i32>(ftab + <u32>(i - 1) * 4));
  for (let i = 0; i < nblock; i++) {
    const a = ftab + <u32>load<u8>(eclass8 + <u32>i) * 4;
    const k = load<i32>(a) - 1;
    store<i32>(a, k);
    setU32(fmap, k, i);
  }
  const nBhtab = 2 + nblock / 32;
  for (let i = 0; i < nBhtab; i++) setU32(bhtab, i, 0);
  for (let i = 0; i < 256; i++) setBH(bhtab, load<i32>(ftab + <u32>i * 4));

  for (let i = 0; i < 32; i++) {
    setBH(bhtab, nblock + 2 * i);
    clearBH(bhtab, nblock + 2 * i + 1);
  }

  let H = 1;
  for (;;) {
    let j = 0;
    for (let i = 0; i < nblock; i++) {
      if (isSetBH(bhtab, i)) j = i;
      let k = <i32>getU32(fmap, i) - H;
      if (k < 0) k += nblock;
      setU32(eclass, k, j);
    }
    let nNotDone = 0;
    let r = -1;
    for (;;) {
      let k = r + 1;
      while (isSetBH(bhtab, k) && (k & 0x1f) != 0) k++;
      if (isSetBH(bhtab, k)) {
        while (wordBH(bhtab, k) == 0xffffffff) k += 32;
        while (isSetBH(bhtab, k)) k++;
      }
      const l = k - 1;
      if (l >= nblock) break;
      while (!isSetBH(bhtab, k) && (k & 0x1f) != 0) k++;
      if (!isSetBH(bhtab, k)) {
        while (wordBH(bhtab, k) == 0) k += 32;
        while (!isSetBH(bhtab, k)) k++;
      }
      r = k - 1;
      if (r >= nblock) break;
      if (r > l) {
        nNotDone += r - l + 1;
        fallbackQSort3(fmap, eclass, l, r);
        let cc: i32 = -1;
        for (let i = l; i <= r; i++) {
          const cc1 = <i32>getU32(eclass, <i32>getU32(fmap, i));
          if (cc != cc1) {
            setBH(bhtab, i);
            cc = cc1;
          }
        }
      }
    }
    H *= 2;
    if (H > nblock || nNotDone == 0) break;
  }

  // Reconstruct the original block in eclass8 [0 .. nblock-1].
  let j = 0;
  for (let i = 0; i < nblock; i++) {
    while (load<i32>(ftabCopy + <u32>j * 4) == 0) j++;
    const a = ftabCopy + <u32>j * 4;
    store<i32>(a, load<i32>(a) - 1);
    store<u8>(eclass8 + getU32(fmap, i), j);
  }
  if (!(j < 256)) unreachable();
}

// -- The main, O(N^2 log(N)) sorting algorithm --

/**
 * libbzip2's mainGtU, eight positions at a time: whether the rotation at `i1` sorts after the one
 * at `i2`. libbzip2 compares byte by byte and, in its loop, each position's byte and then its
 * quadrant value; the first position where either differs decides, the byte first. Here eight
 * bytes (and eight quadrant values) are loaded at once and that first position is found from
 * the lowest set bit of their difference (the loads are little-endian: the lowest byte is the
 * first position). Same answer, same positions read when nothing differs, same budget decrement
 * per round of eight: the output stays libbzip2's.
 */
function mainGtU(i1: u32, i2: u32, block: u32, quadrant: u32, nblock: u32): bool {
  // 12 bytes compared directly: 8, then 4.
  const a = load<u64>(block + i1);
  const b = load<u64>(block + i2);
  if (a != b) return byteGreater(a, b, <u32>(ctz<u64>(a ^ b) >> 3));
  const a4 = <u64>load<u32>(block + i1 + 8);
  const b4 = <u64>load<u32>(block + i2 + 8);
  if (a4 != b4) return byteGreater(a4, b4, <u32>(ctz<u64>(a4 ^ b4) >> 3));
  i1 += 12;
  i2 += 12;
  let k = <i32>nblock + 8;
  do {
    const c1 = load<u64>(block + i1);
    const c2 = load<u64>(block + i2);
    const q1 = quadrant + (i1 << 1);
    const q2 = quadrant + (i2 << 1);
    const s1lo = load<u64>(q1);
    const s2lo = load<u64>(q2);
    const s1hi = load<u64>(q1, 8);
    const s2hi = load<u64>(q2, 8);
    if (c1 != c2 || s1lo != s2lo || s1hi != s2hi) {
      // The first position where the bytes differ, and where the quadrant values do (8: nowhere).
      const byteAt = c1 != c2 ? <u32>(ctz<u64>(c1 ^ c2) >> 3) : 8;
      const quadAt = s1lo != s2lo ? <u32>(ctz<u64>(s1lo ^ s2lo) >> 4) : s1hi != s2hi ? 4 + <u32>(ctz<u64>(s1hi ^ s2hi) >> 4) : 8;
      if (byteAt <= quadAt) return byteGreater(c1, c2, byteAt);
      return quadAt < 4 ? quadGreater(s1lo, s2lo, quadAt) : quadGreater(s1hi, s2hi, quadAt - 4);
    }
    i1 += 8;
    i2 += 8;
    if (i1 >= nblock) i1 -= nblock;
    if (i2 >= nblock) i2 -= nblock;
    k -= 8;
    budget--;
  } while (k >= 0);
  return false;
}

/** Byte `at` of `a` is greater than byte `at` of `b` (little-endian positions). */
// @ts-ignore: decorator
@inline function byteGreater(a: u64, b: u64, at: u32): bool {
  const shift = <u64>(at << 3);
  return ((a >> shift) & 0xff) > ((b >> shift) & 0xff);
}

/** The 16-bit value `at` of `a` is greater than that of `b`. */
// @ts-ignore: decorator
@inline function quadGreater(a: u64, b: u64, at: u32): bool {
  const shift = <u64>(at << 4);
  return ((a >> shift) & 0xffff) > ((b >> shift) & 0xffff);
}

function mainSimpleSort(ptr: u32, block: u32, quadrant: u32, nblock: i32, lo: i32, hi: i32, d: i32): void {
  const bigN = hi - lo + 1;
  if (bigN < 2) return;
  let hp = 0;
  while (load<i32>(INCS + <u32>hp * 4) < bigN) hp++;
  hp--;
  for (; hp >= 0; hp--) {
    const h = load<i32>(INCS + <u32>hp * 4);
    let i = lo + h;
    for (;;) {
      // copy 1, 2, 3 (the budget is checked after every third)
      let stop = false;
      for (let c = 0; c < 3; c++) {
        if (i > hi) {
          stop = true;
          break;
        }
        const v = getU32(ptr, i);
        let j = i;
        while (mainGtU(getU32(ptr, j - h) + <u32>d, v + <u32>d, block, quadrant, <u32>nblock)) {
          setU32(ptr, j, getU32(ptr, j - h));
          j = j - h;
          if (j <= lo + h - 1) break;
        }
        setU32(ptr, j, v);
        i++;
      }
      if (stop) break;
      if (budget < 0) return;
    }
  }
}

// @ts-ignore: decorator
@inline function mmed3(a: u32, b: u32, c: u32): u32 {
  if (a > b) {
    const t = a;
    a = b;
    b = t;
  }
  if (b > c) {
    b = c;
    if (a > b) b = a;
  }
  return b;
}

// @ts-ignore: decorator
@inline function push3(sp: i32, lo: i32, hi: i32, d: i32): void {
  store<i32>(STACK_LO + <u32>sp * 4, lo);
  store<i32>(STACK_HI + <u32>sp * 4, hi);
  store<i32>(STACK_D + <u32>sp * 4, d);
}

const MAIN_QSORT_SMALL_THRESH: i32 = 20;
const MAIN_QSORT_DEPTH_THRESH: i32 = N_RADIX + N_QSORT;

function mainQSort3(ptr: u32, block: u32, quadrant: u32, nblock: i32, loSt: i32, hiSt: i32, dSt: i32): void {
  let sp = 0;
  push3(sp, loSt, hiSt, dSt);
  sp++;
  while (sp > 0) {
    if (!(sp < 100 - 2)) unreachable();
    sp--;
    const lo = load<i32>(STACK_LO + <u32>sp * 4);
    const hi = load<i32>(STACK_HI + <u32>sp * 4);
    const d = load<i32>(STACK_D + <u32>sp * 4);
    if (hi - lo < MAIN_QSORT_SMALL_THRESH || d > MAIN_QSORT_DEPTH_THRESH) {
      mainSimpleSort(ptr, block, quadrant, nblock, lo, hi, d);
      if (budget < 0) return;
      continue;
    }
    const med = <i32>mmed3(
      load<u8>(block + getU32(ptr, lo) + <u32>d),
      load<u8>(block + getU32(ptr, hi) + <u32>d),
      load<u8>(block + getU32(ptr, (lo + hi) >> 1) + <u32>d),
    );
    let unLo = lo;
    let ltLo = lo;
    let unHi = hi;
    let gtHi = hi;
    for (;;) {
      for (;;) {
        if (unLo > unHi) break;
        const n = <i32>load<u8>(block + getU32(ptr, unLo) + <u32>d) - med;
        if (n == 0) {
          swap32(ptr, unLo, ltLo);
          ltLo++;
          unLo++;
          continue;
        }
        if (n > 0) break;
        unLo++;
      }
      for (;;) {
        if (unLo > unHi) break;
        const n = <i32>load<u8>(block + getU32(ptr, unHi) + <u32>d) - med;
        if (n == 0) {
          swap32(ptr, unHi, gtHi);
          gtHi--;
          unHi--;
          continue;
        }
        if (n < 0) break;
        unHi--;
      }
      if (unLo > unHi) break;
      swap32(ptr, unLo, unHi);
      unLo++;
      unHi--;
    }
    if (gtHi < ltLo) {
      push3(sp, lo, hi, d + 1);
      sp++;
      continue;
    }
    let n = min(ltLo - lo, unLo - ltLo);
    vswap32(ptr, lo, unLo - n, n);
    let m = min(hi - gtHi, gtHi - unHi);
    vswap32(ptr, unLo, hi - m + 1, m);
    n = lo + unLo - ltLo - 1;
    m = hi - (gtHi - unHi) + 1;
    // The three parts, pushed largest first (libbzip2's exact swap sequence, for ties).
    let lo0 = lo, hi0 = n, d0 = d;
    let lo1 = m, hi1 = hi, d1 = d;
    let lo2 = n + 1, hi2 = m - 1, d2 = d + 1;
    if (hi0 - lo0 < hi1 - lo1) {
      let t = lo0; lo0 = lo1; lo1 = t;
      t = hi0; hi0 = hi1; hi1 = t;
      t = d0; d0 = d1; d1 = t;
    }
    if (hi1 - lo1 < hi2 - lo2) {
      let t = lo1; lo1 = lo2; lo2 = t;
      t = hi1; hi1 = hi2; hi2 = t;
      t = d1; d1 = d2; d2 = t;
    }
    if (hi0 - lo0 < hi1 - lo1) {
      let t = lo0; lo0 = lo1; lo1 = t;
      t = hi0; hi0 = hi1; hi1 = t;
      t = d0; d0 = d1; d1 = t;
    }
    push3(sp, lo0, hi0, d0);
    sp++;
    push3(sp, lo1, hi1, d1);
    sp++;
    push3(sp, lo2, hi2, d2);
    sp++;
  }
}

const SETMASK: u32 = 1 << 21;
const CLEARMASK: u32 = ~SETMASK;

// @ts-ignore: decorator
@inline function bigFreq(ftab: u32, b: i32): i32 {
  return <i32>getU32(ftab, (b + 1) << 8) - <i32>getU32(ftab, b << 8);
}

function mainSort(ptr: u32, block: u32, quadrant: u32, ftab: u32, nblock: i32): void {
  // Set up the 2-byte frequency table.
  for (let i = 65536; i >= 0; i--) setU32(ftab, i, 0);
  let j = <i32>load<u8>(block) << 8;
  for (let i = nblock - 1; i >= 0; i--) {
    store<u16>(quadrant + (<u32>i << 1), 0);
    j = (j >> 8) | (<i32>load<u8>(block + <u32>i) << 8);
    setU32(ftab, j, getU32(ftab, j) + 1);
  }
  for (let i = 0; i < N_OVERSHOOT; i++) {
    store<u8>(block + <u32>(nblock + i), load<u8>(block + <u32>i));
    store<u16>(quadrant + (<u32>(nblock + i) << 1), 0);
  }

  // Complete the initial radix sort.
  for (let i = 1; i <= 65536; i++) setU32(ftab, i, getU32(ftab, i) + getU32(ftab, i - 1));
  let s: u32 = <u32>load<u8>(block) << 8;
  for (let i = nblock - 1; i >= 0; i--) {
    s = ((s >> 8) | (<u32>load<u8>(block + <u32>i) << 8)) & 0xffff;
    const k = getU32(ftab, <i32>s) - 1;
    setU32(ftab, <i32>s, k);
    setU32(ptr, <i32>k, i);
  }

  // The running order, from smallest to largest big bucket.
  for (let i = 0; i <= 255; i++) {
    store<u8>(BIG_DONE + <u32>i, 0);
    store<i32>(RUNNING_ORDER + <u32>i * 4, i);
  }
  {
    let h = 1;
    do h = 3 * h + 1;
    while (h <= 256);
    do {
      h = h / 3;
      for (let i = h; i <= 255; i++) {
        const vv = load<i32>(RUNNING_ORDER + <u32>i * 4);
        let jj = i;
        while (bigFreq(ftab, load<i32>(RUNNING_ORDER + <u32>(jj - h) * 4)) > bigFreq(ftab, vv)) {
          store<i32>(RUNNING_ORDER + <u32>jj * 4, load<i32>(RUNNING_ORDER + <u32>(jj - h) * 4));
          jj = jj - h;
          if (jj <= h - 1) break;
        }
        store<i32>(RUNNING_ORDER + <u32>jj * 4, vv);
      }
    } while (h != 1);
  }

  // The main sorting loop, one big bucket per call (see sortBigBucket).
  for (let i = 0; i <= 255; i++) if (!sortBigBucket(i, ptr, block, quadrant, ftab, nblock)) return;
}

/**
 * mainSort's main loop for the `i`-th big bucket of the running order: false when the work budget
 * ran out (the block goes to the fallback sort). A function of its own, called 256 times per
 * block, and exported so that Binaryen does not inline it back into its one caller: V8 runs a
 * WebAssembly function in baseline code at first and moves it to optimized code only at a later
 * call, never during one, so a loop inside a function called once per block would run baseline
 * code from start to end.
 */
export function sortBigBucket(i: i32, ptr: u32, block: u32, quadrant: u32, ftab: u32, nblock: i32): bool {
  const ss = load<i32>(RUNNING_ORDER + <u32>i * 4);

  // Step 1: quicksort the unsorted small buckets [ss, j], j != ss.
  for (let jj = 0; jj <= 255; jj++) {
    if (jj != ss) {
      const sb = (ss << 8) + jj;
      if (!(getU32(ftab, sb) & SETMASK)) {
        const lo = <i32>(getU32(ftab, sb) & CLEARMASK);
        const hi = <i32>(getU32(ftab, sb + 1) & CLEARMASK) - 1;
        if (hi > lo) {
          mainQSort3(ptr, block, quadrant, nblock, lo, hi, N_RADIX);
          if (budget < 0) return false;
        }
      }
      setU32(ftab, sb, getU32(ftab, sb) | SETMASK);
    }
  }
  if (load<u8>(BIG_DONE + <u32>ss)) unreachable();

  // Step 2: synthesise the sorted order of the small buckets [t, ss].
  {
    for (let jj = 0; jj <= 255; jj++) {
      store<i32>(COPY_START + <u32>jj * 4, <i32>(getU32(ftab, (jj << 8) + ss) & CLEARMASK));
      store<i32>(COPY_END + <u32>jj * 4, <i32>(getU32(ftab, (jj << 8) + ss + 1) & CLEARMASK) - 1);
    }
    for (let jj = <i32>(getU32(ftab, ss << 8) & CLEARMASK); jj < load<i32>(COPY_START + <u32>ss * 4); jj++) {
      let k = <i32>getU32(ptr, jj) - 1;
      if (k < 0) k += nblock;
      const c1 = <u32>load<u8>(block + <u32>k);
      if (!load<u8>(BIG_DONE + c1)) {
        const a = COPY_START + c1 * 4;
        const at = load<i32>(a);
        store<i32>(a, at + 1);
        setU32(ptr, at, k);
      }
    }
    for (let jj = <i32>(getU32(ftab, (ss + 1) << 8) & CLEARMASK) - 1; jj > load<i32>(COPY_END + <u32>ss * 4); jj--) {
      let k = <i32>getU32(ptr, jj) - 1;
      if (k < 0) k += nblock;
      const c1 = <u32>load<u8>(block + <u32>k);
      if (!load<u8>(BIG_DONE + c1)) {
        const a = COPY_END + c1 * 4;
        const at = load<i32>(a);
        store<i32>(a, at - 1);
        setU32(ptr, at, k);
      }
    }
  }
  {
    const cs = load<i32>(COPY_START + <u32>ss * 4);
    const ce = load<i32>(COPY_END + <u32>ss * 4);
    if (!(cs - 1 == ce || (cs == 0 && ce == nblock - 1))) unreachable();
  }
  for (let jj = 0; jj <= 255; jj++) {
    const sb = (jj << 8) + ss;
    setU32(ftab, sb, getU32(ftab, sb) | SETMASK);
  }

  // Step 3: the [ss] big bucket is done; update the quadrant descriptors.
  store<u8>(BIG_DONE + <u32>ss, 1);
  if (i < 255) {
    const bbStart = <i32>(getU32(ftab, ss << 8) & CLEARMASK);
    const bbSize = <i32>(getU32(ftab, (ss + 1) << 8) & CLEARMASK) - bbStart;
    let shifts = 0;
    while (bbSize >> shifts > 65534) shifts++;
    for (let jj = bbSize - 1; jj >= 0; jj--) {
      const a2update = <i32>getU32(ptr, bbStart + jj);
      const qVal = <u16>(jj >> shifts);
      store<u16>(quadrant + (<u32>a2update << 1), qVal);
      if (a2update < N_OVERSHOOT) store<u16>(quadrant + (<u32>(a2update + nblock) << 1), qVal);
    }
    if (!((bbSize - 1) >> shifts <= 65535)) unreachable();
  }
  return true;
}
