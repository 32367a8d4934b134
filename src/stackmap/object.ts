/**
 * Finds stack map sections in object files: ELF (32/64-bit, either byte order), Mach-O (32/64-bit
 * and fat/universal: one section per slice), COFF (long section names through the string table),
 * or a bare section. For each it reads the section's relocations and the symbol table, so that
 * each function entry's address slot can be named, and the function symbols' sizes (the grouping
 * rule of version 1 uses them).
 *
 * Hand-written rather than an npm object-file library: it must run in a browser on a Uint8Array
 * (the candidates, elfy and macho, are Node-Buffer based, cover one format each and are
 * unmaintained), and every count and offset here is checked against the file before use, which
 * the candidates do not promise. It reads only the few tables stack maps need.
 */
import { Cursor } from './cursor.js';
import { StackMapError } from './errors.js';
import type { Endian } from './model.js';

export type ContainerKind = 'elf' | 'macho' | 'coff' | 'bare';

/** Architectures whose DWARF register names the human view knows (others print R#N). */
export type Arch = 'x86-64' | 'x86' | 'aarch64' | 'arm' | 'ppc64' | 'ppc' | 'systemz' | 'riscv' | 'unknown';

/** A stack map section found in a file. */
export interface FoundSection {
  readonly container: ContainerKind;
  /** The file format in words, e.g. `ELF 64-bit little-endian x86-64`, `Mach-O 64-bit arm64 (slice 2 of a universal file)`. */
  readonly format: string;
  readonly arch: Arch;
  /** The section's name as the container spells it (`.llvm_stackmaps`, `__LLVM_STACKMAPS,__llvm_stackmaps`). */
  readonly sectionName: string;
  /** Where the section's bytes are in the file. */
  readonly fileOffset: number;
  readonly bytes: Uint8Array;
  /** The byte order of the container (undefined for a bare section). */
  readonly endian: Endian | undefined;
  /** Relocated slots of the section: offset in the section → the symbol named there. */
  readonly relocations: ReadonlyMap<number, string>;
  /**
   * Relocated slots whose value is an address in a section rather than a symbol's name (Mach-O's
   * non-extern relocations, as i386 writes): the symbol at the address the slot holds names it.
   */
  readonly sectionRelativeSlots: ReadonlySet<number>;
  /** Defined symbols by address (value), for a linked file whose entries hold real addresses. */
  readonly symbolsByAddress: ReadonlyMap<bigint, string>;
  /** Function symbols' sizes in bytes (ELF st_size; Mach-O and COFF: the distance to the next symbol of the section). */
  readonly symbolSizes: ReadonlyMap<string, number>;
}

const ELF_NAME = '.llvm_stackmaps';
const MACHO_SEGMENT = '__LLVM_STACKMAPS';
const MACHO_SECTION = '__llvm_stackmaps';
/** Relocation and symbol tables larger than this many entries are refused (documented bound). */
export const MAX_TABLE_ENTRIES = 1 << 24;
/**
 * Stack map sections read from one file (LLVM writes one; a universal file one per slice). More is
 * refused: section headers may all point at the same bytes, and each would be read again.
 */
export const MAX_STACKMAP_SECTIONS = 64;

/** What kind of file the bytes are, by magic number; anything else is taken as a bare section. */
export function containerOf(bytes: Uint8Array): ContainerKind {
  if (bytes.length >= 4 && bytes[0] === 0x7f && bytes[1] === 0x45 && bytes[2] === 0x4c && bytes[3] === 0x46) return 'elf';
  if (bytes.length >= 4) {
    const be = ((bytes[0]! << 24) | (bytes[1]! << 16) | (bytes[2]! << 8) | bytes[3]!) >>> 0;
    if (be === 0xfeedface || be === 0xfeedfacf || be === 0xcefaedfe || be === 0xcffaedfe || be === 0xcafebabe) return 'macho';
  }
  if (looksLikeCoff(bytes)) return 'coff';
  return 'bare';
}

/**
 * Every stack map section of the file (a universal Mach-O file may have one per slice; an object
 * without one gives none). A bare section is returned as itself.
 */
export function findStackMapSections(bytes: Uint8Array): FoundSection[] {
  const found = findAll(bytes);
  if (found.length > MAX_STACKMAP_SECTIONS)
    throw new StackMapError(`${found.length} stack map sections are more than the ${MAX_STACKMAP_SECTIONS} read from one file`, 0);
  return found;
}

