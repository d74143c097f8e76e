/* SPDX-License-Identifier: BSD-3-Clause */
/* Draft b round trip over 1,000 random models: write a draft-b database
 * (meta.db in the code's 8-section form, every fourth seed in the document's
 * 7-section form, plus the HPCPROF-* files), read it back through
 * hpcdb_read (detection included) and compare with what the draft can
 * carry of the model (draftb_normalise says what that excludes). Each
 * database must also pass hpcdb_validate, and convert to a v4.0 database
 * that validates and diffs equal to it. */
#include <stdio.h>
#include <stdlib.h>

#include "draftb_write.h"
#include "hpcdb/hpcdb.h"
#include "random_experiment.h"
#include "testlib.h"

#define SEEDS 1000

static void print_diag(void *user, const hpcdb_diagnostic *d) {
  if (d->severity == HPCDB_SEV_ERROR)
    fprintf(stderr, "  seed %llu: %s: 0x%llx: %s: %s\n", *(unsigned long long *)user, d->file,
            (unsigned long long)d->offset, d->rule, d->detail);
}

static void print_line(void *user, const char *line) {
  (void)user;
  fprintf(stderr, "  diff: %s\n", line);
}

static int one_seed(uint64_t seed, const char *dir, const char *v4dir) {
  hpcdb_experiment *orig = NULL, *want = NULL, *got = NULL, *v4 = NULL;
  unsigned flags = seed % 4 == 0 ? DRAFTB_SEVEN_SECTIONS : 0;
  unsigned long long s = seed;
  char why[512] = "";
  int ok = 0;
  if (random_experiment_with(&orig, seed, RANDOM_DRAFT_B) != 0 || draftb_normalise(orig, flags, &want) != 0) goto done;
  if (draftb_write(orig, dir, flags) != 0) {
    fprintf(stderr, "seed %llu: the writer failed\n", s);
    goto done;
  }
  hpcdb_format format;
  if (hpcdb_detect(&format, dir) != 0 || format != HPCDB_FORMAT_DRAFT_B) {
    fprintf(stderr, "seed %llu: not detected as draft b\n", s);
    goto done;
  }
  if (hpcdb_read(&got, dir) != 0) {
    fprintf(stderr, "seed %llu: %s\n", s, hpcdb_last_error());
    goto done;
  }
  if (!experiments_equal(want, got, why, sizeof why)) {
    fprintf(stderr, "seed %llu: read back differs: %s\n", s, why);
    goto done;
  }
  hpcdb_validation r;
  if (hpcdb_validate(&r, dir, print_diag, &s) != 0 || r.errors) {
    fprintf(stderr, "seed %llu: the draft-b database does not validate\n", s);
    goto done;
  }
  if (hpcdb_hpctk4_write(got, v4dir, HPCDB_WRITE_FORCE) != 0) {
    fprintf(stderr, "seed %llu: convert: %s\n", s, hpcdb_last_error());
    goto done;
  }
  if (hpcdb_validate(&r, v4dir, print_diag, &s) != 0 || r.errors) {
    fprintf(stderr, "seed %llu: the converted v4.0 database does not validate\n", s);
    goto done;
  }
  uint64_t differences = 1;
  if (hpcdb_read(&v4, v4dir) != 0 || hpcdb_diff(&differences, got, v4, NULL, print_line, NULL) != 0 || differences) {
    fprintf(stderr, "seed %llu: the v4.0 conversion differs (%llu)\n", s, (unsigned long long)differences);
    goto done;
  }
  ok = 1;
done:
  hpcdb_experiment_free(orig);
  hpcdb_experiment_free(want);
  hpcdb_experiment_free(got);
  hpcdb_experiment_free(v4);
  return ok;
}

int main(void) {
  char dir[4096], v4dir[4200]; /* testlib_tmpdir returns its own buffer */
  snprintf(dir, sizeof dir, "%s", testlib_tmpdir("draftb-roundtrip"));
  snprintf(v4dir, sizeof v4dir, "%s/db", testlib_tmpdir("draftb-roundtrip-v4"));
  int failures = 0;
  for (uint64_t seed = 1; seed <= SEEDS && failures < 5; seed++) {
    int ok = one_seed(seed, dir, v4dir);
    CHECK(ok);
    failures += !ok;
  }
  return TEST_END();
}
