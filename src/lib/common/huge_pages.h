/* SPDX-License-Identifier: BSD-3-Clause */
/* Asks the kernel for transparent huge pages under a large allocation (where
 * the system leaves them to madvise): one page fault per 2 MiB instead of 512,
 * and far fewer TLB misses in tables that are probed at random. Advice only:
 * nothing changes where the kernel has none to give. */
#ifndef HPCDB_COMMON_HUGE_PAGES_H
#define HPCDB_COMMON_HUGE_PAGES_H

#include <stddef.h>

void huge_pages_advise(void *p, size_t bytes);

/* Faults in the whole pages of [p, p + bytes) for writing without writing
 * them (MADV_POPULATE_WRITE): a thread with time to spare takes the faults,
 * and the zeroing of fresh pages, that another would meet. Only the page
 * tables change, so threads may write to the range meanwhile; a range no
 * longer mapped is left alone. A hint: nothing where the kernel has no such
 * advice. */
void prefault_pages(void *p, size_t bytes);

#endif