function findAll(bytes: Uint8Array): FoundSection[] {
  switch (containerOf(bytes)) {
    case 'elf':
      return readElf(bytes);
    case 'macho':
      return readMachO(bytes, 0, bytes.length, '');
    case 'coff':
      return readCoff(bytes);
    case 'bare':
      return [
        {
          container: 'bare',
          format: 'bare stack map section',
          arch: 'unknown',
          sectionName: '',
          fileOffset: 0,
          bytes,
          endian: undefined,
          relocations: new Map(),
          sectionRelativeSlots: new Set(),
          symbolsByAddress: new Map(),
          symbolSizes: new Map(),
        },
      ];
  }
}

/**
 * Longest name read from a string table; longer ones are cut. Bounds the work of a table without
 * terminators, which every name would otherwise read to its end.
 */
export const MAX_NAME = 1024;

function cstring(bytes: Uint8Array, start: number, end: number): string {
  const limit = Math.min(end, start + MAX_NAME);
  let e = start;
  while (e < limit && bytes[e] !== 0) e++;
  return String.fromCharCode(...bytes.subarray(start, e));
}

function range(c: Cursor, offset: number, size: number, what: string): void {
  if (offset < 0 || size < 0 || offset > c.bytes.length || size > c.bytes.length - offset) {
    c.fail(`${what} (offset ${offset}, ${size} bytes) lies outside the ${c.bytes.length}-byte file`, Math.min(offset, c.bytes.length));
  }
}

function bigToOffset(c: Cursor, v: bigint, what: string): number {
  if (v > BigInt(Number.MAX_SAFE_INTEGER)) c.fail(`${what} ${v} is beyond any file`);
  return Number(v);
}

// ---------------------------------------------------------------- ELF

const ELF_MACHINES: Record<number, [Arch, string]> = {
  3: ['x86', 'i386'],
  62: ['x86-64', 'x86-64'],
  183: ['aarch64', 'AArch64'],
  40: ['arm', 'ARM'],
  21: ['ppc64', 'PowerPC64'],
  20: ['ppc', 'PowerPC'],
  22: ['systemz', 'SystemZ'],
  243: ['riscv', 'RISC-V'],
};

interface ElfSection {
  name: number;
  type: number;
  offset: number;
  size: number;
  link: number;
  info: number;
  entsize: number;
}

