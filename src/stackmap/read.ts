/**
 * A file's stack maps: its sections found (object.ts), each decoded (decode.ts), its function
 * entries named from the relocations and symbols, and its records grouped per function (group.ts).
 */
import { decodeStackMapSection } from './decode.js';
import { StackMapError } from './errors.js';
import { groupRecords, type Grouping } from './group.js';
import { layoutOf } from './layout.js';
import type { Endian, StackMap } from './model.js';
import { containerOf, findStackMapSections, type ContainerKind, type FoundSection } from './object.js';

export interface ReadOptions {
  /** A bare section's byte order (default: detected from its sizes). Objects carry their own and ignore this. */
  readonly endian?: Endian;
  /** True when the caller leaves the file's bytes unchanged while the result is used: see DecodeOptions.shareBytes. */
  readonly shareBytes?: boolean;
}

/** One stack map section of a file, read. */
export interface StackMapSection {
  /** Where it was found and what the file says about it. */
  readonly found: FoundSection;
  readonly map: StackMap;
  /** Function entry i's symbol, when the relocations or the symbol table name it. */
  readonly functionNames: readonly (string | undefined)[];
  /** Records per function: settled (counts) or why not. */
  readonly grouping: Grouping;
}

export interface StackMapFile {
  readonly container: ContainerKind;
  readonly sections: readonly StackMapSection[];
}

/**
 * Reads every stack map section of an object file (ELF, Mach-O incl. universal, COFF) or a bare
 * section. Throws StackMapError when the file is damaged, has no stack map section, or holds a
 * fork's variant this library does not read (the error's `fork` names it).
 */
export function readStackMaps(bytes: Uint8Array, options: ReadOptions = {}): StackMapFile {
  const container = containerOf(bytes);
  const found = findStackMapSections(bytes);
  if (found.length === 0)
    throw new StackMapError(`no stack map section in this ${container === 'elf' ? 'ELF' : container === 'macho' ? 'Mach-O' : 'COFF'} file`, 0);
  return { container, sections: found.map((f) => readSection(f, options)) };
}

function readSection(found: FoundSection, options: ReadOptions): StackMapSection {
  const path = found.container === 'bare' ? ['bare section (not an object file)'] : [`${found.format} section ${found.sectionName}`];
  const map = decodeStackMapSection(found.bytes, {
    endian: found.endian ?? options.endian,
    fileOffset: found.fileOffset,
    path,
    shareBytes: options.shareBytes,
  });
  const layout = layoutOf(map.version, map.variant);
  // A slot is named by its relocation's symbol; else, when its relocation is section-relative or
  // the file is linked (a non-zero address), by the symbol at the address it holds.
  const functionNames = map.functions.map((f, i) => {
    const slot = layout.headerSize + i * layout.functionSize;
    return found.relocations.get(slot) ?? (f.address !== 0n || found.sectionRelativeSlots.has(slot) ? found.symbolsByAddress.get(f.address) : undefined);
  });
  const sizes = functionNames.map((n) => (n === undefined ? undefined : found.symbolSizes.get(n)));
  return { found, map, functionNames, grouping: groupRecords(map, sizes) };
}
