/* SPDX-License-Identifier: BSD-3-Clause */
/* The Cube writer's rows (cube_metric_rows_fill) against a plain lookup of
 * each (cnode, location) value, written out here: every metric of a few
 * samples, one after the other in the same buffers, with the same rows to
 * the bit and the same sparse index. The samples cover 16, 24 and 64
 * locations (whole tiles), a few locations (a partial tile), Cube files and
 * v4.0 databases, inclusive and exclusive metrics, and min / max metrics
 * whose entry points store another id. */
#include <stdlib.h>
#include <string.h>

#include "cube/cube_write.h"
#include "hpcdb/hpcdb.h"
#include "testlib.h"

/* Profile p's value of prop id `id` at native context id `ctx_id`, 0 when it has none; *cell what its row
 * holds: the value, or for a metric written as integers the exact integer's bits (hpcdb_profile_integer). */
static double value_at(const hpcdb_experiment *exp, uint32_t profile, uint32_t ctx_id, uint16_t id, int integer,
                       double *cell) {
  const hpcdb_profile *p = &exp->profiles[profile];
  *cell = 0;
  for (uint32_t k = 0; k < p->n_ctxs; k++) {
    if (p->ctx_ids[k] != ctx_id) continue;
    for (uint64_t v = p->ctx_starts[k]; v < p->ctx_starts[k + 1]; v++) {
      if (p->metric_ids[v] != id) continue;
      uint64_t u = 0;
      *cell = p->values[v];
      if (integer) {
        CHECK(hpcdb_profile_integer(exp, profile, v, &u));
        memcpy(cell, &u, sizeof u);
      }
      return p->values[v];
    }
  }
  return 0;
}

/* One metric's rows, looked up cnode by cnode, and its listed positions. */
static void expected_rows(const hpcdb_experiment *exp, const cube_tree *t, const cube_metric_plan *plan, double *rows,
                          uint32_t *listed, uint32_t *n_listed) {
  uint32_t n = t->n, nl = t->n_locations, *order = malloc(((size_t)n + 1) * sizeof *order);
  CHECK(order != NULL);
  if (plan->inclusive) CHECK_RC(cube_inclusive_order(n, t->parent, t->kids_at, t->kids, order));
  else
    for (uint32_t c = 0; c < n; c++) order[c] = c;
  *n_listed = 0;
  for (uint32_t k = 0; k < n; k++) {
    const hpcdb_context *ctx = &exp->contexts[t->ctx[order[k]]];
    int entry = plan->entry_id >= 0 && ctx->kind == HPCDB_CTX_ENTRY;
    uint16_t id = entry ? (uint16_t)plan->entry_id : plan->stored_id;
    int nonzero = 0;
    for (uint32_t l = 0; l < nl; l++) {
      double x = value_at(exp, t->locations[l], ctx->id, id, plan->integer != 0, &rows[(size_t)k * nl + l]);
      nonzero |= x != 0;
    }
    if (nonzero) listed[(*n_listed)++] = k;
  }
  free(order);
}

static int same_rows(const cube_metric_rows *r, const double *rows, const uint32_t *listed, uint32_t n_listed) {
  return r->n_listed == n_listed && !memcmp(r->listed, listed, n_listed * sizeof *listed) &&
         !memcmp(r->rows, rows, (size_t)r->n * r->n_locations * sizeof *rows);
}

static void check_sample(const char *relative) {
  hpcdb_experiment *exp;
  CHECK_RC(hpcdb_read(&exp, testlib_sample(relative)));
  cube_tree t;
  cube_metric_plan *plans;
  uint32_t n_plans;
  CHECK_RC(cube_tree_build(&t, exp));
  CHECK_RC(cube_plan_metrics(exp, &plans, &n_plans));
  CHECK(n_plans > 0);
  size_t cells = (size_t)t.n * t.n_locations;
  double *rows = malloc(cells * sizeof *rows + 1);
  uint32_t *listed = malloc(((size_t)t.n + 1) * sizeof *listed);
  cube_metric_rows filled = {0};
  CHECK(rows && listed);
  for (uint32_t m = 0; m < n_plans; m++) {
    uint32_t n_listed;
    expected_rows(exp, &t, &plans[m], rows, listed, &n_listed);
    CHECK_RC(cube_metric_rows_fill(&filled, exp, &t, &plans[m])); /* the buffers reused from metric to metric */
    if (!same_rows(&filled, rows, listed, n_listed)) fprintf(stderr, "%s, metric %u: other rows\n", relative, m);
    CHECK(same_rows(&filled, rows, listed, n_listed));
  }
  cube_metric_rows_free(&filled);
  free(listed);
  free(rows);
  free(plans);
  cube_tree_free(&t);
  hpcdb_experiment_free(exp);
}

int main(void) {
  if (!testlib_have_samples()) {
    printf("sample data not found: skipped\n");
    return 77;
  }
  check_sample("cube/blast.p64.bigendian.cubex"); /* 64 locations */
  check_sample("cube/all-dtypes.cubex");          /* min / max metrics, 4 locations */
  check_sample("cube/time.p4.cubex");
  check_sample("hpctoolkit-v4/hpcviewer-issue-328"); /* 44 metrics */
  check_sample("hpctoolkit-v4/cpi-mpi");             /* 16 locations */
  check_sample("hpctoolkit-v4/lmp-openmp");          /* 24 */
  return TEST_END();
}
