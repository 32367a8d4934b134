declare void %llvm.va_start()
implementation
void %f(...) {
	call void %llvm.va_start()
	ret void
}
