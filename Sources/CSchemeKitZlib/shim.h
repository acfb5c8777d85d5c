// SchemeKit's one zlib binding, system zlib (Debian's zlib1g-dev): the package store's bounded
// raw-deflate inflate of zip entries and CRC-32, and schemeserve's gzip (deflate, windowBits 15 + 16).
#include <zlib.h>
