#if defined(__linux__)
// For SYS_gettid: the nice value of one thread is set through its kernel thread id.
#define _GNU_SOURCE 1
#include <errno.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif
#include "CChainTraceSupport.h"

int64_t chaintrace_recording_state[4] = {0, 0, 0, 0};

_Thread_local void *chaintrace_thread_object_slot = 0;

int chaintrace_lower_thread_priority(void) {
#if defined(__linux__)
    // On Linux `setpriority(PRIO_PROCESS, tid, …)` sets one thread's nice value (POSIX would set the process's).
    return setpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid), 19) == 0 ? 0 : -1;
#else
    return -1;
#endif
}

int chaintrace_thread_nice(void) {
#if defined(__linux__)
    errno = 0;
    int value = getpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid));
    return errno == 0 ? value : 0;
#else
    return 0;
#endif
}
