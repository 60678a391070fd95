#include "CChainTraceSupport.h"
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <string.h>
#include <unistd.h>

int64_t chaintrace_recording_state[4] = {0, 0, 0, 0};

/// The concurrency runtime's current task, declared with the Swift calling convention it is defined with.
extern void *swift_task_getCurrent(void) __attribute__((swiftcall));

intptr_t chaintrace_current_task(void) {
    return (intptr_t)swift_task_getCurrent();
}

/// The concurrency runtime's lookup of a task-local value, as `TaskLocal.get()` calls it.
extern void *swift_task_localValueGet(const void *key) __attribute__((swiftcall));

void *chaintrace_task_local_value(const void *key) {
    return swift_task_localValueGet(key);
}

/// The concurrency runtime's binding of a task-local value and its removal, as `TaskLocal.withValue` makes them.
extern void swift_task_localValuePush(const void *key, void *value, const void *valueType) __attribute__((swiftcall));
extern void swift_task_localValuePop(void) __attribute__((swiftcall));

void chaintrace_task_local_push(const void *key, void *value, const void *value_type) {
    swift_task_localValuePush(key, value, value_type);
}

void chaintrace_task_local_pop(void) {
    swift_task_localValuePop();
}

void chaintrace_word_lock_wait(int32_t *word) {
    for (unsigned tries = 0;; tries++) {
        if (__atomic_load_n(word, __ATOMIC_RELAXED) == 0) {
            int32_t expected = 0;
            if (__atomic_compare_exchange_n(word, &expected, 1, 0, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED)) {
                return;
            }
        }
        if (tries < 100) {
#if defined(__x86_64__) || defined(__i386__)
            __builtin_ia32_pause();
#elif defined(__aarch64__)
            __asm__ __volatile__("yield");
#endif
        } else {
            sched_yield();
        }
    }
}

const void *chaintrace_task_hops_key_slot = 0;

_Thread_local void *chaintrace_thread_object_slot = 0;

// Unfinished output files to delete when a signal ends the process. The paths are copied into fixed storage, so
// the handler reads no memory that another thread could free: a note is filled (state 1), then published (2);
// the handler deletes only published ones. A note forgotten while the handler runs may still be deleted —
// harmless, since a forgotten path is one that was renamed away or deleted already.
#define CHAINTRACE_REMOVAL_NOTES 64
#define CHAINTRACE_REMOVAL_PATH_BYTES 4096
static char chaintrace_removal_paths[CHAINTRACE_REMOVAL_NOTES][CHAINTRACE_REMOVAL_PATH_BYTES];
static _Atomic int chaintrace_removal_states[CHAINTRACE_REMOVAL_NOTES];

int chaintrace_note_removal(const char *path) {
    size_t length = strlen(path);
    if (length >= CHAINTRACE_REMOVAL_PATH_BYTES) return -1;
    for (int note = 0; note < CHAINTRACE_REMOVAL_NOTES; note++) {
        int empty = 0;
        if (atomic_compare_exchange_strong(&chaintrace_removal_states[note], &empty, 1)) {
            memcpy(chaintrace_removal_paths[note], path, length + 1);
            atomic_store(&chaintrace_removal_states[note], 2);
            return note;
        }
    }
    return -1;
}

void chaintrace_forget_removal(int note) {
    if (note < 0 || note >= CHAINTRACE_REMOVAL_NOTES) return;
    atomic_store(&chaintrace_removal_states[note], 0);
}

static void chaintrace_remove_and_end(int signal_number) {
    for (int note = 0; note < CHAINTRACE_REMOVAL_NOTES; note++) {
        if (atomic_load(&chaintrace_removal_states[note]) == 2) unlink(chaintrace_removal_paths[note]);
    }
    // The handler was reset to the default as it ran (SA_RESETHAND), and the signal is blocked until it returns:
    // raised again, it ends the process as it would have without the handler.
    raise(signal_number);
}

void chaintrace_remove_files_on_termination(void) {
    const int signals[] = {SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGPIPE, SIGXCPU, SIGXFSZ};
    sigset_t handled;
    sigemptyset(&handled);
    for (size_t index = 0; index < sizeof signals / sizeof signals[0]; index++) {
        struct sigaction current;
        if (sigaction(signals[index], NULL, &current) != 0 || current.sa_handler == SIG_IGN) continue;
        struct sigaction action;
        memset(&action, 0, sizeof action);
        action.sa_handler = chaintrace_remove_and_end;
        sigfillset(&action.sa_mask);
        action.sa_flags = SA_RESETHAND;
        if (sigaction(signals[index], &action, NULL) == 0) sigaddset(&handled, signals[index]);
    }
    // A blocked mask is inherited across exec: a program started from a thread that blocks signals (a thread
    // pool's, say) would otherwise never see Ctrl-C or `kill` at all. Threads started later inherit this one's.
    pthread_sigmask(SIG_UNBLOCK, &handled, NULL);
}
