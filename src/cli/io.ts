/**
 * Everything the CLI does to the outside world, behind one small interface, so that tests can run
 * `run(argv, io)` in-process with memory buffers and the real entry point can use node:fs.
 *
 * Text is passed as strings whose characters are bytes (latin1, see src/binary/latin1.ts): names
 * in bytecode are raw bytes, and `llvm-dis` printed them as such, so the CLI writes each character
 * as the one byte it stands for, never as UTF-8.
 */
import {
  closeSync,
  fstatSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readlinkSync,
  readSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  writeSync,
} from 'node:fs';
import { dirname, join, resolve, sep } from 'node:path';
import { isatty } from 'node:tty';
import { InputTooLarge, type ReadBounds } from './bounded-read.js';
import type { ParallelRunner } from './pool.js';

export type { ReadBounds } from './bounded-read.js';

/** What makes two paths the same file: its device and inode (through symbolic and hard links). */
export interface FileIdentity {
  readonly dev: number;
  readonly ino: number;
}

/** One entry of a directory listing. */
export interface DirectoryEntry {
  readonly name: string;
  /** A real directory (a symbolic link to one is not followed, so a walk cannot loop). */
  readonly directory: boolean;
  /** A symbolic link to a directory (not followed; a walk counts it as skipped). */
  readonly linkToDirectory?: boolean;
  /** The size in bytes of a file (0 for a directory); used only to schedule large files first. */
  readonly size: number;
}

export interface CliIo {
  /** Writes to standard output: a string (one byte per character) or raw bytes. */
  stdout(data: string | Uint8Array): void;
  /**
   * Writes bytes to standard output and is done with them when it returns (the caller may reuse
   * the array). Absent: `stdout` is given a copy.
   */
  stdoutNow?(data: Uint8Array): void;
  /** Writes a diagnostic to standard error. */
  stderr(text: string): void;
  /** True when standard error is a terminal (batch runs show a progress line there). */
  readonly stderrIsTerminal?: boolean;
  /** True when standard input is a terminal (someone may be waiting for us to say something). */
  stdinIsTerminal?(): boolean;
  /** True when standard output is a terminal (binary output is never written there). */
  stdoutIsTerminal?(): boolean;
  /**
   * The bytes of a file; throws a Node `ErrnoException` when it cannot be read. With `bounds`,
   * the first bytes are shown to `bounds.checkHead` before any more is read, and a file larger
   * than `bounds.maxSize` is refused (`InputTooLarge`) without being read whole.
   */
  readFile(path: string, bounds?: ReadBounds): Uint8Array;
  /** The first `length` bytes of a file (fewer if it is shorter); absent, `readFile` serves. */
  readPrefix?(path: string, length: number): Uint8Array;
  /** All of standard input, within `bounds` as for `readFile`. */
  readStdin(bounds?: ReadBounds): Promise<Uint8Array>;
  /** The file a path names, links followed; undefined when there is none (or it cannot be seen). */
  identity?(path: string): FileIdentity | undefined;
  /** The file standard input or output is, when it is one (`< in.bc`, `> out.ll`). */
  standardIdentity?(fd: 0 | 1): FileIdentity | undefined;
  /**
   * Creates or replaces a file; throws a Node `ErrnoException` on failure. The file is replaced
   * whole or not at all: a failed write never leaves a half-written file in the user's place.
   * Pieces are written as they come, each before the next is taken (a piece's array may be
   * reused for the next); an error thrown while taking one (a printer's refusal) leaves the old
   * file, and is thrown on.
   */
  writeFile(path: string, data: string | Uint8Array | Iterable<Uint8Array>, options?: WriteOptions): void;
  /** True when `path` names a directory (false when it is missing). */
  isDirectory(path: string): boolean;
  /**
   * The entries of a directory, in no particular order. With `sizeOf`, only the files whose names
   * it accepts need have their sizes (the others may say 0): a file's size costs a look of its own.
   */
  listDirectory(path: string, options?: { sizeOf?: (name: string) => boolean }): DirectoryEntry[];
  /** Creates a directory and its missing parents. */
  makeDirectory(path: string): void;
  /** Runs batch work in worker threads; absent, batches run one file at a time in this thread. */
  readonly parallel?: ParallelRunner;
}

