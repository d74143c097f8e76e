/* SPDX-License-Identifier: BSD-3-Clause */
/* glibc's allocator set for an analysis (process.h). */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h> /* defines __GLIBC__ with glibc */
#include <string.h>
#include <unistd.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

#include "process.h"

/* The analysis allocates and frees a few arrays of megabytes per file (and
 * hpcdb_analyze_dist per round of its value exchange): kept in one heap, a
 * file reuses the pages the ones before faulted in. glibc would otherwise map
 * each such array afresh, trim the heap after it, or give each worker thread
 * a heap of its own that it unmaps when empty; a page faulted in again costs
 * the kernel a fault and a zeroed page every time. */
void process_tune_allocator(void) {
#ifdef __GLIBC__
  mallopt(M_MMAP_THRESHOLD, 32 << 20);
  mallopt(M_TRIM_THRESHOLD, 1 << 30);
  mallopt(M_ARENA_MAX, 1);
#endif
}

/* glibc's malloc asks the kernel for huge pages (transparent, where the
 * system gives them on request) only when told at start-up, by the tunable
 * glibc.malloc.hugetlb: a process not started with it starts itself again
 * with it. An analysis builds a tree and buffers of tens of MB; in pages of
 * 4 KiB, the page faults and the zeroing of the pages behind them took a
 * third of hpcdb-mpi's system time (BENCHMARKS.md, issue 14) and 16k of the
 * 20k faults of hpcdb analyze at 256 x 10k. */
void process_restart_with_huge_pages(char **argv) {
#ifdef __GLIBC__
  const char *tunables = getenv("GLIBC_TUNABLES");
  if (tunables && strstr(tunables, "glibc.malloc.hugetlb=")) return; /* started with it, or told otherwise */
  char value[1024];
  int n = snprintf(value, sizeof value, "%s%sglibc.malloc.hugetlb=1", tunables ? tunables : "", tunables ? ":" : "");
  if (n < 0 || (size_t)n >= sizeof value || setenv("GLIBC_TUNABLES", value, 1) != 0) return;
  char self[4096]; /* the program's own path: exec of /proc/self/exe would name the process "exe" */
  ssize_t k = readlink("/proc/self/exe", self, sizeof self - 1);
  if (k <= 0 || (size_t)k >= sizeof self - 1) return;
  self[k] = '\0';
  execv(self, argv); /* on failure, go on as started */
#else
  (void)argv;
#endif
}
