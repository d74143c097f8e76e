/* SPDX-License-Identifier: BSD-3-Clause */
/* Real HPCToolkit databases through the writer: read -> write -> read gives
 * the same model, a second write the same bytes, and the database's own
 * metrics/ taxonomy is carried over unchanged. */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "hpcdb/hpcdb.h"
#include "random_experiment.h"
#include "testlib.h"

static const char *const samples[] = {"hpctoolkit-v4/cpi-mpi",
                                      "hpctoolkit-v4/hpcviewer-issue-328",
                                      "hpctoolkit-v4/lmp-openmp",
                                      "hpctoolkit-v4/loop-fork-cycles",
                                      "hpctoolkit-v4/ping-pong-mpi",
                                      "hpcrun/expected/small.d",
                                      "hpcrun/expected/small.nostruct.d",
                                      "hpcrun/expected/loops-cputime-t.d",
                                      "hpcrun/expected/loops-cputime-t.nostruct.d"};

static void one(const char *rel) {
  const char *src = testlib_sample(rel);
  const char *da = testlib_tmpdir("write_real_a"), *db = testlib_tmpdir("write_real_b");
  hpcdb_experiment *orig = NULL, *back = NULL, *again = NULL;
  char why[512], a[4096], b[4096];
  CHECK_RC(hpcdb_hpctk4_read(&orig, src));
  if (!orig) return;
  CHECK(hpcdb_hpctk4_write_losses(orig, NULL, NULL) == 0); /* v4.0 to v4.0 is exact */
  CHECK_RC(hpcdb_hpctk4_write(orig, da, HPCDB_WRITE_FORCE));
  CHECK_RC(hpcdb_hpctk4_read(&back, da));
  if (back && !experiments_equal(orig, back, why, sizeof why)) {
    fprintf(stderr, "%s: read back differs: %s\n", rel, why);
    CHECK(0);
  }
  snprintf(a, sizeof a, "%s/metrics/default.yaml", src);
  snprintf(b, sizeof b, "%s/metrics/default.yaml", da);
  CHECK(testlib_same_file(a, b));
  if (back) {
    CHECK_RC(hpcdb_hpctk4_write(back, db, HPCDB_WRITE_FORCE));
    CHECK_RC(hpcdb_hpctk4_read(&again, db));
    static const char *const files[] = {"meta.db", "profile.db", "cct.db", "trace.db"};
    for (int i = 0; i < 4; i++) {
      snprintf(a, sizeof a, "%s/%s", da, files[i]);
      snprintf(b, sizeof b, "%s/%s", db, files[i]);
      struct stat st;
      if (i == 3 && stat(a, &st) != 0) continue;
      if (!testlib_same_file(a, b)) {
        fprintf(stderr, "%s: %s differs on the second write\n", rel, files[i]);
        CHECK(0);
      }
    }
  }
  hpcdb_experiment_free(orig);
  hpcdb_experiment_free(back);
  hpcdb_experiment_free(again);
}

int main(void) {
  if (!testlib_have_samples()) {
    printf("skipped: no sample data at %s\n", testlib_sample(""));
    return 77;
  }
  for (size_t i = 0; i < sizeof samples / sizeof *samples; i++) one(samples[i]);
  return TEST_END();
}
