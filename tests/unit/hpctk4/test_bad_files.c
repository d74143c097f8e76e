/* SPDX-License-Identifier: BSD-3-Clause */
/* Every case of tests/bad/hpctk4/cases.txt: a copy of a real database with
 * one file mutated must be rejected by hpcdb validate with the named rule
 * (as an error), and by the reader with an error unless the case says the
 * reader does not look there. No case may crash or hang (the suite also runs
 * under AddressSanitizer). */
#include <stdio.h>
#include <stdlib.h>

#include "bad_cases.h"
#include "hpcdb/hpcdb.h"
#include "testlib.h"

#define SOURCE "hpcrun/expected/small.nostruct.d"

static int read_db(const char *dir) {
  hpcdb_experiment *exp = NULL;
  int rc = hpcdb_hpctk4_read(&exp, dir);
  hpcdb_experiment_free(exp);
  return rc;
}

int main(void) {
  if (!testlib_have_samples()) {
    printf("sample data not found: skipped\n");
    return 77;
  }
  const char *src = getenv("HPCDB_SOURCE_DIR");
  char manifest[4096];
  snprintf(manifest, sizeof manifest, "%s/tests/bad/hpctk4/cases.txt", src ? src : ".");
  const bad_target v4 = {hpcdb_validate, read_db};
  int cases = bad_cases_run(manifest, testlib_sample(SOURCE), &v4);
  printf("%d cases\n", cases);
  CHECK(cases >= 40);
  return TEST_END();
}
