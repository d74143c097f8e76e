/* SPDX-License-Identifier: BSD-3-Clause */
/* What a .cubex cannot hold of a model, so that a conversion says so
 * instead of dropping it silently. */
#include <stdio.h>
#include <stdlib.h>

#include "cube/cube_write.h"
#include "hpcdb/cube.h"
#include "hpcdb/formats.h"
#include "hpcdb/model.h"
#include "model/format.h"

/* Values in location profiles at ids the context tree does not list. */
static uint64_t untreed_values(const hpcdb_experiment *exp) {
  uint64_t n = 0;
  for (uint32_t p = 0; p < exp->n_profiles; p++) {
    const hpcdb_profile *pr = &exp->profiles[p];
    if (pr->flags & HPCDB_PROFILE_SUMMARY) continue;
    for (uint32_t k = 0; k < pr->n_ctxs; k++)
      if (hpcdb_find_context(exp, pr->ctx_ids[k]) == HPCDB_NONE) n += pr->ctx_starts[k + 1] - pr->ctx_starts[k];
  }
  return n;
}

uint64_t hpcdb_cube_write_losses(const hpcdb_experiment *exp, hpcdb_line_fn fn, void *user) {
  cube_metric_plan *plans = NULL;
  uint32_t n_plans = 0;
  if (cube_plan_metrics(exp, &plans, &n_plans) < 0)
    return format_loss(fn, user, 1, "metric plan failed: out of memory");
  uint64_t stats = 0, scopes = 0, flags = 0, trace_points = 0;
  for (uint32_t i = 0; i < exp->n_metrics; i++) {
    const hpcdb_metric *m = &exp->metrics[i];
    for (uint32_t s = 0; s < m->n_summaries; s++) /* Cube recomputes the plain combination over locations */
      stats += !(m->summaries[s].formula && m->summaries[s].formula[0] == '$' && m->summaries[s].formula[1] == '$' &&
                 m->summaries[s].formula[2] == '\0');
    uint32_t kept = 0;
    for (uint32_t k = 0; k < n_plans; k++) kept += plans[k].metric == i;
    for (uint32_t s = 0; s < m->n_instances; s++) {
      const char *name = exp->scopes[m->instances[s].scope].name;
      uint8_t type = exp->scopes[m->instances[s].scope].type;
      int derived = kept && ((type == HPCDB_SCOPE_POINT || type == HPCDB_SCOPE_EXECUTION) && name);
      scopes += !derived;
    }
  }
  for (uint32_t i = 0; i < exp->n_modules; i++) flags += exp->modules[i].flags != 0;
  for (uint32_t i = 0; i < exp->n_files; i++) flags += exp->files[i].flags != 0;
  for (uint32_t i = 0; i < exp->n_functions; i++) flags += exp->functions[i].flags != 0;
  for (uint32_t i = 0; i < exp->n_traces; i++) trace_points += exp->traces[i].n;
  uint64_t kinds = 0;
  kinds +=
      format_loss(fn, user, exp->n_metrics - n_plans, "metric(s) without a point or execution scope are not stored");
  kinds += format_loss(fn, user, scopes,
                       "metric scope(s) other than point and execution (e.g. function, lex_aware) are not stored");
  kinds += format_loss(fn, user, stats,
                       "summary statistic(s) other than plain sums, minima and maxima are not stored "
                       "(Cube recomputes the combination over locations)");
  kinds += format_loss(fn, user, untreed_values(exp),
                       "value(s) at contexts the tree does not list are not stored "
                       "(inclusive metrics keep them in their parents' exclusive values)");
  kinds += format_loss(fn, user, flags, "load module, source file or function flag(s) are not stored");
  kinds += format_loss(fn, user, trace_points, "trace record(s) are not stored (Cube files hold profiles only)");
  free(plans);
  return kinds;
}
