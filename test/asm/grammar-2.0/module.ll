; hand-written, not canonical: comments, odd spacing, forward references
target datalayout = "e-p:32:32"
target triple = "i686-pc-linux-gnu"
deplibs = [ "m", "c" ]
module asm "nop"

%struct.pair = type { i32, %struct.pair* }
%packed = type <{ i8, i32 }>
%vec = type <4 x float>

@counter = internal global i32 0, align 4
@tls = thread_local global i16 7
@hidden_const = hidden constant [3 x i8] c"ab\00", section "rodata"
@ext = external global i64
@weakfn_alias = alias weak i32 (i32)* @square
@cast_alias = alias bitcast (i32* @counter to i8*)
@pair = global %struct.pair { i32 1, %struct.pair* @pair }
@p = global <{ i8, i32 }> <{ i8 1, i32 2 }>

declare i32 @printf(i8*, ...)

define i32 @square(i32 %x) {
  ret i32 %x
}
