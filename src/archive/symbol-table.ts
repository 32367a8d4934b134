/**
 * LLVM's archive symbol table (`#_LLVM_SYM_TAB_#`), as LLVM 1.x's ArchiveWriter wrote it:
 * entries `vbr(offset) vbr(length) name`, sorted by name bytes (a `std::map`), each symbol listed
 * once with the first member that defines it; offsets count from the end of the signature in the
 * archive as it would be without the symbol tables. The symbols of a module are its named global
 * variables and functions that are defined and not internal (globals first), in module order.
 */
import { decodeLatin1 } from '../binary/latin1.js';
import type { Module } from '../graph/module.js';
import { ArchiveError } from './archive-error.js';
import type { ArchiveSymbol } from './types.js';

/** The symbols a bytecode member contributes, in LLVM 1.9's order (`getSymbols`). */
export function moduleArchiveSymbols(module: Module): string[] {
  const out: string[] = [];
  for (const g of module.globals) {
    if (g.initializer !== undefined && g.linkage !== 'internal' && g.name) out.push(g.name);
  }
  for (const f of module.functions) {
    if (!f.isDeclaration && f.linkage !== 'internal' && f.name) out.push(f.name);
  }
  return out;
}

/** Bytes of an unsigned LEB-style VBR number (7 bits a byte, high bit = more). */
export function vbrLength(n: number): number {
  let length = 1;
  while (n >= 0x80) {
    n = Math.floor(n / 128);
    length++;
  }
  return length;
}

/**
 * The body of LLVM's symbol table member (`#_LLVM_SYM_TAB_#`) for `entries`, in their order:
 * each the member's offset and the name's length as VBR numbers, then the name's bytes.
 */
export function encodeSymbolTable(entries: readonly ArchiveSymbol[]): Uint8Array {
  let size = 0;
  for (const e of entries) size += vbrLength(e.offset) + vbrLength(e.name.length) + e.name.length;
  const out = new Uint8Array(size);
  let at = 0;
  const vbr = (n: number): void => {
    while (n >= 0x80) {
      out[at++] = 0x80 | (n & 0x7f);
      n = Math.floor(n / 128);
    }
    out[at++] = n;
  };
  for (const e of entries) {
    vbr(e.offset);
    vbr(e.name.length);
    for (let i = 0; i < e.name.length; i++) out[at++] = e.name.charCodeAt(i) & 0xff;
  }
  return out;
}

/** Byte order of names, as `std::string`'s `<` compared them. */
export function compareNames(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The entries of a symbol table member, in file order. `base` is the data's offset in the archive. */
export function decodeSymbolTable(data: Uint8Array, base: number, where: readonly string[]): ArchiveSymbol[] {
  const out: ArchiveSymbol[] = [];
  let at = 0;
  const vbr = (what: string): number => {
    let value = 0;
    let scale = 1;
    for (let i = 0; ; i++) {
      if (at >= data.length) throw new ArchiveError(`symbol table ends inside a symbol's ${what}`, base + at, where);
      if (i >= 5) throw new ArchiveError(`symbol table ${what} is longer than 5 bytes`, base + at, where);
      const byte = data[at++]!;
      value += (byte & 0x7f) * scale;
      scale *= 128;
      if ((byte & 0x80) === 0) return value;
    }
  };
  while (at < data.length) {
    const entryAt = at;
    const offset = vbr('offset');
    const length = vbr('name length');
    if (length > data.length - at) {
      throw new ArchiveError(`symbol name of ${length} bytes runs past the symbol table (${data.length - at} left)`, base + entryAt, where);
    }
    const name = decodeLatin1(data, at, at + length);
    at += length;
    out.push({ name, offset });
  }
  return out;
}
