/* SPDX-License-Identifier: BSD-3-Clause */
#define _XOPEN_SOURCE 700
#include "v4_databases.h"

#include <ftw.h>

#include "hpcdb/hpcdb.h"
#include "random_experiment.h"
#include "testlib.h"

/* nftw's callback takes no argument of ours */
static v4_compare_fn walking;
static int walked;

static int visit(const char *path, const struct stat *st, int type, struct FTW *ftw) {
  (void)st, (void)ftw;
  hpcdb_format f;
  if (type == FTW_D && hpcdb_detect(&f, path) == 0 && f == HPCDB_FORMAT_HPCTK4_DIR) walked += walking(path);
  return 0;
}

int v4_each_sample(v4_compare_fn compare) {
  if (!testlib_have_samples()) return 0;
  walking = compare;
  walked = 0;
  nftw(testlib_sample(""), visit, 16, FTW_PHYS);
  return walked;
}

int v4_each_random(const char *dir, uint64_t n, v4_compare_fn compare) {
  int compared = 0;
  for (uint64_t seed = 1; seed <= n; seed++) {
    hpcdb_experiment *e = NULL;
    CHECK_RC(random_experiment(&e, seed));
    if (e && hpcdb_hpctk4_write(e, dir, HPCDB_WRITE_FORCE) == 0) compared += compare(dir);
    hpcdb_experiment_free(e);
  }
  return compared;
}
