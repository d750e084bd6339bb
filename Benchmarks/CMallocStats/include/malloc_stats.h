#pragma once
#include <stddef.h>

/// Bytes currently allocated by malloc in this process (glibc's mallinfo2: arena plus mmapped chunks).
size_t lk_allocated_bytes(void);

/// The size of the heap block holding `pointer` (malloc_usable_size).
size_t lk_block_size(const void *pointer);
