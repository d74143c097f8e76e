/* SPDX-License-Identifier: BSD-3-Clause */
/* Checking a legacy database: experiment.xml well-formed (line, column),
 * references between its tables and the tree, the metric tables; each
 * metric-db file's header, counts and size against experiment.xml. One
 * diagnostic per problem. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/diag.h"
#include "common/error.h"
#include "common/mapped_file.h"
#include "hpcdb/common.h"
#include "hpcdb/formats.h"
#include "hpcdb/model.h"
#include "older/legacy/legacy.h"

typedef struct vstate {
  diag_sink sink;
  const char *xml;
} vstate;

static int compare_u64(const void *a, const void *b) {
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return x < y ? -1 : x > y;
}

static void on_problem(void *user, uint64_t offset, const char *rule, const char *detail) {
  vstate *v = user;
  diag_emit(&v->sink, HPCDB_SEV_ERROR, v->xml, offset, rule, "%s", detail);
}

/* A message without the leading "path: " the readers put there. */
static const char *last_error_after_text(const char *m, const char *path) {
  size_t n = strlen(path);
  return !strncmp(m, path, n) && !strncmp(m + n, ": ", 2) ? m + n + 2 : m;
}

static const char *last_error_after(const char *path) { return last_error_after_text(hpcdb_last_error(), path); }

/* A reader's "path: section: offset 0x..: rule: detail" message as a diagnostic. */
static void report_failure(vstate *v, const char *path, const char *fallback_rule) {
  const char *m = last_error_after(path);
  const char *at = strstr(m, "offset 0x");
  unsigned long long offset = 0;
  int used = 0;
  char rule[64];
  if (at && sscanf(at, "offset 0x%llx: %63[^:]: %n", &offset, rule, &used) == 2 && used > 0)
    return diag_emit(&v->sink, HPCDB_SEV_ERROR, path, offset, rule, "%s", at + used);
  diag_emit(&v->sink, HPCDB_SEV_ERROR, path, 0, fallback_rule, "%s", m);
}

/* Two <M> of one metric at one context. */
static void duplicate_values(vstate *v, const expxml_doc *doc) {
  uint64_t *keys = malloc((doc->n_values + 1) * sizeof *keys);
  if (!keys)
    return diag_emit(&v->sink, HPCDB_SEV_ERROR, v->xml, 0, "memory", "no memory to check %llu values",
                     (unsigned long long)doc->n_values);
  for (uint64_t k = 0; k < doc->n_runs; k++)
    for (uint64_t i = doc->run_start[k]; i < doc->run_start[k + 1]; i++)
      keys[i] = (uint64_t)doc->run_ctx[k] << 32 | doc->value_metric[i];
  qsort(keys, doc->n_values, sizeof *keys, compare_u64);
  for (uint64_t i = 1; i < doc->n_values; i++)
    if (keys[i] == keys[i - 1] && (i == 1 || keys[i - 2] != keys[i]))
      diag_emit(&v->sink, HPCDB_SEV_ERROR, v->xml, 0, "duplicate-value", "context %u has two <M> of Metric i=\"%lld\"",
                (uint32_t)(keys[i] >> 32), (long long)doc->metrics[(uint32_t)keys[i]].id);
  free(keys);
}

static void partners(vstate *v, const expxml_metric *items, uint32_t n, const char *what) {
  for (uint32_t i = 0; i < n; i++) {
    if (items[i].partner == EXPXML_NO_ID) continue;
    uint32_t k = 0;
    while (k < n && items[k].id != items[i].partner) k++;
    if (k == n)
      diag_emit(&v->sink, HPCDB_SEV_ERROR, v->xml, 0, "dangling-partner",
                "line %llu: %s i=\"%lld\" has partner=\"%lld\", which does not exist",
                (unsigned long long)items[i].line, what, (long long)items[i].id, (long long)items[i].partner);
  }
}

static void check_file(vstate *v, const char *path, const legacy_metric_map *map, const expxml_doc *doc) {
  hpcdb_mapped_file mf;
  if (mapped_file_open(&mf, path) < 0) return report_failure(v, path, "unreadable");
  legacy_metricdb_header h;
  uint64_t trailing;
  if (legacy_metricdb_header_parse(&h, mf.data, mf.len, path, &trailing) < 0) {
    report_failure(v, path, "metric-db-header");
    return mapped_file_close(&mf);
  }
  if (strcmp(h.version, "00.10") != 0)
    diag_emit(&v->sink, HPCDB_SEV_NOTE, path, 18, "version", "version \"%s\" (the known one is 00.10)", h.version);
  if (h.n_metrics != map->n_columns)
    diag_emit(&v->sink, HPCDB_SEV_ERROR, path, 28, "metric-count", "%u metrics, experiment.xml's MetricDBTable has %u",
              h.n_metrics, map->n_columns);
  if (h.n_nodes < doc->max_xml_id)
    diag_emit(&v->sink, HPCDB_SEV_ERROR, path, 24, "context-count",
              "%u contexts, experiment.xml has context ids up to %u", h.n_nodes, doc->max_xml_id);
  if (trailing)
    diag_emit(&v->sink, HPCDB_SEV_ERROR, path, mf.len - trailing, "size", "%llu bytes after the last row",
              (unsigned long long)trailing);
  hpcdb_profile c;
  if (legacy_metricdb_values(&c, mf.data, mf.len, path, &h, map->column_prop, map->n_columns) < 0)
    report_failure(v, path, "metric-db-values");
  else legacy_csr_free(&c);
  mapped_file_close(&mf);
}

