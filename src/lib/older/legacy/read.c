/* SPDX-License-Identifier: BSD-3-Clause */
/* Reading a legacy database into the model: the tree and inline values from
 * experiment.xml, one thread profile per metric-db file. A metric-db file
 * that is missing or broken leaves its profile empty and adds a warning
 * attribute; it never fails the database. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "common/mapped_file.h"
#include "older/legacy/legacy.h"

typedef struct reader {
  hpcdb_experiment *exp;
  expxml_doc doc;
  legacy_metric_map map;
  const char *dir;
} reader;

static int warn(hpcdb_experiment *exp, const char *fmt, ...) HPCDB_PRINTF(2, 3);
static int warn(hpcdb_experiment *exp, const char *fmt, ...) {
  char text[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(text, sizeof text, fmt, ap);
  va_end(ap);
  return hpcdb_add_warning(exp, text);
}

static int add_identity(reader *r, const legacy_profile_file *f, uint32_t *profile) {
  hpcdb_id ids[3];
  uint16_t n = 0;
  if (f->named) {
    ids[n++] = (hpcdb_id){LEGACY_KIND_NODE, HPCDB_ID_PHYSICAL, 0, f->host};
    ids[n++] = (hpcdb_id){LEGACY_KIND_RANK, 0, (uint32_t)f->rank, (uint64_t)f->rank};
    ids[n++] = (hpcdb_id){LEGACY_KIND_THREAD, 0, (uint32_t)f->thread, (uint64_t)f->thread};
  } else {
    ids[n++] = (hpcdb_id){LEGACY_KIND_THREAD, 0, (uint32_t)r->exp->n_profiles, r->exp->n_profiles};
  }
  return hpcdb_add_profile(r->exp, 0, 1, ids, n, profile);
}

/* One metric-db file's values into its profile; a problem with the file is
 * returned as ECORRUPT-class status with the message set. */
static int load_file(reader *r, uint32_t profile, const char *path) {
  hpcdb_mapped_file mf;
  HPCDB_TRY(mapped_file_open(&mf, path));
  legacy_metricdb_header h;
  uint64_t trailing;
  int rc = legacy_metricdb_header_parse(&h, mf.data, mf.len, path, &trailing);
  if (rc == 0 && h.n_metrics != r->map.n_columns)
    rc = hpcdb_fail_at(HPCDB_ECORRUPT, path, "metric-db", 28, "metric-count",
                       "%u metrics, experiment.xml's MetricDBTable has %u", h.n_metrics, r->map.n_columns);
  if (rc == 0 && h.n_nodes < r->doc.max_xml_id)
    rc = hpcdb_fail_at(HPCDB_ECORRUPT, path, "metric-db", 24, "context-count",
                       "%u contexts, experiment.xml has context ids up to %u", h.n_nodes, r->doc.max_xml_id);
  hpcdb_profile c;
  if (rc == 0) rc = legacy_metricdb_values(&c, mf.data, mf.len, path, &h, r->map.column_prop, r->map.n_columns);
  if (rc == 0 && mapped_file_check_whole(&mf, path) < 0) { /* cut short while read: its values are not its own */
    free(c.ctx_ids);
    free(c.ctx_starts);
    free(c.metric_ids);
    free(c.values);
    rc = HPCDB_ETRUNCATED;
  }
  mapped_file_close(&mf);
  if (rc == 0)
    rc =
        hpcdb_profile_adopt_csr(r->exp, profile, c.n_ctxs, c.ctx_ids, c.ctx_starts, c.n_values, c.metric_ids, c.values);
  if (rc == 0 && trailing)
    rc = warn(r->exp, "%s: %llu bytes after the last row are ignored", path, (unsigned long long)trailing);
  return rc;
}

#define MAX_MISSING_PROFILES 4096 /* a hostile file name must not make billions of empty profiles */

/* Ranks below the largest one that have no thread-0 file: an empty profile
 * each (up to MAX_MISSING_PROFILES), and one warning per gap. */
