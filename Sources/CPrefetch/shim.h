// Hints to the CPU to bring in the cache lines of the `bytes` bytes from `start` ahead of their use, so
// that a walk over objects scattered in memory overlaps their fetches instead of waiting for each in
// turn: for reading, or (`_for_write`) for ownership, so that overwriting them need not wait for them.
static inline void lk_prefetch(const void *start, long bytes) {
    for (long offset = 0; offset < bytes; offset += 64) __builtin_prefetch((const char *)start + offset, 0, 3);
}

static inline void lk_prefetch_for_write(void *start, long bytes) {
    for (long offset = 0; offset < bytes; offset += 64) __builtin_prefetch((char *)start + offset, 1, 3);
}
