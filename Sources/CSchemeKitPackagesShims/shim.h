// C interfaces for SchemeKitPackages: zlib (bounded raw-deflate inflate of zip entries, CRC-32) and,
// on Linux, syncfs(2), which glibc declares only under _GNU_SOURCE.
#include <zlib.h>

#if defined(__linux__)
int syncfs(int fd);
#endif
