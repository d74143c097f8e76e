/* SPDX-License-Identifier: BSD-3-Clause */
/* Writes a v4.0 database whose main thread has N children (the source lines
 * wide.c:1 .. wide.c:N, line k costing k): the browser test opens it to check
 * that the page holds a window of the rows, not all of them.
 * Usage: make_wide_db DIR N */
#include <stdio.h>
#include <stdlib.h>

#include "one_metric_db.h"

int main(int argc, char **argv) {
  if (argc != 3) return 2;
  uint32_t n = (uint32_t)strtoul(argv[2], NULL, 10);
  if (n == 0 || n > 10000000) return 2;
  hpcdb_experiment *e;
  uint32_t k, ctx, file, entry;
  if (one_metric_db(&e, &entry) < 0) return 2;
  hpcdb_add_file(e, "wide.c", 0, &file);
  hpcdb_context c = {0};
  c.module = c.function = HPCDB_NONE, c.entry_point = HPCDB_ENTRY_MAIN; /* as the entry they go under */
  c.kind = HPCDB_CTX_NORMAL, c.relation = HPCDB_REL_LEXICAL, c.lexical_type = HPCDB_LEX_LINE, c.file = file;
  /* values: per line its point (exclusive) and execution (inclusive) value; the root's and the main
   * thread's inclusive values (context ids 0 and 1) last */
  size_t nv = 2 * (size_t)n + 2;
  uint32_t *cs = malloc(nv * sizeof *cs);
  uint16_t *ms = malloc(nv * sizeof *ms);
  double *vs = malloc(nv * sizeof *vs);
  int rc = cs && ms && vs ? 0 : -1;
  for (uint32_t i = 0; rc == 0 && i < n; i++) {
    c.id = 2 + i, c.line = 1 + i;
    rc = hpcdb_add_context(e, &c, entry, &ctx);
    cs[2 * i] = cs[2 * i + 1] = c.id;
    ms[2 * i] = 0, ms[2 * i + 1] = 1;
    vs[2 * i] = vs[2 * i + 1] = 1 + i;
  }
  for (uint32_t i = 0; i < 2; i++) cs[2 * n + i] = i, ms[2 * n + i] = 1, vs[2 * n + i] = (double)n * (n + 1) / 2;
  /* the summary, and one thread with the same values */
  uint32_t kind;
  if (rc == 0) rc = hpcdb_add_kind_name(e, "THREAD", &kind);
  hpcdb_id thread = {(uint16_t)kind, 0, 0, 0};
  if (rc == 0) rc = hpcdb_add_profile(e, HPCDB_PROFILE_SUMMARY, 0, NULL, 0, &k);
  if (rc == 0) rc = hpcdb_profile_set_values(e, k, (uint32_t)nv, cs, ms, vs);
  if (rc == 0) rc = hpcdb_add_profile(e, 0, 1, &thread, 1, &k);
  if (rc == 0) rc = hpcdb_profile_set_values(e, k, (uint32_t)nv, cs, ms, vs);
  if (rc == 0) rc = hpcdb_hpctk4_write(e, argv[1], HPCDB_WRITE_FORCE);
  if (rc < 0) fprintf(stderr, "make_wide_db: %s\n", hpcdb_last_error());
  free(cs), free(ms), free(vs);
  hpcdb_experiment_free(e);
  return rc < 0 ? 2 : 0;
}
