// Declarations only: the header names libFuzzer's driver, which the fuzzer runtime provides.
#include "CFuzzerDriver.h"
