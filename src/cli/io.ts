/**
 * Everything the CLI does to the outside world, behind one small interface, so that tests can run
 * `run(argv, io)` in-process with memory buffers and the real entry point can use node:fs.
 *
 * Text is passed as strings whose characters are bytes (latin1, see src/binary/latin1.ts): names
 * in bytecode are raw bytes, and `llvm-dis` printed them as such, so the CLI writes each character
 * as the one byte it stands for, never as UTF-8.
 */
import { readFileSync, writeFileSync } from 'node:fs';

export interface CliIo {
  /** Writes to standard output: a string (one byte per character) or raw bytes. */
  stdout(data: string | Uint8Array): void;
  /** Writes a diagnostic to standard error. */
  stderr(text: string): void;
  /** The bytes of a file; throws a Node `ErrnoException` when it cannot be read. */
  readFile(path: string): Uint8Array;
  /** All of standard input. */
  readStdin(): Promise<Uint8Array>;
  /** Creates or replaces a file; throws a Node `ErrnoException` on failure. */
  writeFile(path: string, data: string | Uint8Array): void;
  /** True when standard input is a terminal (someone may be waiting for us to say something). */
  stdinIsTerminal?(): boolean;
}

/** Bytes to hand to the OS for a string of byte-characters or a byte array. */
export function toBytes(data: string | Uint8Array): Uint8Array {
  return typeof data === 'string' ? Buffer.from(data, 'latin1') : data;
}

/** The real thing: node:fs and the process streams. */
export function nodeIo(): CliIo {
  return {
    // One write per call: `dis` hands over the whole listing at once, and process.stdout keeps
    // the process alive until it has drained (we never call process.exit).
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
    writeFile: (path, data) => writeFileSync(path, toBytes(data)),
    stdinIsTerminal: () => process.stdin.isTTY === true,
  };
}
