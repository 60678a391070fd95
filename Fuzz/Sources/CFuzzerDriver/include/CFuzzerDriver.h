#ifndef CFUZZERDRIVER_H
#define CFUZZERDRIVER_H

#include <stddef.h>
#include <stdint.h>

/// libFuzzer's driver, linked in by -sanitize=fuzzer. SwiftPM names an executable's entry point after its
/// module (and points `main` at it), so each fuzz target starts the driver from there with its callback.
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));

#endif
