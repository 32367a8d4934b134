/**
 * Generated stack map inputs for the fuzzers and the bench: seeded random models of every version
 * (records with all location kinds, live-outs, large constants, 64-bit ids) and a minimal ELF
 * relocatable object around a section (with `.rela.llvm_stackmaps` naming each function entry and a
 * symbol table), in either class and byte order, so that the container code is exercised without
 * llc. The ELF objects are what `llvm-readobj --stackmap` reads too (the bench uses them).
 */
import { encodeStackMapSection } from '../src/stackmap/encode.js';
import type { Endian, StackMap, StackMapLocation, StackMapRecord, StackMapVersion } from '../src/stackmap/model.js';

export interface SampleOptions {
  readonly version: StackMapVersion;
  readonly endian: Endian;
  readonly functions: number;
  readonly records: number;
  /** Most locations per record (default 8). */
  readonly maxLocations?: number;
}

/** A random model; records are spread over the functions with increasing offsets (so version 1's grouping is settled by the rule only sometimes). */
export function randomStackMap(random: () => number, o: SampleOptions): StackMap {
  const int = (n: number) => Math.floor(random() * n);
  const constants: bigint[] = [];
  const legacy = o.version === 0;
  const functions = legacy
    ? []
    : Array.from({ length: o.functions }, () => ({ address: 0n, stackSize: random() < 0.05 ? (1n << 64n) - 1n : BigInt(8 * int(64)) }));
  const counts = new Array<number>(functions.length).fill(functions.length ? 1 : 0);
  for (let i = functions.length; i < o.records; i++) counts[int(functions.length)]! += functions.length ? 1 : 0;
  const records: StackMapRecord[] = [];
  const recordCount = legacy ? o.records : counts.reduce((a, b) => a + b, 0);
  for (let f = 0, made = 0; made < recordCount; f++) {
    const n = legacy ? recordCount : counts[f]!;
    let offset = 0;
    for (let k = 0; k < n; k++, made++) {
      offset += int(40);
      const locations: StackMapLocation[] = [];
      const L = int((o.maxLocations ?? 8) + 1);
      for (let j = 0; j < L; j++) {
        const kind = 1 + int(5);
        let value = kind === 2 || kind === 3 ? -8 * int(32) : kind === 4 ? int(2 ** 31) - 2 ** 30 : 0;
        if (kind === 5) {
          constants.push(BigInt(int(2 ** 30)) * 2n ** 33n + 1n);
          value = constants.length - 1;
        }
        const size = legacy ? 0 : o.version === 3 && random() < 0.05 ? 256 : [1, 2, 4, 8, 16][int(5)]!;
        locations.push({ kind, size: o.version === 3 ? size : Math.min(size, 255), reg: int(32), offset: value, reserved: 0, reserved2: 0 });
      }
      const liveOuts = legacy ? [] : Array.from({ length: int(3) }, () => ({ reg: int(32), reserved: 0, size: 8 }));
      const id = legacy ? BigInt(int(2 ** 32)) : random() < 0.1 ? (1n << 64n) - 1n - BigInt(int(4)) : BigInt(int(2 ** 40));
      records.push({ id, instructionOffset: offset, flags: 0, locations, liveOuts, liveOutPadding: 0 });
    }
  }
  return {
    version: o.version,
    variant: 'llvm',
    endian: o.endian,
    headerReserved: { byte: 0, half: 0 },
    functions: functions.map((f, i) => (o.version >= 2 ? { ...f, recordCount: BigInt(counts[i]!) } : f)),
    constants,
    records,
    trailing: new Uint8Array(0),
  };
}

/** A random section's bytes. */
export function randomSection(random: () => number, o: SampleOptions): Uint8Array {
  return encodeStackMapSection(randomStackMap(random, o));
}

class Out {
  bytes: number[] = [];
  constructor(readonly little: boolean) {}
  int(v: number | bigint, n: number): void {
    let x = BigInt.asUintN(n * 8, BigInt(v));
    const b: number[] = [];
    for (let i = 0; i < n; i++, x >>= 8n) b.push(Number(x & 0xffn));
    this.bytes.push(...(this.little ? b : b.reverse()));
  }
  align(n: number): void {
    while (this.bytes.length % n) this.bytes.push(0);
  }
}

/**
 * A relocatable ELF object holding `section` as `.llvm_stackmaps`, with a `.text` of
 * `functionNames.length` functions of 4096 bytes each and one absolute 64-bit relocation per
 * function entry (at 16 + 24·i for versions 2 and 3, 16 + 16·i for version 1) against its symbol.
 */
