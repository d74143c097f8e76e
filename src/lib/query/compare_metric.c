/* SPDX-License-Identifier: BSD-3-Clause */
/* Which metric of each run is compared (docs/compare.md, "Metrics"): the one
 * named for the run; else the first run's (named, or its default metric)
 * by the same name; else a metric documented as meaning the same thing; else
 * the same time metric in another unit (values are converted). */
#include <stdio.h>
#include <string.h>

#include "common/error.h"
#include "query/compare_values.h"
#include "query/query_internal.h"

/* Names that measure the same thing in different tools, both ways. Score-P's
 * `time` is wall-clock time, as HPCToolkit's REALTIME; CPU time (CPUTIME,
 * cpu-clock) is not the same quantity and is matched only when named. */
static const char *const equivalent[][2] = {
    {"time", "REALTIME (sec)"},
};

static uint32_t by_name(const hpcdb_experiment *e, const char *name) {
  for (uint32_t m = 0; m < e->n_metrics; m++)
    if (e->metrics[m].name && !strcmp(e->metrics[m].name, name)) return m;
  return HPCDB_NONE;
}

double compare_time_unit(const char *name, const char *unit) {
  static const struct {
    const char *unit;
    double seconds;
  } units[] = {{"sec", 1},     {"s", 1},     {"msec", 1e-3}, {"ms", 1e-3},
               {"usec", 1e-6}, {"us", 1e-6}, {"nsec", 1e-9}, {"ns", 1e-9}};
  for (size_t i = 0; i < sizeof units / sizeof *units; i++) {
    char in_name[16];
    snprintf(in_name, sizeof in_name, "(%s)", units[i].unit);
    if ((name && strstr(name, in_name)) || (unit && !strcmp(unit, units[i].unit))) return units[i].seconds;
  }
  return 0;
}

/* The same name but for the time unit in parentheses: "CPUTIME (usec)" and
 * "CPUTIME (sec)" (older hpcprof wrote microseconds), both times. */
static uint32_t other_time_unit(const hpcdb_experiment *e, const char *name) {
  const char *paren = strstr(name, " (");
  if (!paren || compare_time_unit(name, NULL) == 0) return HPCDB_NONE;
  size_t base = (size_t)(paren - name);
  for (uint32_t m = 0; m < e->n_metrics; m++) {
    const char *other = e->metrics[m].name;
    if (other && !strncmp(other, name, base) && !strncmp(other + base, " (", 2) &&
        compare_time_unit(other, e->metrics[m].unit) != 0)
      return m;
  }
  return HPCDB_NONE;
}

/* The first run's default metric: hpcdb_default_metric over the values in
 * the model, or, from a lazy source, the query layer's rule over its totals
 * (a v4.0 database's summary decoded once for the comparison too). */
static int default_metric(hpcdb_source *src, uint32_t *out) {
  const hpcdb_experiment *e = src->q.exp;
  const char *why;
  if (!src->extra.lazy) return hpcdb_default_metric(e, out, &why);
  hpcdb_query *q;
  hpcdb_qcolumn col;
  HPCDB_TRY(hpcdb_query_on(&q, src));
  int rc = hpcdb_query_default_column(q, &col);
  if (rc == 0) *out = by_name(e, hpcdb_query_column_name(q, col));
  hpcdb_query_close(q);
  return rc;
}

int compare_pick_metrics(hpcdb_source *const *srcs, uint32_t n_runs, const char *const *names, uint32_t *out) {
  const hpcdb_experiment *e0 = srcs[0]->q.exp;
  const char *first = names && names[0] ? names[0] : NULL;
  if (first) {
    if ((out[0] = by_name(e0, first)) == HPCDB_NONE)
      return hpcdb_fail(HPCDB_EINVAL, "run 1 (%s) has no metric named \"%s\"", e0->origin ? e0->origin : "?", first);
  } else {
    HPCDB_TRY(default_metric(srcs[0], &out[0]));
  }
  const char *want = e0->metrics[out[0]].name ? e0->metrics[out[0]].name : "";
  for (uint32_t r = 1; r < n_runs; r++) {
    const hpcdb_experiment *e = srcs[r]->q.exp;
    const char *name = names && names[r] ? names[r] : want;
    out[r] = by_name(e, name);
    for (size_t k = 0; out[r] == HPCDB_NONE && !(names && names[r]) && k < sizeof equivalent / sizeof *equivalent; k++)
      for (int side = 0; side < 2; side++)
        if (!strcmp(equivalent[k][side], name) && (out[r] = by_name(e, equivalent[k][!side])) != HPCDB_NONE) break;
    if (out[r] == HPCDB_NONE && !(names && names[r])) out[r] = other_time_unit(e, name);
    if (out[r] == HPCDB_NONE)
      return hpcdb_fail(HPCDB_EINVAL,
                        "run %u (%s) has no metric named \"%s\" nor one documented as the same; name the pair "
                        "(--metric \"%s=NAME\")",
                        r + 1, e->origin ? e->origin : "?", name, name);
  }
  return 0;
}
