/* SPDX-License-Identifier: BSD-3-Clause */
/* Export: every value in long form (CSV), profile by profile, each read
 * through the source (hpcdb_source_profile: a v4.0 database's decoded from
 * profile.db one at a time, a loaded model's copied): the same rows from any
 * source, and memory holds the metadata and one profile. */
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "common/textout.h"
#include "hpcdb/common.h"
#include "hpcdb/model.h"
#include "hpcdb/report.h"
#include "hpcdb/source.h"
#include "model/model_build.h"
#include "report/export_registry.h"

/* Inclusive/exclusive prop ids of a metric (execution; function, else point). */
static void value_ids(const hpcdb_experiment *e, uint32_t m, int32_t *inc, int32_t *exc) {
  const hpcdb_metric *mt = &e->metrics[m];
  int32_t point = -1, function = -1;
  *inc = -1;
  for (uint32_t k = 0; k < mt->n_instances; k++) {
    const hpcdb_scope *s = &e->scopes[mt->instances[k].scope];
    int32_t id = mt->instances[k].prop_metric_id;
    if (s->type == HPCDB_SCOPE_EXECUTION) *inc = id;
    else if (s->type == HPCDB_SCOPE_POINT) point = id;
    else if (s->type == HPCDB_SCOPE_TRANSITIVE && s->name && !strcmp(s->name, "function")) function = id;
  }
  *exc = function >= 0 ? function : point;
}

/* A CSV field in a new string (length in *len): quoted, quotes doubled,
 * when it holds a comma, quote or newline. */
static char *csv_field(const char *s, size_t *len) {
  size_t n = strlen(s), quotes = 0;
  int quoted = strpbrk(s, ",\"\n") != NULL;
  for (const char *c = s; *c; c++) quotes += *c == '"';
  char *f = malloc(n + quotes + 3), *w = f;
  if (!f) return NULL;
  if (quoted) *w++ = '"';
  for (const char *c = s; *c; c++) {
    if (quoted && *c == '"') *w++ = '"';
    *w++ = *c;
  }
  if (quoted) *w++ = '"';
  *len = (size_t)(w - f);
  return f;
}

/* What the rows share, made once: per metric its value ids and its name as
 * a CSV field. */
typedef struct csv_writer {
  textout o;
  const hpcdb_experiment *exp;
  uint32_t offset, synthetic, skipped;
  uint64_t rows;
  int32_t *inc, *exc;
  char **field;
  size_t *field_len;
  uint8_t *kinds; /* integer metrics' value ids (model_integer_kinds): printed as exact integers */
} csv_writer;

static void csv_writer_free(csv_writer *w) {
  for (uint32_t m = 0; w->field && m < w->exp->n_metrics; m++) free(w->field[m]);
  free(w->field);
  free(w->field_len);
  free(w->inc);
  free(w->exc);
  free(w->kinds);
}

static int csv_writer_open(csv_writer *w, FILE *out, const hpcdb_experiment *exp) {
  memset(w, 0, sizeof *w);
  w->exp = exp;
  /* native context ids: the source's own (model_native_offset); contexts
   * below the offset and a made-up entry point are not the source's */
  w->offset = model_native_offset(exp, &w->synthetic);
  size_t n = exp->n_metrics ? exp->n_metrics : 1;
  w->inc = malloc(n * sizeof *w->inc);
  w->exc = malloc(n * sizeof *w->exc);
  w->field = calloc(n, sizeof *w->field);
  w->field_len = calloc(n, sizeof *w->field_len);
  w->kinds = model_integer_kinds(exp, 0);
  int rc = w->inc && w->exc && w->field && w->field_len && w->kinds ? 0 : HPCDB_ENOMEM;
  for (uint32_t m = 0; rc == 0 && m < exp->n_metrics; m++) {
    value_ids(exp, m, &w->inc[m], &w->exc[m]);
    if (!(w->field[m] = csv_field(exp->metrics[m].name ? exp->metrics[m].name : "", &w->field_len[m])))
      rc = HPCDB_ENOMEM;
  }
  if (rc < 0) rc = hpcdb_fail(HPCDB_ENOMEM, "out of memory");
  if (rc == 0) rc = textout_open(&w->o, out); /* its own message when it fails */
  if (rc < 0) {
    csv_writer_free(w);
    return rc;
  }
  textout_str(&w->o, "context,profile,metric,inclusive,exclusive\n");
  return 0;
}

