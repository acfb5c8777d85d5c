#ifndef SCHEMEKIT_CFUZZERDRIVER_H
#define SCHEMEKIT_CFUZZERDRIVER_H

#include <stddef.h>
#include <stdint.h>

/// libFuzzer's entry point for programs that have their own `main`
/// (https://llvm.org/docs/LibFuzzer.html#using-libfuzzer-as-a-library).
/// Provided by the fuzzer runtime that `-sanitize=fuzzer` links.
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));

#endif
