/* SPDX-License-Identifier: BSD-3-Clause */
/* hpcdb_hpctk4_read_lazy: the same tree, metrics and profile identities as
 * the full read, no values held, and every value found again through the
 * returned accessor; hpcdb_context_label names contexts as the dump does. */
#include <string.h>

#include "hpcdb/hpcdb.h"
#include "testlib.h"

typedef struct expect {
  const hpcdb_profile *p;
  uint64_t at;
  int mismatches;
} expect;

/* Values come in file order: contexts ascending, metric ids ascending. */
static int next_value(void *user, uint32_t ctx, uint32_t metric, double value) {
  expect *e = user;
  const hpcdb_profile *p = e->p;
  uint32_t k = 0;
  while (k < p->n_ctxs && p->ctx_starts[k + 1] <= e->at) k++;
  if (e->at >= p->n_values || p->ctx_ids[k] != ctx || p->metric_ids[e->at] != metric || p->values[e->at] != value)
    e->mismatches++;
  e->at++;
  return 0;
}

static void check_db(const char *path) {
  hpcdb_experiment *full = NULL, *lazy = NULL;
  hpcdb_db *db = NULL;
  CHECK_RC(hpcdb_hpctk4_read(&full, path));
  CHECK_RC(hpcdb_hpctk4_read_lazy(&lazy, &db, path));
  if (!full || !lazy || !db) return;
  CHECK(lazy->n_contexts == full->n_contexts && lazy->n_metrics == full->n_metrics);
  CHECK(lazy->n_profiles == full->n_profiles && hpcdb_db_profile_count(db) == full->n_profiles);
  CHECK(hpcdb_value_count(lazy) == 0 && lazy->n_traces == 0);
  char a[256], b[256];
  for (uint32_t p = 0; p < full->n_profiles && p < lazy->n_profiles; p++) {
    hpcdb_profile_identity(full, &full->profiles[p], a, sizeof a);
    hpcdb_profile_identity(lazy, &lazy->profiles[p], b, sizeof b);
    CHECK(strcmp(a, b) == 0 && full->profiles[p].flags == lazy->profiles[p].flags);
    expect e = {&full->profiles[p], 0, 0};
    CHECK_RC(hpcdb_db_profile_scan(db, p, next_value, &e));
    CHECK(e.mismatches == 0 && e.at == full->profiles[p].n_values);
  }
  for (uint32_t c = 0; c < full->n_contexts; c++) {
    hpcdb_context_label(full, c, a, sizeof a);
    hpcdb_context_label(lazy, c, b, sizeof b);
    if (strcmp(a, b) != 0) CHECK(!"labels differ");
  }
  hpcdb_context_label(full, 0, a, sizeof a);
  CHECK(strcmp(a, "<global>") == 0);
  CHECK(hpcdb_context_label(full, full->n_contexts, a, sizeof a) == 0 && a[0] == '\0');
  hpcdb_experiment_free(full);
  hpcdb_experiment_free(lazy);
  hpcdb_db_close(db);
}

int main(void) {
  if (!testlib_have_samples()) {
    printf("skip: no sample data\n");
    return 77;
  }
  check_db(testlib_sample("hpctoolkit-v4/cpi-mpi"));
  check_db(testlib_sample("hpctoolkit-v4/lmp-openmp"));
  check_db(testlib_sample("hpcrun/expected/loops-cuda-nvidia-t.d"));
  hpcdb_experiment *exp = NULL;
  hpcdb_db *db = NULL;
  CHECK(hpcdb_hpctk4_read_lazy(&exp, &db, testlib_sample("cube/time.p4.cubex")) < 0 && !exp && !db);
  CHECK(hpcdb_hpctk4_read_lazy(&exp, &db, "/nonexistent") < 0 && hpcdb_last_error()[0]);
  return TEST_END();
}
