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

#endif
