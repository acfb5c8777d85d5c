// C interfaces for SchemeKitPackages: on Linux, syncfs(2), which glibc declares only under
// _GNU_SOURCE. (zlib is CSchemeKitZlib.)
#if defined(__linux__)
int syncfs(int fd);
#endif
