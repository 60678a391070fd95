#include "CChainTraceSupport.h"

int64_t chaintrace_recording_state[3] = {0, 0, 0};
