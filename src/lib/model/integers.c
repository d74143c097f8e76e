/* SPDX-License-Identifier: BSD-3-Clause */
/* Integer metrics exact end to end. A metric whose source stores integers
 * (hpcdb_metric.integer: a Cube UINT64 / INT64 ...) keeps its values as
 * doubles like every other, and beside them, per profile, the exact 64-bit
 * integers where a double cannot hold them (beyond 53 bits). Outputs that
 * can carry integers (Cube, CSV, dumps) print the integer; the rest reads
 * the double as before. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/dtoa.h"
#include "common/error.h"
#include "model/model_build.h"
#include "model/model_private.h"

#define TWO_63 9223372036854775808.0
#define TWO_64 18446744073709551616.0

/* The double an integer is: its two's complement, for unsigned metrics too
 * (a wrapped counter's delta is a small negative number, so that the doubles
 * add up along the tree as the integers do modulo 2^64). */
static double integer_double(uint64_t u, uint8_t kind) {
  (void)kind;
  return (double)(int64_t)u;
}

int model_integer_value(const uint64_t *ints, double d, uint64_t v, uint8_t kind, uint64_t *out) {
  if (!kind) return 0;
  if (ints) {
    *out = ints[v];
    return 1;
  }
  /* without a store every value is its double: an integer in the kind's range
   * (an unsigned one below 0 is a wrapped one, as CubeLib's arithmetic has it) */
  if (!(d == floor(d) && d >= -TWO_63 && d < (kind == HPCDB_INTEGER_SIGNED ? TWO_63 : TWO_64))) return 0;
  *out = d < 0 ? (uint64_t)(int64_t)d : (uint64_t)d;
  return 1;
}

size_t model_value_text(char *buf, const uint64_t *ints, double d, uint64_t v, uint8_t kind) {
  uint64_t u;
  if (!model_integer_value(ints, d, v, kind, &u)) return fmt_double(buf, d);
  /* as the type reads it, as CubeLib and pycubexr show it: a UINT64 unsigned */
  return kind == HPCDB_INTEGER_SIGNED ? fmt_i64(buf, (int64_t)u) : fmt_u64(buf, u);
}

uint8_t *model_integer_kinds(const hpcdb_experiment *exp, int summary) {
  uint8_t *k = calloc((size_t)UINT16_MAX + 1, 1);
  if (!k) return NULL;
  for (uint32_t m = 0; m < exp->n_metrics; m++) {
    const hpcdb_metric *mt = &exp->metrics[m];
    if (!mt->integer) continue;
    if (!summary)
      for (uint32_t i = 0; i < mt->n_instances; i++) k[mt->instances[i].prop_metric_id] = mt->integer;
    for (uint32_t i = 0; summary && i < mt->n_summaries; i++) /* the statistics that are the metric's values */
      if (mt->summaries[i].formula && !strcmp(mt->summaries[i].formula, "$$"))
        k[mt->summaries[i].stat_metric_id] = mt->integer;
  }
  return k;
}

const uint64_t *model_integers(const hpcdb_experiment *exp, uint32_t profile) {
  const struct hpcdb_model_private *pv = exp->priv;
  if (profile >= pv->n_integer_profiles || !pv->integers[profile]) return NULL;
  return pv->n_integers[profile] == exp->profiles[profile].n_values ? pv->integers[profile] : NULL;
}

void model_drop_integers(hpcdb_experiment *exp, uint32_t profile) {
  struct hpcdb_model_private *pv = exp->priv;
  if (profile >= pv->n_integer_profiles) return;
  free(pv->integers[profile]);
  pv->integers[profile] = NULL;
  pv->n_integers[profile] = 0;
}

/* Completes a reader's store: the entries it left to the doubles filled in
 * from them, and every given one checked against its double. */
