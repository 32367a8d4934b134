// Jazzer.js's libFuzzer fork registers a death callback through __jazzer_set_death_callback;
// upstream libFuzzer does not, so register one that at least says why nothing is dumped.
#include <iostream>
extern "C" void __jazzer_set_death_callback(void (*callback)());
static void NoCrashDump() { std::cerr << "==Jazzer.js (upstream libFuzzer): crashing input not dumped" << std::endl; }
static const bool registered = (__jazzer_set_death_callback(NoCrashDump), true);
