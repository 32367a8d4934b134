// Jazzer.js's libFuzzer fork adds *_with_pc variants of two tracing hooks so that JavaScript
// comparisons can pass their own site id. Upstream libFuzzer (LLVM 16) has only the variants that
// take the caller's address, so these forward to them: the compared values still reach
// libFuzzer's table of recent comparisons (its dictionary), only the site ids are merged.
#include <cstdint>
extern "C" void __sanitizer_cov_trace_const_cmp8(uint64_t Arg1, uint64_t Arg2);
extern "C" void __sanitizer_cov_trace_pc_indir(uintptr_t Callee);
extern "C" void __sanitizer_cov_trace_const_cmp8_with_pc(uintptr_t, uint64_t Arg1, uint64_t Arg2) {
  __sanitizer_cov_trace_const_cmp8(Arg1, Arg2);
}
extern "C" void __sanitizer_cov_trace_pc_indir_with_pc(void *, uintptr_t Callee) {
  __sanitizer_cov_trace_pc_indir(Callee);
}