/* The rows of thread profile p, whose values are pr's (ints the exact
 * integers beside them, or NULL). */
static void csv_profile(csv_writer *w, uint32_t p, const hpcdb_profile *pr, const uint64_t *ints) {
  /* profile: the index among the thread profiles (Cube: the location's position) */
  char profile[DTOA_BUF + 2];
  size_t profile_len = 1;
  profile[0] = ',';
  profile_len += fmt_u64(profile + 1, w->offset ? p - w->skipped : p);
  profile[profile_len++] = ',';
  for (uint32_t m = 0; m < w->exp->n_metrics; m++) {
    int32_t inc = w->inc[m], exc = w->exc[m];
    uint8_t inc_kind = inc >= 0 ? w->kinds[inc] : 0, exc_kind = exc >= 0 ? w->kinds[exc] : 0;
    for (uint32_t k = 0; k < pr->n_ctxs; k++) {
      double x = 0, y = 0;
      uint64_t vx = 0, vy = 0;
      for (uint64_t v = pr->ctx_starts[k]; v < pr->ctx_starts[k + 1]; v++) {
        if (pr->metric_ids[v] == inc) x = pr->values[v], vx = v;
        if (pr->metric_ids[v] == exc) y = pr->values[v], vy = v;
      }
      uint32_t ctx = pr->ctx_ids[k];
      if ((x == 0 && y == 0) || (w->offset && (ctx < w->offset || ctx == w->synthetic))) continue;
      char *r = textout_room(&w->o, DTOA_BUF + sizeof profile);
      size_t n = fmt_u64(r, ctx - w->offset);
      memcpy(r + n, profile, profile_len);
      w->o.len += n + profile_len;
      textout_put(&w->o, w->field[m], w->field_len[m]);
      r = textout_room(&w->o, 2 * DTOA_BUF + 2);
      n = 0;
      r[n++] = ',';
      n += x != 0 ? model_value_text(r + n, ints, x, vx, inc_kind) : fmt_double(r + n, x);
      r[n++] = ',';
      n += y != 0 ? model_value_text(r + n, ints, y, vy, exc_kind) : fmt_double(r + n, y);
      r[n++] = '\n';
      w->o.len += n;
      w->rows++;
    }
  }
}

static int csv_close(csv_writer *w, int rc) {
  int closed = textout_close(&w->o);
  csv_writer_free(w);
  if (rc < 0) return rc;
  if (closed == 0 && w->rows == 0)
    return hpcdb_fail(HPCDB_EINVAL, "nothing to export: no thread profile has a non-zero value");
  return closed;
}

int hpcdb_export_csv_source(FILE *out, hpcdb_source *src) {
  const hpcdb_experiment *exp = hpcdb_source_experiment(src);
  csv_writer w;
  HPCDB_TRY(csv_writer_open(&w, out, exp));
  int rc = 0;
  for (uint32_t p = 0; rc == 0 && p < exp->n_profiles; p++) {
    hpcdb_profile values;
    const uint64_t *ints;
    if (exp->profiles[p].flags & HPCDB_PROFILE_SUMMARY) { /* statistics, not a location's values: not read */
      w.skipped++;
      continue;
    }
    rc = hpcdb_source_profile(src, p, &values, &ints);
    if (rc == 0) csv_profile(&w, p, &values, ints);
    hpcdb_profile_clear_values(&values);
  }
  return csv_close(&w, rc);
}

int hpcdb_export_csv(FILE *out, const hpcdb_experiment *exp) {
  hpcdb_source *src;
  HPCDB_TRY(hpcdb_source_from_experiment(&src, exp));
  int rc = hpcdb_export_csv_source(out, src);
  hpcdb_source_close(src);
  return rc;
}

static int write_csv(FILE *out, const hpcdb_experiment *exp, hpcdb_source *src, const hpcdb_export_options *o) {
  (void)exp, (void)o;
  return hpcdb_export_csv_source(out, src);
}

const export_desc export_csv = {
    {"csv",
     "every value in long form, header context,profile,metric,inclusive,exclusive: the native context id, the "
     "profile index, the metric's name, the inclusive (execution) and exclusive (function, else point) values "
     "of each thread profile; for pandas and spreadsheets.",
     0, HPCDB_EXPORT_READS_PROFILES},
    write_csv};
