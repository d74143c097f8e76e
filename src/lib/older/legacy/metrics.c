/* SPDX-License-Identifier: BSD-3-Clause */
/* Model metrics from the legacy Metric and MetricDB tables.
 *
 * A MetricDB entry is one column of the metric-db files ("NAME (I)" or
 * "NAME (E)"); a Metric entry is a column of the inline values, which hpcprof
 * writes as statistics over the threads ("NAME:Sum (I)", ":Min", ":Max", ...;
 * raw metrics when there was one thread). Scopes as expxml_scope_of says.
 * Sum, Min and Max become summaries ($$ with sum, min, max); statistics v4.0
 * cannot express (Mean, StdDev, CfVar, ...) stay metrics of their own
 * ("NAME:Mean") whose values are kept as a $$/sum summary. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "older/legacy/legacy.h"

/* An inline column: its statistic (Sum/Min/Max) of NAME, else a metric of its own. */
static int inline_column(expxml_metric_builder *b, const expxml_metric *e, uint16_t *id) {
  static const struct {
    const char *stat;
    uint8_t combine;
  } stats[] = {{"Sum", HPCDB_COMBINE_SUM}, {"Min", HPCDB_COMBINE_MIN}, {"Max", HPCDB_COMBINE_MAX}};
  size_t len = expxml_base_length(e->name);
  const char *colon = NULL;
  for (const char *s = e->name; s < e->name + len; s++)
    if (*s == ':') colon = s;
  uint8_t combine = HPCDB_COMBINE_SUM;
  if (colon)
    for (size_t k = 0; k < sizeof stats / sizeof *stats; k++)
      if ((size_t)(e->name + len - colon - 1) == strlen(stats[k].stat) &&
          !strncmp(colon + 1, stats[k].stat, strlen(stats[k].stat))) {
        combine = stats[k].combine;
        len = (size_t)(colon - e->name);
      }
  uint32_t m;
  HPCDB_TRY(expxml_metric_named(b, e->name, len, e, &m));
  return expxml_metric_summary(b, m, expxml_scope_of(e), combine, id);
}

static int repeated(hpcdb_experiment *exp, const char *path, const expxml_metric *e, const char *what) {
  char text[512];
  snprintf(text, sizeof text, "%s: line %llu: %s \"%s\" holds the same values as an earlier one; it is not read", path,
           (unsigned long long)e->line, what, e->name);
  return hpcdb_add_warning(exp, text);
}

int legacy_build_metrics(hpcdb_experiment *exp, const expxml_doc *doc, legacy_metric_map *map, const char *path) {
  expxml_metric_builder b;
  memset(map, 0, sizeof *map);
  HPCDB_TRY(expxml_metrics_begin(&b, exp));
  int64_t columns = 0;
  for (uint32_t i = 0; i < doc->n_metric_dbs; i++) {
    const expxml_metric *e = &doc->metric_dbs[i];
    int64_t col = e->db_id != EXPXML_NO_ID ? e->db_id : i;
    if (col < 0 || col >= LEGACY_DROP)
      return hpcdb_fail(HPCDB_ECORRUPT, "%s: line %llu: metric-db-id: MetricDB i=\"%lld\" has db-id %lld", path,
                        (unsigned long long)e->line, (long long)e->id, (long long)col);
    if (col + 1 > columns) columns = col + 1;
    if (e->db_num_metrics != EXPXML_NO_ID && e->db_num_metrics > columns) columns = e->db_num_metrics;
  }
  if (columns > LEGACY_DROP) return hpcdb_fail(HPCDB_ECORRUPT, "%s: metric-db-id: more than 65535 columns", path);
  map->n_columns = (uint32_t)columns;
  map->column_prop = malloc(((size_t)columns + 1) * sizeof *map->column_prop);
  map->inline_stat = malloc(((size_t)doc->n_metrics + 1) * sizeof *map->inline_stat);
  if (!map->column_prop || !map->inline_stat) {
    legacy_metric_map_free(map);
    return hpcdb_fail(HPCDB_ENOMEM, "out of memory");
  }
  for (int64_t c = 0; c < columns; c++) map->column_prop[c] = LEGACY_DROP;
  int rc = 0;
  for (uint32_t i = 0; rc == 0 && i < doc->n_metric_dbs; i++) {
    const expxml_metric *e = &doc->metric_dbs[i];
    int64_t col = e->db_id != EXPXML_NO_ID ? e->db_id : i;
    uint32_t m;
    if (map->column_prop[col] != LEGACY_DROP) {
      rc = hpcdb_fail(HPCDB_ECORRUPT, "%s: line %llu: metric-db-id: db-id %lld is used twice", path,
                      (unsigned long long)e->line, (long long)col);
      break;
    }
    uint16_t before = b.next_prop;
    rc = expxml_metric_named(&b, e->name, expxml_base_length(e->name), e, &m);
    if (rc == 0) rc = expxml_metric_instance(&b, m, expxml_scope_of(e), &map->column_prop[col]);
    if (rc == 0 && b.next_prop == before) { /* two columns for the same values: the first one wins */
      map->column_prop[col] = LEGACY_DROP;
      rc = repeated(exp, path, e, "MetricDB");
    }
  }
  for (uint32_t i = 0; rc == 0 && i < doc->n_metrics; i++) {
    uint16_t before = b.next_stat;
    rc = inline_column(&b, &doc->metrics[i], &map->inline_stat[i]);
    if (rc == 0 && b.next_stat == before) {
      map->inline_stat[i] = LEGACY_DROP;
      rc = repeated(exp, path, &doc->metrics[i], "Metric");
    }
  }
  if (rc < 0) legacy_metric_map_free(map);
  return rc;
}

void legacy_metric_map_free(legacy_metric_map *map) {
  free(map->inline_stat);
  free(map->column_prop);
  memset(map, 0, sizeof *map);
}
