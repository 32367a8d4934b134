/**
 * Everything the CLI does to the outside world, behind one small interface, so that tests can run
 * `run(argv, io)` in-process with memory buffers and the real entry point can use node:fs.
 *
 * Text is passed as strings whose characters are bytes (latin1, see src/binary/latin1.ts): names
 * in bytecode are raw bytes, and `llvm-dis` printed them as such, so the CLI writes each character
 * as the one byte it stands for, never as UTF-8.
 */
import { closeSync, mkdirSync, openSync, readdirSync, readFileSync, readSync, renameSync, rmSync, statSync, writeSync } from 'node:fs';
import { join, sep } from 'node:path';
import type { ParallelRunner } from './pool.js';

/** One entry of a directory listing. */
export interface DirectoryEntry {
  readonly name: string;
  /** A real directory (a symbolic link to one is not followed, so a walk cannot loop). */
  readonly directory: boolean;
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
  /** The bytes of a file; throws a Node `ErrnoException` when it cannot be read. */
  readFile(path: string): Uint8Array;
  /** The first `length` bytes of a file (fewer if it is shorter); absent, `readFile` serves. */
  readPrefix?(path: string, length: number): Uint8Array;
  /** All of standard input. */
  readStdin(): Promise<Uint8Array>;
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
 * complete, so that a full disk or a crash leaves the old file (or none), never a torn one.
 * Anything but a regular file (`/dev/null`, a pipe) is written in place: renaming over it would
 * replace the device or fifo itself. With `known: 'absent'` the target is not looked up first
 * (something made there meanwhile is replaced, as it would be if made between a look and the
 * rename).
 */
export function writeFileAtomically(path: string, data: string | Uint8Array | Iterable<Uint8Array>, options?: WriteOptions): void {
  // (Asked not to throw: a missing target is the common case of a batch, and an exception per
  // file costs more than the stat.)
  const existing = options?.known === 'absent' ? undefined : statSync(path, { throwIfNoEntry: false });
  const bytes = typeof data === 'string' || data instanceof Uint8Array ? [toBytes(data)] : data;
  if (existing && !existing.isFile()) {
    writeAll(openSync(path, 'w'), bytes);
    return;
  }
  const temporary = temporaryName(path);
  try {
    // 'wx': never follow or clobber something already at the temporary name.
    writeAll(openSync(temporary, 'wx', existing ? existing.mode & 0o777 : 0o666), bytes);
    renameSync(temporary, path);
  } catch (e) {
    rmSync(temporary, { force: true });
    throw e;
  }
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
    stdinIsTerminal: () => process.stdin.isTTY === true,
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
      return process.stderr.isTTY === true;
    },
    readFile: (path) => {
      const buf = readFileSync(path);
      return new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength);
    },
    readPrefix: (path, length) => {
      const fd = openSync(path, 'r');
      try {
        const head = new Uint8Array(length);
        return head.subarray(0, readSync(fd, head, 0, length, 0));
      } finally {
        closeSync(fd);
      }
    },
    readStdin: async () => {
      const chunks: Buffer[] = [];
      for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
      const all = Buffer.concat(chunks);
      return new Uint8Array(all.buffer, all.byteOffset, all.byteLength);
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
