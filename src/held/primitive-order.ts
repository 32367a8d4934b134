/**
 * Where LLVM 1.9 held its primitive types: `ManagedStatic`s allocated at start-up in Type.cpp's
 * declaration order (sbyte before ubyte, int before uint: not their type ids' order), and before
 * any type a file makes. Symbol tables ordered planes by the address of their type, so the
 * assembler's symbol layout and the linker's both follow this order.
 */
import type { PrimitiveTypeKind } from '../graph/type.js';

/** LLVM 1.9's `Type.cpp` declaration order of the primitive types. */
export const PRIMITIVE_DECLARATION_ORDER: readonly PrimitiveTypeKind[] = Object.freeze([
  'void',
  'bool',
  'sbyte',
  'ubyte',
  'short',
  'ushort',
  'int',
  'uint',
  'long',
  'ulong',
  'float',
  'double',
  'label',
]);
