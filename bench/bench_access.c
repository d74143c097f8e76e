/* SPDX-License-Identifier: BSD-3-Clause */
/* Times the two ways of reading a v4.0 database: `full` loads everything into
 * the model; `scan` visits every value of every profile through the zero-copy
 * accessor. Prints the value count and a checksum so the work cannot be
 * skipped. */
#include <stdio.h>
#include <string.h>

#include "hpcdb/hpcdb.h"

/* The checksum is summed in four lanes: with one, every value's visit
 * waited for the previous one's floating-point add (a chain through memory
 * of ~3 ns per value, more than the access itself). */
typedef struct scan_state {
  uint64_t count;
  double sum[4];
} scan_state;

static int visit(void *user, uint32_t ctx, uint32_t metric, double value) {
  scan_state *s = user;
  s->sum[s->count++ & 3] += value;
  return 0;
}

int main(int argc, char **argv) {
  if (argc != 3 || (strcmp(argv[1], "full") && strcmp(argv[1], "scan"))) {
    fprintf(stderr, "usage: bench_access full|scan DB\n");
    return 2;
  }
  scan_state s = {0, {0, 0, 0, 0}};
  if (!strcmp(argv[1], "full")) {
    hpcdb_experiment *exp;
    if (hpcdb_hpctk4_read(&exp, argv[2]) < 0) goto fail;
    for (uint32_t p = 0; p < exp->n_profiles; p++)
      for (uint64_t v = 0; v < exp->profiles[p].n_values; v++) visit(&s, 0, 0, exp->profiles[p].values[v]);
    hpcdb_experiment_free(exp);
  } else {
    hpcdb_db *db;
    if (hpcdb_db_open(&db, argv[2]) < 0) goto fail;
    for (uint32_t p = 0; p < hpcdb_db_profile_count(db); p++)
      if (hpcdb_db_profile_scan(db, p, visit, &s) < 0) goto fail;
    hpcdb_db_close(db);
  }
  printf("%llu values, checksum %.6e\n", (unsigned long long)s.count, s.sum[0] + s.sum[1] + s.sum[2] + s.sum[3]);
  return 0;
fail:
  fprintf(stderr, "bench_access: %s\n", hpcdb_last_error());
  return 2;
}
