/* SPDX-License-Identifier: BSD-3-Clause */
#include "common/huge_pages.h"

#include <stdint.h>
#include <sys/mman.h>

#define HUGE_PAGE ((uintptr_t)2 << 20)

void huge_pages_advise(void *p, size_t bytes) {
#ifdef MADV_HUGEPAGE
  if (!p || bytes < 2 * HUGE_PAGE) return;
  /* The whole pages of the block: a block malloc maps on its own stays one
   * mapping, which realloc can then move or extend in place. */
  uintptr_t start = (uintptr_t)p & ~(uintptr_t)4095, end = ((uintptr_t)p + bytes + 4095) & ~(uintptr_t)4095;
  (void)madvise((void *)start, end - start, MADV_HUGEPAGE);
#else
  (void)p;
  (void)bytes;
#endif
}

void prefault_pages(void *p, size_t bytes) {
#ifdef MADV_POPULATE_WRITE
  uintptr_t start = ((uintptr_t)p + 4095) & ~(uintptr_t)4095, end = ((uintptr_t)p + bytes) & ~(uintptr_t)4095;
  if (p && end > start) (void)madvise((void *)start, end - start, MADV_POPULATE_WRITE);
#else
  (void)p;
  (void)bytes;
#endif
}
