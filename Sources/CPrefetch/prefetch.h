// A hint to the processor that `address` will be read soon, which Swift cannot give: it
// loads the cache line in the background, and a loop that gathers scattered bytes (sorted
// items from a buffer in document order) reads them from the cache instead of waiting on
// memory for each one. It never faults and changes nothing.
static inline void todofmt_prefetch(const void *address) { __builtin_prefetch(address, 0, 3); }