function readElf(bytes: Uint8Array): FoundSection[] {
  const path = ['ELF header'];
  if (bytes.length < 52) throw new StackMapError('an ELF header needs 52 bytes at least', 0, path);
  const is64 = bytes[4] === 2;
  if (bytes[4] !== 1 && bytes[4] !== 2) throw new StackMapError(`ELF class ${bytes[4]} is neither 32- nor 64-bit`, 4, path);
  if (bytes[5] !== 1 && bytes[5] !== 2) throw new StackMapError(`ELF data encoding ${bytes[5]} is neither little- nor big-endian`, 5, path);
  const endian: Endian = bytes[5] === 1 ? 'little' : 'big';
  const c = new Cursor(bytes, endian, 0, path);
  c.pos = 18;
  const machine = c.u16();
  const [arch, machineName] = ELF_MACHINES[machine] ?? ['unknown', `machine ${machine}`];
  c.pos = is64 ? 40 : 32;
  const shoff = is64 ? bigToOffset(c, c.u64(), 'the section header offset') : c.u32();
  c.pos = is64 ? 58 : 46;
  const shentsize = c.u16();
  const shnum = c.u16();
  const shstrndx = c.u16();
  if (shnum === 0) return [];
  if (shentsize < (is64 ? 64 : 40)) c.fail(`section headers of ${shentsize} bytes are too small`, is64 ? 58 : 46);
  range(c, shoff, shnum * shentsize, 'the section header table');
  const sections: ElfSection[] = [];
  for (let i = 0; i < shnum; i++) {
    c.pos = shoff + i * shentsize;
    const name = c.u32();
    const type = c.u32();
    if (is64) {
      c.u64();
      c.u64();
      const offset = bigToOffset(c, c.u64(), 'a section offset');
      const size = bigToOffset(c, c.u64(), 'a section size');
      const link = c.u32();
      const info = c.u32();
      c.u64();
      const entsize = bigToOffset(c, c.u64(), 'an entry size');
      sections.push({ name, type, offset, size, link, info, entsize });
    } else {
      c.u32();
      c.u32();
      const offset = c.u32();
      const size = c.u32();
      const link = c.u32();
      const info = c.u32();
      c.u32();
      const entsize = c.u32();
      sections.push({ name, type, offset, size, link, info, entsize });
    }
  }
  const shstr = sections[shstrndx];
  if (!shstr) c.fail(`the section name table's index ${shstrndx} is not among the ${shnum} sections`, is64 ? 62 : 50);
  range(c, shstr.offset, shstr.size, 'the section name table');
  const nameOf = (s: ElfSection) => (s.name < shstr.size ? cstring(bytes, shstr.offset + s.name, shstr.offset + shstr.size) : '');
  const format = `ELF ${is64 ? '64' : '32'}-bit ${endian}-endian ${machineName}`;
  const found: FoundSection[] = [];
  const named = sections.filter((s) => s.type !== 8 && nameOf(s) === ELF_NAME).length;
  if (named > MAX_STACKMAP_SECTIONS) c.fail(`${named} stack map sections are more than the ${MAX_STACKMAP_SECTIONS} read from one file`, shoff);
  // Each symbol table is read once, however many relocation sections link to it.
  // Relocations read from the file never exceed its size in 8-byte units (the smallest entry):
  // relocation sections may all point at the same table.
  let relocationBudget = Math.floor(bytes.length / 8);
  const symbolTables = new Map<number, ReturnType<typeof readElfSymbols>>();
  const symbolsOf = (index: number) => {
    let t = symbolTables.get(index);
    if (!t) symbolTables.set(index, (t = readElfSymbols(c, bytes, sections, index, is64)));
    return t;
  };
  for (let index = 0; index < sections.length; index++) {
    const s = sections[index]!;
    if (nameOf(s) !== ELF_NAME || s.type === 8 /* SHT_NOBITS */) continue;
    c.path.splice(0, c.path.length, `ELF section ${ELF_NAME}`);
    range(c, s.offset, s.size, `section ${ELF_NAME}`);
    const relocations = new Map<number, string>();
    const symbolsByAddress = new Map<bigint, string>();
    const symbolSizes = new Map<string, number>();
    let symtabIndex = sections.findIndex((t) => t.type === 2);
    for (const r of sections) {
      if ((r.type !== 4 && r.type !== 9) || r.info !== index) continue; // SHT_RELA, SHT_REL
      symtabIndex = r.link;
      const symbols = symbolsOf(r.link);
      const rela = r.type === 4;
      const entsize = is64 ? (rela ? 24 : 16) : rela ? 12 : 8;
      range(c, r.offset, r.size, 'a relocation table');
      const count = Math.floor(r.size / entsize);
      if (count > MAX_TABLE_ENTRIES) c.fail(`${count} relocations are more than the ${MAX_TABLE_ENTRIES} read`, r.offset);
      relocationBudget -= count;
      if (relocationBudget < 0) c.fail('the relocation sections hold more entries than the file has room for (they overlap)', r.offset);
      for (let k = 0; k < count; k++) {
        c.pos = r.offset + k * entsize;
        const offset = is64 ? bigToOffset(c, c.u64(), 'a relocation offset') : c.u32();
        let symIndex: number;
        if (is64) symIndex = Number(c.u64() >> 32n);
        else symIndex = c.u32() >>> 8;
        let addend = 0n;
        if (rela) addend = is64 ? BigInt.asIntN(64, c.u64()) : BigInt(c.i32());
        const sym = symbols.list[symIndex];
        if (!sym) continue;
        let name = sym.name;
        if (sym.type === 3 /* STT_SECTION */) name = symbols.functionAt.get(`${sym.shndx}:${addend}`) ?? '';
        else if (addend !== 0n && name) name = `${name}+${addend}`;
        if (name) relocations.set(offset, name);
      }
    }
    if (symtabIndex >= 0 && sections[symtabIndex]?.type === 2) {
      const symbols = symbolsOf(symtabIndex);
      for (const sym of symbols.list) {
        if (!sym.name || sym.shndx === 0) continue;
        if (sym.type === 2 /* STT_FUNC */ || sym.type === 0) {
          if (!symbolsByAddress.has(sym.value)) symbolsByAddress.set(sym.value, sym.name);
          if (sym.type === 2 && sym.size > 0) symbolSizes.set(sym.name, sym.size);
        }
      }
    }
    found.push({
      container: 'elf',
      format,
      arch,
      sectionName: ELF_NAME,
      fileOffset: s.offset,
      bytes: bytes.subarray(s.offset, s.offset + s.size),
      endian,
      relocations,
      sectionRelativeSlots: new Set(),
      symbolsByAddress,
      symbolSizes,
    });
  }
  return found;
}

