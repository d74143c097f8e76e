/* SPDX-License-Identifier: BSD-3-Clause */
/* Which values of a model metric a Cube metric stores. Cube keeps one
 * flavour and derives the other along the call tree: inclusive values
 * (the execution scope) are stored for summed metrics, since they stay exact
 * even where a database has values at contexts its tree does not list;
 * metrics combined by min or max keep their exclusive (point) values with
 * Cube's MINDOUBLE / MAXDOUBLE, whose inclusive values are min / max over
 * the subtree. A metric with one flavour and no summary is marked so
 * (attribute hpctoolkit::stored-only::<id>), and read back as it was. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "cube/cube_write.h"
#include "model/model_build.h"

static int find_instance(const hpcdb_experiment *exp, const hpcdb_metric *m, uint8_t type, const char *name) {
  for (uint32_t i = 0; i < m->n_instances; i++) {
    const hpcdb_scope *s = &exp->scopes[m->instances[i].scope];
    if (s->type == type && s->name && !strcmp(s->name, name)) return (int)i;
  }
  return -1;
}

/* The combination of the metric's summaries over profiles: min or max when
 * every summary of it says so, sum otherwise. */
static uint8_t combine_of(const hpcdb_metric *m) {
  if (!m->n_summaries) return HPCDB_COMBINE_SUM;
  uint8_t c = m->summaries[0].combine;
  for (uint32_t i = 1; i < m->n_summaries; i++)
    if (m->summaries[i].combine != c) return HPCDB_COMBINE_SUM;
  return c;
}

/* Whether every stored value of prop id `id` is an integer that the metric's
 * 64-bit integer type holds (so that an integer metric from a Cube file is
 * written as one, and reads back with the same modulo 2^64 arithmetic). */
static int integral(const hpcdb_experiment *exp, uint16_t id, uint8_t integer) {
  double lo = -9223372036854775808.0,
         hi = integer == HPCDB_INTEGER_SIGNED ? 9223372036854775808.0 : 18446744073709551616.0;
  for (uint32_t p = 0; p < exp->n_profiles; p++) {
    const hpcdb_profile *pr = &exp->profiles[p];
    if (pr->flags & HPCDB_PROFILE_SUMMARY || model_integers(exp, p)) continue; /* its integers are exact */
    for (uint64_t v = 0; v < pr->n_values; v++)
      if (pr->metric_ids[v] == id &&
          !(pr->values[v] >= lo && pr->values[v] < hi && pr->values[v] == floor(pr->values[v])))
        return 0;
  }
  return 1;
}

int cube_plan_metrics(const hpcdb_experiment *exp, cube_metric_plan **plans, uint32_t *n) {
  *n = 0;
  *plans = malloc(((size_t)exp->n_metrics + 1) * sizeof **plans);
  if (!*plans) return hpcdb_fail(HPCDB_ENOMEM, "out of memory");
  for (uint32_t i = 0; i < exp->n_metrics; i++) {
    const hpcdb_metric *m = &exp->metrics[i];
    int point = find_instance(exp, m, HPCDB_SCOPE_POINT, "point");
    int execution = find_instance(exp, m, HPCDB_SCOPE_EXECUTION, "execution");
    uint8_t combine = combine_of(m);
    cube_metric_plan p = {i, 0, 0, -1, "DOUBLE", 0, 0};
    if (combine != HPCDB_COMBINE_SUM && point >= 0) {
      /* an entry point has no exclusive value of its own; storing its
       * inclusive one there keeps Cube's min / max over the subtree right */
      p.stored_id = m->instances[point].prop_metric_id;
      p.entry_id = execution >= 0 ? m->instances[execution].prop_metric_id : -1;
      p.dtype = combine == HPCDB_COMBINE_MIN ? "MINDOUBLE" : "MAXDOUBLE";
    } else if (execution >= 0) {
      p.stored_id = m->instances[execution].prop_metric_id;
      p.inclusive = 1;
    } else if (point >= 0) {
      p.stored_id = m->instances[point].prop_metric_id;
    } else {
      continue; /* no flavour Cube can store: listed among the losses */
    }
    /* a value without its other flavour or a combination over profiles (a
     * component of a Cube composite type, say) is written so that reading
     * it back derives neither */
    p.stored_only = (point < 0 || execution < 0) && m->n_summaries == 0;
    if (m->integer && combine == HPCDB_COMBINE_SUM && integral(exp, p.stored_id, m->integer)) {
      p.integer = m->integer;
      p.dtype = m->integer == HPCDB_INTEGER_SIGNED ? "INT64" : "UINT64";
    }
    (*plans)[(*n)++] = p;
  }
  return 0;
}
