/**
 * Object files (ELF, Mach-O, COFF) open as their stack map sections (src/stackmap): the text
 * pane shows each section for people (function and register names, statepoints) and then as
 * `llvm-readobj-16 --stackmap` prints it; a file without one, or a damaged or fork's section,
 * shows the StackMapError like any damaged file.
 */
import { objectContainerOf, printStackMapHuman, printStackMapReadobj, readStackMaps } from '../../../src/stackmap/index.js';
import { errorInfo } from './error-info.js';
import type { ErrorInfo, Summary } from './protocol.js';

/** Whether the bytes are an object file (by magic number), which the page reads for stack maps. */
export function isObjectFile(bytes: Uint8Array): boolean {
  return objectContainerOf(bytes) !== 'bare';
}

export function stackMapView(name: string, bytes: Uint8Array): { summary: Summary; text: string | null; error: ErrorInfo | null } {
  const summary: Summary = {
    fileName: name,
    fileSize: bytes.length,
    signature: null,
    compression: null,
    bytecodeVersion: null,
    writtenBy: 'an object file',
    nativeDialect: null,
    uncompressedSize: null,
    counts: [],
  };
  try {
    const file = readStackMaps(bytes);
    const parts: string[] = [];
    for (const s of file.sections) {
      parts.push(printStackMapHuman(s), '\nAs llvm-readobj-16 --stackmap prints it:\n', printStackMapReadobj(s), '\n');
    }
    const first = file.sections[0]!;
    summary.writtenBy = `LLVM stack map section, version ${first.map.version} (${first.found.format})`;
    summary.counts = [
      ['stack map sections', String(file.sections.length)],
      ['functions', String(file.sections.reduce((n, s) => n + s.map.functions.length, 0))],
      ['records', String(file.sections.reduce((n, s) => n + s.map.records.length, 0))],
      ['constants', String(file.sections.reduce((n, s) => n + s.map.constants.length, 0))],
    ];
    return { summary, text: parts.join(''), error: null };
  } catch (e) {
    return { summary, text: null, error: errorInfo(e) };
  }
}
