global i32 1
@x = global i32* @0
define i32 @f(i32) {
  add i32 %0, 1
  br label %3
; <label>:3
  call i32 @f( i32 %2 )
  ret i32 %4
}
