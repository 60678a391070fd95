// zlib's gzip file reading (gzdopen, gzread, gzerror): trace logs compressed with gzip read as they stream.
#ifndef CZLIB_SHIM_H
#define CZLIB_SHIM_H
#include <zlib.h>
#endif
