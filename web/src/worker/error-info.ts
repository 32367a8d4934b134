import { BytecodeError } from '../../../src/errors/bytecode-error.js';
import type { ErrorInfo } from './protocol.js';

/** Turns anything thrown into plain data the page can show (keeping a BytecodeError's position). */
export function errorInfo(e: unknown): ErrorInfo {
  if (e instanceof BytecodeError) {
    return { kind: 'BytecodeError', reason: e.reason, message: e.message, offset: e.offset, blockPath: [...e.blockPath] };
  }
  if (e instanceof Error) return { kind: e.name || 'Error', reason: e.message, message: e.message, offset: null, blockPath: [] };
  return { kind: 'Error', reason: String(e), message: String(e), offset: null, blockPath: [] };
}
