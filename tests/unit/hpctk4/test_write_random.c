/* SPDX-License-Identifier: BSD-3-Clause */
/* The writer on random models: deterministic output (same model, same
 * bytes), the chunked cct.db transpose independent of the chunk size, and
 * the generator and comparison the round-trip test relies on. */
#include <stdlib.h>
#include <string.h>

#include "hpcdb/hpcdb.h"
#include "hpctk4/hpctk4_write.h"
#include "random_experiment.h"
#include "testlib.h"

#define SEEDS 200

static void comparison_sees_differences(void) {
  hpcdb_experiment *a, *b;
  char why[256];
  CHECK_RC(random_experiment(&a, 7));
  CHECK_RC(random_experiment(&b, 7));
  CHECK(experiments_equal(a, b, why, sizeof why));
  b->profiles[0].n_values ? (void)(b->profiles[0].values[0] += 1) : (void)(b->profiles[0].flags ^= 0x100);
  CHECK(!experiments_equal(a, b, why, sizeof why) && why[0]);
  hpcdb_experiment_free(b);
  CHECK_RC(random_experiment(&b, 8));
  CHECK(!experiments_equal(a, b, why, sizeof why));
  hpcdb_experiment_free(a);
  hpcdb_experiment_free(b);
}

int main(void) {
  comparison_sees_differences();
  const char *da = testlib_tmpdir("write_random_a"), *db = testlib_tmpdir("write_random_b");
  static const char *const files[] = {"meta.db", "profile.db", "cct.db", "metrics/default.yaml"};
  char chunked[4096];
  snprintf(chunked, sizeof chunked, "%s/cct-chunked.db", db);
  for (uint64_t seed = 1; seed <= SEEDS; seed++) {
    hpcdb_experiment *e;
    CHECK_RC(random_experiment(&e, seed));
    if (!e) continue;
    int rc_a = hpcdb_hpctk4_write(e, da, HPCDB_WRITE_FORCE), rc_b = hpcdb_hpctk4_write(e, db, HPCDB_WRITE_FORCE);
    CHECK_RC(rc_a);
    CHECK_RC(rc_b);
    for (int i = 0; i < 4; i++)
      if (!testlib_same_in_dirs(da, db, files[i])) {
        fprintf(stderr, "seed %llu: %s differs between two writes\n", (unsigned long long)seed, files[i]);
        CHECK(0);
      }
    if (e->has_traces) CHECK(testlib_same_in_dirs(da, db, "trace.db"));
    CHECK_RC(hpctk4_write_cct(e, chunked, 1 + seed % 5));
    char a[4096];
    snprintf(a, sizeof a, "%s/cct.db", da);
    uint8_t *x = NULL, *y = NULL;
    size_t nx = 0, ny = 0;
    CHECK(testlib_read_file(a, &x, &nx) == 0 && testlib_read_file(chunked, &y, &ny) == 0 && nx == ny &&
          memcmp(x, y, nx) == 0);
    free(x);
    free(y);
    hpcdb_experiment_free(e);
  }
  return TEST_END();
}
