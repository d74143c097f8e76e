/* SPDX-License-Identifier: BSD-3-Clause */
/* hpcprof writes an empty trace line (pStart == pEnd) for a GPU stream
 * without samples, at the offset where the next line starts; several share
 * one offset. Empty lines hold no bytes, so they overlap nothing: every
 * database hpcprof wrote (CPU and CUDA) validates without errors, and so does
 * a copy of one with two empty lines placed at another line's start. A real
 * overlap is still an error. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/bytes.h"
#include "hpcdb/hpcdb.h"
#include "testlib.h"

#define CPU_DB "hpcrun/expected/loops-cputime-t.nostruct.d"

static const char *const hpcprof_dbs[] = {
    "hpcrun/expected/loops-cputime-t.d",
    "hpcrun/expected/loops-cputime-t.nostruct.d",
    "hpcrun/expected/loops-cuda-nvidia-t.d",
    "hpcrun/expected/loops-cuda-nvidia-t.nostruct.d",
    "hpcrun/expected/small.d",
    "hpcrun/expected/small.nostruct.d",
};

typedef struct rules {
  char seen[2048];
} rules;

static void collect(void *user, const hpcdb_diagnostic *d) {
  rules *r = user;
  if (d->severity != HPCDB_SEV_ERROR) return;
  size_t n = strlen(r->seen);
  snprintf(r->seen + n, sizeof r->seen - n, "%s ", d->rule);
  fprintf(stderr, "  %s: 0x%llx: %s: %s\n", d->file, (unsigned long long)d->offset, d->rule, d->detail);
}

static uint64_t errors_of(const char *path, rules *r) {
  hpcdb_validation v = {0};
  memset(r, 0, sizeof *r);
  if (hpcdb_validate(&v, path, collect, r) < 0) return UINT64_MAX;
  return v.errors;
}

/* A copy of CPU_DB whose trace lines 2 and 3 are [start, end) each. */
static const char *with_lines(const char *name, uint64_t a2, uint64_t z2, uint64_t a3, uint64_t z3) {
  const char *dir = testlib_tmpdir(name);
  char cmd[8192], path[4096];
  snprintf(cmd, sizeof cmd, "cp -r '%s'/. '%s' && chmod -R u+w '%s'", testlib_sample(CPU_DB), dir, dir);
  if (system(cmd) != 0) return NULL;
  snprintf(path, sizeof path, "%s/trace.db", dir);
  uint8_t *d;
  size_t len;
  if (testlib_read_file(path, &d, &len) < 0 || len < 0xa0) return NULL;
  /* trace headers at 0x40 + 0x18 i: profIndex, pad, pStart, pEnd */
  wr_le64(d + 0x70 + 8, a2);
  wr_le64(d + 0x70 + 16, z2);
  wr_le64(d + 0x88 + 8, a3);
  wr_le64(d + 0x88 + 16, z3);
  int rc = testlib_write_file(path, d, len);
  free(d);
  return rc < 0 ? NULL : dir;
}

int main(void) {
  if (!testlib_have_samples()) {
    printf("sample data not found: skipped\n");
    return 77;
  }
  rules r;
  for (size_t i = 0; i < sizeof hpcprof_dbs / sizeof *hpcprof_dbs; i++) {
    uint64_t e = errors_of(testlib_sample(hpcprof_dbs[i]), &r);
    if (e) fprintf(stderr, "%s: %llu errors\n", hpcprof_dbs[i], (unsigned long long)e);
    CHECK(e == 0);
  }
  /* line 1 is [0x1050, 0x1824): two empty lines at its start, as hpcprof writes them */
  const char *empty = with_lines("empty-lines", 0x1050, 0x1050, 0x1050, 0x1050);
  CHECK(empty != NULL);
  if (empty) CHECK(errors_of(empty, &r) == 0);
  const char *overlap = with_lines("overlap", 0x1050, 0x1050, 0x105c, 0x1824);
  CHECK(overlap != NULL);
  if (overlap) CHECK(errors_of(overlap, &r) > 0 && strstr(r.seen, "trace-overlap"));
  return TEST_END();
}
