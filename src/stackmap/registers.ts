/**
 * DWARF register names for the targets that write stack maps (LLVM's numbering, which is the
 * psABI's): x86-64, AArch64, PowerPC64, SystemZ, and i386. Unknown numbers print as `R#N`.
 */
import type { Arch } from './object.js';

function x86_64(n: number): string | undefined {
  const gpr = ['rax', 'rdx', 'rcx', 'rbx', 'rsi', 'rdi', 'rbp', 'rsp'];
  if (n < 8) return gpr[n];
  if (n < 16) return `r${n}`;
  if (n === 16) return 'rip';
  if (n >= 17 && n <= 32) return `xmm${n - 17}`;
  if (n >= 33 && n <= 40) return `st${n - 33}`;
  if (n >= 41 && n <= 48) return `mm${n - 41}`;
  if (n === 49) return 'rflags';
  if (n >= 50 && n <= 55) return ['es', 'cs', 'ss', 'ds', 'fs', 'gs'][n - 50];
  if (n === 58) return 'fs.base';
  if (n === 59) return 'gs.base';
  if (n >= 67 && n <= 82) return `xmm${n - 67 + 16}`;
  if (n >= 118 && n <= 125) return `k${n - 118}`;
  return undefined;
}

function i386(n: number): string | undefined {
  return ['eax', 'ecx', 'edx', 'ebx', 'esp', 'ebp', 'esi', 'edi', 'eip'][n] ?? (n >= 21 && n <= 28 ? `xmm${n - 21}` : undefined);
}

function aarch64(n: number): string | undefined {
  if (n <= 30) return `x${n}`;
  if (n === 31) return 'sp';
  if (n >= 64 && n <= 95) return `v${n - 64}`;
  return undefined;
}

function ppc64(n: number): string | undefined {
  if (n <= 31) return `r${n}`;
  if (n <= 63) return `f${n - 32}`;
  if (n === 65) return 'lr';
  if (n === 66) return 'ctr';
  if (n >= 68 && n <= 75) return `cr${n - 68}`;
  if (n === 76) return 'xer';
  if (n >= 77 && n <= 108) return `v${n - 77}`;
  if (n >= 1200 && n <= 1231) return `s${n - 1200}`; // SPE's 64-bit GPRs (see check: an LLVM bug puts these for plain GPRs)
  return undefined;
}

const SYSTEMZ_FPR = [0, 2, 4, 6, 1, 3, 5, 7, 8, 10, 12, 14, 9, 11, 13, 15];
function systemz(n: number): string | undefined {
  if (n <= 15) return `r${n}`;
  if (n <= 31) return `f${SYSTEMZ_FPR[n - 16]}`;
  if (n <= 47) return `c${n - 32}`;
  if (n <= 63) return `a${n - 48}`;
  if (n === 64) return 'pswm';
  if (n === 65) return 'pswa';
  if (n >= 68 && n <= 83) return `v${16 + SYSTEMZ_FPR[n - 68]!}`;
  return undefined;
}

/** The register's name on `arch`, or undefined when not known. */
export function dwarfRegisterName(arch: Arch, n: number): string | undefined {
  switch (arch) {
    case 'x86-64':
      return x86_64(n);
    case 'x86':
      return i386(n);
    case 'aarch64':
      return aarch64(n);
    case 'ppc64':
    case 'ppc':
      return ppc64(n);
    case 'systemz':
      return systemz(n);
    default:
      return undefined;
  }
}
