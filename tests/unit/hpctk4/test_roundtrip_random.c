/* SPDX-License-Identifier: BSD-3-Clause */
/* v4.0 round trip on random models: generate -> write (valid by the
 * validator) -> read -> the same model -> write again -> the same bytes. */
#include <stdlib.h>
#include <string.h>

#include "hpcdb/hpcdb.h"
#include "random_experiment.h"
#include "testlib.h"

#define SEEDS 1000

static void print_diagnostic(void *user, const hpcdb_diagnostic *d) {
  int *shown = user;
  if (d->severity == HPCDB_SEV_ERROR && (*shown)++ < 10)
    fprintf(stderr, "%s: offset 0x%llx: %s: %s\n", d->file, (unsigned long long)d->offset, d->rule, d->detail);
}

/* The validator's verdict on what the writer made. */
static void validate(const char *dir, uint64_t seed) {
  static int shown;
  hpcdb_validation v;
  int rc = hpcdb_validate(&v, dir, print_diagnostic, &shown);
  CHECK_RC(rc);
  if (rc == 0 && v.errors) {
    fprintf(stderr, "seed %llu: the validator found %llu errors\n", (unsigned long long)seed,
            (unsigned long long)v.errors);
    CHECK(0);
  }
}

int main(void) {
  const char *da = testlib_tmpdir("roundtrip_random_a"), *db = testlib_tmpdir("roundtrip_random_b");
  static const char *const files[] = {"meta.db", "profile.db", "cct.db", "trace.db", "metrics/default.yaml"};
  int reported = 0;
  for (uint64_t seed = 1; seed <= SEEDS; seed++) {
    hpcdb_experiment *e = NULL, *r = NULL;
    char why[512];
    CHECK_RC(random_experiment(&e, seed));
    if (!e) continue;
    CHECK_RC(hpcdb_hpctk4_write(e, da, HPCDB_WRITE_FORCE));
    validate(da, seed);
    CHECK_RC(hpcdb_hpctk4_read(&r, da));
    if (r && !experiments_equal(e, r, why, sizeof why)) {
      CHECK(0);
      if (reported++ < 10) fprintf(stderr, "seed %llu: read back differs: %s\n", (unsigned long long)seed, why);
    } else if (r) {
      CHECK_RC(hpcdb_hpctk4_write(r, db, HPCDB_WRITE_FORCE));
      for (int i = 0; i < 5; i++) {
        if (i == 3 && !e->has_traces) continue;
        if (!testlib_same_in_dirs(da, db, files[i])) {
          CHECK(0);
          if (reported++ < 10)
            fprintf(stderr, "seed %llu: %s differs after the round trip\n", (unsigned long long)seed, files[i]);
        }
      }
    }
    hpcdb_experiment_free(r);
    hpcdb_experiment_free(e);
  }
  return TEST_END();
}