static int complete(const hpcdb_experiment *exp, uint32_t profile, uint64_t *ints) {
  const hpcdb_profile *p = &exp->profiles[profile];
  uint8_t *kinds = model_integer_kinds(exp, (p->flags & HPCDB_PROFILE_SUMMARY) != 0);
  if (!kinds) return hpcdb_fail(HPCDB_ENOMEM, "out of memory");
  int rc = 0;
  for (uint32_t k = 0; k < p->n_ctxs && rc == 0; k++)
    for (uint64_t v = p->ctx_starts[k]; v < p->ctx_starts[k + 1] && rc == 0; v++) {
      uint8_t kind = kinds[p->metric_ids[v]];
      double d = p->values[v];
      if (!kind) ints[v] = 0;
      else if (fabs(d) >= 9007199254740992.0 && integer_double(ints[v], kind) == d) continue; /* the reader's */
      else if (!model_integer_value(NULL, d, v, kind, &ints[v]))
        rc = hpcdb_fail(HPCDB_EINVAL,
                        "profile %u: context %u metric id %u: %.17g is not an integer of its metric's type", profile,
                        p->ctx_ids[k], p->metric_ids[v], d);
    }
  free(kinds);
  return rc;
}

int hpcdb_profile_adopt_integers(hpcdb_experiment *exp, uint32_t profile, uint64_t *integers) {
  struct hpcdb_model_private *pv = exp->priv;
  int rc = profile < exp->n_profiles ? 0 : hpcdb_fail(HPCDB_EINVAL, "profile %u does not exist", profile);
  if (rc == 0 && profile >= pv->n_integer_profiles) {
    uint64_t **a = realloc(pv->integers, ((size_t)exp->n_profiles + 1) * sizeof *a);
    if (a) pv->integers = a;
    uint64_t *n = realloc(pv->n_integers, ((size_t)exp->n_profiles + 1) * sizeof *n);
    if (n) pv->n_integers = n;
    if (!a || !n) rc = hpcdb_fail(HPCDB_ENOMEM, "out of memory");
    for (uint32_t i = pv->n_integer_profiles; rc == 0 && i < exp->n_profiles; i++) a[i] = NULL, n[i] = 0;
    if (rc == 0) pv->n_integer_profiles = exp->n_profiles;
  }
  if (rc == 0) rc = complete(exp, profile, integers);
  if (rc < 0) {
    free(integers);
    return rc;
  }
  model_drop_integers(exp, profile);
  pv->integers[profile] = integers;
  pv->n_integers[profile] = exp->profiles[profile].n_values;
  return 0;
}

int hpcdb_profile_integer(const hpcdb_experiment *exp, uint32_t profile, uint64_t v, uint64_t *out) {
  if (profile >= exp->n_profiles || v >= exp->profiles[profile].n_values) return 0;
  const hpcdb_profile *p = &exp->profiles[profile];
  uint32_t metric, which;
  int is_stat;
  if (!hpcdb_metric_of_id(exp, p->metric_ids[v], &metric, &is_stat, &which)) return 0;
  const hpcdb_metric *m = &exp->metrics[metric];
  if (is_stat && (!m->summaries[which].formula || strcmp(m->summaries[which].formula, "$$"))) return 0;
  return model_integer_value(model_integers(exp, profile), p->values[v], v, m->integer, out);
}

uint64_t model_rounded_integers(const hpcdb_experiment *exp) {
  uint64_t n = 0;
  uint8_t *kinds[2] = {model_integer_kinds(exp, 0), model_integer_kinds(exp, 1)};
  for (uint32_t p = 0; kinds[0] && kinds[1] && p < exp->n_profiles; p++) {
    const hpcdb_profile *pr = &exp->profiles[p];
    const uint64_t *ints = model_integers(exp, p);
    const uint8_t *kind = kinds[(pr->flags & HPCDB_PROFILE_SUMMARY) != 0];
    for (uint64_t v = 0; ints && v < pr->n_values; v++) {
      uint8_t k = kind[pr->metric_ids[v]];
      if (!k) continue;
      uint64_t back; /* the double holds the integer when it converts back to it */
      n += !(model_integer_value(NULL, integer_double(ints[v], k), v, k, &back) && back == ints[v]);
    }
  }
  free(kinds[0]), free(kinds[1]);
  return n;
}