interface ElfSymbol {
  name: string;
  value: bigint;
  size: number;
  type: number;
  shndx: number;
}

function readElfSymbols(c: Cursor, bytes: Uint8Array, sections: ElfSection[], index: number, is64: boolean) {
  const list: ElfSymbol[] = [];
  const functionAt = new Map<string, string>();
  const symtab = sections[index];
  if (!symtab || (symtab.type !== 2 && symtab.type !== 11)) return { list, functionAt };
  const strtab = sections[symtab.link];
  range(c, symtab.offset, symtab.size, 'the symbol table');
  if (strtab) range(c, strtab.offset, strtab.size, 'the symbol name table');
  const entsize = is64 ? 24 : 16;
  const count = Math.floor(symtab.size / entsize);
  if (count > MAX_TABLE_ENTRIES) c.fail(`${count} symbols are more than the ${MAX_TABLE_ENTRIES} read`, symtab.offset);
  for (let k = 0; k < count; k++) {
    c.pos = symtab.offset + k * entsize;
    const nameIndex = c.u32();
    let value: bigint, size: number, info: number, shndx: number;
    if (is64) {
      info = c.u8();
      c.u8();
      shndx = c.u16();
      value = c.u64();
      size = Number(c.u64() & 0xffffffffn);
    } else {
      value = BigInt(c.u32());
      size = c.u32();
      info = c.u8();
      c.u8();
      shndx = c.u16();
    }
    const name = strtab && nameIndex < strtab.size ? cstring(bytes, strtab.offset + nameIndex, strtab.offset + strtab.size) : '';
    const type = info & 15;
    list.push({ name, value, size, type, shndx });
    if (type === 2 && name) functionAt.set(`${shndx}:${value}`, name);
  }
  return { list, functionAt };
}

// ---------------------------------------------------------------- Mach-O

const MACHO_CPUS: Record<number, [Arch, string]> = {
  7: ['x86', 'i386'],
  0x01000007: ['x86-64', 'x86-64'],
  12: ['arm', 'arm'],
  0x0100000c: ['aarch64', 'arm64'],
  18: ['ppc', 'ppc'],
  0x01000012: ['ppc64', 'ppc64'],
};

/** Bound on fat slices and load commands read. */
const MAX_SLICES = 64;