export function elfObject(section: Uint8Array, o: { is64: boolean; endian: Endian; functionNames: readonly string[]; functionEntrySize: number }): Uint8Array {
  const w = new Out(o.endian === 'little');
  const names = ['', '.text', '.llvm_stackmaps', '.rela.llvm_stackmaps', '.symtab', '.strtab', '.shstrtab'];
  const shstr: number[] = [];
  const shname = names.map((n) => {
    const at = shstr.length;
    shstr.push(...Buffer.from(n, 'latin1'), 0);
    return at;
  });
  const strtab: number[] = [0];
  const symName = o.functionNames.map((n) => {
    const at = strtab.length;
    strtab.push(...Buffer.from(n, 'latin1'), 0);
    return at;
  });
  const ehsize = o.is64 ? 64 : 52;
  const textSize = 4096 * o.functionNames.length;
  // Layout: header, .text (zeros), section, rela, symtab, strtab, shstrtab, section headers.
  const offsets: number[] = [];
  let p = ehsize;
  const place = (size: number, align: number) => {
    p = (p + align - 1) & ~(align - 1);
    offsets.push(p);
    p += size;
  };
  const relaEnt = o.is64 ? 24 : 12;
  const symEnt = o.is64 ? 24 : 16;
  place(textSize, 16);
  place(section.length, 8);
  place(relaEnt * o.functionNames.length, 8);
  place(symEnt * (o.functionNames.length + 1), 8);
  place(strtab.length, 1);
  place(shstr.length, 1);
  p = (p + 7) & ~7;
  const shoff = p;
  // ELF header
  w.bytes.push(0x7f, 0x45, 0x4c, 0x46, o.is64 ? 2 : 1, o.endian === 'little' ? 1 : 2, 1, 0, ...new Array(8).fill(0));
  w.int(1, 2); // ET_REL
  w.int(o.is64 ? 62 : 3, 2); // x86-64 or i386 (for register names only)
  w.int(1, 4);
  if (o.is64) {
    w.int(0, 8);
    w.int(0, 8);
    w.int(shoff, 8);
  } else {
    w.int(0, 4);
    w.int(0, 4);
    w.int(shoff, 4);
  }
  w.int(0, 4);
  w.int(ehsize, 2);
  w.int(0, 2);
  w.int(0, 2);
  w.int(o.is64 ? 64 : 40, 2);
  w.int(names.length, 2);
  w.int(6, 2);
  const at = (n: number) => {
    while (w.bytes.length < n) w.bytes.push(0);
  };
  at(offsets[1]!);
  for (const b of section) w.bytes.push(b);
  at(offsets[2]!);
  o.functionNames.forEach((_, i) => {
    const slot = 16 + i * o.functionEntrySize;
    if (o.is64) {
      w.int(slot, 8);
      w.int((BigInt(i + 1) << 32n) | 1n, 8); // R_X86_64_64
      w.int(0, 8);
    } else {
      w.int(slot, 4);
      w.int(((i + 1) << 8) | 1, 4);
      w.int(0, 4);
    }
  });
  at(offsets[3]!);
  w.bytes.push(...new Array(symEnt).fill(0));
  o.functionNames.forEach((_, i) => {
    if (o.is64) {
      w.int(symName[i]!, 4);
      w.bytes.push(0x12, 0); // global function
      w.int(1, 2);
      w.int(4096 * i, 8);
      w.int(4096, 8);
    } else {
      w.int(symName[i]!, 4);
      w.int(4096 * i, 4);
      w.int(4096, 4);
      w.bytes.push(0x12, 0);
      w.int(1, 2);
    }
  });
  at(offsets[4]!);
  for (const b of strtab) w.bytes.push(b);
  at(offsets[5]!);
  w.bytes.push(...shstr);
  at(shoff);
  // Section headers: null, .text, .llvm_stackmaps, .rela, .symtab, .strtab, .shstrtab
  const sh = (name: number, type: number, flags: number, offset: number, size: number, link: number, info: number, align: number, entsize: number) => {
    w.int(name, 4);
    w.int(type, 4);
    const word = o.is64 ? 8 : 4;
    w.int(flags, word);
    w.int(0, word);
    w.int(offset, word);
    w.int(size, word);
    w.int(link, 4);
    w.int(info, 4);
    w.int(align, word);
    w.int(entsize, word);
  };
  sh(0, 0, 0, 0, 0, 0, 0, 0, 0);
  sh(shname[1]!, 1, 6, offsets[0]!, textSize, 0, 0, 16, 0);
  sh(shname[2]!, 1, 2, offsets[1]!, section.length, 0, 0, 8, 0);
  sh(shname[3]!, 4, 0x40, offsets[2]!, relaEnt * o.functionNames.length, 4, 2, 8, relaEnt);
  sh(shname[4]!, 2, 0, offsets[3]!, symEnt * (o.functionNames.length + 1), 5, 1, 8, symEnt);
  sh(shname[5]!, 3, 0, offsets[4]!, strtab.length, 0, 0, 1, 0);
  sh(shname[6]!, 3, 0, offsets[5]!, shstr.length, 0, 0, 1, 0);
  return Uint8Array.from(w.bytes);
}
