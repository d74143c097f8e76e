/* SPDX-License-Identifier: BSD-3-Clause */
/* What the view tests' small databases share: an experiment with one time
 * metric (point and execution values, their sums as summaries) and a main
 * entry point (context id 1) under the root. */
#ifndef TESTS_VIEW_ONE_METRIC_DB_H
#define TESTS_VIEW_ONE_METRIC_DB_H

#include "hpcdb/hpcdb.h"

static int one_metric_db(hpcdb_experiment **out, uint32_t *entry) {
  hpcdb_experiment *e;
  uint32_t point, exec, m;
  if (hpcdb_experiment_new(&e) < 0) return -1;
  hpcdb_scope sp = {"point", HPCDB_SCOPE_POINT, 0}, se = {"execution", HPCDB_SCOPE_EXECUTION, 0};
  hpcdb_summary s1 = {0, "$$", HPCDB_COMBINE_SUM, 0}, s2 = {0, "$$", HPCDB_COMBINE_SUM, 1};
  hpcdb_context c = {0};
  c.id = 1, c.kind = HPCDB_CTX_ENTRY, c.entry_point = HPCDB_ENTRY_MAIN;
  c.function = c.file = c.module = HPCDB_NONE;
  int rc = hpcdb_add_scope(e, &sp, &point) < 0 || hpcdb_add_scope(e, &se, &exec) < 0 ||
           hpcdb_add_metric(e, "time (sec)", &m) < 0 || hpcdb_metric_add_instance(e, m, point, 0) < 0 ||
           hpcdb_metric_add_instance(e, m, exec, 1) < 0;
  s1.scope = point, s2.scope = exec;
  rc = rc || hpcdb_metric_add_summary(e, m, &s1) < 0 || hpcdb_metric_add_summary(e, m, &s2) < 0 ||
       hpcdb_add_context(e, &c, 0, entry) < 0;
  if (rc) {
    hpcdb_experiment_free(e);
    return -1;
  }
  *out = e;
  return 0;
}

#endif
