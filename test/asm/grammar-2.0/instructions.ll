@counter = internal global i32 0, align 4
@str = internal constant [4 x i8] c"%d\0A\00"

declare i32 @printf(i8*, ...)

define i32 @square(i32 %x) {
entry:
  %y = mul i32 %x, %x
  ret i32 %y
}

define internal fastcc i64 @wide(i8 zext %a, i16 sext %b) {
  %a64 = zext i8 %a to i64
  %b64 = sext i16 %b to i64
  %s = add i64 %a64, %b64
  %t = trunc i64 %s to i32
  %u = lshr i32 %t, 3
  %v = ashr i32 %u, 1
  %w = shl i32 %v, 2
  %f = sitofp i32 %w to double
  %g = fptrunc double %f to float
  %h = fpext float %g to double
  %i = fptoui double %h to i32
  %c = icmp ult i32 %i, 10
  %d = fcmp oge double %h, 1.5
  %e = and i1 %c, %d
  %r = select i1 %e, i64 %s, i64 0
  ret i64 %r
}

define void @mem(i32* %p) {
entry:
  %a = alloca i32, align 16
  %m = malloc i32, i32 4
  %x = volatile load i32* %p, align 4
  volatile store i32 %x, i32* %a
  store i32 1, i32* %m, align 8
  %g = getelementptr i32* %m, i32 2
  %pi = ptrtoint i32* %g to i64
  %ip = inttoptr i64 %pi to i8*
  %bc = bitcast i8* %ip to i32*
  free i32* %m
  br label %loop

loop:
  %i = phi i32 [ 0, %entry ], [ %next, %loop ]
  %next = add i32 %i, 1
  %done = icmp eq i32 %next, 10
  br i1 %done, label %exit, label %loop

exit:
  switch i32 %x, label %out [
    i32 1, label %out
    i32 2, label %exit2
  ]
exit2:
  %q = udiv i32 %x, 3
  %r = srem i32 %q, 2
  %s = frem double 1.0, 2.0
  %c = tail call i32 (i8*, ...)* @printf( i8* getelementptr ([4 x i8]* @str, i32 0, i32 0), i32 %r )
  unreachable
out:
  ret void
}

define i32 @main() {
entry:
  %r = invoke i32 @square(i32 3) to label %ok unwind label %bad
ok:
  ret i32 %r
bad:
  unwind
}
