/* Exports: folded stacks and long-form CSV, written as they go. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "common/textout.h"
#include "report/report_data.h"

/* Names in the folded format may not hold ';' (the separator) or newlines. */
static void folded_name(textout *o, const char *s) {
  for (; *s; s++) textout_char(o, *s == ';' || *s == '\n' ? ':' : *s);
}

/* Exclusive values are inclusive minus the children's inclusive: below this
 * fraction of the total they are the rounding of those sums, not cost. */
#define FOLDED_PRECISION 1e-12

int hpcdb_export_folded(FILE *out, const hpcdb_experiment *exp, const char *metric, const char *profile) {
  report_data d;
  const char *names[1] = {metric};
  HPCDB_TRY(report_data_build(&d, exp, metric ? names : NULL, metric ? 1 : 0, profile));
  uint32_t *chain = malloc(((size_t)exp->n_contexts + 1) * sizeof *chain);
  textout o = {0};
  int rc = chain ? textout_open(&o, out) : hpcdb_fail(HPCDB_ENOMEM, "out of memory");
  double quantum = fabs(d.total[0]) * FOLDED_PRECISION;
  uint64_t lines = 0;
  char name[512], value[DTOA_BUF];
  for (uint32_t i = 1; rc == 0 && i < exp->n_contexts; i++) {
    double v = rd_self(&d, i, 0);
    if (!(v >= quantum / 2) || quantum == 0) continue; /* zero at the metric's precision, negative, or NaN */
    uint32_t n = 0;
    for (uint32_t k = i; k != 0 && k != HPCDB_NONE; k = exp->contexts[k].parent) chain[n++] = k;
    while (n-- > 0) {
      report_name(exp, chain[n], name, sizeof name);
      folded_name(&o, name);
      if (n) textout_char(&o, ';');
    }
    textout_char(&o, ' ');
    textout_put(&o, value, fmt_double_quantum(value, v, quantum));
    textout_char(&o, '\n');
    lines++;
  }
  if (o.buf) {
    int closed = textout_close(&o);
    if (rc == 0) rc = closed;
  }
  if (rc == 0 && lines == 0)
    rc = hpcdb_fail(HPCDB_EINVAL, "nothing to export: metric \"%s\" has no positive exclusive value%s%s", d.cols[0].name,
                    profile ? " in " : "", profile ? profile : "");
  free(chain);
  report_data_free(&d);
  return rc;
}

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

static const char *attr_of(const hpcdb_experiment *exp, const char *key) {
  for (uint32_t i = 0; i < exp->n_attrs; i++)
    if (exp->attrs[i].key && !strcmp(exp->attrs[i].key, key)) return exp->attrs[i].value;
  return NULL;
}

/* Native context ids: the source's own (a Cube cnode id is the model's id
 * minus the offset its reader recorded; the global context and the Cube
 * reader's synthetic entry point are no cnodes). */
static uint32_t id_offset(const hpcdb_experiment *exp, uint32_t *synthetic) {
  const char *offset = attr_of(exp, "cube.ctx_id_offset"), *entry = attr_of(exp, "cube.synthetic_entry");
  *synthetic = entry ? (uint32_t)strtoul(entry, NULL, 10) : UINT32_MAX;
  return offset ? (uint32_t)strtoul(offset, NULL, 10) : 0;
}

/* A CSV field: quoted when it holds a comma, quote or newline. */
static void csv_field(textout *o, const char *s) {
  if (!strpbrk(s, ",\"\n")) {
    textout_str(o, s);
    return;
  }
  textout_char(o, '"');
  for (; *s; s++) {
    if (*s == '"') textout_char(o, '"');
    textout_char(o, *s);
  }
  textout_char(o, '"');
}

int hpcdb_export_csv(FILE *out, const hpcdb_experiment *exp) {
  textout o;
  HPCDB_TRY(textout_open(&o, out));
  textout_str(&o, "context,profile,metric,inclusive,exclusive\n");
  uint32_t synthetic, offset = id_offset(exp, &synthetic), skipped = 0;
  uint64_t rows = 0;
  for (uint32_t p = 0; p < exp->n_profiles; p++) {
    const hpcdb_profile *pr = &exp->profiles[p];
    if (pr->flags & HPCDB_PROFILE_SUMMARY) { /* statistics, not a location's values */
      skipped++;
      continue;
    }
    for (uint32_t m = 0; m < exp->n_metrics; m++) {
      int32_t inc, exc;
      value_ids(exp, m, &inc, &exc);
      const char *name = exp->metrics[m].name ? exp->metrics[m].name : "";
      for (uint32_t k = 0; k < pr->n_ctxs; k++) {
        double x = 0, y = 0;
        for (uint64_t v = pr->ctx_starts[k]; v < pr->ctx_starts[k + 1]; v++) {
          if (pr->metric_ids[v] == inc) x = pr->values[v];
          if (pr->metric_ids[v] == exc) y = pr->values[v];
        }
        if ((x == 0 && y == 0) || (offset && (pr->ctx_ids[k] < offset || pr->ctx_ids[k] == synthetic))) continue;
        /* profile: the index among the thread profiles (Cube: the location's position) */
        textout_u64(&o, pr->ctx_ids[k] - offset);
        textout_char(&o, ',');
        textout_u64(&o, offset ? p - skipped : p);
        textout_char(&o, ',');
        csv_field(&o, name);
        textout_char(&o, ',');
        textout_double(&o, x);
        textout_char(&o, ',');
        textout_double(&o, y);
        textout_char(&o, '\n');
        rows++;
      }
    }
  }
  int rc = textout_close(&o);
  if (rc == 0 && rows == 0)
    return hpcdb_fail(HPCDB_EINVAL, "nothing to export: no thread profile has a non-zero value");
  return rc;
}
