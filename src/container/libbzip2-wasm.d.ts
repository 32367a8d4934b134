/**
 * Typings for `libbzip2-wasm` 0.0.x: the reference libbzip2 compiled to WebAssembly with
 * Emscripten/embind (CommonJS). Covers only what `bzip2.ts` uses.
 *
 * The default export is a factory: calling it instantiates the module, which becomes usable once
 * its runtime has initialised (`then(cb)` / `onRuntimeInitialized`). The module object is itself
 * a "thenable" whose `then` passes the module again, so it must never be awaited or returned from
 * an async function directly (that would recurse forever); `bzip2.ts` wraps it.
 */
declare module 'libbzip2-wasm' {
  namespace LibBzip2 {
    /** The result of one compression (an embind object: free it with `delete()`). */
    interface CompressResult {
      /** 0 (`BZ_OK`) on success, otherwise a libbzip2 error code. */
      readonly error: number;
      readonly errorMsg: string;
      /** A view into the WebAssembly heap: copy it before the next call into the module. */
      readonly output: Uint8Array;
      delete(): void;
    }
    interface Module {
      /** `BZ2_bzCompress` of the whole input with the given block size (1–9) and work factor. */
      compressBZ2(input: Uint8Array, blockSize100k: number, workFactor: number): CompressResult;
      then(callback: (module: Module) => void): Module;
      calledRun?: boolean;
    }
  }
  function LibBzip2(overrides?: object): LibBzip2.Module;
  export = LibBzip2;
}
