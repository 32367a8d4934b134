/**
 * What the container's two WebAssembly modules (the bzip2 decoder and encoder, built by
 * src/container/wasm/build.mjs and carried inline as base64) need from the platform: the part of
 * the `WebAssembly` global they use, and their bytes.
 */

/**
 * The part of the `WebAssembly` global used here (declared here: the library's types are
 * platform-neutral, with neither DOM nor Node types, and ES2022's lib has no WebAssembly).
 */
export interface WebAssemblyApi {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: object) => { exports: unknown };
  RuntimeError: new () => Error;
  compile(bytes: Uint8Array): Promise<object>;
}

export const webAssembly = (globalThis as unknown as { WebAssembly: WebAssemblyApi }).WebAssembly;

/** The part of Node's `Buffer` used here, when there is one. */
interface BufferApi {
  from(text: string, encoding: 'base64'): Uint8Array;
}

/**
 * The bytes of a module carried as base64: through Node's `Buffer` where there is one (decoded
 * natively), else `atob` (browsers), whose string is then copied byte by byte, at a cold start in
 * V8's interpreter (0.5-2 ms for the 3.7 KB decoder, which every `dis` of a compressed file loads).
 */
export function embeddedWasmBytes(base64: string): Uint8Array {
  const nodeBuffer = (globalThis as { Buffer?: BufferApi }).Buffer;
  if (nodeBuffer !== undefined) return nodeBuffer.from(base64, 'base64');
  const text = atob(base64);
  const bytes = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
  return bytes;
}
