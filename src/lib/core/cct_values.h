/* SPDX-License-Identifier: BSD-3-Clause */
/* One context's thread values from cct.db (hpcdb_db_context_scan), grouped
 * by profile in an output order: what a context-ordered writer needs from a
 * database stored ordered by profile, one context block in memory at a time. */
#ifndef HPCDB_CORE_CCT_VALUES_H
#define HPCDB_CORE_CCT_VALUES_H

#include <stdint.h>

#include "hpcdb/hpctk4.h"

typedef struct cct_value {
  uint32_t place; /* the profile's place in the output order */
  uint16_t metric;
  double value;
} cct_value;

typedef struct cct_values {
  const hpcdb_db *db;
  const char *path;      /* cct.db's, for messages */
  const uint32_t *place; /* per profile index: its place, or CCT_NOT_HERE for a profile cct.db may not name */
  uint32_t n_profiles, place_bits;
  cct_value *v, *tmp; /* v[0, n): the context's values, by place, then in cct.db's (metric) order */
  uint64_t n, cap, tmp_cap;
} cct_values;

#define CCT_NOT_HERE UINT32_MAX

/* place: per profile index (n_profiles of them, all places below n_profiles);
 * it and path (cct.db's, for messages) are borrowed. */
void cct_values_init(cct_values *c, const hpcdb_db *db, const char *path, const uint32_t *place, uint32_t n_profiles);
/* Context ctx_id's values into c->v (0 values when cct.db has no such context).
 * 0, or negative with the message set: a corrupt block, or a value of a
 * profile cct.db may not name. */
int cct_values_read(cct_values *c, uint32_t ctx_id);
/* The same for several contexts: clear c->v (c->n = 0), add each context's
 * values after those already there, then sort (a profile's values stay in
 * the order they were added). */
int cct_values_add(cct_values *c, uint32_t ctx_id);
int cct_values_sort(cct_values *c);
void cct_values_free(cct_values *c);

#endif
