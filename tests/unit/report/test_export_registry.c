/* SPDX-License-Identifier: BSD-3-Clause */
/* The export registry: every export listed (hpcdb_export_get) writes through
 * hpcdb_export, from a v4.0 database's lazy source, the bytes its own
 * function writes from the loaded model; names are unique and found; an
 * unknown name, or an option an export does not take, is refused. */
#include <stdlib.h>
#include <string.h>

#include "hpcdb/hpcdb.h"
#include "testlib.h"

typedef struct job {
  hpcdb_source *src;
  const char *name;
} job;

static int by_registry(FILE *out, const hpcdb_experiment *exp, const void *arg) {
  (void)exp;
  const job *j = arg;
  return hpcdb_export(out, j->src, j->name, NULL);
}

/* The export's own function on the model (the metric: the default, as hpcdb_export picks it). */
static int direct(FILE *out, const hpcdb_experiment *exp, const void *arg) {
  const char *name = arg, *why;
  uint32_t m = 0;
  hpcdb_default_metric(exp, &m, &why);
  const char *metric = exp->metrics[m].name;
  if (!strcmp(name, "folded")) return hpcdb_export_folded(out, exp, metric, NULL);
  if (!strcmp(name, "csv")) return hpcdb_export_csv(out, exp);
  if (!strcmp(name, "speedscope")) return hpcdb_export_speedscope(out, exp, metric);
  if (!strcmp(name, "chrome-trace")) return hpcdb_export_chrome_trace(out, exp);
  if (!strcmp(name, "flamegraph")) return hpcdb_export_flamegraph(out, exp, metric);
  if (!strcmp(name, "html")) return hpcdb_export_html(out, exp, metric);
  fprintf(stderr, "export %s: no direct function known to this test\n", name);
  return -1;
}

int main(void) {
  uint32_t n = 0;
  for (const hpcdb_export_info *e; (e = hpcdb_export_get(n)); n++) {
    CHECK(hpcdb_export_find(e->name) == e);
    CHECK(e->help && strlen(e->help) > 40);
    for (uint32_t k = 0; k < n; k++) CHECK(strcmp(hpcdb_export_get(k)->name, e->name) != 0);
  }
  CHECK(n >= 6 && hpcdb_export_find("svg") == NULL);
  if (!testlib_have_samples()) {
    printf("skipped: no sample data (HPCDB_SAMPLE_DATA)\n");
    return 77;
  }
  const char *path = testlib_sample("hpctoolkit-v4/ping-pong-mpi");
  hpcdb_source *src = NULL;
  hpcdb_experiment *model = NULL;
  CHECK_RC(hpcdb_source_open(&src, path, NULL));
  CHECK_RC(hpcdb_read(&model, path));
  if (!src || !model) return TEST_END();
  CHECK(hpcdb_source_is_lazy(src));
  for (uint32_t i = 0; i < n; i++) {
    const hpcdb_export_info *e = hpcdb_export_get(i);
    job j = {src, e->name};
    int rc_a, rc_b;
    char *a = testlib_printed(by_registry, model, &j, &rc_a), *b = testlib_printed(direct, model, e->name, &rc_b);
    int same = a && b && rc_a == 0 && rc_b == 0 && !strcmp(a, b);
    if (!same) fprintf(stderr, "%s: hpcdb_export differs from its own function (rc %d, %d)\n", e->name, rc_a, rc_b);
    CHECK(same);
    free(a);
    free(b);
  }
  FILE *null = fopen("/dev/null", "w");
  CHECK(hpcdb_export(null, src, "svg", NULL) == HPCDB_EINVAL && strstr(hpcdb_last_error(), "svg"));
  hpcdb_export_options o = {.metric = "x"};
  CHECK(hpcdb_export(null, src, "csv", &o) == HPCDB_EINVAL);
  o = (hpcdb_export_options){.profile = "rank=0"};
  CHECK(hpcdb_export(null, src, "html", &o) == HPCDB_EINVAL);
  fclose(null);
  hpcdb_experiment_free(model);
  hpcdb_source_close(src);
  return TEST_END();
}