function readMachO(bytes: Uint8Array, start: number, end: number, slice: string): FoundSection[] {
  const file = bytes.subarray(start, end);
  const magicBE = ((file[0]! << 24) | (file[1]! << 16) | (file[2]! << 8) | file[3]!) >>> 0;
  if (magicBE === 0xcafebabe) {
    if (slice) throw new StackMapError('a universal file inside a universal file', start, ['Mach-O universal header']);
    const c = new Cursor(bytes, 'big', 0, ['Mach-O universal header']);
    c.pos = 4;
    const n = c.u32('the slice count');
    if (n > MAX_SLICES) c.fail(`${n} slices are more than the ${MAX_SLICES} read`, 4);
    const found: FoundSection[] = [];
    for (let i = 0; i < n; i++) {
      c.pos = 8 + 20 * i;
      c.u32();
      c.u32();
      const offset = c.u32();
      const size = c.u32();
      range(c, offset, size, `slice ${i + 1}`);
      found.push(...readMachO(bytes, offset, offset + size, ` (slice ${i + 1} of ${n} of a universal file)`));
      if (found.length > MAX_STACKMAP_SECTIONS) c.fail(`more than ${MAX_STACKMAP_SECTIONS} stack map sections in the slices`, 8 + 20 * i);
    }
    return found;
  }
  const endian: Endian = magicBE === 0xfeedface || magicBE === 0xfeedfacf ? 'big' : 'little';
  const is64 = magicBE === 0xfeedfacf || magicBE === 0xcffaedfe;
  const c = new Cursor(file, endian, start, ['Mach-O header']);
  c.pos = 4;
  const cputype = c.u32();
  c.u32();
  c.u32();
  const ncmds = c.u32('the load command count');
  const sizeofcmds = c.u32();
  c.u32();
  if (is64) c.u32();
  const [arch, cpuName] = MACHO_CPUS[cputype] ?? ['unknown', `cpu ${cputype}`];
  range(c, c.pos, sizeofcmds, 'the load commands');
  if (ncmds > sizeofcmds / 8) c.fail(`${ncmds} load commands do not fit in ${sizeofcmds} bytes`, 16);
  interface Sect {
    name: string;
    addr: bigint;
    size: number;
    offset: number;
    reloff: number;
    nreloc: number;
    index: number;
  }
  const sects: Sect[] = [];
  let symtab: { symoff: number; nsyms: number; stroff: number; strsize: number } | undefined;
  let p = c.pos;
  for (let i = 0; i < ncmds; i++) {
    c.pos = p;
    c.path.splice(0, c.path.length, `Mach-O load command #${i}`);
    const cmd = c.u32();
    const cmdsize = c.u32();
    if (cmdsize < 8 || cmdsize > c.bytes.length - p) c.fail(`load command size ${cmdsize} is impossible`, p + 4);
    if (cmd === 1 || cmd === 0x19) {
      const seg64 = cmd === 0x19;
      c.pos = p + (seg64 ? 64 : 48);
      const nsects = c.u32();
      const sectSize = seg64 ? 80 : 68;
      if (nsects * sectSize > cmdsize) c.fail(`${nsects} sections do not fit in a ${cmdsize}-byte command`, c.pos - 4);
      for (let k = 0; k < nsects; k++) {
        const q = p + (seg64 ? 72 : 56) + k * sectSize;
        const sectname = cstring(file, q, q + 16);
        const segname = cstring(file, q + 16, q + 32);
        c.pos = q + 32;
        const addr = seg64 ? c.u64() : BigInt(c.u32());
        const size = seg64 ? bigToOffset(c, c.u64(), 'a section size') : c.u32();
        const offset = c.u32();
        c.u32();
        const reloff = c.u32();
        const nreloc = c.u32();
        sects.push({ name: `${segname},${sectname}`, addr, size, offset, reloff, nreloc, index: sects.length + 1 });
      }
    } else if (cmd === 2) {
      symtab = { symoff: c.u32(), nsyms: c.u32(), stroff: c.u32(), strsize: c.u32() };
    }
    p += cmdsize;
  }
  // Symbols: by section ordinal, value; names.
  interface Sym {
    name: string;
    sect: number;
    value: bigint;
  }
  const symbols: Sym[] = [];
  if (symtab) {
    c.path.splice(0, c.path.length, 'Mach-O symbol table');
    const entsize = is64 ? 16 : 12;
    if (symtab.nsyms > MAX_TABLE_ENTRIES) c.fail(`${symtab.nsyms} symbols are more than the ${MAX_TABLE_ENTRIES} read`, 0);
    range(c, symtab.symoff, symtab.nsyms * entsize, 'the symbol table');
    range(c, symtab.stroff, symtab.strsize, 'the symbol name table');
    for (let k = 0; k < symtab.nsyms; k++) {
      c.pos = symtab.symoff + k * entsize;
      const strx = c.u32();
      const type = c.u8();
      const sect = c.u8();
      c.u16();
      const value = is64 ? c.u64() : BigInt(c.u32());
      const name = strx < symtab.strsize ? cstring(file, symtab.stroff + strx, symtab.stroff + symtab.strsize) : '';
      // Stabs (type & 0xe0) are debugging entries, not symbols.
      symbols.push({ name: (type & 0xe0) === 0 ? name : '', sect, value });
    }
  }
  const found: FoundSection[] = [];
  const format = `Mach-O ${is64 ? '64' : '32'}-bit ${cpuName}${slice}`;
  const stackmapSects = sects.filter((s) => s.name === `${MACHO_SEGMENT},${MACHO_SECTION}`);
  if (stackmapSects.length > MAX_STACKMAP_SECTIONS)
    c.fail(`${stackmapSects.length} stack map sections are more than the ${MAX_STACKMAP_SECTIONS} read from one file`, 0);
  const maps = stackmapSects.length ? symbolMaps(symbols, sects) : undefined;
  for (const s of stackmapSects) {
    c.path.splice(0, c.path.length, `Mach-O section ${s.name}`);
    range(c, s.offset, s.size, `section ${s.name}`);
    const relocations = new Map<number, string>();
    const sectionRelativeSlots = new Set<number>();
    if (s.nreloc > MAX_TABLE_ENTRIES) c.fail(`${s.nreloc} relocations are more than the ${MAX_TABLE_ENTRIES} read`, 0);
    range(c, s.reloff, s.nreloc * 8, 'the relocation table');
    for (let k = 0; k < s.nreloc; k++) {
      c.pos = s.reloff + k * 8;
      const address = c.u32();
      const info = c.u32();
      if (address & 0x80000000) continue; // scattered relocation: no symbol
      const symbolnum = endian === 'little' ? info & 0xffffff : info >>> 8;
      const isExtern = endian === 'little' ? (info >>> 27) & 1 : (info >>> 4) & 1;
      const type = endian === 'little' ? info >>> 28 : info & 15;
      const length = endian === 'little' ? (info >>> 25) & 3 : (info >>> 5) & 3;
      if (length !== 3 || type !== 0) continue; // an UNSIGNED 8-byte relocation names a function address
      if (!isExtern) {
        sectionRelativeSlots.add(address);
        continue;
      }
      const sym = symbols[symbolnum];
      if (sym?.name) relocations.set(address, sym.name);
    }
    found.push({
      container: 'macho',
      format,
      arch,
      sectionName: s.name,
      fileOffset: start + s.offset,
      bytes: file.subarray(s.offset, s.offset + s.size),
      endian,
      relocations,
      sectionRelativeSlots,
      ...maps!,
    });
  }
  return found;
}

