import type { ErrorInfo, Summary } from '../worker/protocol.js';
import { formatBytes, h, hex } from './dom.js';

const SIGNATURES = new Map<string, string>([
  ['llvm', 'llvm (uncompressed)'],
  ['llvc0', 'llvc0 (container)'],
  ['llvc1', 'llvc1 (zlib)'],
  ['llvc2', 'llvc2 (bzip2)'],
]);

const COMPRESSIONS = new Map<string, string>([
  ['none', 'none'],
  ['null', 'none (stored as is)'],
  ['zlib', 'zlib'],
  ['bzip2', 'bzip2'],
]);

export function showSummary(dl: HTMLElement, s: Summary): void {
  const rows: [string, string][] = [
    ['File', s.fileName],
    ['File size', formatBytes(s.fileSize)],
  ];
  if (s.signature) rows.push(['Signature', SIGNATURES.get(s.signature) ?? s.signature]);
  if (s.compression) rows.push(['Compression', COMPRESSIONS.get(s.compression) ?? s.compression]);
  if (s.uncompressedSize !== null && s.uncompressedSize !== s.fileSize) rows.push(['Uncompressed', formatBytes(s.uncompressedSize)]);
  if (s.bytecodeVersion !== null) rows.push(['Bytecode version', String(s.bytecodeVersion)]);
  if (s.writtenBy) rows.push(['Written by', s.writtenBy]);
  rows.push(...s.counts);
  dl.replaceChildren(...rows.flatMap(([k, v]) => [h('dt', {}, k), h('dd', {}, v)]));
}

/** The typed error of a damaged file: what, where, and how far the file read. */
export function showError(box: HTMLElement, e: ErrorInfo | null, hasBytes: boolean, reveal: () => void, inFile = false): void {
  if (!e) {
    box.hidden = true;
    box.replaceChildren();
    return;
  }
  const parts: (Node | string)[] = [h('h2', {}, `This file could not be read: ${e.kind}`), h('p', { class: 'reason' }, e.reason)];
  if (e.offset !== null) {
    const where = e.blockPath.length ? ` inside ${e.blockPath.join(' › ')}` : '';
    parts.push(
      h(
        'p',
        {},
        `Reading stopped at offset ${e.offset} (0x${hex(e.offset)})${where}. ` +
          (inFile
            ? `The error is in the file's container (signature or compression), so offsets are those of the file as given; the bytes view marks the place.`
            : `The first ${e.offset.toLocaleString('en-US')} bytes of the stream were read; the bytes view marks where reading stopped.`),
      ),
    );
    if (hasBytes) {
      const button = h('button', { type: 'button', class: 'button' }, 'Show where it stopped');
      button.addEventListener('click', reveal);
      parts.push(button);
    }
  }
  box.replaceChildren(...parts);
  box.hidden = false;
}
