/**
 * `llvm-bytecode/graph`: the helpers the library itself uses on the module graph (whose types,
 * with `emptyModule`, `primitiveTypes`, `integerType` and `describeType`, the package root
 * exports): type predicates and comparisons, the predicate, cast and attribute tables, use lists,
 * self-containing types.
 *
 * @packageDocumentation
 */
export {
  CAST_OPCODES,
  collectUses,
  FLOAT_PREDICATES,
  heldByValue,
  heldCallingConvention,
  INT_PREDICATES,
  integerBits,
  integerRange,
  isCastOpcode,
  isFirstClassType,
  isFloatingPoint,
  isInteger,
  isPrimitive,
  isSigned,
  isSignlessInteger,
  MAX_INTEGER_BITS,
  nullValue,
  PARAM_ATTRIBUTE_BITS,
  primitiveKindId,
  primitiveTypeId,
  primitiveTypesById,
  sameParamAttributes,
  sameType,
  SelfContainingTypes,
  subtypes,
  typeLabel,
  typesEqual,
  unheldCallingConvention,
  version7Feature,
} from '../graph/index.js';
