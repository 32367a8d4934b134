/**
 * Types that contain themselves by value, such as `%t = type { { \2*, %t }, { \2*, %t } }`.
 *
 * LLVM 1.x built them freely (its linker makes one when it resolves an opaque type into a struct
 * that holds it), read and wrote files that use them, and had globals, `alloca`s and `undef` or
 * `zeroinitializer` constants of them: nothing in the reader, the printer or the writer needs a
 * type's size. Such a type has no size, though, and a value of it cannot be spelled out element
 * by element, so the few consumers that need either ask this class first and refuse by name:
 * the version-0 writer (LLVM 1.1 spelled a zero aggregate out element by element) and the
 * upgrade to LLVM 16 (which has no such type). The 1.1 printing dialect prints their zero as
 * `zeroinitializer` instead of expanding it.
 */
import { heldByValue, type Type } from './type.js';

/**
 * Answers "does this type contain itself by value, or contain a type that does?" for the types of
 * one finished module. Each answer costs one visit of the types reachable by value from it, and
 * is kept: create one instance per module, after the types are complete (a type still being
 * built could change its answer).
 */
export class SelfContainingTypes {
  /** 1: on the current search path; 2: finished (its answer is final). */
  private readonly state = new Map<Type, 1 | 2>();
  private readonly infinite = new Set<Type>();

  /** Whether `t` has no size because it holds itself (or such a type) by value. */
  has(t: Type): boolean {
    if (this.state.get(t) !== 2) this.search(t);
    return this.infinite.has(t);
  }

  /**
   * Iterative depth-first search from `root` (no recursion, however deep the nesting): a back
   * edge marks the cycle on the stack; finishing a type marks it if a type it holds is marked.
   * Types finished by an earlier search keep their answer.
   */
  private search(root: Type): void {
    const { state, infinite } = this;
    const stack: { t: Type; kids: readonly Type[]; next: number }[] = [{ t: root, kids: heldByValue(root), next: 0 }];
    state.set(root, 1);
    while (stack.length) {
      const top = stack[stack.length - 1]!;
      if (top.next < top.kids.length) {
        const kid = top.kids[top.next++]!;
        const ks = state.get(kid);
        if (ks === undefined) {
          state.set(kid, 1);
          stack.push({ t: kid, kids: heldByValue(kid), next: 0 });
        } else if (ks === 1) {
          for (let i = stack.length - 1; i >= 0; i--) {
            infinite.add(stack[i]!.t);
            if (stack[i]!.t === kid) break;
          }
        }
        continue;
      }
      if (!infinite.has(top.t) && top.kids.some((k) => infinite.has(k))) infinite.add(top.t);
      state.set(top.t, 2);
      stack.pop();
    }
  }
}
