/* SPDX-License-Identifier: BSD-3-Clause */
/* Every case of tests/bad/hpcprof1/cases.txt: a copy of the real 2022
 * sample with one HPCPROF-* file damaged must be rejected by
 * hpcprof1_validate with the named rule, and by the readers unless the case
 * says only the validator looks there. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bad_cases.h"
#include "hpcdb/hpcdb.h"
#include "older/hpcprof1/hpcprof1.h"
#include "testlib.h"

static int read_dir(const char *dir) {
  char path[4200];
  hpcdb_experiment *exp;
  uint32_t first;
  if (hpcdb_experiment_new(&exp) != 0) return -1;
  snprintf(path, sizeof path, "%s/profile.db", dir);
  int rc = hpcprof1_read_profiles(exp, path, NULL, &first);
  snprintf(path, sizeof path, "%s/trace.db", dir);
  if (rc == 0) rc = hpcprof1_read_traces(exp, path, first);
  hpcdb_experiment_free(exp);
  return rc;
}

static int validate_dir(hpcdb_validation *result, const char *dir, hpcdb_diagnostic_fn fn, void *user) {
  return hpcprof1_validate(result, dir, NULL, 0, fn, user);
}

int main(void) {
  if (!testlib_have_samples()) {
    printf("sample data not found: skipped\n");
    return 77;
  }
  const char *src = getenv("HPCDB_SOURCE_DIR");
  char manifest[4096];
  snprintf(manifest, sizeof manifest, "%s/tests/bad/hpcprof1/cases.txt", src ? src : ".");
  const bad_target hpcprof1 = {validate_dir, read_dir};
  int cases = bad_cases_run(manifest, testlib_sample("hpctoolkit-2022/ping-pong-mpi"), &hpcprof1);
  printf("%d cases\n", cases);
  CHECK(cases >= 15);
  return TEST_END();
}
