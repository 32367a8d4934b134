; Functions: declarations, definitions, calling conventions, sections, alignment, begin/end.
declare int %printf(sbyte*, ...)
declare fastcc void %fastone(int)
declare dllimport coldcc void %imported()
declare extern_weak void %weakling(double)

implementation

internal coldcc int %callee(int %x, int) section "text.callee" align 8 {
entry:
  %y = add int %x, 1
  ret int %y
}

x86_stdcallcc void %std() { ret void }
x86_fastcallcc void %fast() { ret void }
csretcc void %sret({ int }* %p) { ret void }
cc42 void %numbered() { ret void }
linkonce void %lo() { ret void }
weak void %wk() { ret void }

int %main(int %argc, sbyte** %argv)
begin
	%r = call coldcc int %callee( int %argc, int 2 )
	%t = tail call int (sbyte*, ...)* %printf( sbyte* null, int %r )
	call fastcc void %fastone( int 1 )
	call void %imported()
	ret int 0
end

declare int %later()
int %later() {
	ret int 1
}