/** What the caller of `writeFile` knows about the target. */
export interface WriteOptions {
  /**
   * Nothing was at the path when the caller looked (a batch lists each output directory once
   * instead of asking about every file): the target is then not looked up again before writing.
   */
  readonly known?: 'absent';
}

/** Bytes to hand to the OS for a string of byte-characters or a byte array. */
export function toBytes(data: string | Uint8Array): Uint8Array {
  return typeof data === 'string' ? Buffer.from(data, 'latin1') : data;
}

/**
 * Writes `data` to `path` through a temporary file beside it, renamed over the target when
 * complete, so that a full disk, a refusal while writing or an interruption leaves the old file
 * (or none), never a torn one. A symbolic link is written through: the file it points to is
 * replaced and the link stays. Anything but a regular file (`/dev/null`, a pipe) is written in
 * place: renaming over it would replace the device or fifo itself. With `known: 'absent'` the
 * target is not looked up first (something made there meanwhile is replaced, as it would be if
 * made between a look and the rename).
 */
export function writeFileAtomically(path: string, data: string | Uint8Array | Iterable<Uint8Array>, options?: WriteOptions): void {
  // (Asked not to throw: a missing target is the common case of a batch, and an exception per
  // file costs more than the stat.)
  const target = options?.known === 'absent' ? path : throughLinks(path);
  const existing = options?.known === 'absent' ? undefined : statSync(target, { throwIfNoEntry: false });
  const bytes = typeof data === 'string' || data instanceof Uint8Array ? [toBytes(data)] : data;
  if (existing && !existing.isFile()) {
    writeAll(openSync(target, 'w'), bytes);
    return;
  }
  const temporary = temporaryName(target);
  try {
    // 'wx': never follow or clobber something already at the temporary name.
    writeAll(openSync(temporary, 'wx', existing ? existing.mode & 0o777 : 0o666), bytes);
    renameSync(temporary, target);
  } catch (e) {
    rmSync(temporary, { force: true });
    throw e;
  }
}

/**
 * The path a write to `path` replaces: `path` itself, or where its symbolic links lead (a link
 * to a file not yet made leads to that file's name).
 */
function throughLinks(path: string): string {
  let at = path;
  for (let hops = 0; hops < 40; hops++) {
    const link = lstatSync(at, { throwIfNoEntry: false });
    if (!link?.isSymbolicLink()) return at;
    try {
      return realpathSync(at);
    } catch {
      at = resolve(dirname(at), readlinkSync(at)); // dangling: follow by hand
    }
  }
  return at;
}

/** This thread's part of every temporary name (threads share the process id), and a counter. */
const temporaryTag = `${process.pid}.${Math.random().toString(36).slice(2, 10)}`;
let temporaries = 0;

/** `dir/.name.PID.TAG-N.tmp` beside `dir/name` (string operations: a batch names thousands). */
function temporaryName(path: string): string {
  const slash = Math.max(path.lastIndexOf('/'), sep === '\\' ? path.lastIndexOf('\\') : -1);
  return `${path.slice(0, slash + 1)}.${path.slice(slash + 1)}.${temporaryTag}-${temporaries++}.tmp`;
}

/** Writes the pieces in order (taking each only when the one before is written), then closes. */
function writeAll(fd: number, pieces: Iterable<Uint8Array>): void {
  try {
    for (const bytes of pieces) for (let done = 0; done < bytes.length; ) done += writeSync(fd, bytes, done, bytes.length - done);
  } finally {
    closeSync(fd);
  }
}

