/**
 * What the stack map fuzzers (`npm run fuzz:stackmap`, the Jazzer.js target
 * fuzz-coverage/targets/stackmap.ts) and the seeded mutation test run on each input: every consumer
 * of src/stackmap on the bytes as an object file or bare section, and as a bare section in each byte
 * order. Each may end only in StackMapError; and whatever decodes must write back byte for byte at
 * its own version, and every conversion must either refuse with StackMapError or give a section
 * that decodes to the same records (the differential oracle between the writer and the reader).
 */
import { StackMapError } from '../src/stackmap/errors.js';
import { decodeStackMapSection } from '../src/stackmap/decode.js';
import { encodeStackMapSection } from '../src/stackmap/encode.js';
import { checkStackMap } from '../src/stackmap/check.js';
import { printHuman, printReadobj, printText, stackMapJson } from '../src/stackmap/print.js';
import { readStackMaps } from '../src/stackmap/read.js';
import { writeStackMap } from '../src/stackmap/write.js';
import type { StackMap, StackMapVersion } from '../src/stackmap/model.js';

function same(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** What differs between two models' records, or undefined (ids, offsets, locations' kinds/regs/offsets, live-outs). */
function recordsDiffer(a: StackMap, b: StackMap, sizes: boolean): string | undefined {
  if (a.records.length !== b.records.length) return `${a.records.length} records became ${b.records.length}`;
  for (let i = 0; i < a.records.length; i++) {
    const x = a.records[i]!;
    const y = b.records[i]!;
    if (x.id !== y.id || x.instructionOffset !== y.instructionOffset || x.locations.length !== y.locations.length || x.liveOuts.length !== y.liveOuts.length)
      return `record #${i} changed`;
    for (let k = 0; k < x.locations.length; k++) {
      const l = x.locations[k]!;
      const m = y.locations[k]!;
      if (l.kind !== m.kind || l.reg !== m.reg || l.offset !== m.offset || (sizes && l.size !== m.size)) return `record #${i} location #${k} changed`;
    }
  }
  return undefined;
}

function checkMap(map: StackMap, original: Uint8Array | undefined): string | undefined {
  const own = encodeStackMapSection(map);
  if (original && !same(own, original)) return `does not write back byte for byte (${own.length} bytes for ${original.length})`;
  for (const version of [0, 1, 2, 3] as StackMapVersion[]) {
    let converted: Uint8Array;
    try {
      converted = encodeStackMapSection(map, { version });
    } catch (e) {
      if (e instanceof StackMapError) continue;
      throw e;
    }
    const back = decodeStackMapSection(converted, { endian: map.endian });
    if (back.version !== version) return `written as version ${version}, read back as ${back.version}`;
    const differs = recordsDiffer(map, back, version !== 0 && map.version !== 0);
    if (differs) return `version ${map.version} → ${version}: ${differs}`;
  }
  return undefined;
}

/** One input through everything: undefined when all is well, else what went wrong. */
export function checkStackMapInput(input: Uint8Array): string | undefined {
  const stage = { name: 'read' };
  try {
    try {
      const file = readStackMaps(input);
      for (const s of file.sections) {
        stage.name = 'print';
        printReadobj(s);
        printText(s);
        printHuman(s);
        JSON.stringify(stackMapJson(s));
        stage.name = 'check';
        checkStackMap({ map: s.map, grouping: s.grouping, arch: s.found.arch });
        stage.name = 'write';
        const failure = checkMap(s.map, s.found.bytes);
        if (failure) return `write: ${failure}`;
        const written = writeStackMap(input, s);
        if (written.kind === 'object' && !same(written.bytes, input)) return 'write: the object with its section replaced by itself differs';
      }
    } catch (e) {
      if (!(e instanceof StackMapError)) throw e;
    }
    for (const endian of ['little', 'big'] as const) {
      stage.name = `decode (${endian})`;
      try {
        const map = decodeStackMapSection(input, { endian });
        stage.name = `write (${endian})`;
        const failure = checkMap(map, input);
        if (failure) return `write (${endian}): ${failure}`;
      } catch (e) {
        if (!(e instanceof StackMapError)) throw e;
      }
    }
    return undefined;
  } catch (e) {
    return `${stage.name}: ${e instanceof Error ? `${e.name}: ${e.message}` : String(e)}`;
  }
}
