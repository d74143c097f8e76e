/* SPDX-License-Identifier: BSD-3-Clause */
/* The value interface over a v4.0 database queried in place: the tree and
 * identities from meta.db and profile.db's Profile Info, the summary
 * profile's values decoded for each column asked for and let go (the query
 * keeps the column; the source keeps no values, so any number of readers
 * share it without a lock), one context's values over all profiles from
 * cct.db (the spread). */
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "hpcdb/common.h"
#include "hpcdb/hpctk4.h"
#include "hpcdb/model.h"
#include "hpcdb/query.h"
#include "hpcdb/source.h"
#include "query/query_internal.h"

typedef struct db_source {
  hpcdb_experiment *exp;
  hpcdb_db *db;
  uint32_t *plain, n_plain;
  uint32_t *slot_of; /* per profile index: position in plain, HPCDB_NONE for a summary */
  uint32_t summary;  /* profile index of the summary, HPCDB_NONE when absent */
} db_source;

static int db_column(void *impl, uint32_t metric, double *inc, double *exc, unsigned *have) {
  const db_source *s = impl;
  if (s->summary != HPCDB_NONE) {
    hpcdb_profile sum;
    int rc = hpcdb_db_profile_values(s->db, s->summary, &sum);
    if (rc == 0) query_add_profile(s->exp, &sum, 1, metric, inc, exc, have);
    hpcdb_profile_clear_values(&sum);
    return rc;
  }
  for (uint32_t p = 0; p < s->exp->n_profiles; p++) { /* no summary: the sum, one profile in memory at a time */
    hpcdb_profile one;
    int rc = hpcdb_db_profile_values(s->db, p, &one);
    if (rc == 0) query_add_profile(s->exp, &one, 0, metric, inc, exc, have);
    hpcdb_profile_clear_values(&one);
    HPCDB_TRY(rc);
  }
  return 0;
}

typedef struct spread_fill {
  const db_source *s;
  uint32_t metric;
  double *out;
  uint32_t n;
} spread_fill;

static int fill(void *user, uint32_t metric, uint32_t profile, double value) {
  spread_fill *f = user;
  if (metric == f->metric && profile < f->s->exp->n_profiles) {
    uint32_t k = f->s->slot_of[profile];
    if (k != HPCDB_NONE && k < f->n) f->out[k] = value;
  }
  return 0;
}

static int db_profiles(void *impl, uint32_t ctx, uint32_t metric, int inclusive, double *out, uint32_t n) {
  db_source *s = impl;
  int32_t id_inc, id_exc;
  query_metric_ids(s->exp, metric, 0, &id_inc, &id_exc);
  int32_t id = inclusive ? id_inc : id_exc;
  if (id < 0)
    return hpcdb_fail(HPCDB_EUNSUPPORTED, "metric \"%s\" has no %s values per profile", s->exp->metrics[metric].name,
                      inclusive ? "inclusive" : "exclusive");
  if (hpcdb_db_context_count(s->db) == 0) { /* no cct.db: one binary search per profile in profile.db */
    for (uint32_t k = 0; k < n && k < s->n_plain; k++)
      HPCDB_TRY(hpcdb_db_profile_value(s->db, s->plain[k], s->exp->contexts[ctx].id, (uint16_t)id, &out[k]));
    return 0;
  }
  /* every metric's slice: the block is read with pread, not touched through the mapping,
   * so the resident set stays one block however many contexts are asked for */
  spread_fill f = {s, (uint32_t)id, out, n};
  return hpcdb_db_context_scan(s->db, s->exp->contexts[ctx].id, HPCDB_ALL_METRICS, fill, &f);
}

static int db_profile_column(void *impl, uint32_t profile, uint32_t metric, double *inc, double *exc, unsigned *have) {
  db_source *s = impl;
  hpcdb_profile one;
  int rc = hpcdb_db_profile_values(s->db, profile, &one);
  if (rc == 0)
    query_add_profile(s->exp, &one, (s->exp->profiles[profile].flags & HPCDB_PROFILE_SUMMARY) != 0, metric, inc, exc,
                      have);
  hpcdb_profile_clear_values(&one);
  return rc;
}

static int db_profile(void *impl, uint32_t profile, hpcdb_profile *out, const uint64_t **ints) {
  const db_source *s = impl;
  *ints = NULL;
  return hpcdb_db_profile_values(s->db, profile, out);
}

static void db_close(void *impl) {
  db_source *s = impl;
  if (!s) return;
  hpcdb_db_close(s->db);
  hpcdb_experiment_free(s->exp);
  free(s->plain);
  free(s->slot_of);
  free(s);
}

static const hpcdb_qsource_ops db_ops = {HPCDB_QSOURCE_OPS_VERSION, "v4.0 mapped", db_column, db_profiles, db_close,
                                         db_profile_column};

int query_source_db(hpcdb_source *out, const char *dir) {
  db_source *s = calloc(1, sizeof *s);
  if (!s) return hpcdb_fail(HPCDB_ENOMEM, "out of memory");
  int rc = hpcdb_hpctk4_read_lazy(&s->exp, &s->db, dir);
  if (rc == 0) rc = query_plain_profiles(s->exp, &s->plain, &s->n_plain);
  if (rc == 0 && !(s->slot_of = malloc(((size_t)s->exp->n_profiles + 1) * sizeof *s->slot_of)))
    rc = hpcdb_fail(HPCDB_ENOMEM, "out of memory");
  if (rc < 0) {
    db_close(s);
    return rc;
  }
  s->summary = HPCDB_NONE;
  for (uint32_t p = 0; p < s->exp->n_profiles; p++) {
    s->slot_of[p] = HPCDB_NONE;
    if ((s->exp->profiles[p].flags & HPCDB_PROFILE_SUMMARY) && s->summary == HPCDB_NONE) s->summary = p;
  }
  for (uint32_t k = 0; k < s->n_plain; k++) s->slot_of[s->plain[k]] = k;
  out->q = (hpcdb_qsource){&db_ops, s, s->exp, s->n_plain, s->plain};
  out->extra = (source_extra){db_profile, 1, hpcdb_db_context_count(s->db) > 0};
  return 0;
}
