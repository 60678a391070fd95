#include "CBenchFloor.h"
#include <stdlib.h>

bench_floor_record *bench_floor_make_records(void) {
    bench_floor_record *records = calloc(bench_floor_capacity, sizeof(bench_floor_record));
    if (records == 0) abort();
    return records;
}

_Thread_local bench_floor_record *bench_floor_records;
_Thread_local uint64_t bench_floor_count;
