/**
 * Standard output written straight to file descriptor 1, as `llvm-dis` wrote it. Node's
 * `process.stdout` is a stream whose creation loads Node's whole stream library: a quarter of what
 * `dis` of a small file costs beyond starting Node (measured: 12 M instructions of 40 M). A
 * synchronous write also leaves nothing queued, so a chunk may be reused once it returns.
 *
 * Two exceptions keep the stream's behaviour: a reader that stops early (`dis big.bc | head`,
 * EPIPE) ends the process quietly, as before; a descriptor in non-blocking mode (EAGAIN, when
 * whoever started us shares one) hands this write and every later one to `process.stdout`, which
 * waits for the reader (and keeps the order). Any other failure (ENOSPC on /dev/full) is thrown to
 * the caller, which reports it in one line.
 */
import { writeSync } from 'node:fs';

/**
 * A writer of bytes to standard output. `stream` gives `process.stdout` (with the caller's error
 * handling attached) when the writer has to fall back on it.
 */
export function directStdout(stream: () => NodeJS.WriteStream): (bytes: Uint8Array) => void {
  let fallback: NodeJS.WriteStream | undefined;
  return (bytes) => {
    if (fallback) {
      fallback.write(bytes.slice());
      return;
    }
    let done = 0;
    try {
      while (done < bytes.length) done += writeSync(1, bytes, done, bytes.length - done);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'EPIPE') process.exit(0);
      if (code !== 'EAGAIN') throw e;
      fallback = stream();
      fallback.write(bytes.slice(done));
    }
  };
}