/** Addresses and sizes (the distance to the next symbol of the section, or its end) of section symbols. */
function symbolMaps(
  symbols: ReadonlyArray<{ name: string; sect: number; value: bigint }>,
  sects: ReadonlyArray<{ index: number; addr: bigint; size: number }>,
) {
  const symbolsByAddress = new Map<bigint, string>();
  const symbolSizes = new Map<string, number>();
  const bySection = new Map<number, Array<{ name: string; value: bigint }>>();
  for (const s of symbols) {
    if (!s.name || s.sect === 0) continue;
    if (!symbolsByAddress.has(s.value)) symbolsByAddress.set(s.value, s.name);
    let list = bySection.get(s.sect);
    if (!list) bySection.set(s.sect, (list = []));
    list.push(s);
  }
  for (const [sect, list] of bySection) {
    const info = sects.find((x) => x.index === sect);
    list.sort((a, b) => (a.value < b.value ? -1 : a.value > b.value ? 1 : 0));
    // From the end: the next greater value of the section (or its end), in one pass.
    let nextGreater = info ? info.addr + BigInt(info.size) : undefined;
    for (let i = list.length - 1; i >= 0; i--) {
      if (i < list.length - 1 && list[i + 1]!.value > list[i]!.value) nextGreater = list[i + 1]!.value;
      if (nextGreater !== undefined && nextGreater > list[i]!.value) symbolSizes.set(list[i]!.name, Number(nextGreater - list[i]!.value));
    }
  }
  return { symbolsByAddress, symbolSizes };
}

// ---------------------------------------------------------------- COFF

const COFF_MACHINES: Record<number, [Arch, string]> = {
  0x14c: ['x86', 'i386'],
  0x8664: ['x86-64', 'x86-64'],
  0xaa64: ['aarch64', 'ARM64'],
  0x1c4: ['arm', 'ARMNT'],
};

function looksLikeCoff(bytes: Uint8Array): boolean {
  if (bytes.length < 20) return false;
  const machine = bytes[0]! | (bytes[1]! << 8);
  if (!(machine in COFF_MACHINES)) return false;
  const nsections = bytes[2]! | (bytes[3]! << 8);
  const optional = bytes[16]! | (bytes[17]! << 8);
  return nsections > 0 && nsections < 65279 && 20 + optional + 40 * nsections <= bytes.length;
}

