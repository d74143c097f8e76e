/* SPDX-License-Identifier: BSD-3-Clause */
/* The comparison behind hpcdb view A B: both runs read once (a v4.0
 * database without its values: the comparison reads its summary, and the
 * per-profile figures of the rows a page shows, from its files), compared
 * again only when the page asks for another metric. */
#include "compare_state.h"

#include <stdlib.h>
#include <string.h>

#include "routes.h"

static int read_run(hpcdb_experiment **exp, hpcdb_db **db, const view_db *v) {
  const char *path = v->temp_db ? v->temp_db : v->path; /* a measurements directory: its analysis */
  hpcdb_format f = HPCDB_FORMAT_UNKNOWN;
  if (hpcdb_detect(&f, path) < 0 || f != HPCDB_FORMAT_HPCTK4_DIR) return hpcdb_read(exp, path);
  return hpcdb_hpctk4_read_lazy(exp, db, path);
}

static void drop_comparison(view_compare *vc) {
  hpcdb_comparison_free(vc->cmp);
  hpcdb_compare_functions_free(&vc->fn);
  free(vc->metric);
  vc->cmp = NULL, vc->metric = NULL, vc->have_fn = 0;
}

int view_compare_get(view_compare *vc, const view_db *dbs, const char *metric) {
  hpcdb_qcolumn def;
  if (!metric || !*metric) { /* A's default, as the page shows it */
    int rc = hpcdb_query_default_column(dbs[0].q, &def);
    if (rc < 0) return rc;
    metric = hpcdb_query_column_name(dbs[0].q, def);
  }
  if (vc->cmp && !strcmp(vc->metric, metric)) return 0;
  drop_comparison(vc);
  for (int d = 0; d < 2; d++) {
    if (vc->runs[d]) continue;
    int rc = read_run(&vc->runs[d], &vc->dbs[d], &dbs[d]);
    if (rc < 0) return rc;
  }
  char *name = strdup(metric);
  if (!name) return HPCDB_ENOMEM;
  const char *metrics[2] = {name, NULL}; /* B: the same metric, or one documented as the same */
  const hpcdb_db *handles[2] = {vc->dbs[0], vc->dbs[1]};
  hpcdb_compare_options o = {.metrics = metrics, .dbs = handles, .profiles_on_demand = 1};
  int rc = hpcdb_compare(&vc->cmp, (const hpcdb_experiment *const *)vc->runs, 2, &o);
  if (rc < 0) {
    free(name);
    vc->cmp = NULL;
    return rc;
  }
  vc->metric = name;
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

void view_compare_free(view_compare *vc) {
  drop_comparison(vc);
  for (int d = 0; d < 2; d++) {
    hpcdb_experiment_free(vc->runs[d]);
    hpcdb_db_close(vc->dbs[d]);
    vc->runs[d] = NULL, vc->dbs[d] = NULL;
  }
}
