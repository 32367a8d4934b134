/**
 * The checks r36867 made (mostly as assertions in the constructors its reader called) on what an
 * instruction or constant expression combines: operand types of binary operators, valid casts,
 * comparison predicates. A file that breaks one is damaged: LLVM's tools aborted on it, this
 * reader stops with a BytecodeError instead.
 *
 * Why its own: these are r36867's construction checks (signless integers of any width, twelve
 * casts, predicates); LLVM 1.x's types had signedness and no predicates.
 */
import type { BinaryReader } from '../../binary/reader.js';
import type { OpcodeName } from '../../format/format-table.js';
import { describeType } from '../../graph/describe.js';
import { isAnyCastOpcode } from '../../graph/opcodes.js';
import { OPCODES_V7_R36867 } from '../../format/version7.js';
import { sameType, type Type } from '../../graph/type.js';
import { FLOAT_PREDICATES, INT_PREDICATES, type Opcode, type Predicate } from '../../graph/value.js';

/** The graph's name for an opcode of the format table (`va_arg` is the graph's `vaarg`). */
export function graphOpcode(name: OpcodeName): Opcode {
  return name === 'va_arg' ? 'vaarg' : (name as Opcode);
}

/** Whether r36867's opcode `raw` is a cast (28, trunc … 39, bitcast). */
export function isCastOpcodeNumber(raw: number): boolean {
  const name = OPCODES_V7_R36867[raw];
  return name !== undefined && isAnyCastOpcode(name);
}

const isInt = (t: Type): boolean => t.kind === 'integer';
const isFP = (t: Type): boolean => t.kind === 'float' || t.kind === 'double';

/** Type::getPrimitiveSizeInBits at r36867 (0 for pointers and aggregates). */
function sizeInBits(t: Type): number {
  switch (t.kind) {
    case 'integer':
      return t.bits;
    case 'float':
      return 32;
    case 'double':
      return 64;
    case 'packed':
      return t.length * sizeInBits(t.element);
    default:
      return 0;
  }
}

function isFirstClass(t: Type): boolean {
  return t.kind === 'integer' || isFP(t) || t.kind === 'label' || t.kind === 'pointer' || t.kind === 'packed';
}

/** CastInst::castIsValid at r36867. */
export function castIsValid(op: Opcode, from: Type, to: Type): boolean {
  if (!isFirstClass(from) || !isFirstClass(to)) return false;
  const a = sizeInBits(from);
  const b = sizeInBits(to);
  switch (op) {
    case 'trunc':
      return isInt(from) && isInt(to) && a > b;
    case 'zext':
    case 'sext':
      return isInt(from) && isInt(to) && a < b;
    case 'fptrunc':
      return isFP(from) && isFP(to) && a > b;
    case 'fpext':
      return isFP(from) && isFP(to) && a < b;
    case 'uitofp':
    case 'sitofp':
      return isInt(from) && isFP(to);
    case 'fptoui':
    case 'fptosi':
      return isFP(from) && isInt(to);
    case 'ptrtoint':
      return from.kind === 'pointer' && isInt(to);
    case 'inttoptr':
      return isInt(from) && to.kind === 'pointer';
    case 'bitcast':
      return (from.kind === 'pointer') === (to.kind === 'pointer') && a === b;
    default:
      return false;
  }
}

/** BinaryOperator::init's assertions: both operands of one type, of a class the operator takes. */
export function checkBinaryOperands(r: BinaryReader, op: Opcode, a: Type, b: Type, at: number): void {
  if (!sameType(a, b)) r.fail(`${op} of ${describeType(a)} and ${describeType(b)}: the operand types differ`, at);
  const scalar = a.kind === 'packed' ? a.element : a;
  let ok: boolean;
  switch (op) {
    case 'add':
    case 'sub':
    case 'mul':
      ok = isInt(a) || isFP(a) || a.kind === 'packed';
      break;
    case 'fdiv':
    case 'frem':
      ok = isFP(scalar);
      break;
    default: // udiv sdiv urem srem shl lshr ashr and or xor
      ok = isInt(scalar);
  }
  if (!ok) r.fail(`${op} on ${describeType(a)}`, at);
}

/**
 * The predicate of an icmp/fcmp (r36867 took it as an unsigned short), checked as CmpInst did:
 * in range for the comparison, operands of one type, integers or pointers for icmp and floating
 * point for fcmp.
 */
export function comparisonPredicate(r: BinaryReader, op: 'icmp' | 'fcmp', raw: number, a: Type, b: Type, at: number): Predicate {
  const n = raw & 0xffff;
  const table: Readonly<Record<string, number>> = op === 'icmp' ? INT_PREDICATES : FLOAT_PREDICATES;
  const name = Object.keys(table).find((k) => table[k] === n);
  if (name === undefined) r.fail(`${op} predicate ${raw} (${op === 'icmp' ? '32 to 41' : '0 to 15'})`, at);
  if (!sameType(a, b)) r.fail(`${op} of ${describeType(a)} and ${describeType(b)}: the operand types differ`, at);
  const ok = op === 'icmp' ? isInt(a) || a.kind === 'pointer' : isFP(a);
  if (!ok) r.fail(`${op} on ${describeType(a)}`, at);
  return name as Predicate;
}
