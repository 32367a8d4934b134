; Names written twice that r36867's llvm-as took: its symbol table renamed the later holder
; (name + N, N counting across the module), and references kept finding the first.
@B = global i32 7
@B = external global i32
@I = internal global i32 7
@I = internal global i32 8
@C = internal global i32 1
@C = global i32 1
@f = global i32 3
declare i32 @f()
@g = alias i32* @B
@g = alias i32* @I
@h = global i32* @B

define i32 @use() {
entry:
  %a = load i32* @B
  %b = load i32* @I
  %c = add i32 %a, %b
  ret i32 %c
}
