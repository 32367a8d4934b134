/**
 * Writing a converted section where it came from: into a copy of its object file when the new
 * section has the old one's size (the container's offsets, relocations and symbols then all stay
 * right), otherwise as a bare section, since growing or shrinking a section inside an object file
 * means relaying out the container, which this library does not do.
 */
import { encodeStackMapSection, type EncodeOptions } from './encode.js';
import type { StackMapSection } from './read.js';

export interface WrittenStackMap {
  /** `object`: the whole file with the section replaced in place; `section`: the bare section. */
  readonly kind: 'object' | 'section';
  readonly bytes: Uint8Array;
  /** Why a bare section was written although the input was an object file (undefined otherwise). */
  readonly why?: string;
}

/**
 * The section `s` of `file` written as `options` say (see encodeStackMapSection; throws its
 * StackMapError when the target cannot hold the section).
 */
export function writeStackMap(file: Uint8Array, s: StackMapSection, options: EncodeOptions = {}): WrittenStackMap {
  const section = encodeStackMapSection(s.map, options);
  if (s.found.container === 'bare') return { kind: 'section', bytes: section };
  const endian = options.endian ?? s.map.endian;
  if (s.found.endian !== undefined && endian !== s.found.endian) {
    return { kind: 'section', bytes: section, why: `the section is ${endian}-endian and the object ${s.found.endian}-endian` };
  }
  if (section.length !== s.found.bytes.length) {
    return { kind: 'section', bytes: section, why: `the section is ${section.length} bytes at the new version, ${s.found.bytes.length} in the object` };
  }
  const out = file.slice();
  out.set(section, s.found.fileOffset);
  return { kind: 'object', bytes: out };
}
