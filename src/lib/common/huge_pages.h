/* Asks the kernel for transparent huge pages under a large allocation (where
 * the system leaves them to madvise): one page fault per 2 MiB instead of 512,
 * and far fewer TLB misses in tables that are probed at random. Advice only:
 * nothing changes where the kernel has none to give. */
#ifndef HPCDB_COMMON_HUGE_PAGES_H
#define HPCDB_COMMON_HUGE_PAGES_H

#include <stddef.h>
#include <stdint.h>

void huge_pages_advise(void *p, size_t bytes);

/* vec_reserve (common/vec.h), with the advice whenever the array grows. */
int vec_reserve_huge(void **items, uint64_t *cap, uint64_t need, size_t size);

#define VEC_RESERVE_HUGE(items_ptr, cap_ptr, need)                                                 \
  vec_reserve_huge((void **)(items_ptr), (cap_ptr), (need), sizeof(**(items_ptr)))

#endif