function readCoff(bytes: Uint8Array): FoundSection[] {
  const c = new Cursor(bytes, 'little', 0, ['COFF header']);
  const machine = c.u16();
  const nsections = c.u16();
  c.u32();
  const symptr = c.u32();
  const nsyms = c.u32();
  const optional = c.u16();
  const [arch, machineName] = COFF_MACHINES[machine]!;
  const strtab = symptr + nsyms * 18;
  let strsize = 0;
  if (symptr !== 0) {
    if (nsyms > MAX_TABLE_ENTRIES) c.fail(`${nsyms} symbols are more than the ${MAX_TABLE_ENTRIES} read`, 12);
    range(c, symptr, nsyms * 18 + 4, 'the symbol table');
    c.pos = strtab;
    strsize = c.u32();
    range(c, strtab, strsize, 'the string table');
  }
  const longName = (offset: number) => (offset < strsize ? cstring(bytes, strtab + offset, strtab + strsize) : '');
  interface Sym {
    name: string;
    value: number;
    section: number;
  }
  const symbols: Sym[] = [];
  for (let k = 0; k < nsyms; k++) {
    const q = symptr + k * 18;
    c.pos = q;
    const zeros = c.u32();
    const name = zeros === 0 ? longName(c.u32()) : cstring(bytes, q, q + 8);
    c.pos = q + 8;
    const value = c.u32();
    const section = c.u16();
    c.u16();
    c.u8();
    const aux = c.u8();
    symbols[k] = { name, value, section: section > 0x7fff ? 0 : section };
    k += aux; // auxiliary records are not symbols (their indexes stay unused)
  }
  const found: FoundSection[] = [];
  const sects: Array<{ index: number; addr: bigint; size: number }> = [];
  const headers = 20 + optional;
  range(c, headers, nsections * 40, 'the section table');
  for (let i = 0; i < nsections; i++) {
    const q = headers + i * 40;
    c.pos = q + 16;
    sects.push({ index: i + 1, addr: 0n, size: c.u32() });
  }
  const named: number[] = [];
  for (let i = 0; i < nsections; i++) {
    const q = headers + i * 40;
    let name = cstring(bytes, q, q + 8);
    if (name.startsWith('/')) name = /^\/\d+$/.test(name) ? longName(Number(name.slice(1))) : name;
    if (name === ELF_NAME) named.push(i);
  }
  if (named.length > MAX_STACKMAP_SECTIONS) c.fail(`${named.length} stack map sections are more than the ${MAX_STACKMAP_SECTIONS} read from one file`, headers);
  const maps = named.length
    ? symbolMaps(
        symbols.filter((s) => s !== undefined).map((s) => ({ name: s.name, sect: s.section, value: BigInt(s.value) })),
        sects,
      )
    : undefined;
  for (const i of named) {
    const q = headers + i * 40;
    c.path.splice(0, c.path.length, `COFF section ${ELF_NAME}`);
    c.pos = q + 16;
    const size = c.u32();
    const offset = c.u32();
    const reloff = c.u32();
    c.u32();
    const nreloc = c.u16();
    range(c, offset, size, `section ${ELF_NAME}`);
    range(c, reloff, nreloc * 10, 'the relocation table');
    const relocations = new Map<number, string>();
    for (let k = 0; k < nreloc; k++) {
      c.pos = reloff + k * 10;
      const address = c.u32();
      const symIndex = c.u32();
      const type = c.u16();
      // IMAGE_REL_AMD64_ADDR64 (1), IMAGE_REL_ARM64_ADDR64 (14): an 8-byte address.
      if ((machine === 0x8664 && type !== 1) || (machine === 0xaa64 && type !== 14)) continue;
      const sym = symbols[symIndex];
      if (sym?.name) relocations.set(address, sym.name);
    }
    found.push({
      container: 'coff',
      format: `COFF ${machineName}`,
      arch,
      sectionName: ELF_NAME,
      fileOffset: offset,
      bytes: bytes.subarray(offset, offset + size),
      endian: 'little',
      relocations,
      sectionRelativeSlots: new Set(),
      ...maps!,
    });
  }
  return found;
}
