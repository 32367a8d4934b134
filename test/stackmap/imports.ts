// What the stack map tests use: the library's public entry (src/index.ts re-exports it) and the
// error family it belongs to.
export * from '../../src/stackmap/index.js';
export { BytecodeError as BytecodeErrorCheck } from '../../src/errors/bytecode-error.js';
