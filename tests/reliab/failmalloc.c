/* SPDX-License-Identifier: BSD-3-Clause */
/* LD_PRELOAD allocation-failure injection for tests/reliab/allocfail.py:
 * HPCDB_FAILMALLOC=N makes the Nth allocation of the process (malloc,
 * calloc, realloc, posix_memalign, aligned_alloc, counted together) return
 * NULL with errno ENOMEM, once; HPCDB_FAILMALLOC_COUNT=FILE adds a line at
 * exit: how many allocations the process made (a forked child counts on from
 * its parent's count, and writes its own line). Built without sanitizers
 * (their runtime owns malloc). */
#define _GNU_SOURCE
#include <errno.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void *__libc_memalign(size_t, size_t);

static atomic_long calls;
static long fail_at = -1; /* -1: not read yet; 0: never */

static int fail_now(void) {
  if (fail_at < 0) {
    const char *s = getenv("HPCDB_FAILMALLOC"); /* getenv does not allocate */
    fail_at = s ? atol(s) : 0;
  }
  long n = atomic_fetch_add(&calls, 1) + 1;
  if (fail_at > 0 && n == fail_at) {
    errno = ENOMEM;
    return 1;
  }
  return 0;
}

void *malloc(size_t n) { return fail_now() ? NULL : __libc_malloc(n); }
void *calloc(size_t k, size_t n) { return fail_now() ? NULL : __libc_calloc(k, n); }
void *realloc(void *p, size_t n) { return fail_now() ? NULL : __libc_realloc(p, n); }
void *aligned_alloc(size_t a, size_t n) { return fail_now() ? NULL : __libc_memalign(a, n); }
int posix_memalign(void **out, size_t a, size_t n) {
  if (fail_now()) return ENOMEM;
  void *p = __libc_memalign(a, n);
  if (!p) return ENOMEM;
  *out = p;
  return 0;
}

static __attribute__((destructor)) void write_count(void) {
  const char *path = getenv("HPCDB_FAILMALLOC_COUNT");
  if (!path) return;
  fail_at = 0; /* fopen's own allocations must not fail */
  FILE *f = fopen(path, "a");
  if (!f) return;
  fprintf(f, "%ld\n", (long)atomic_load(&calls));
  fclose(f);
}
