// The least a recorder of nested hops must do a hop, for the per-hop benchmark's floor row: read the cycle
// counter when the hop starts and when it ends, and store one record through a thread-local pointer.
#ifndef CBENCHFLOOR_H
#define CBENCHFLOOR_H

#include <stdint.h>

/// The library's own counter read (`chaintrace_read_cycle_counter`), so the floor reads the clock exactly as an
/// instrumented hop does.
#include "../../../../Sources/CChainTraceSupport/include/CChainTraceSupport.h"

/// One closed hop: which handler, when it started and when it ended, in counter ticks.
typedef struct {
    uint64_t handler;
    uint64_t start;
    uint64_t end;
} bench_floor_record;

/// Allocates the calling thread's ring of records (a power of two of them); returns it.
bench_floor_record *bench_floor_make_records(void);

enum { bench_floor_capacity = 1 << 12 };

extern _Thread_local bench_floor_record *bench_floor_records;
extern _Thread_local uint64_t bench_floor_count;

/// Stores one closed hop in the calling thread's ring. Inline, so that the row pays no call for it.
static inline void bench_floor_record_hop(uint64_t handler, uint64_t start, uint64_t end) {
    bench_floor_record *records = bench_floor_records;
    if (__builtin_expect(records == 0, 0)) {
        records = bench_floor_make_records();
        bench_floor_records = records;
    }
    bench_floor_record *slot = &records[bench_floor_count++ & (bench_floor_capacity - 1)];
    slot->handler = handler;
    slot->start = start;
    slot->end = end;
}

#endif
