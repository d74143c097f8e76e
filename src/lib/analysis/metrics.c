/* SPDX-License-Identifier: BSD-3-Clause */
/* The metric table of the database: one metric per distinct name across the
 * measurement files, each with hpcprof's four scope instances (point,
 * function, lex_aware, execution; prop metric id = 4 × metric + scope) and
 * its summary statistics (Sum, or with --stats also count, sum of squares,
 * min and max: stat id = base + partial × 4 + scope, base = metric × 20);
 * a metric hpcrun shows only inclusive or exclusive has only those scopes.
 * A metric hpcrun defines by a formula over others (GPU kernels' per-launch
 * averages such as "GKER:BLKS" = #51/#61) is not a metric of the database
 * (hpcprof makes it a derived statistic): it maps to HPCDB_NONE and its
 * values, if a file stores any, are dropped. */
#include <string.h>

#include "analysis/analysis.h"
#include "common/error.h"

/* hpcrun's display flags (metric flag byte HPCRUN_MFLAG_SHOW). */
#define HPCRUN_SHOW_INCLUSIVE 2
#define HPCRUN_SHOW_EXCLUSIVE 3

static const struct partial_def {
  const char *formula;
  uint8_t combine;
} partials[N_PARTIALS] = {
    [PARTIAL_COUNT] = {"1", HPCDB_COMBINE_SUM},    [PARTIAL_SUM] = {"$$", HPCDB_COMBINE_SUM},
    [PARTIAL_SUMSQ] = {"$$^2", HPCDB_COMBINE_SUM}, [PARTIAL_MIN] = {"$$", HPCDB_COMBINE_MIN},
    [PARTIAL_MAX] = {"$$", HPCDB_COMBINE_MAX},
};

int analysis_add_scopes(hpcdb_experiment *exp) {
  static const hpcdb_scope scopes[N_SCOPES] = {
      [SCOPE_POINT] = {"point", HPCDB_SCOPE_POINT, 255},
      [SCOPE_FUNCTION] = {"function", HPCDB_SCOPE_TRANSITIVE, 0},
      [SCOPE_LEX_AWARE] = {"lex_aware", HPCDB_SCOPE_CUSTOM, 255},
      [SCOPE_EXECUTION] = {"execution", HPCDB_SCOPE_EXECUTION, 255},
  };
  for (int s = 0; s < N_SCOPES; s++) HPCDB_TRY(hpcdb_add_scope(exp, &scopes[s], NULL));
  return 0;
}

unsigned analysis_metric_scopes(const hpcdb_metric *m) {
  unsigned mask = 0;
  for (uint32_t k = 0; k < m->n_instances; k++) mask |= 1u << m->instances[k].scope; /* scope index = SCOPE_* */
  return mask;
}

uint16_t analysis_stat_id(uint32_t metric, int all_stats, int partial, int scope) {
  if (!all_stats) return (uint16_t)(metric * N_SCOPES + (uint32_t)scope);
  return (uint16_t)(metric * N_PARTIALS * N_SCOPES + (uint32_t)partial * N_SCOPES + (uint32_t)scope);
}

/* The scopes a metric has, from hpcrun's display flag as hpcprof reads it:
 * "show inclusive" keeps point and execution, "show exclusive" point,
 * function and lex_aware; every other (show, hide, invisible) all four. */
static unsigned scope_mask(const hpcrun_metric_desc *m) {
  switch (m->flags[HPCRUN_MFLAG_SHOW]) {
  case HPCRUN_SHOW_INCLUSIVE: return 1u << SCOPE_POINT | 1u << SCOPE_EXECUTION;
  case HPCRUN_SHOW_EXCLUSIVE: return 1u << SCOPE_POINT | 1u << SCOPE_FUNCTION | 1u << SCOPE_LEX_AWARE;
  default: return (1u << N_SCOPES) - 1;
  }
}

static int add_metric(hpcdb_experiment *exp, const char *name, int all_stats, unsigned scopes, uint32_t *out) {
  uint32_t limit = all_stats ? 65536 / (N_PARTIALS * N_SCOPES) : 65536 / N_SCOPES;
  if (exp->n_metrics >= limit)
    return hpcdb_fail(HPCDB_EUNSUPPORTED, "more than %u distinct metrics do not fit 16-bit metric ids", limit);
  uint32_t m;
  HPCDB_TRY(hpcdb_add_metric(exp, name, &m));
  for (int s = 0; s < N_SCOPES; s++)
    if (scopes & 1u << s)
      HPCDB_TRY(hpcdb_metric_add_instance(exp, m, (uint32_t)s, (uint16_t)(m * N_SCOPES + (uint32_t)s)));
  for (int p = 0; p < N_PARTIALS; p++) {
    if (!all_stats && p != PARTIAL_SUM) continue;
    for (int s = 0; s < N_SCOPES; s++) {
      if (!(scopes & 1u << s)) continue;
      hpcdb_summary sum = {(uint32_t)s, partials[p].formula, partials[p].combine, analysis_stat_id(m, all_stats, p, s)};
      HPCDB_TRY(hpcdb_metric_add_summary(exp, m, &sum));
    }
  }
  *out = m;
  return 0;
}

int unify_metrics(hpcdb_experiment *exp, const hpcrun_tables *t, int all_stats, uint32_t *metric_map) {
  for (uint32_t i = 0; i < t->n_metrics; i++) {
    if (t->metrics[i].formula.len > 0) {
      metric_map[i] = HPCDB_NONE;
      continue;
    }
    const char *name = hpcdb_intern_n(exp, t->metrics[i].name.s, t->metrics[i].name.len);
    if (!name) return HPCDB_ENOMEM;
    HPCDB_TRY(analysis_metric_by_name(exp, name, all_stats, scope_mask(&t->metrics[i]), &metric_map[i]));
  }
  return 0;
}

int analysis_metric_by_name(hpcdb_experiment *exp, const char *name, int all_stats, unsigned scopes, uint32_t *out) {
  if (!(name = hpcdb_intern(exp, name))) return HPCDB_ENOMEM;
  for (uint32_t k = 0; k < exp->n_metrics; k++)
    if (exp->metrics[k].name == name) {
      *out = k;
      return 0;
    }
  return add_metric(exp, name, all_stats, scopes, out);
}
