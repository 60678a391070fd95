// The driver itself is in libFuzzer's runtime; this target only declares it.
#include "CFuzzerDriver.h"
