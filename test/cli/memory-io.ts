/** An in-memory `CliIo` for running the CLI in-process: files in a Map, output captured. */
import type { CliIo } from '../../src/cli/io.js';

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
  const out: Uint8Array[] = [];
  let err = '';
  const bytes = (data: string | Uint8Array): Uint8Array => (typeof data === 'string' ? Buffer.from(data, 'latin1') : data);
  return {
    files: store,
    stdout: (data) => void out.push(bytes(data)),
    stderr: (text) => void (err += text),
    readFile: (path) => {
      const f = store.get(path);
      if (!f) throw Object.assign(new Error(`ENOENT: no such file or directory, open '${path}'`), { code: 'ENOENT' });
      return f;
    },
    readStdin: () => Promise.resolve(stdin),
    writeFile: (path, data) => void store.set(path, typeof data === 'string' || data instanceof Uint8Array ? bytes(data) : new Uint8Array(Buffer.concat([...data]))),
    out: () => Buffer.concat(out).toString('latin1'),
    outBytes: () => new Uint8Array(Buffer.concat(out)),
    err: () => err,
  };
}
