#ifndef CCHAINTRACECLOCK_H
#define CCHAINTRACECLOCK_H

#include <stdint.h>

/// Reads the CPU's time-stamp counter where there is one (x86-64: `rdtsc`, about 12 ns in a VM where
/// `clock_gettime` takes 27 ns; arm64: the virtual counter). Returns 0 where there is none; callers then use
/// `clock_gettime`. Ticks are converted to nanoseconds by a ratio calibrated against CLOCK_MONOTONIC.
static inline uint64_t chaintrace_read_cycle_counter(void) {
#if defined(__x86_64__) || defined(__i386__)
    uint32_t low, high;
    __asm__ __volatile__("rdtsc" : "=a"(low), "=d"(high));
    return ((uint64_t)high << 32) | low;
#elif defined(__aarch64__)
    uint64_t value;
    __asm__ __volatile__("mrs %0, cntvct_el0" : "=r"(value));
    return value;
#else
    return 0;
#endif
}

/// Word 0: how many recorders could be in force for instrumented chains (0: every instrumented hop skips all
/// work). Word 1: a generation that increases whenever the bootstrapped recorder changes. Word 2: how many trace
/// captures are open (traces recorded outside every recorder scope go to them). Word 3: how many owners of
/// per-thread state (chains, recorders, sinks) have been released, so threads drop what they cached for them. Read
/// on every hop or send, written rarely, always through the functions below.
extern int64_t chaintrace_recording_state[4];

/// How many recorders could be in force (acquire load: a plain load on x86-64).
static inline int64_t chaintrace_recording_sources(void) {
    return __atomic_load_n(&chaintrace_recording_state[0], __ATOMIC_ACQUIRE);
}

/// Adds `delta` to the number of recorders that could be in force.
static inline void chaintrace_add_recording_sources(int64_t delta) {
    (void)__atomic_add_fetch(&chaintrace_recording_state[0], delta, __ATOMIC_ACQ_REL);
}

/// The bootstrapped recorder's generation.
static inline int64_t chaintrace_recorder_generation(void) {
    return __atomic_load_n(&chaintrace_recording_state[1], __ATOMIC_ACQUIRE);
}

/// Marks the bootstrapped recorder as changed.
static inline void chaintrace_bump_recorder_generation(void) {
    (void)__atomic_add_fetch(&chaintrace_recording_state[1], 1, __ATOMIC_ACQ_REL);
}

/// How many trace captures are open.
static inline int64_t chaintrace_open_captures(void) {
    return __atomic_load_n(&chaintrace_recording_state[2], __ATOMIC_ACQUIRE);
}

/// Adds `delta` to the number of open trace captures.
static inline void chaintrace_add_open_captures(int64_t delta) {
    (void)__atomic_add_fetch(&chaintrace_recording_state[2], delta, __ATOMIC_ACQ_REL);
}

/// How many owners of per-thread state have been released (acquire load: a plain load on x86-64).
static inline int64_t chaintrace_released_owners(void) {
    return __atomic_load_n(&chaintrace_recording_state[3], __ATOMIC_ACQUIRE);
}

/// Notes that an owner of per-thread state has been released: every thread forgets what it cached for it at its
/// next send.
static inline void chaintrace_note_owner_released(void) {
    (void)__atomic_add_fetch(&chaintrace_recording_state[3], 1, __ATOMIC_ACQ_REL);
}

/// Acquire load of a counter another thread may publish with `chaintrace_store_release`.
static inline int64_t chaintrace_load_acquire(const int64_t *value) {
    return __atomic_load_n(value, __ATOMIC_ACQUIRE);
}

/// Release store: everything written before it is visible to a thread whose acquire load sees `newValue`.
static inline void chaintrace_store_release(int64_t *value, int64_t newValue) {
    __atomic_store_n(value, newValue, __ATOMIC_RELEASE);
}

/// Adds one to the counter at `value`, shared by every thread, and returns what it held before (relaxed: a count,
/// ordering nothing else).
static inline int64_t chaintrace_fetch_increment(int64_t *value) {
    return __atomic_fetch_add(value, 1, __ATOMIC_RELAXED);
}

/// Waits for the lock at `word` and takes it: spins a little (the holder is a few dozen instructions from
/// letting go), then yields the processor between tries (the holder may have been preempted).
void chaintrace_word_lock_wait(int32_t *word);

