/* hpcdb_analyze_tune_allocator: glibc's allocator set for an analysis. */
#include <stdlib.h> /* defines __GLIBC__ with glibc */
#ifdef __GLIBC__
#include <malloc.h>
#endif

#include "hpcdb/analysis.h"

/* The analysis allocates and frees a few arrays of megabytes per file (and
 * hpcdb_analyze_dist per round of its value exchange): kept in one heap, a
 * file reuses the pages the ones before faulted in. glibc would otherwise map
 * each such array afresh, trim the heap after it, or give each worker thread
 * a heap of its own that it unmaps when empty; a page faulted in again costs
 * the kernel a fault and a zeroed page every time. */
void hpcdb_analyze_tune_allocator(void) {
#ifdef __GLIBC__
  mallopt(M_MMAP_THRESHOLD, 32 << 20);
  mallopt(M_TRIM_THRESHOLD, 1 << 30);
  mallopt(M_ARENA_MAX, 1);
#endif
}