static void check_files(vstate *v, const char *dir, const legacy_metric_map *map, const expxml_doc *doc) {
  const char *glob = "*.metric-db";
  for (uint32_t i = 0; i < doc->n_metric_dbs; i++)
    if (doc->metric_dbs[i].db_glob && *doc->metric_dbs[i].db_glob) glob = doc->metric_dbs[i].db_glob;
  legacy_profile_file *files;
  uint32_t n;
  if (legacy_list_files(&files, &n, dir, glob) < 0)
    return diag_emit(&v->sink, HPCDB_SEV_ERROR, dir, 0, "unreadable", "%s", hpcdb_last_error());
  if (n == 0 && doc->n_metric_dbs)
    diag_emit(&v->sink, HPCDB_SEV_NOTE, dir, 0, "metric-db-missing", "no %s files: only summary values", glob);
  int64_t next = 0;
  for (uint32_t i = 0; i < n; i++) {
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, files[i].name);
    if (!files[i].named)
      diag_emit(&v->sink, HPCDB_SEV_NOTE, path, 0, "file-name", "the name does not say rank and thread");
    if (files[i].named && files[i].thread == 0 && files[i].rank >= next) {
      if (files[i].rank - 1 == next)
        diag_emit(&v->sink, HPCDB_SEV_NOTE, dir, 0, "metric-db-missing", "no metric-db file for rank %lld",
                  (long long)next);
      else if (files[i].rank > next)
        diag_emit(&v->sink, HPCDB_SEV_NOTE, dir, 0, "metric-db-missing", "no metric-db files for ranks %lld..%lld",
                  (long long)next, (long long)files[i].rank - 1);
      next = files[i].rank + 1;
    }
    check_file(v, path, map, doc);
  }
  legacy_files_free(files, n);
}

int legacy_validate(hpcdb_validation *result, const char *path, hpcdb_diagnostic_fn fn, void *user) {
  char dir[4096], xml[4096];
  result->errors = result->notes = 0;
  HPCDB_TRY(legacy_paths(path, dir, sizeof dir, xml, sizeof xml));
  vstate v = {{result, fn, user}, xml};
  hpcdb_experiment *exp;
  expxml_options opt = {LEGACY_ENTRY_ID, 0, 0, on_problem, &v};
  expxml_doc doc;
  int rc = expxml_read_file(&exp, xml, &opt, &doc);
  if (rc == HPCDB_EIO || rc == HPCDB_ENOMEM) return rc;
  if (rc < 0) { /* not well-formed: nothing after the error can be checked */
    diag_emit(&v.sink, HPCDB_SEV_ERROR, xml, 0, rc == HPCDB_ENOTFORMAT ? "format" : "well-formed", "%s",
              last_error_after(xml));
    return 0;
  }
  unsigned major = 0;
  if (sscanf(doc.version, "%u", &major) != 1 || major < 1 || major >= 4)
    diag_emit(&v.sink, HPCDB_SEV_ERROR, xml, 0, "version", "HPCToolkitExperiment version \"%s\" is not 2.x",
              doc.version);
  duplicate_values(&v, &doc);
  partners(&v, doc.metrics, doc.n_metrics, "Metric");
  partners(&v, doc.metric_dbs, doc.n_metric_dbs, "MetricDB");
  legacy_metric_map map;
  if (legacy_build_metrics(exp, &doc, &map, xml) < 0) {
    diag_emit(&v.sink, HPCDB_SEV_ERROR, xml, 0, "metric-table", "%s", last_error_after(xml));
  } else {
    for (uint32_t i = 0; i < exp->n_warnings; i++) /* what the reader would warn about */
      diag_emit(&v.sink, HPCDB_SEV_NOTE, xml, 0, "metric-repeated", "%s", last_error_after_text(exp->warnings[i], xml));
    check_files(&v, dir, &map, &doc);
    legacy_metric_map_free(&map);
  }
  expxml_doc_free(&doc);
  hpcdb_experiment_free(exp);
  return 0;
}
