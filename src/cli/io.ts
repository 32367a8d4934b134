/**
 * Everything the CLI does to the outside world, behind one small interface, so that tests can run
 * `run(argv, io)` in-process with memory buffers and the real entry point can use node:fs.
 *
 * Text is passed as strings whose characters are bytes (latin1, see src/binary/latin1.ts): names
 * in bytecode are raw bytes, and `llvm-dis` printed them as such, so the CLI writes each character
 * as the one byte it stands for, never as UTF-8.
 */
import { closeSync, openSync, readFileSync, writeFileSync, writeSync } from 'node:fs';

export interface CliIo {
  /** Writes to standard output: a string (one byte per character) or raw bytes. */
  stdout(data: string | Uint8Array): void;
  /** Writes a diagnostic to standard error. */
  stderr(text: string): void;
  /** The bytes of a file; throws a Node `ErrnoException` when it cannot be read. */
  readFile(path: string): Uint8Array;
  /** All of standard input. */
  readStdin(): Promise<Uint8Array>;
  /**
   * Creates or replaces a file; throws a Node `ErrnoException` on failure. Chunks are written as
   * the iterable gives them (a listing is printed while it is written).
   */
  writeFile(path: string, data: string | Uint8Array | Iterable<Uint8Array>): void;
}

/** Bytes to hand to the OS for a string of byte-characters or a byte array. */
export function toBytes(data: string | Uint8Array): Uint8Array {
  return typeof data === 'string' ? Buffer.from(data, 'latin1') : data;
}

/** The real thing: node:fs and the process streams. */
export function nodeIo(): CliIo {
  return {
    // One write per call (`dis` calls it once per chunk of the listing); process.stdout keeps the
    // process alive until it has drained (we never call process.exit).
    stdout: (data) => void process.stdout.write(toBytes(data)),
    stderr: (text) => void process.stderr.write(text),
    readFile: (path) => {
      const buf = readFileSync(path);
      return new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength);
    },
    readStdin: async () => {
      const chunks: Buffer[] = [];
      for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
      const all = Buffer.concat(chunks);
      return new Uint8Array(all.buffer, all.byteOffset, all.byteLength);
    },
    writeFile: (path, data) => {
      if (typeof data === 'string' || data instanceof Uint8Array) {
        writeFileSync(path, toBytes(data));
        return;
      }
      const fd = openSync(path, 'w');
      try {
        for (const chunk of data) writeAll(fd, chunk);
      } finally {
        closeSync(fd);
      }
    },
  };
}

/** Writes all of `data` to the file `fd` (writeSync may write less than asked). */
function writeAll(fd: number, data: Uint8Array): void {
  for (let done = 0; done < data.length; ) done += writeSync(fd, data, done, data.length - done);
}
