// A hint to the CPU to bring the cache line at `address` in for reading, so that a walk over objects
// scattered in memory overlaps their fetches instead of waiting for each in turn.
static inline void lk_prefetch(const void *address) { __builtin_prefetch(address, 0, 3); }

// The same for a line about to be written: fetched for ownership, so the write need not wait for it.
static inline void lk_prefetch_for_write(void *address) { __builtin_prefetch(address, 1, 3); }
