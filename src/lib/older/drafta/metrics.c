/* SPDX-License-Identifier: BSD-3-Clause */
/* Draft a's metric tables. MetricDB entries ("NAME (I)", "NAME (E)"; no t=)
 * name the metric ids of the thread profiles. Metric entries with a stored
 * partial ("NAME:PARTIAL:k (I)") name the ids of the summary profile; partial
 * 0 is the sum over threads (its combine formula "sum($i, $i)"), i.e. the
 * v4.0 summary $$/sum. Other partials cannot be told apart (the sum of
 * squares combines with sum() too) and are left out with a warning. Entries
 * with a view formula ("NAME:Sum (I)" = "$512") are computed by the viewer
 * and have no values. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "older/drafta/drafta.h"

#define N_IDS 0x10000u

static const char *partial(const char *name, size_t len) {
  for (const char *s = name; s + 9 <= name + len; s++)
    if (!strncmp(s, ":PARTIAL:", 9)) return s;
  return NULL;
}

static int file_id(int64_t id, const char *what, const char *path) {
  if (id < 0 || id >= (int64_t)N_IDS - 1)
    return hpcdb_fail(HPCDB_ECORRUPT, "%s: metric-id: %s i=\"%lld\" is not a 16-bit metric id", path, what,
                      (long long)id);
  return 0;
}

/* A second entry for values an earlier one already holds: the first one wins. */
static int repeated(hpcdb_experiment *exp, const char *path, const expxml_metric *e, uint16_t *slot) {
  char why[512];
  *slot = HPCPROF1_DROP;
  snprintf(why, sizeof why, "%s: line %llu: \"%s\" holds the same values as an earlier entry; it is not read", path,
           (unsigned long long)e->line, e->name);
  return hpcdb_add_warning(exp, why);
}

int drafta_build_metrics(hpcdb_experiment *exp, const expxml_doc *doc, drafta_metric_map *map, const char *path) {
  map->thread = malloc(N_IDS * sizeof *map->thread);
  map->summary = malloc(N_IDS * sizeof *map->summary);
  if (!map->thread || !map->summary) {
    drafta_metric_map_free(map);
    return hpcdb_fail(HPCDB_ENOMEM, "out of memory");
  }
  for (uint32_t i = 0; i < N_IDS; i++) map->thread[i] = map->summary[i] = HPCPROF1_DROP;
  expxml_metric_builder b;
  int rc = expxml_metrics_begin(&b, exp);
  for (uint32_t i = 0; rc == 0 && i < doc->n_metric_dbs; i++) {
    const expxml_metric *e = &doc->metric_dbs[i];
    uint32_t m;
    uint16_t before = b.next_prop;
    rc = file_id(e->id, "MetricDB", path);
    if (rc == 0) rc = expxml_metric_named(&b, e->name, expxml_base_length(e->name), e, &m);
    if (rc == 0) rc = expxml_metric_instance(&b, m, expxml_scope_of(e), &map->thread[e->id]);
    if (rc == 0 && b.next_prop == before) rc = repeated(exp, path, e, &map->thread[e->id]);
  }
  for (uint32_t i = 0; rc == 0 && i < doc->n_metrics; i++) {
    const expxml_metric *e = &doc->metrics[i];
    const char *p = partial(e->name, expxml_base_length(e->name));
    if (!p || e->is_view) continue;
    if (strncmp(p, ":PARTIAL:0 ", 11) != 0) { /* count, sum of squares...: the file does not say which */
      char why[512];
      snprintf(why, sizeof why, "%s: Metric \"%s\" is not read: only partial 0 (the sum) is known", path, e->name);
      rc = hpcdb_add_warning(exp, why);
      continue;
    }
    uint32_t m;
    rc = file_id(e->id, "Metric", path);
    if (rc == 0) rc = expxml_metric_named(&b, e->name, (size_t)(p - e->name), e, &m);
    uint16_t before = b.next_stat;
    if (rc == 0) rc = expxml_metric_summary(&b, m, expxml_scope_of(e), HPCDB_COMBINE_SUM, &map->summary[e->id]);
    if (rc == 0 && b.next_stat == before) rc = repeated(exp, path, e, &map->summary[e->id]);
  }
  if (rc < 0) drafta_metric_map_free(map);
  return rc;
}

void drafta_metric_map_free(drafta_metric_map *map) {
  free(map->thread);
  free(map->summary);
  map->thread = map->summary = NULL;
}
