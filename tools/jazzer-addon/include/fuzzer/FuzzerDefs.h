// Stand-in for compiler-rt's fuzzer/FuzzerDefs.h: only the entry point Jazzer.js's addon uses.
#pragma once
#include <cstddef>
#include <cstdint>
namespace fuzzer {
typedef int (*UserCallback)(const uint8_t *Data, size_t Size);
int FuzzerDriver(int *argc, char ***argv, UserCallback Callback);
}
