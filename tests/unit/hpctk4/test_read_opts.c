/* SPDX-License-Identifier: BSD-3-Clause */
/* hpcdb_read_opts on v4.0 databases with HPCDB_READ_SUMMARY_ONLY (what
 * `hpcdb report` and the folded and flame-graph exports read): the thread
 * profiles are there without values, the summary profile's values are the
 * full read's, and the report in the views of the program, the folded stacks
 * and the flame graph are the full read's, byte for byte. On every sample
 * v4.0 database, or on the database given as argument (e.g. the large
 * generated one of bench/). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hpcdb/hpcdb.h"
#include "testlib.h"

static const char *const samples[] = {"cpi-mpi", "hpcviewer-issue-328", "lmp-openmp", "loop-fork-cycles",
                                      "ping-pong-mpi"};

static int print_report(FILE *out, const hpcdb_experiment *exp, const void *arg) { return hpcdb_report(out, exp, arg); }
static int print_folded(FILE *out, const hpcdb_experiment *exp, const void *arg) {
  return hpcdb_export_folded(out, exp, arg, NULL);
}
static int print_flamegraph(FILE *out, const hpcdb_experiment *exp, const void *arg) {
  return hpcdb_export_flamegraph(out, exp, arg);
}

static void same_output(const char *path, const char *what, testlib_print_fn fn, const hpcdb_experiment *full,
                        const hpcdb_experiment *part, const void *arg) {
  int rc_full, rc_part;
  char *a = testlib_printed(fn, full, arg, &rc_full), *b = testlib_printed(fn, part, arg, &rc_part);
  CHECK(rc_full == rc_part);
  if (strcmp(a, b) != 0) fprintf(stderr, "%s: %s from the summary-only read differs\n", path, what);
  CHECK(strcmp(a, b) == 0);
  free(a);
  free(b);
}

static void check_db(const char *path) {
  hpcdb_experiment *full, *part;
  hpcdb_read_options ro = {HPCDB_READ_OPTIONS_VERSION, HPCDB_READ_ALL, NULL, 0, HPCDB_READ_SUMMARY_ONLY};
  CHECK_RC(hpcdb_read(&full, path));
  CHECK_RC(hpcdb_read_opts(&part, path, &ro));
  CHECK(part->n_profiles == full->n_profiles && part->n_contexts == full->n_contexts);
  CHECK(part->n_metrics == full->n_metrics);
  int have_summary = 0;
  for (uint32_t p = 0; p < full->n_profiles; p++)
    have_summary |= (full->profiles[p].flags & HPCDB_PROFILE_SUMMARY) != 0;
  for (uint32_t p = 0; p < full->n_profiles && p < part->n_profiles; p++) {
    const hpcdb_profile *a = &full->profiles[p], *b = &part->profiles[p];
    CHECK(a->flags == b->flags && a->n_ids == b->n_ids);
    if (have_summary && !(a->flags & HPCDB_PROFILE_SUMMARY)) {
      CHECK(b->n_values == 0 && b->n_ctxs == 0);
      continue;
    }
    CHECK(a->n_ctxs == b->n_ctxs && a->n_values == b->n_values);
    if (a->n_ctxs == b->n_ctxs && a->n_values == b->n_values) {
      CHECK(memcmp(a->ctx_ids, b->ctx_ids, a->n_ctxs * sizeof *a->ctx_ids) == 0);
      CHECK(memcmp(a->metric_ids, b->metric_ids, a->n_values * sizeof *a->metric_ids) == 0);
      CHECK(memcmp(a->values, b->values, a->n_values * sizeof *a->values) == 0);
    }
  }
  const hpcdb_view views[] = {HPCDB_VIEW_TOP_DOWN, HPCDB_VIEW_BOTTOM_UP, HPCDB_VIEW_FLAT};
  for (size_t v = 0; v < sizeof views / sizeof *views; v++) {
    hpcdb_report_options o = {0};
    o.view = views[v], o.width = 100, o.threshold = 0.01;
    same_output(path, "the report", print_report, full, part, &o);
  }
  uint32_t m;
  const char *why;
  if (hpcdb_default_metric(full, &m, &why) == 0) {
    same_output(path, "the folded stacks", print_folded, full, part, full->metrics[m].name);
    same_output(path, "the flame graph", print_flamegraph, full, part, full->metrics[m].name);
  }
  hpcdb_experiment_free(part);
  hpcdb_experiment_free(full);
}

int main(int argc, char **argv) {
  if (argc > 1) {
    check_db(argv[1]);
    return TEST_END();
  }
  if (!testlib_have_samples()) {
    printf("sample data not found: skipped\n");
    return 77;
  }
  char rel[256];
  for (size_t i = 0; i < sizeof samples / sizeof *samples; i++) {
    snprintf(rel, sizeof rel, "hpctoolkit-v4/%s", samples[i]);
    check_db(testlib_sample(rel));
  }
  return TEST_END();
}
