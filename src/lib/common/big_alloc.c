#define _GNU_SOURCE
#include "common/big_alloc.h"

#include <sys/mman.h>

void *big_alloc(size_t bytes) {
  void *p = mmap(NULL, bytes ? bytes : 1, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) return NULL;
#ifdef MADV_HUGEPAGE
  if (bytes >= ((size_t)2 << 20)) madvise(p, bytes, MADV_HUGEPAGE); /* a hint: without it, 4 KiB pages */
#endif
  return p;
}

void big_free(void *p, size_t bytes) {
  if (p) munmap(p, bytes ? bytes : 1);
}
