#include "malloc_stats.h"
#include <malloc.h>

size_t lk_allocated_bytes(void) {
    struct mallinfo2 info = mallinfo2();
    return info.uordblks + info.hblkhd;
}

size_t lk_block_size(const void *pointer) {
    return malloc_usable_size((void *)pointer);
}
