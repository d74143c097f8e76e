/* SPDX-License-Identifier: BSD-3-Clause */
/* Report invariants on real databases: the top-down root total is the
 * summary profile's execution value at the global context; the own costs
 * every context adds (which bottom-up, flat and folded stacks partition by
 * frame, module and path) sum to that same total; a profile's view sums to
 * its own root. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hpcdb/hpcdb.h"
#include "report/report_data.h"
#include "testlib.h"

static int close_to(double a, double b) { return fabs(a - b) <= 1e-9 * fmax(fabs(a), fabs(b)) + 1e-12; }

static void check_database(const char *rel) {
  hpcdb_experiment *exp;
  CHECK_RC(hpcdb_read(&exp, testlib_sample(rel)));
  report_data d;
  CHECK_RC(report_data_build(&d, exp, NULL, 0, NULL, 3));
  /* the summary's Sum of execution at context 0 */
  const hpcdb_metric *m = &exp->metrics[d.cols[0].metric];
  double root = 0;
  for (uint32_t k = 0; k < m->n_summaries; k++)
    if (exp->scopes[m->summaries[k].scope].type == HPCDB_SCOPE_EXECUTION &&
        m->summaries[k].combine == HPCDB_COMBINE_SUM)
      hpcdb_profile_value(&exp->profiles[0], 0, m->summaries[k].stat_metric_id, &root);
  CHECK(root > 0 && close_to(d.total[0], root));
  double self = 0;
  for (uint32_t i = 0; i < exp->n_contexts; i++) self += rd_self(&d, i, 0);
  CHECK(close_to(self, d.total[0]));
  report_data_free(&d);
  /* one profile on its own */
  char id[256];
  hpcdb_profile_identity(exp, &exp->profiles[1], id, sizeof id);
  CHECK_RC(report_data_build(&d, exp, NULL, 0, id, 3));
  self = 0;
  for (uint32_t i = 0; i < exp->n_contexts; i++) self += rd_self(&d, i, 0);
  CHECK(close_to(self, d.total[0]));
  report_data_free(&d);
  CHECK(report_data_build(&d, exp, NULL, 0, "RANK 99 THREAD 99", 3) == HPCDB_EINVAL);
  hpcdb_experiment_free(exp);
}

int main(void) {
  if (!testlib_have_samples()) {
    printf("sample data not found: skipped\n");
    return 77;
  }
  check_database("hpctoolkit-v4/cpi-mpi");
  check_database("hpctoolkit-v4/ping-pong-mpi");
  check_database("hpctoolkit-v4/lmp-openmp");
  check_database("hpcrun/expected/small.d");
  return TEST_END();
}
