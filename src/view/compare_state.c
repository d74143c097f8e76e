/* SPDX-License-Identifier: BSD-3-Clause */
/* The comparison behind hpcdb view A B: over the sources the databases'
 * queries hold (a v4.0 database's summary decoded once for both, the
 * per-profile figures of the rows a page shows read from its files),
 * compared again only when the page asks for another metric. */
#include "compare_state.h"

#include <stdlib.h>
#include <string.h>

#include "routes.h"

static void drop_comparison(view_compare *vc) {
  hpcdb_comparison_free(vc->cmp);
  hpcdb_compare_functions_free(&vc->fn);
  free(vc->metric[0]), free(vc->metric[1]);
  vc->cmp = NULL, vc->metric[0] = vc->metric[1] = NULL, vc->have_fn = 0;
}

static int same(const char *kept, const char *asked) { return kept ? asked && !strcmp(kept, asked) : !asked; }

int view_compare_get(view_compare *vc, const view_db *dbs, const char *metric, const char *metric_b) {
  if (!metric_b || !*metric_b) metric_b = dbs[1].metric;
  if (vc->cmp && same(vc->metric[0], metric) && same(vc->metric[1], metric_b)) return 0;
  drop_comparison(vc);
  char *names[2] = {strdup(metric), metric_b ? strdup(metric_b) : NULL};
  if (!names[0] || (metric_b && !names[1])) {
    free(names[0]), free(names[1]);
    return HPCDB_ENOMEM;
  }
  const char *metrics[2] = {names[0], names[1]}; /* B without a name: the same metric, or one documented as the same */
  hpcdb_source *srcs[2] = {hpcdb_query_source(dbs[0].q), hpcdb_query_source(dbs[1].q)};
  for (int d = 0; d < 2; d++) vc->runs[d] = hpcdb_source_experiment(srcs[d]);
  hpcdb_compare_options o = {.version = HPCDB_COMPARE_OPTIONS_VERSION, .metrics = metrics, .profiles_on_demand = 1};
  int rc = hpcdb_compare_sources(&vc->cmp, srcs, 2, &o);
  if (rc < 0) {
    free(names[0]), free(names[1]);
    vc->cmp = NULL;
    return rc;
  }
  vc->metric[0] = names[0], vc->metric[1] = names[1];
  return 0;
}

int view_compare_functions(view_compare *vc, const hpcdb_compare_functions **out) {
  if (!vc->have_fn) {
    int rc = hpcdb_compare_by_function(vc->cmp, &vc->fn);
    if (rc < 0) return rc;
    vc->have_fn = 1;
  }
  *out = &vc->fn;
  return 0;
}

void view_compare_free(view_compare *vc) { drop_comparison(vc); }
