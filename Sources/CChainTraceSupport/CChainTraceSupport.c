#include "CChainTraceSupport.h"

int64_t chaintrace_recording_state[2] = {0, 0};
