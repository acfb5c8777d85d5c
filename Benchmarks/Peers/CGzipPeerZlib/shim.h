// System zlib for Benchmarks' `gzip-peers` (a module of its own: system-library targets are not
// products, so it cannot use the main package's).
#include <zlib.h>
