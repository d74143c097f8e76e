/* SPDX-License-Identifier: BSD-3-Clause */
/* The streaming writer on random models: some thread profiles streamed, the
 * rest (and the summary) left to finish; the summary made while cct.db is
 * written (hpcdb_hpctk4_stream_set_summary) on half the seeds; 1 to 3
 * threads. The database validates, reads back as the model, and its meta.db
 * and cct.db are the bytes hpcdb_hpctk4_write makes (cct.db does not depend
 * on where profile.db put the blocks). */
#include <stdlib.h>
#include <string.h>

#include "hpcdb/hpcdb.h"
#include "random_experiment.h"
#include "testlib.h"

#define SEEDS 150

/* A summary function that gives back the model's own summary values of each
 * context the threads have values for; checks the values it is handed. */
typedef struct summary_check {
  const hpcdb_profile *summary;
  uint32_t k;    /* next context of the summary's CSR */
  uint32_t last; /* the context of the previous call */
  int calls, bad;
} summary_check;

static int64_t copy_summary(void *user, uint32_t ctx, const hpcdb_value_ref *v, uint64_t n, uint16_t *metrics,
                            double *values) {
  summary_check *c = user;
  if (n == 0 || (c->calls++ > 0 && ctx <= c->last)) c->bad++; /* contexts ascending, each with values */
  for (uint64_t i = 1; i < n; i++)
    if (v[i].profile < v[i - 1].profile) c->bad++; /* in profile order */
  c->last = ctx;
  const hpcdb_profile *p = c->summary;
  while (c->k < p->n_ctxs && p->ctx_ids[c->k] < ctx) c->k++; /* contexts only the summary has are lost */
  if (c->k == p->n_ctxs || p->ctx_ids[c->k] != ctx) return 0;
  int64_t out = 0;
  for (uint64_t i = p->ctx_starts[c->k]; i < p->ctx_starts[c->k + 1]; i++, out++) {
    metrics[out] = p->metric_ids[i];
    values[out] = p->values[i];
  }
  return out;
}

/* Leaves in the model's summary only the contexts some thread (a profile
 * without the summary flag) has values for: what a made summary can cover,
 * so that the read-back compares equal. */
static void trim_summary(hpcdb_experiment *e) {
  hpcdb_profile *s = &e->profiles[0];
  uint32_t kept = 0;
  uint64_t v = 0;
  for (uint32_t k = 0; k < s->n_ctxs; k++) {
    int used = 0;
    for (uint32_t i = 1; i < e->n_profiles && !used; i++)
      for (uint32_t x = 0; x < e->profiles[i].n_ctxs && !(e->profiles[i].flags & HPCDB_PROFILE_SUMMARY) && !used; x++)
        used = e->profiles[i].ctx_ids[x] == s->ctx_ids[k] &&
               e->profiles[i].ctx_starts[x + 1] > e->profiles[i].ctx_starts[x];
    if (!used) continue;
    uint64_t from = s->ctx_starts[k], to = s->ctx_starts[k + 1];
    s->ctx_ids[kept] = s->ctx_ids[k];
    s->ctx_starts[kept++] = v;
    for (uint64_t i = from; i < to; i++, v++) {
      s->metric_ids[v] = s->metric_ids[i];
      s->values[v] = s->values[i];
    }
  }
  s->ctx_starts[kept] = v;
  s->n_ctxs = kept;
  s->n_values = v;
}

int main(void) {
  const char *da = testlib_tmpdir("stream_finish_a"), *db = testlib_tmpdir("stream_finish_b");
  unsigned made = 0, streamed = 0;
  for (uint64_t seed = 1; seed <= SEEDS; seed++) {
    hpcdb_experiment *e = NULL, *r = NULL;
    char why[512];
    CHECK_RC(random_experiment(&e, seed));
    if (!e || e->n_profiles == 0 || (e->profiles[0].flags & HPCDB_PROFILE_SUMMARY) == 0) {
      hpcdb_experiment_free(e);
      continue;
    }
    int make_summary = seed % 2 == 0;
    if (make_summary) trim_summary(e);
    CHECK_RC(hpcdb_hpctk4_write(e, da, HPCDB_WRITE_FORCE));
    hpcdb_hpctk4_stream *s;
    CHECK_RC(hpcdb_hpctk4_stream_open(&s, db, HPCDB_WRITE_FORCE));
    hpcdb_hpctk4_stream_set_threads(s, 1 + (unsigned)(seed % 3));
    for (uint32_t i = 1; i < e->n_profiles; i += 2) { /* the others are left to finish */
      CHECK_RC(hpcdb_hpctk4_stream_profile(s, i, &e->profiles[i]));
      streamed++;
    }
    summary_check check = {&e->profiles[0], 0, 0, 0, 0};
    if (make_summary) hpcdb_hpctk4_stream_set_summary(s, 0, copy_summary, &check);
    CHECK_RC(hpcdb_hpctk4_stream_finish(s, e));
    CHECK(check.bad == 0);
    made += make_summary && check.calls > 0;
    CHECK(testlib_same_in_dirs(da, db, "meta.db"));
    if (!testlib_same_in_dirs(da, db, "cct.db")) {
      fprintf(stderr, "seed %llu: cct.db differs\n", (unsigned long long)seed);
      CHECK(0);
    }
    hpcdb_validation v;
    CHECK_RC(hpcdb_validate(&v, db, NULL, NULL));
    CHECK(v.errors == 0);
    CHECK_RC(hpcdb_hpctk4_read(&r, db));
    if (r && !experiments_equal(e, r, why, sizeof why)) {
      fprintf(stderr, "seed %llu: read back differs: %s\n", (unsigned long long)seed, why);
      CHECK(0);
    }
    hpcdb_experiment_free(r);
    hpcdb_experiment_free(e);
  }
  CHECK(made > 10 && streamed > 10); /* both ways were exercised */
  return TEST_END();
}
