/**
 * `check`: what is wrong or noteworthy in a section that decoded. Errors are things no LLVM
 * wrote (a constant index out of range, an unknown location kind, record counts that do not sum);
 * warnings are known LLVM bugs and oddities (statepoint ids cut to 32 bits, PowerPC's SPE register
 * numbers for plain GPRs, reserved fields that are not zero); notes explain values that look wrong
 * but are LLVM's conventions (UINT64_MAX stack sizes, invalid-record markers).
 */
import { LocationKind, type StackMap } from './model.js';
import type { Grouping } from './group.js';
import type { Arch } from './object.js';
import { readStatepoint } from './statepoint.js';
import { describeLayout, layoutOf } from './layout.js';

export interface StackMapDiagnostic {
  readonly severity: 'error' | 'warning' | 'note';
  readonly message: string;
  /** The record the diagnostic is about, when one. */
  readonly record?: number;
  /** The function entry it is about, when one. */
  readonly function?: number;
}

export interface CheckInput {
  readonly map: StackMap;
  readonly grouping: Grouping;
  /** The target, for register checks (a bare section: 'unknown'). */
  readonly arch?: Arch;
}

const UINT64_MAX = (1n << 64n) - 1n;
const UINT32_MAX = 0xffffffffn;

/** Every diagnostic, in section order (functions, then records). */
export function checkStackMap(input: CheckInput): StackMapDiagnostic[] {
  const { map, grouping } = input;
  const arch = input.arch ?? 'unknown';
  const out: StackMapDiagnostic[] = [];
  const layout = layoutOf(map.version, map.variant);
  if (map.variant !== 'llvm') out.push({ severity: 'note', message: `the section is ${describeLayout(map.version, map.variant)}` });
  if (map.headerReserved.byte !== 0 || map.headerReserved.half !== 0) out.push({ severity: 'warning', message: "the header's reserved bytes are not zero" });
  if (map.variant === 'manticore-v1' && map.functions.length % 2 === 1)
    out.push({ severity: 'note', message: 'the constants are not 8-byte aligned (an odd number of 20-byte function entries)' });
  if (map.trailing.length > 0)
    out.push({ severity: 'note', message: `${map.trailing.length} zero bytes follow the last record (a container's padding; LLVM writes none)` });
  map.functions.forEach((f, i) => {
    if (f.stackSize === UINT64_MAX)
      out.push({
        severity: 'note',
        function: i,
        message: `function #${i}'s stack size is UINT64_MAX: its frame is variable-sized or realigned, so no fixed size is known`,
      });
  });
  if (!grouping.settled) {
    out.push({ severity: layout.recordCount === 'none' ? 'note' : 'error', message: `the records cannot be given to functions: ${grouping.reason}` });
  }
  map.records.forEach((r, i) => {
    const at = `record #${i} (id ${r.id})`;
    if (r.id === UINT64_MAX && r.locations.length === 0 && r.liveOuts.length === 0) {
      out.push({
        severity: 'note',
        record: i,
        message: `${at} is LLVM's invalid-record marker: the call site had more than 65535 locations or live-outs, so LLVM wrote none`,
      });
    }
    if (r.flags !== 0 || r.liveOutPadding !== 0 || r.locationPadding || r.endPadding)
      out.push({ severity: 'warning', record: i, message: `${at} has reserved fields or padding that are not zero` });
    r.locations.forEach((l, k) => {
      const loc = `${at}, location #${k + 1}`;
      if (l.kind < LocationKind.Register || l.kind > LocationKind.ConstantIndex)
        out.push({ severity: 'error', record: i, message: `${loc} has kind ${l.kind}, which no LLVM wrote (1 to 5)` });
      if (l.kind === LocationKind.ConstantIndex && (l.offset < 0 || l.offset >= map.constants.length)) {
        out.push({ severity: 'error', record: i, message: `${loc} indexes constant ${l.offset >>> 0} of ${map.constants.length}` });
      }
      if (layout.locationSizeField !== 'none' && l.size === 0) out.push({ severity: 'warning', record: i, message: `${loc} has size 0` });
      if (l.reserved !== 0 || l.reserved2 !== 0) out.push({ severity: 'warning', record: i, message: `${loc} has reserved bytes that are not zero` });
      if ((arch === 'ppc64' || arch === 'ppc') && l.kind !== LocationKind.Constant && l.kind !== LocationKind.ConstantIndex && l.reg >= 1200 && l.reg <= 1231) {
        out.push({
          severity: 'warning',
          record: i,
          message: `${loc} names register ${l.reg}, SPE's number for the upper half of r${l.reg - 1200}: a known LLVM bug writes it for a plain 32-bit value in r${l.reg - 1200}`,
        });
      }
    });
    r.liveOuts.forEach((lo, k) => {
      if (lo.size === 0) out.push({ severity: 'warning', record: i, message: `${at}, live-out #${k + 1} has size 0` });
    });
    if (readStatepoint(map, r) && r.id <= UINT32_MAX) {
      out.push({
        severity: 'warning',
        record: i,
        message: `${at} has a statepoint's layout: LLVM cuts statepoint ids to 32 bits (a known bug), so the id in the IR may have been larger`,
      });
    }
  });
  return out;
}