static int missing_ranks(reader *r, const legacy_profile_file *files, uint32_t n) {
  int64_t next = 0, added = 0;
  for (uint32_t i = 0; i < n; i++) {
    if (!files[i].named || files[i].thread != 0 || files[i].rank < next) continue;
    if (files[i].rank > next) {
      HPCDB_TRY(
          files[i].rank - 1 == next
              ? warn(r->exp, "%s: no metric-db file for rank %lld; its profile is left empty", r->dir, (long long)next)
              : warn(r->exp, "%s: no metric-db files for ranks %lld..%lld; their profiles are left empty", r->dir,
                     (long long)next, (long long)files[i].rank - 1));
      for (; next < files[i].rank && added < MAX_MISSING_PROFILES; next++, added++) {
        hpcdb_id ids[2] = {{LEGACY_KIND_RANK, 0, (uint32_t)next, (uint64_t)next}, {LEGACY_KIND_THREAD, 0, 0, 0}};
        HPCDB_TRY(hpcdb_add_profile(r->exp, 0, 1, ids, 2, NULL));
      }
    }
    next = files[i].rank + 1;
  }
  return 0;
}

static int thread_profiles(reader *r) {
  const char *glob = "*.metric-db";
  for (uint32_t i = 0; i < r->doc.n_metric_dbs; i++)
    if (r->doc.metric_dbs[i].db_glob && *r->doc.metric_dbs[i].db_glob) glob = r->doc.metric_dbs[i].db_glob;
  legacy_profile_file *files;
  uint32_t n;
  HPCDB_TRY(legacy_list_files(&files, &n, r->dir, glob));
  int rc = 0;
  if (n == 0 && r->doc.n_metric_dbs)
    rc = warn(r->exp, "%s: no %s files; the database has only its summary values", r->dir, glob);
  for (uint32_t i = 0; rc == 0 && i < n; i++) {
    char path[4096];
    uint32_t profile;
    snprintf(path, sizeof path, "%s/%s", r->dir, files[i].name);
    rc = add_identity(r, &files[i], &profile);
    if (rc == 0 && !files[i].named)
      rc = warn(r->exp, "%s: the name does not say rank and thread; profile numbered %u", path, profile);
    if (rc < 0) break;
    rc = load_file(r, profile, path);
    if (rc < 0 && rc != HPCDB_ENOMEM) {
      char why[1024];
      snprintf(why, sizeof why, "%s", hpcdb_last_error());
      rc = warn(r->exp, "%s; its profile is left empty", why);
    }
  }
  if (rc == 0) rc = missing_ranks(r, files, n);
  legacy_files_free(files, n);
  return rc;
}

static int read_all(reader *r, const char *xml) {
  expxml_options opt = {LEGACY_ENTRY_ID, 0, 0, NULL, NULL};
  HPCDB_TRY(expxml_read_file(&r->exp, xml, &opt, &r->doc));
  HPCDB_TRY(legacy_from_xml(r->exp, &r->doc, &r->map, xml));
  if (r->doc.has_trace_db) HPCDB_TRY(warn(r->exp, "%s: the TraceDB's *.hpctrace files are not read", xml));
  return thread_profiles(r);
}

int legacy_read(hpcdb_experiment **out, const char *path) {
  char dir[4096], xml[4096];
  *out = NULL;
  HPCDB_TRY(legacy_paths(path, dir, sizeof dir, xml, sizeof xml));
  reader r;
  memset(&r, 0, sizeof r);
  r.dir = dir;
  int rc = read_all(&r, xml);
  expxml_doc_free(&r.doc);
  legacy_metric_map_free(&r.map);
  if (rc == 0) rc = hpcdb_set_origin(r.exp, path);
  if (rc < 0) {
    hpcdb_experiment_free(r.exp);
    return rc;
  }
  *out = r.exp;
  return 0;
}
