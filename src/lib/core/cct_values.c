/* SPDX-License-Identifier: BSD-3-Clause */
/* cct.db stores a context's values per metric, each metric's by profile
 * index; writers want them per profile in their own order. A stable LSD radix
 * sort on the place (11 bits a pass: one pass up to 2048 profiles) keeps the
 * work per context proportional to its values, whatever the profile count. */
#include "core/cct_values.h"

#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "common/vec.h"

enum { DIGIT_BITS = 11, DIGITS = 1 << DIGIT_BITS };

void cct_values_init(cct_values *c, const hpcdb_db *db, const char *path, const uint32_t *place, uint32_t n_profiles) {
  memset(c, 0, sizeof *c);
  c->db = db;
  c->path = path;
  c->place = place;
  c->n_profiles = n_profiles;
  while (n_profiles && c->place_bits < 32 && (n_profiles - 1) >> c->place_bits) c->place_bits++;
}

typedef struct scan_state {
  cct_values *c;
  uint32_t ctx_id;
} scan_state;

static int add_value(void *user, uint32_t metric, uint32_t profile, double value) {
  scan_state *s = user;
  cct_values *c = s->c;
  if (profile >= c->n_profiles || c->place[profile] == CCT_NOT_HERE)
    return hpcdb_fail(HPCDB_ECORRUPT, "%s: values of context %u: %s: profIndex %u %s", c->path, s->ctx_id,
                      profile >= c->n_profiles ? "profile-index" : "summary-in-cct", profile,
                      profile >= c->n_profiles ? "but profile.db has fewer profiles" : "is a summary profile");
  if (c->n == c->cap && VEC_RESERVE(&c->v, &c->cap, c->n + 1) < 0)
    return hpcdb_fail(HPCDB_ENOMEM, "out of memory for the values of context %u", s->ctx_id);
  c->v[c->n++] = (cct_value){c->place[profile], (uint16_t)metric, value};
  return 0;
}

/* Stable: by place, and in the order added within one. */
int cct_values_sort(cct_values *c) {
  if (c->n < 2 || c->place_bits == 0) return 0;
  if (c->tmp_cap < c->cap) {
    free(c->tmp);
    c->tmp_cap = 0;
    if (!(c->tmp = malloc(c->cap * sizeof *c->tmp))) return hpcdb_fail(HPCDB_ENOMEM, "out of memory sorting values");
    c->tmp_cap = c->cap;
  }
  uint64_t count[DIGITS];
  for (unsigned shift = 0; shift < c->place_bits; shift += DIGIT_BITS) {
    /* as many buckets as places need (256 profiles: 256, not 2048, cleared and summed per context) */
    unsigned bits = c->place_bits - shift < DIGIT_BITS ? c->place_bits - shift : DIGIT_BITS;
    uint32_t digits = 1u << bits, mask = digits - 1;
    memset(count, 0, digits * sizeof *count);
    for (uint64_t i = 0; i < c->n; i++) count[(c->v[i].place >> shift) & mask]++;
    uint64_t at = 0;
    for (uint32_t d = 0; d < digits; d++) {
      uint64_t k = count[d];
      count[d] = at;
      at += k;
    }
    for (uint64_t i = 0; i < c->n; i++) c->tmp[count[(c->v[i].place >> shift) & mask]++] = c->v[i];
    cct_value *t = c->v;
    uint64_t t_cap = c->cap;
    c->v = c->tmp;
    c->cap = c->tmp_cap;
    c->tmp = t;
    c->tmp_cap = t_cap;
  }
  return 0;
}

int cct_values_add(cct_values *c, uint32_t ctx_id) {
  scan_state s = {c, ctx_id};
  return hpcdb_db_context_scan(c->db, ctx_id, HPCDB_ALL_METRICS, add_value, &s);
}

int cct_values_read(cct_values *c, uint32_t ctx_id) {
  c->n = 0;
  HPCDB_TRY(cct_values_add(c, ctx_id));
  return cct_values_sort(c);
}

void cct_values_free(cct_values *c) {
  free(c->v);
  free(c->tmp);
  memset(c, 0, sizeof *c);
}
