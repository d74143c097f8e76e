/* SPDX-License-Identifier: BSD-3-Clause */
/* Measurement files in the model: contexts, metrics, identity, values and
 * traces of the real samples, checked against what hpcprof made of them
 * (hpcrun/expected/small.nostruct.yaml: CPUTIME total 1.210259 s; the loops
 * totals below). */
#include <math.h>
#include <string.h>

#include "hpcdb/hpcdb.h"
#include "testlib.h"

#define SMALL "hpcrun/small.m/testmeas-small-000000-000-11ac0300-5560-0"

/* CPUTIME per thread (THREAD 0..3) of loops-cputime-t.m: the execution-scope
 * value at the global context in hpcprof's expected/loops-cputime-t.nostruct.d
 * profile.db (summary 3.973308). */
static const double loops_totals[4] = {0.994165, 0.992977, 0.992704, 0.993462};

static double total(const hpcdb_experiment *exp, uint32_t profile) {
  double sum = 0;
  for (uint64_t i = 0; i < exp->profiles[profile].n_values; i++) sum += exp->profiles[profile].values[i];
  return sum;
}

static void check_small(const hpcdb_experiment *exp) {
  CHECK(strcmp(exp->format, "hpcrun") == 0 && exp->version_major == 4);
  CHECK(exp->n_contexts == 14); /* the global context + 13 nodes */
  uint32_t primary = hpcdb_find_context(exp, 12);
  CHECK(primary != HPCDB_NONE && exp->contexts[primary].name && strcmp(exp->contexts[primary].name, "^Primary") == 0 &&
        exp->contexts[primary].parent == 0 && exp->contexts[primary].kind == HPCDB_CTX_ENTRY);
  uint32_t main_ = hpcdb_find_context(exp, 20);
  CHECK(main_ != HPCDB_NONE && strcmp(exp->contexts[main_].name, "| Main") == 0);
  uint32_t leaf = hpcdb_find_context(exp, 0x16);
  CHECK(leaf != HPCDB_NONE && exp->contexts[leaf].offset == 0x119c && exp->contexts[leaf].parent == main_ &&
        exp->contexts[leaf].module != HPCDB_NONE &&
        strstr(exp->modules[exp->contexts[leaf].module].path, "testmeas-small") != NULL);
  CHECK(exp->n_metrics == 1 && strcmp(exp->metrics[0].name, "CPUTIME (sec)") == 0);
  CHECK(exp->metrics[0].n_instances == 1 && exp->metrics[0].instances[0].prop_metric_id == 0 &&
        strcmp(exp->scopes[exp->metrics[0].instances[0].scope].name, "point") == 0);
  CHECK(exp->n_profiles == 1 && exp->profiles[0].n_values == 5);
  CHECK(fabs(total(exp, 0) - 1.210259) < 1e-6);
  char id[128];
  hpcdb_profile_identity(exp, &exp->profiles[0], id, sizeof id);
  CHECK(strcmp(id, "NODE 0x11ac0300 CORE 0 THREAD 0") == 0);
  CHECK(exp->profiles[0].ids[0].flags == (HPCDB_ID_PHYSICAL | 1u << 14));
  CHECK(exp->profiles[0].ids[2].flags == 3u << 14);
  CHECK(exp->n_kind_names == 8 && strcmp(exp->kind_names[7], "CORE") == 0);
  /* the first record is at the "NoActvty" placeholder (node 0x13): not running, as hpcprof writes it */
  CHECK(exp->n_traces == 1 && exp->traces[0].n == 13 && exp->traces[0].ctx_ids[0] == 0);
  CHECK(exp->trace_min == 1714021984008891000ull && exp->trace_max == 1714021985220628000ull);
  CHECK(exp->n_attrs == 11 && strcmp(exp->attrs[0].key, "program-name") == 0);
  CHECK(exp->title && strcmp(exp->title, "testmeas-small") == 0);
}

int main(void) {
  if (!testlib_have_samples()) {
    printf("no sample data: skipped\n");
    return 77;
  }
  hpcdb_experiment *exp = NULL;
  CHECK_RC(hpcdb_hpcrun_read(&exp, testlib_sample(SMALL ".hpcrun")));
  if (exp) check_small(exp);
  hpcdb_experiment_free(exp);

  /* The trace path reads its profile; a directory of one file keeps ids. */
  exp = NULL;
  CHECK_RC(hpcdb_hpcrun_read(&exp, testlib_sample(SMALL ".hpctrace")));
  if (exp) check_small(exp);
  hpcdb_experiment_free(exp);
  exp = NULL;
  CHECK_RC(hpcdb_hpcrun_read(&exp, testlib_sample("hpcrun/small.m")));
  if (exp) check_small(exp);
  hpcdb_experiment_free(exp);

  /* Four threads: trees kept apart, ids renumbered, one profile each. */
  exp = NULL;
  CHECK_RC(hpcdb_hpcrun_read(&exp, testlib_sample("hpcrun/loops-cputime-t.m")));
  if (exp) {
    CHECK(exp->n_profiles == 4 && exp->n_traces == 4);
    CHECK(exp->n_contexts == 1 + 69 + 61 + 53 + 59);
    CHECK(exp->n_metrics == 1);
    CHECK(exp->n_modules == 18); /* the threads share their load modules */
    uint64_t values = 0;
    for (uint32_t p = 0; p < exp->n_profiles; p++) {
      char id[128];
      char want[64];
      hpcdb_profile_identity(exp, &exp->profiles[p], id, sizeof id);
      snprintf(want, sizeof want, "NODE 0x11ac0300 CORE 0 THREAD %u", p);
      CHECK(strcmp(id, want) == 0);
      values += exp->profiles[p].n_values;
      CHECK(fabs(total(exp, p) - loops_totals[p]) < 1e-6);
      CHECK(exp->traces[p].profile == p && exp->traces[p].n == 167);
      for (uint64_t i = 0; i < exp->traces[p].n; i++)
        CHECK(hpcdb_find_context(exp, exp->traces[p].ctx_ids[i]) != HPCDB_NONE);
    }
    CHECK(values == 53 + 49 + 43 + 48);
    CHECK(exp->n_attrs == 44);
    for (uint32_t c = 1; c < exp->n_contexts; c++) CHECK(exp->contexts[c].id == c);
  }
  hpcdb_experiment_free(exp);

  hpcdb_format fmt;
  CHECK(hpcdb_hpcrun_detect(&fmt, testlib_sample("hpcrun/small.m")) == 0 && fmt == HPCDB_FORMAT_HPCRUN_DIR);
  CHECK(hpcdb_hpcrun_detect(&fmt, testlib_sample(SMALL ".hpcrun")) == 0 && fmt == HPCDB_FORMAT_HPCRUN);
  CHECK(hpcdb_hpcrun_detect(&fmt, testlib_sample(SMALL ".hpctrace")) == 0 && fmt == HPCDB_FORMAT_HPCTRACE);
  CHECK(hpcdb_hpcrun_detect(&fmt, testlib_sample("hpcrun/small.c")) == 0 && fmt == HPCDB_FORMAT_UNKNOWN);
  CHECK(hpcdb_hpcrun_detect(&fmt, testlib_sample("hpcrun")) == 0 && fmt == HPCDB_FORMAT_UNKNOWN);

  /* Not a measurement. */
  exp = NULL;
  CHECK(hpcdb_hpcrun_read(&exp, testlib_sample("hpcrun/small.c")) == HPCDB_ENOTFORMAT && !exp);
  return TEST_END();
}