/// Takes the one-word lock at `word` (0: free, 1: held): one compare-and-swap when it is free, which it nearly
/// always is; else ``chaintrace_word_lock_wait``. For critical sections of a few dozen instructions of ChainTrace's
/// own that never call out (an async trace's hop bookkeeping), where `pthread_mutex_lock` and `_unlock` cost two
/// calls and two atomic operations.
static inline void chaintrace_word_lock(int32_t *word) {
    int32_t expected = 0;
    if (__builtin_expect(__atomic_compare_exchange_n(word, &expected, 1, 0, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED), 1)) {
        return;
    }
    chaintrace_word_lock_wait(word);
}

/// Lets go of the lock at `word` (a release store: what was written under it is seen by the next to take it).
static inline void chaintrace_word_unlock(int32_t *word) {
    __atomic_store_n(word, 0, __ATOMIC_RELEASE);
}

/// The address of the task running the caller, 0 outside any task: the concurrency runtime's
/// `swift_task_getCurrent`, which `withUnsafeCurrentTask` reads too.
intptr_t chaintrace_current_task(void);

/// Where the calling task keeps its value of the task-local whose `TaskLocal` object is at `key`, or NULL where it
/// has none bound (then its value is the default): the concurrency runtime's `swift_task_localValueGet`, which
/// `TaskLocal.get()` calls before copying the value out.
void *chaintrace_task_local_value(const void *key);

/// Binds the value at `value`, of the type whose metadata is at `value_type`, to the task-local whose `TaskLocal`
/// object is at `key`, for the calling task (or thread, outside any task) until `chaintrace_task_local_pop`: the
/// concurrency runtime's `swift_task_localValuePush`, as `TaskLocal.withValue` calls it. The binding takes the value
/// (a move): `value` is left uninitialized.
void chaintrace_task_local_push(const void *key, void *value, const void *value_type);

/// Removes the calling task's innermost task-local binding: the runtime's `swift_task_localValuePop`.
void chaintrace_task_local_pop(void);

/// The `TaskLocal` object of async instrumented hops' traces, once a hop has published it (unretained: a global's,
/// alive for the process; NULL before). Read on every async hop in place of the Swift global holding it, which is
/// a call to its accessor and `swift_once`.
extern const void *chaintrace_task_hops_key_slot;

/// The published `TaskLocal` object of async hops' traces, or NULL (acquire load: a plain load on x86-64).
static inline const void *chaintrace_task_hops_key(void) {
    return __atomic_load_n(&chaintrace_task_hops_key_slot, __ATOMIC_ACQUIRE);
}

/// Publishes the `TaskLocal` object of async hops' traces (every caller publishes the same one).
static inline void chaintrace_publish_task_hops_key(const void *key) {
    __atomic_store_n(&chaintrace_task_hops_key_slot, key, __ATOMIC_RELEASE);
}

/// The calling thread's one object of per-thread state that `ThreadLocalObject` keeps in this slot besides its
/// pthread key (unretained; NULL before the thread's first use and once the thread's exit released it). A
/// thread-local variable is one load; `pthread_getspecific` is a call, and the Swift global holding the key one
/// more (`swift_once`).
extern _Thread_local void *chaintrace_thread_object_slot;

/// The object in the calling thread's slot, or NULL.
static inline void *chaintrace_thread_object(void) {
    return chaintrace_thread_object_slot;
}

/// Puts `object` (or NULL) in the calling thread's slot.
static inline void chaintrace_set_thread_object(void *object) {
    chaintrace_thread_object_slot = object;
}

/// Notes `path` (an unfinished output file) as one to delete if the process is ended by a signal that
/// ``chaintrace_remove_files_on_termination`` handles. Returns the note's number, for
/// ``chaintrace_forget_removal``, or -1 when it cannot be noted (the path is 4096 bytes or longer, or 64 are noted
/// already). Safe to call from any thread.
int chaintrace_note_removal(const char *path);

/// Forgets note `note` of ``chaintrace_note_removal`` (the file was finished, or deleted); -1 is ignored.
void chaintrace_forget_removal(int note);

/// Makes SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGPIPE, SIGXCPU and SIGXFSZ (a CPU or file size limit passed) delete
/// every noted file before they end the process as they would have (the same exit status, by the same signal),
/// and unblocks them on the calling thread (threads it starts later inherit that). A signal the process was
/// started ignoring — SIGHUP under `nohup`, SIGINT in a background job — stays ignored. For a command-line
/// program's `main`, before it starts threads: a library must not take a process's signals.
void chaintrace_remove_files_on_termination(void);

#endif
