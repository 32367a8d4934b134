; ModuleID = '<stdin>'
target datalayout = "e-p:32:32"
target endian = little
target pointersize = 32
target triple = "i686-pc-linux-gnu"
	%struct.counter = type { int, sbyte* }
%.str = internal constant [14 x sbyte] c"Hello, world!\00"		; <[14 x sbyte]*> [#uses=1]
%fmt = internal constant [14 x sbyte] c"sum(%d) = %d\0A\00"		; <[14 x sbyte]*> [#uses=1]
%state = internal global %struct.counter zeroinitializer		; <%struct.counter*> [#uses=1]

implementation   ; Functions:

declare int %puts(sbyte*)

declare int %printf(sbyte*, ...)

int %sum(int %n) {
entry:
	%empty = setlt int %n, 1		; <bool> [#uses=1]
	br bool %empty, label %exit, label %loop

loop:		; preds = %loop, %entry
	%i = phi int [ 1, %entry ], [ %i.next, %loop ]		; <int> [#uses=2]
	%acc = phi int [ 0, %entry ], [ %acc.next, %loop ]		; <int> [#uses=1]
	%acc.next = add int %acc, %i		; <int> [#uses=2]
	%i.next = add int %i, 1		; <int> [#uses=2]
	%done = setgt int %i.next, %n		; <bool> [#uses=1]
	br bool %done, label %exit, label %loop

exit:		; preds = %loop, %entry
	%result = phi int [ 0, %entry ], [ %acc.next, %loop ]		; <int> [#uses=1]
	ret int %result
}

int %main() {
entry:
	%tmp = call int %puts( sbyte* getelementptr ([14 x sbyte]* %.str, long 0, long 0) )		; <int> [#uses=0]
	%total = call int %sum( int 10 )		; <int> [#uses=2]
	%count = getelementptr %struct.counter* %state, long 0, uint 0		; <int*> [#uses=1]
	store int %total, int* %count
	call int (sbyte*, ...)* %printf( sbyte* getelementptr ([14 x sbyte]* %fmt, long 0, long 0), int 10, int %total )		; <int>:0 [#uses=0]
	ret int 0
}