/** Whether a process stream writes to a file (Node writes those synchronously). */
function isFileStream(stream: NodeJS.WriteStream): boolean {
  return stream.constructor.name === 'SyncWriteStream';
}

/** The real thing: node:fs and the process streams; `parallel` when worker threads are offered. */
export function nodeIo(parallel?: ParallelRunner): CliIo {
  const made = new Set<string>();
  return {
    stdinIsTerminal: () => isTerminal(0),
    stdoutIsTerminal: () => isTerminal(1),
    // One write per call: `dis` hands over the whole listing at once, and process.stdout keeps
    // the process alive until it has drained (we never call process.exit).
    stdout: (data) => void process.stdout.write(toBytes(data)),
    // Node writes standard output synchronously only to files; a pipe or a terminal may keep the
    // bytes queued after write() returns (a full pipe), so those get a copy.
    stdoutNow: (data) => void process.stdout.write(isFileStream(process.stdout) ? data : data.slice()),
    stderr: (text) => void process.stderr.write(text),
    // Asked when needed (a batch's progress line): making process.stderr costs a start the loading
    // of Node's stream library.
    get stderrIsTerminal() {
      return isTerminal(2);
    },
    readFile: (path, bounds) => readFileBounded(path, bounds),
    readPrefix: (path, length) => {
      const fd = openSync(path, 'r');
      try {
        const head = new Uint8Array(length);
        return head.subarray(0, readSync(fd, head, 0, length, 0));
      } finally {
        closeSync(fd);
      }
    },
    readStdin: (bounds) => readStdinBounded(bounds),
    identity: (path) => {
      try {
        const st = statSync(path, { throwIfNoEntry: false });
        return st ? { dev: st.dev, ino: st.ino } : undefined;
      } catch {
        return undefined; // ENOTDIR, EACCES…: reading or writing it will say why
      }
    },
    standardIdentity: (fd) => {
      try {
        const st = fstatSync(fd);
        return st.isFile() ? { dev: st.dev, ino: st.ino } : undefined;
      } catch {
        return undefined;
      }
    },
    writeFile: writeFileAtomically,
    isDirectory: (path) => {
      try {
        return statSync(path, { throwIfNoEntry: false })?.isDirectory() === true;
      } catch {
        return false; // ENOTDIR, EACCES…: not a directory we can walk; reading it will say why
      }
    },
    listDirectory: (path, options) =>
      readdirSync(path, { withFileTypes: true }).map((d) => {
        if (d.isDirectory()) return { name: d.name, directory: true, size: 0 };
        if (d.isSymbolicLink()) {
          try {
            if (statSync(join(path, d.name)).isDirectory()) return { name: d.name, directory: false, linkToDirectory: true, size: 0 };
          } catch {
            // Dangling: reading it will say so, in its own error line.
          }
        }
        if (options?.sizeOf && !options.sizeOf(d.name)) return { name: d.name, directory: false, size: 0 };
        let size = 0;
        try {
          size = statSync(join(path, d.name)).size;
        } catch {
          // Vanished meanwhile: reading it will say so, in its own error line.
        }
        return { name: d.name, directory: false, size };
      }),
    makeDirectory: (path) => {
      // A batch asks for the same few directories once per file.
      if (made.has(path)) return;
      mkdirSync(path, { recursive: true });
      made.add(path);
    },
    ...(parallel ? { parallel } : {}),
  };
}

/**
 * Whether a file descriptor is a terminal: the one decision behind the progress line (stderr),
 * the refusal to write bytecode to a screen (stdout) and the usage shown when a command would
 * wait for typed input (stdin). `check` is `tty.isatty`, replaceable for tests; a terminal that
 * says it cannot move the cursor (`TERM=dumb`) counts for stdin and stdout but gets no progress
 * line.
 */
export function isTerminal(fd: 0 | 1 | 2, check: (fd: number) => boolean = isatty, env: NodeJS.ProcessEnv = process.env): boolean {
  if (!check(fd)) return false;
  return fd !== 2 || env['TERM'] !== 'dumb';
}

