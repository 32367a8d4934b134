/**
 * An in-memory `CliIo` for running the CLI in-process: files in a Map (keyed by path, `/`
 * separated), directories implied by the paths of the files under them or made explicitly,
 * output captured. No worker threads: batches run one file at a time.
 */
import { InputTooLarge } from '../../src/cli/bounded-read.js';
import type { CliIo, DirectoryEntry, ReadBounds } from '../../src/cli/io.js';

/** `bytes` as read within `bounds`: the head shown to its check first, then the size held to the limit. */
function bounded(bytes: Uint8Array, bounds: ReadBounds | undefined): Uint8Array {
  bounds?.checkHead?.(bytes.subarray(0, bounds.headLength ?? 8));
  if (bounds?.maxSize !== undefined && bytes.length > bounds.maxSize) throw new InputTooLarge(bounds.maxSize, bytes.length);
  return bytes;
}

export interface MemoryIo extends CliIo {
  files: Map<string, Uint8Array>;
  /** Standard output so far, one character per byte. */
  out(): string;
  /** Standard output so far, as bytes. */
  outBytes(): Uint8Array;
  err(): string;
}

export function memoryIo(files: Record<string, Uint8Array> = {}, stdin: Uint8Array = new Uint8Array()): MemoryIo {
  const store = new Map(Object.entries(files));
  const made = new Set<string>();
  const out: Uint8Array[] = [];
  let err = '';
  const bytes = (data: string | Uint8Array): Uint8Array => (typeof data === 'string' ? Buffer.from(data, 'latin1') : data);
  const strip = (path: string): string => path.replace(/\/+$/, '');
  const isDirectory = (path: string): boolean => {
    const dir = strip(path);
    return made.has(dir) || [...store.keys(), ...made].some((p) => p.startsWith(`${dir}/`));
  };
  const errno = (code: string, path: string) => Object.assign(new Error(`${code}: ${path}`), { code });
  // A file's identity is its name (no links in memory): numbered as first seen.
  const inodes = new Map<string, number>();
  return {
    files: store,
    identity: (path) => (store.has(path) ? { dev: 1, ino: inodes.get(path) ?? (inodes.set(path, inodes.size + 1), inodes.size) } : undefined),
    stdout: (data) => void out.push(bytes(data)),
    stderr: (text) => void (err += text),
    readFile: (path, bounds) => {
      const f = store.get(path);
      if (!f) throw errno(isDirectory(path) ? 'EISDIR' : 'ENOENT', path);
      return bounded(f, bounds);
    },
    readStdin: (bounds) => Promise.resolve().then(() => bounded(stdin, bounds)),
    writeFile: (path, data) => {
      if (isDirectory(path)) throw errno('EISDIR', path);
      // Pieces are all taken before the file is stored: a failure leaves the old file, as on disk.
      // Each piece is copied as it comes: its array may be reused for the next.
      if (typeof data === 'string' || data instanceof Uint8Array) store.set(path, bytes(data));
      else {
        const pieces: Buffer[] = [];
        for (const piece of data) pieces.push(Buffer.from(piece));
        store.set(path, Buffer.concat(pieces));
      }
    },
    isDirectory,
    listDirectory: (path) => {
      const dir = strip(path);
      if (!isDirectory(dir)) throw errno('ENOENT', path);
      const entries = new Map<string, DirectoryEntry>();
      for (const p of [...store.keys(), ...made]) {
        if (!p.startsWith(`${dir}/`)) continue;
        const [name, ...deeper] = p.slice(dir.length + 1).split('/');
        const directory = deeper.length > 0 || made.has(p);
        entries.set(name!, { name: name!, directory, size: directory ? 0 : store.get(p)!.length });
      }
      return [...entries.values()];
    },
    makeDirectory: (path) => {
      if (store.has(strip(path))) throw errno('EEXIST', path);
      made.add(strip(path));
    },
    out: () => Buffer.concat(out).toString('latin1'),
    outBytes: () => new Uint8Array(Buffer.concat(out)),
    err: () => err,
  };
}
