@early = global i32* @late
define i32 @user() {
  %x = call i32 @callee( i32 1 )
  %y = load i32* @late
  call void @v()
  call i32 @callee( i32 %x )
  ret i32 %y
}
@late = global i32 5
declare void @v()
define i32 @callee(i32 %n) {
  ret i32 %n
}
