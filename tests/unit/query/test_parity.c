/* SPDX-License-Identifier: BSD-3-Clause */
/* Parity with hpcdb report: on every v4.0, older and Cube sample, the first
 * 50 rows of the top-down, bottom-up and flat views built from the query
 * layer (hpcdb_query_open: v4.0 mapped, Cube reader, older formats loaded)
 * equal the rows hpcdb_report prints as CSV for the same view and metric
 * (names, context ids, inclusive and exclusive values to 17 digits). */
#define _GNU_SOURCE
#include <dirent.h>
#include <stdlib.h>
#include <string.h>

#include "hpcdb/hpcdb.h"
#include "hpcdb/query.h"
#include "testlib.h"

#define ROWS 50

typedef struct rows {
  char *text;
  size_t len;
  FILE *f;
  unsigned n;
} rows;

static void row(rows *r, unsigned depth, long long id, const char *name, double inc, double exc, double total) {
  if (r->n++ >= ROWS) return;
  fprintf(r->f, "%u,", depth);
  if (id >= 0) fprintf(r->f, "%lld", id);
  fputs(",\"", r->f);
  for (const char *s = name; *s; s++) {
    if (*s == '"') fputc('"', r->f);
    fputc(*s, r->f);
  }
  fprintf(r->f, "\",%.17g,%.2f,%.17g\n", inc, total != 0 ? 100.0 * inc / total : 0, exc);
}

/* Top-down as report prints it: children by inclusive value, those below 1%
 * of the total folded into one row, depth first. */
static int top_down(hpcdb_query *q, hpcdb_qcolumn col, hpcdb_qnode node, unsigned depth, double total, rows *r) {
  char name[512];
  double inc, exc;
  if (hpcdb_query_value(q, HPCDB_QVIEW_TOP_DOWN, col, node, &inc, &exc) < 0) return -1;
  hpcdb_query_name(q, HPCDB_QVIEW_TOP_DOWN, node, name, sizeof name);
  row(r, depth, hpcdb_query_experiment(q)->contexts[node].id, name, inc, exc, total);
  uint32_t n, all;
  hpcdb_qsort s = {col, 0, 0};
  if (hpcdb_query_n_children(q, HPCDB_QVIEW_TOP_DOWN, node, &all) < 0) return -1;
  hpcdb_qnode *kids = malloc((all + 1) * sizeof *kids);
  if (!kids || hpcdb_query_children(q, HPCDB_QVIEW_TOP_DOWN, node, &s, 0, all, kids, &n, &all) < 0)
    return free(kids), -1;
  uint32_t shown = 0;
  double fi = 0, fe = 0;
  for (uint32_t k = 0; k < n && r->n < ROWS; k++) {
    hpcdb_query_value(q, HPCDB_QVIEW_TOP_DOWN, col, kids[k], &inc, &exc);
    if (shown == k && inc >= 0.01 * total && inc != 0) {
      shown++;
      if (top_down(q, col, kids[k], depth + 1, total, r) < 0) return free(kids), -1;
    } else {
      fi += inc, fe += exc;
    }
  }
  if (shown < n && r->n < ROWS && fi != 0) { /* report folds nothing that adds up to 0 */
    snprintf(name, sizeof name, "[%u more, each below 1%% or past --top]", n - shown);
    row(r, depth + 1, -1, name, fi, fe, total);
  }
  free(kids);
  return 0;
}

/* Bottom-up and flat as report prints them: the top 25 rows by exclusive
 * value, each followed by its first rows (5 callers; 10 of each level of the
 * flat view: files, functions, loops, lines), depth first. */
static int aggregated(hpcdb_query *q, hpcdb_qcolumn col, hpcdb_qview view, hpcdb_qnode node, unsigned depth,
                      uint32_t limit, double total, rows *r) {
  hpcdb_qsort s = {col, 1, 0};
  hpcdb_qnode kids[25];
  uint32_t n, all, below, per = view == HPCDB_QVIEW_FLAT ? 10 : 5;
  char name[512];
  double inc, exc;
  if (hpcdb_query_children(q, view, node, &s, 0, limit, kids, &n, &all) < 0) return -1;
  for (uint32_t k = 0; k < n; k++) {
    hpcdb_query_value(q, view, col, kids[k], &inc, &exc);
    hpcdb_query_name(q, view, kids[k], name, sizeof name);
    row(r, depth, -1, name, inc, exc, total);
    if (hpcdb_query_n_children(q, view, kids[k], &below) == 0 && below &&
        aggregated(q, col, view, kids[k], depth + 1, per, total, r) < 0)
      return -1;
  }
  return 0;
}