/** How much is read at once: the head first (for its check), then pieces of this size. */
const READ_PIECE = 1 << 20;

/**
 * A file's bytes within `bounds`: the head is read and checked first, a regular file's size is
 * compared with the limit before it is read, and anything else (a device, a fifo) is read piece
 * by piece until it ends or passes the limit.
 */
function readFileBounded(path: string, bounds: ReadBounds | undefined): Uint8Array {
  const fd = openSync(path, 'r');
  try {
    const st = fstatSync(fd);
    if (st.isDirectory()) throw Object.assign(new Error(`EISDIR: ${path}`), { code: 'EISDIR' });
    const max = bounds?.maxSize ?? Number.MAX_SAFE_INTEGER;
    const pieces: Uint8Array[] = [];
    let total = 0;
    const readInto = (piece: Uint8Array, from: number): number => {
      let at = from;
      for (let n; at < piece.length && (n = readSync(fd, piece, at, piece.length - at, null)) > 0; ) at += n;
      return at - from;
    };
    // The head first, and its check (a wrong file is named as wrong, not as large).
    if (bounds?.checkHead) {
      const head = new Uint8Array(bounds.headLength ?? 8);
      total = readInto(head, 0);
      bounds.checkHead(head.subarray(0, total));
      pieces.push(head.subarray(0, total));
    }
    // A regular file states its size: refused before it is read, else read in one piece.
    if (st.isFile()) {
      if (st.size > max) throw new InputTooLarge(max, st.size);
      if (st.size > total) {
        const whole = new Uint8Array(st.size);
        whole.set(pieces[0] ?? new Uint8Array(), 0);
        total += readInto(whole, total);
        pieces[0] = whole.subarray(0, total);
      }
    }
    // Anything else (a device, a fifo), or a file that grew meanwhile: piece by piece.
    for (let size = st.isFile() ? 4096 : READ_PIECE; ; size = READ_PIECE) {
      const piece = new Uint8Array(size);
      const n = readInto(piece, 0);
      if (n === 0) break;
      pieces.push(piece.subarray(0, n));
      total += n;
      if (total > max) throw new InputTooLarge(max);
    }
    return join1(pieces, total);
  } finally {
    closeSync(fd);
  }
}

/** Standard input within `bounds`, as `readFileBounded`; stops reading at the first refusal. */
async function readStdinBounded(bounds: ReadBounds | undefined): Promise<Uint8Array> {
  const max = bounds?.maxSize ?? Number.MAX_SAFE_INTEGER;
  const headLength = bounds?.checkHead ? (bounds.headLength ?? 8) : 0;
  const chunks: Uint8Array[] = [];
  let total = 0;
  let checked = headLength === 0;
  const stdin = process.stdin;
  try {
    for await (const chunk of stdin) {
      const piece = chunk as Buffer;
      chunks.push(new Uint8Array(piece.buffer, piece.byteOffset, piece.byteLength));
      total += piece.byteLength;
      if (!checked && total >= headLength) {
        bounds!.checkHead!(join1(chunks, total).subarray(0, headLength));
        checked = true;
      }
      if (total > max) throw new InputTooLarge(max);
    }
    if (!checked) bounds!.checkHead!(join1(chunks, total));
  } catch (e) {
    // Nothing more is wanted: stop reading (a writer such as `cat /dev/zero` then ends too).
    stdin.destroy();
    throw e;
  }
  return join1(chunks, total);
}

/** The pieces as one array (the piece itself when there is one). */
function join1(pieces: Uint8Array[], total: number): Uint8Array {
  if (pieces.length === 1 && pieces[0]!.length === total) return pieces[0]!;
  const out = new Uint8Array(total);
  let at = 0;
  for (const p of pieces) {
    out.set(p, at);
    at += p.length;
  }
  pieces.length = 0;
  pieces.push(out);
  return out;
}
