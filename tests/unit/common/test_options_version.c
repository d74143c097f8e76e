/* SPDX-License-Identifier: BSD-3-Clause */
/* The ABI policy (docs/api-stability.md) at run time: an options struct from a
 * newer caller is refused with a message naming it, version 0 is the first
 * version, an ops table must say its version, and the version number agrees
 * with the string. */
#include <stdio.h>
#include <string.h>

#include "hpcdb/compare.h"
#include "hpcdb/hpcdb.h"
#include "hpcdb/query.h"
#include "hpcdb/report.h"
#include "testlib.h"

static int dummy_column(void *impl, uint32_t metric, double *inc, double *exc, unsigned *have) { return 0; }

int main(void) {
  char version[32];
  snprintf(version, sizeof version, "%u.%u.%u", HPCDB_VERSION_MAJOR, HPCDB_VERSION_MINOR, HPCDB_VERSION_PATCH);
  CHECK(strcmp(hpcdb_version(), version) == 0);
  CHECK(hpcdb_version_number() == HPCDB_VERSION_NUMBER);
  CHECK(HPCDB_VERSION_NUMBER == HPCDB_VERSION_MAJOR * 10000 + HPCDB_VERSION_MINOR * 100 + HPCDB_VERSION_PATCH);

  hpcdb_experiment *exp = NULL;
  hpcdb_read_options newer = HPCDB_READ_OPTIONS_INIT;
  newer.version = HPCDB_READ_OPTIONS_VERSION + 1;
  CHECK(hpcdb_read_opts(&exp, "/nonexistent", &newer) == HPCDB_EINVAL);
  CHECK(strstr(hpcdb_last_error(), "hpcdb_read_options: version 2 is newer") != NULL);
  hpcdb_read_options zeroed = {0}; /* taken as version 1: the path is what fails */
  CHECK(hpcdb_read_opts(&exp, "/nonexistent", &zeroed) != HPCDB_EINVAL);

  hpcdb_align_options align = HPCDB_ALIGN_OPTIONS_INIT;
  align.version = 7;
  hpcdb_alignment *al = NULL;
  const hpcdb_experiment *none[1] = {NULL};
  CHECK(hpcdb_align(&al, none, 1, &align) == HPCDB_EINVAL);
  CHECK(strstr(hpcdb_last_error(), "hpcdb_align_options") != NULL);

  hpcdb_report_options report = HPCDB_REPORT_OPTIONS_INIT;
  CHECK(report.version == HPCDB_REPORT_OPTIONS_VERSION);
  report.version = 99;
  CHECK(hpcdb_report(stdout, NULL, &report) == HPCDB_EINVAL);

  hpcdb_experiment *tree = NULL;
  CHECK(hpcdb_experiment_new(&tree) == 0);
  hpcdb_qsource_ops ops = {0};
  ops.name = "unversioned";
  ops.column = dummy_column;
  hpcdb_qsource src = {&ops, NULL, tree, 0, NULL};
  hpcdb_query *q = NULL;
  CHECK(hpcdb_query_from_source(&q, &src) == HPCDB_EINVAL);
  CHECK(strstr(hpcdb_last_error(), "hpcdb_qsource_ops: version 0") != NULL);
  hpcdb_experiment_free(tree);
  return TEST_END();
}
