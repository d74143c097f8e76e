/* SPDX-License-Identifier: BSD-3-Clause */
#define _GNU_SOURCE
#include "common/big_alloc.h"

#include <sys/mman.h>

#include "common/huge_pages.h"

void *big_alloc(size_t bytes) {
  void *p = mmap(NULL, bytes ? bytes : 1, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) return NULL;
  huge_pages_advise(p, bytes);
  return p;
}

void big_free(void *p, size_t bytes) {
  if (p) munmap(p, bytes ? bytes : 1);
}
