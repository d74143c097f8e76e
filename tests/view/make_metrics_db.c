/* SPDX-License-Identifier: BSD-3-Clause */
/* Writes a v4.0 database shaped as a GPU run's (GAMESS's): many metrics,
 * GPU operation times first in meta.db, CPU times after them, bytes and
 * counts; a metrics/default.yaml listing them in another order, with
 * descriptions and a group; rows whose share of the time is tiny; a long
 * file name. The browser test opens it for the metric list and the columns.
 * Usage: make_metrics_db DIR */
#include <stdio.h>
#include <stdlib.h>

#include "hpcdb/hpcdb.h"

#define N_LINES 5
static const char *const names[] = {"GPUOP (sec)",    "GKER (sec)",   "GXCOPY (sec)",  "GXCOPY:H2D (B)",
                                    "GXCOPY:D2H (B)", "GXCOPY:COUNT", "CPUTIME (sec)", "REALTIME (sec)",
                                    "GMEM (sec)",     "GMEM:PAG (B)", "GSYNC (sec)",   "GKER:COUNT"};
#define N_METRICS (sizeof names / sizeof names[0])
/* each line's exclusive value of metric m: the time's shares are 60%, 30%, 10%, 0.0001%, 0.00001% */
static const double lines[N_LINES] = {600, 300, 99.99989, 0.001, 0.0001};

static const char yaml[] =
    "version: 0\n"
    "inputs:\n"
    "  - &real-e\n    metric: REALTIME (sec)\n    scope: execution\n    formula: $$\n    combine: sum\n"
    "  - &cpu-e\n    metric: CPUTIME (sec)\n    scope: execution\n    formula: $$\n    combine: sum\n"
    "  - &gpuop-e\n    metric: GPUOP (sec)\n    scope: execution\n    formula: $$\n    combine: sum\n"
    "  - &gker-e\n    metric: GKER (sec)\n    scope: execution\n    formula: $$\n    combine: sum\n"
    "roots:\n"
    "  - name: REALTIME (sec)\n    description: Elapsed time (seconds)\n"
    "    variants:\n      Sum:\n        formula:\n          inclusive:\n            standard: *real-e\n"
    "  - name: CPUTIME (sec)\n    description: CPU time (seconds)\n"
    "    variants:\n      Sum:\n        formula:\n          inclusive:\n            standard: *cpu-e\n"
    "  - name: GPU operations\n    description: Time the GPUs spent\n"
    "    children:\n"
    "      - name: GPU time\n        description: \"GPU time: all operations (seconds)\"\n"
    "        variants:\n          Sum:\n            formula:\n              inclusive: *gpuop-e\n"
    "      - name: GKER (sec)\n        description: \"GPU time: kernel execution (seconds)\"\n"
    "        variants:\n          Sum:\n            formula:\n              inclusive:\n                standard: "
    "*gker-e\n";

static int add_metrics(hpcdb_experiment *e) {
  uint32_t point, exec, m;
  hpcdb_scope sp = {"point", HPCDB_SCOPE_POINT, 0}, se = {"execution", HPCDB_SCOPE_EXECUTION, 0};
  if (hpcdb_add_scope(e, &sp, &point) < 0 || hpcdb_add_scope(e, &se, &exec) < 0) return -1;
  for (uint16_t k = 0; k < N_METRICS; k++) {
    hpcdb_summary s1 = {point, "$$", HPCDB_COMBINE_SUM, (uint16_t)(2 * k)},
                  s2 = {exec, "$$", HPCDB_COMBINE_SUM, (uint16_t)(2 * k + 1)};
    if (hpcdb_add_metric(e, names[k], &m) < 0 || hpcdb_metric_add_instance(e, m, point, (uint16_t)(2 * k)) < 0 ||
        hpcdb_metric_add_instance(e, m, exec, (uint16_t)(2 * k + 1)) < 0 || hpcdb_metric_add_summary(e, m, &s1) < 0 ||
        hpcdb_metric_add_summary(e, m, &s2) < 0)
      return -1;
  }
  return 0;
}

/* the lines' values and the root's and main's inclusive ones; metric k scaled by k + 1, thread t by t + 1 */
static int add_profile(hpcdb_experiment *e, uint32_t flags, const hpcdb_id *id, double scale) {
  uint32_t cs[N_METRICS * (2 * N_LINES + 2)], k;
  uint16_t ms[N_METRICS * (2 * N_LINES + 2)];
  double vs[N_METRICS * (2 * N_LINES + 2)];
  uint32_t n = 0;
  for (uint32_t m = 0; m < N_METRICS; m++) {
    double sum = 0;
    for (uint32_t i = 0; i < N_LINES; i++) {
      double v = lines[i] * (m + 1) * scale;
      for (int f = 0; f < 2; f++) cs[n] = 2 + i, ms[n] = (uint16_t)(2 * m + (uint32_t)f), vs[n++] = v;
      sum += v;
    }
    for (uint32_t c = 0; c < 2; c++) cs[n] = c, ms[n] = (uint16_t)(2 * m + 1), vs[n++] = sum;
  }
  return hpcdb_add_profile(e, flags, id ? 1 : 0, id, id ? 1 : 0, &k) < 0 ||
                 hpcdb_profile_set_values(e, k, n, cs, ms, vs) < 0
             ? -1
             : 0;
}

int main(int argc, char **argv) {
  if (argc != 2) return 2;
  hpcdb_experiment *e;
  uint32_t entry, file, ctx, kind;
  if (hpcdb_experiment_new(&e) < 0) return 2;
  int rc = add_metrics(e);
  hpcdb_context c = {0};
  c.id = 1, c.kind = HPCDB_CTX_ENTRY, c.entry_point = HPCDB_ENTRY_MAIN, c.function = c.file = c.module = HPCDB_NONE;
  if (rc == 0) rc = hpcdb_add_context(e, &c, 0, &entry);
  if (rc == 0) rc = hpcdb_add_file(e, "a_source_file_with_a_name_longer_than_the_name_column_is_wide.f90", 0, &file);
  c.kind = HPCDB_CTX_NORMAL, c.relation = HPCDB_REL_LEXICAL, c.lexical_type = HPCDB_LEX_LINE, c.file = file;
  for (uint32_t i = 0; rc == 0 && i < N_LINES; i++)
    c.id = 2 + i, c.line = 10 * (i + 1), rc = hpcdb_add_context(e, &c, entry, &ctx);
  if (rc == 0) rc = hpcdb_add_kind_name(e, "THREAD", &kind);
  if (rc == 0) rc = add_profile(e, HPCDB_PROFILE_SUMMARY, NULL, 3);
  for (uint16_t t = 0; rc == 0 && t < 2; t++) {
    hpcdb_id thread = {(uint16_t)kind, 0, t, t};
    rc = add_profile(e, 0, &thread, t + 1);
  }
  if (rc == 0) rc = hpcdb_hpctk4_write(e, argv[1], HPCDB_WRITE_FORCE);
  if (rc < 0) fprintf(stderr, "make_metrics_db: %s\n", hpcdb_last_error());
  hpcdb_experiment_free(e);
  if (rc < 0) return 2;
  char path[4096];
  snprintf(path, sizeof path, "%s/metrics/default.yaml", argv[1]);
  FILE *f = fopen(path, "w");
  if (!f || fputs(yaml, f) < 0 || fclose(f) != 0) return 2;
  return 0;
}