/* The first ROWS data lines of report's CSV. */
static char *report_rows(const char *path, hpcdb_view view, const char *metric) {
  const char *metrics[1] = {metric};
  hpcdb_read_options ro = {HPCDB_READ_OPTIONS_VERSION, HPCDB_READ_METRICS, metrics, 1, HPCDB_READ_SUMMARY_ONLY};
  hpcdb_experiment *exp;
  if (hpcdb_read_opts(&exp, path, &ro) < 0) return NULL;
  hpcdb_report_options o = {0};
  o.view = view, o.metrics = metrics, o.n_metrics = 1, o.threshold = 0.01, o.csv = 1, o.width = 100;
  char *text = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&text, &len);
  int rc = hpcdb_report(f, exp, &o);
  fclose(f);
  hpcdb_experiment_free(exp);
  if (rc < 0) return free(text), NULL;
  char *at = strchr(text, '\n'); /* the header line */
  at = at ? at + 1 : text + len;
  unsigned lines = 0;
  char *end = at;
  while (*end && lines < ROWS) {
    char *nl = strchr(end, '\n');
    end = nl ? nl + 1 : end + strlen(end);
    lines++;
  }
  *end = '\0';
  memmove(text, at, strlen(at) + 1);
  return text;
}

static void check_view(hpcdb_query *q, const char *path, hpcdb_qcolumn col, hpcdb_qview view) {
  static const hpcdb_view report_view[] = {HPCDB_VIEW_TOP_DOWN, HPCDB_VIEW_BOTTOM_UP, HPCDB_VIEW_FLAT};
  const char *metric = hpcdb_query_column_name(q, col);
  char *want = report_rows(path, report_view[view], metric);
  rows r = {0};
  r.f = open_memstream(&r.text, &r.len);
  double total = 0;
  int rc = hpcdb_query_total(q, col, &total);
  if (rc == 0)
    rc = view == HPCDB_QVIEW_TOP_DOWN ? top_down(q, col, 0, 0, total, &r)
                                      : aggregated(q, col, view, 0, 0, 25, total, &r);
  fclose(r.f);
  int same = want && rc == 0 && !strcmp(want, r.text);
  CHECK(same);
  if (!same)
    fprintf(stderr, "%s, view %d, metric %s: report printed\n%s\nthe query layer gave\n%s\n(%s)\n", path, (int)view,
            metric, want ? want : "(nothing)", r.text, hpcdb_last_error());
  free(want);
  free(r.text);
}

static void check_sample(const char *path) {
  hpcdb_query *q;
  int rc = hpcdb_query_open(&q, path);
  CHECK_RC(rc);
  if (rc < 0) {
    fprintf(stderr, "%s\n", path);
    return;
  }
  hpcdb_qcolumn cols[2];
  int n = 0;
  if (hpcdb_query_default_column(q, &cols[n]) == 0) n++;
  const hpcdb_experiment *e = hpcdb_query_experiment(q);
  if (e->n_metrics && e->metrics[0].name && hpcdb_query_column(q, e->metrics[0].name, &cols[n]) == 0 &&
      (n == 0 || cols[0] != cols[n]))
    n++;
  for (int c = 0; c < n; c++)
    for (int v = HPCDB_QVIEW_TOP_DOWN; v <= HPCDB_QVIEW_FLAT; v++) check_view(q, path, cols[c], (hpcdb_qview)v);
  printf("%s (%s): %d metrics x 3 views\n", path, hpcdb_query_source_name(q), n);
  hpcdb_query_close(q);
}

static void each_in(const char *dir, const char *suffix) {
  const char *base = testlib_sample(dir);
  DIR *d = opendir(base);
  if (!d) return;
  struct dirent *de;
  char path[4096];
  while ((de = readdir(d))) {
    if (de->d_name[0] == '.') continue;
    size_t n = strlen(de->d_name), k = suffix ? strlen(suffix) : 0;
    if (suffix && (n < k || strcmp(de->d_name + n - k, suffix))) continue;
    snprintf(path, sizeof path, "%s/%s", base, de->d_name);
    hpcdb_format f;
    if (!suffix && (hpcdb_detect(&f, path) < 0 || f == HPCDB_FORMAT_UNKNOWN)) continue;
    check_sample(path);
  }
  closedir(d);
}

int main(void) {
  if (!testlib_have_samples()) {
    printf("skipped: no sample data (HPCDB_SAMPLE_DATA)\n");
    return 77;
  }
  each_in("hpctoolkit-v4", NULL);
  each_in("hpctoolkit-2022", NULL);
  each_in("hpctoolkit-legacy", NULL);
  each_in("cube", ".cubex");
  return TEST_END();
}
