/* SPDX-License-Identifier: BSD-3-Clause */
/* The load map: every module the process has had mapped (ids 1, 2, ... in
 * order of discovery, kept after dlclose so old samples still name them),
 * read with dl_iterate_phdr at start and after each dlopen/dlclose. The
 * signal handler looks ips up in an immutable snapshot of the live modules'
 * executable ranges, swapped in atomically (old snapshots are kept: a
 * handler may still be reading one). */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <limits.h>
#include <link.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>

#include "record.h"

#define MAX_MODULES 4096

typedef struct range {
  uintptr_t lo, hi, bias;
  uint16_t id;
} range;

typedef struct snapshot {
  uint32_t n;
  range r[];
} snapshot;

static rec_module modules[MAX_MODULES];
static uint32_t n_modules;
static snapshot *current;
static uintptr_t self_lo, self_hi;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER; /* writers only */
extern REC_HIDDEN char rec_vdso_name[];

static const char *module_path(const struct dl_phdr_info *info, char *buf) {
  const char *name = info->dlpi_name;
  if (!name || !name[0]) return rec_proc.exe;
  if (info->dlpi_addr == getauxval(AT_SYSINFO_EHDR) || strstr(name, "linux-vdso") || strstr(name, "linux-gate"))
    return rec_vdso_name[0] ? rec_vdso_name : name;
  return realpath(name, buf) ? buf : name;
}

typedef struct scan {
  range *r;
  uint32_t n, cap;
} scan;

static uint16_t module_id(const char *path, uintptr_t bias, uintptr_t lo, uintptr_t hi) {
  for (uint32_t i = 0; i < n_modules; i++)
    if (modules[i].bias == bias && modules[i].lo == lo && !strcmp(modules[i].path, path)) {
      modules[i].live = 1;
      return (uint16_t)(i + 1);
    }
  if (n_modules == MAX_MODULES) return 0;
  char *copy = strdup(path);
  if (!copy) return 0;
  modules[n_modules] = (rec_module){copy, bias, lo, hi, 1};
  return (uint16_t)++n_modules;
}

static int visit(struct dl_phdr_info *info, size_t size, void *arg) {
  scan *s = arg;
  uintptr_t lo = UINTPTR_MAX, hi = 0;
  for (int i = 0; i < info->dlpi_phnum; i++) {
    const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
    if (ph->p_type != PT_LOAD || !(ph->p_flags & PF_X)) continue;
    uintptr_t a = info->dlpi_addr + ph->p_vaddr;
    if (a < lo) lo = a;
    if (a + ph->p_memsz > hi) hi = a + ph->p_memsz;
  }
  if (lo >= hi || s->n == s->cap) return 0;
  char buf[PATH_MAX];
  uint16_t id = module_id(module_path(info, buf), info->dlpi_addr, lo, hi);
  if (id) s->r[s->n++] = (range){lo, hi, info->dlpi_addr, id};
  return 0;
}

static int by_lo(const void *a, const void *b) {
  const range *x = a, *y = b;
  return x->lo < y->lo ? -1 : x->lo > y->lo;
}

void rec_loadmap_refresh(void) {
  pthread_mutex_lock(&lock);
  if (!self_lo) {
    Dl_info di;
    if (dladdr((void *)rec_loadmap_refresh, &di)) self_lo = (uintptr_t)di.dli_fbase;
  }
  for (uint32_t i = 0; i < n_modules; i++) modules[i].live = 0;
  scan s = {calloc(MAX_MODULES, sizeof(range)), 0, MAX_MODULES};
  if (s.r) dl_iterate_phdr(visit, &s);
  snapshot *snap = s.r ? malloc(sizeof *snap + (size_t)s.n * sizeof(range)) : NULL;
  if (snap) {
    snap->n = s.n;
    memcpy(snap->r, s.r, (size_t)s.n * sizeof(range));
    qsort(snap->r, snap->n, sizeof(range), by_lo);
    for (uint32_t i = 0; i < snap->n; i++)
      if (snap->r[i].bias == self_lo || snap->r[i].lo == self_lo) self_hi = snap->r[i].hi;
    for (uint32_t i = 0; i < snap->n && !self_hi; i++)
      if (self_lo >= snap->r[i].bias && self_lo < snap->r[i].hi) self_hi = snap->r[i].hi;
    __atomic_store_n(&current, snap, __ATOMIC_RELEASE);
  }
  free(s.r);
  pthread_mutex_unlock(&lock);
}

uint16_t rec_loadmap_lookup(uintptr_t ip, uint64_t *offset) {
  const snapshot *s = __atomic_load_n(&current, __ATOMIC_ACQUIRE);
  if (!s) return 0;
  uint32_t lo = 0, hi = s->n;
  while (lo < hi) {
    uint32_t mid = lo + (hi - lo) / 2;
    if (ip < s->r[mid].lo) hi = mid;
    else if (ip >= s->r[mid].hi) lo = mid + 1;
    else {
      *offset = ip - s->r[mid].bias;
      return s->r[mid].id;
    }
  }
  return 0;
}

int rec_loadmap_in_self(uintptr_t ip) { return ip >= self_lo && ip < self_hi; }

uint32_t rec_loadmap_count(void) { return n_modules; }

const rec_module *rec_loadmap_module(uint16_t id) { return id >= 1 && id <= n_modules ? &modules[id - 1] : NULL; }
