/**
 * Probes for the forks' variants this library recognises but does not read. Each is structural:
 * the fork's layout must account for the whole section, so a damaged LLVM section is never
 * mistaken for a fork (it gets the LLVM layout's error instead).
 */
import type { Endian } from './model.js';

/**
 * LLILC (Microsoft's LLVM fork for CoreCLR) emitted the 2015 RFC's "flat" format as version 2:
 * u8 2, u8 0, u16 0, u32 NumFunctions, then five u32 offsets from the section start (constants,
 * frame records, stack map records, locations, live-outs), padded to 8: the constants start at 32.
 */
export function isLlilcFlatV2(bytes: Uint8Array, endian: Endian): boolean {
  if (bytes.length < 32 || bytes[0] !== 2) return false;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const little = endian === 'little';
  let previous = 32;
  if (view.getUint32(8, little) !== 32) return false;
  for (let i = 0; i < 5; i++) {
    const offset = view.getUint32(8 + 4 * i, little);
    if (offset < previous || offset > bytes.length) return false;
    previous = offset;
  }
  return true;
}

/**
 * ykllvm (the yk meta-tracer's LLVM) keeps byte 3 but writes, per record, "live variables": a u8
 * location count and that many 12-byte locations each (with `-yk-stackmap-add-locs`, each location
 * also carries a u16 count of extra registers and the registers, and a callee-saved-register table
 * follows the records).
 */
export function isYkllvmExtendedV3(bytes: Uint8Array, endian: Endian): boolean {
  return walkYk(bytes, endian, false) || walkYk(bytes, endian, true);
}

function walkYk(bytes: Uint8Array, endian: Endian, extras: boolean): boolean {
  if (bytes.length < 16 || bytes[0] !== 3) return false;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const little = endian === 'little';
  const n = bytes.length;
  const numFunctions = view.getUint32(4, little);
  const numConstants = view.getUint32(8, little);
  const numRecords = view.getUint32(12, little);
  let p = 16 + numFunctions * 24 + numConstants * 8;
  if (p > n || numRecords * 24 > n) return false;
  for (let r = 0; r < numRecords; r++) {
    if (p + 16 > n) return false;
    const lives = view.getUint16(p + 14, little);
    p += 16;
    for (let l = 0; l < lives; l++) {
      if (p + 1 > n) return false;
      const locs = bytes[p]!;
      p += 1;
      for (let k = 0; k < locs; k++) {
        if (extras) {
          if (p + 10 > n) return false;
          const count = view.getUint16(p + 8, little);
          p += 10 + 2 * count + 4;
        } else p += 12;
        if (p > n) return false;
      }
    }
    p = (p + 7) & ~7;
    if (p + 4 > n) return false;
    const liveOuts = view.getUint16(p + 2, little);
    p = (p + 4 + 4 * liveOuts + 7) & ~7;
    if (p > n) return false;
  }
  if (extras) {
    for (let f = 0; f < numFunctions; f++) {
      if (p + 6 > n) return false;
      const spills = view.getUint32(p + 2, little);
      p += 6 + 8 * spills;
      if (p > n) return false;
    }
  }
  return p === n;
}
