/**
 * Stack maps: read, print, check, write and convert the stack map sections LLVM's code generator
 * writes (`.llvm_stackmaps`, `__LLVM_STACKMAPS,__llvm_stackmaps`), every version (0: LLVM 3.4,
 * 1: 3.5–3.9, 2: 4.0, 3: 5.0 onwards) and the forks' variants, from ELF, Mach-O (incl. universal),
 * COFF or a bare section. Platform-neutral: Uint8Array in, no fs. See docs/stackmaps.md.
 *
 * ```ts
 * const file = readStackMaps(bytes);               // every section of an object file
 * for (const s of file.sections) console.log(printStackMap(s, { syntax: 'readobj' }));
 * const v2 = encodeStackMapSection(file.sections[0].map, { version: 2 });
 * ```
 */
// Names that are generic elsewhere in the package carry a StackMap prefix here.
export { StackMapError } from './errors.js';
export {
  LocationKind as StackMapLocationKind,
  LOCATION_KIND_NAMES as STACKMAP_LOCATION_KIND_NAMES,
  type Endian as StackMapEndian,
  type StackMap,
  type StackMapFunction,
  type StackMapLiveOut,
  type StackMapLocation,
  type StackMapRecord,
  type StackMapVariant,
  type StackMapVersion,
} from './model.js';
export { decodeStackMapSection, LLILC_FORK, YKLLVM_FORK, type DecodeOptions as StackMapDecodeOptions } from './decode.js';
export { encodeStackMapSection, type EncodeOptions as StackMapEncodeOptions } from './encode.js';
export { groupRecords as groupStackMapRecords, GROUPING_RULE as STACKMAP_GROUPING_RULE, type Grouping as StackMapGrouping } from './group.js';
export {
  containerOf as objectContainerOf,
  findStackMapSections,
  type Arch as StackMapArch,
  type ContainerKind as ObjectContainerKind,
  type FoundSection as FoundStackMapSection,
} from './object.js';
export { readStackMaps, type ReadOptions as StackMapReadOptions, type StackMapFile, type StackMapSection } from './read.js';
export {
  printReadobj as printStackMapReadobj,
  printReadobjBytes as printStackMapReadobjBytes,
  printText as printStackMapText,
  printTextBytes as printStackMapTextBytes,
  printHuman as printStackMapHuman,
  stackMapJson,
  type StackMapSyntax,
} from './print.js';
export { dwarfRegisterName } from './registers.js';
export { readStatepoint, type StatepointView } from './statepoint.js';
export { checkStackMap, type CheckInput as StackMapCheckInput, type StackMapDiagnostic } from './check.js';
export { writeStackMap, type WrittenStackMap } from './write.js';
