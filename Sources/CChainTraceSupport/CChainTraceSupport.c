#include "CChainTraceSupport.h"

int64_t chaintrace_recording_state[4] = {0, 0, 0, 0};
