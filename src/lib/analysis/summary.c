/* SPDX-License-Identifier: BSD-3-Clause */
/* Summary statistics over threads. A statistic combines the threads that
 * have a value at that context: count, sum, sum of squares, min, max — as
 * hpcprof's partials — always in file order, so sums are the same whatever
 * the number of workers. Two ways to the same values: accumulated thread by
 * thread for every context at once (summary_add, summary_store), or one
 * context at a time from all threads' values, as cct.db gathers them
 * (summary_make: memory for one context instead of the whole tree). */
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "common/bytes.h"
#include "common/error.h"
#include "hpcdb/common.h"
#include "hpcdb/hpctk4_write.h"
#include "hpcdb/model.h"
#include "model/model_build.h"

static uint64_t n_partials(const summary_acc *s) { return s->all_stats ? N_PARTIALS : 1; }

/* Adds x to a cell's partials (a: one per partial, or the sum only). */
void summary_accumulate(double *a, int all_stats, int first, double x) {
  if (!all_stats) {
    a[0] += x;
    return;
  }
  a[PARTIAL_COUNT] += 1;
  a[PARTIAL_SUM] += x;
  a[PARTIAL_SUMSQ] += x * x;
  a[PARTIAL_MIN] = first || x < a[PARTIAL_MIN] ? x : a[PARTIAL_MIN];
  a[PARTIAL_MAX] = first || x > a[PARTIAL_MAX] ? x : a[PARTIAL_MAX];
}

static int ensure_rows(summary_acc *s, uint32_t n_contexts, uint32_t n_metrics) {
  if (s->n_metrics != 0 && n_metrics != s->n_metrics && s->n_ctxs != 0) {
    /* metrics appeared later: re-layout rows for the wider metric count */
    uint64_t cells = s->n_ctxs * n_metrics * N_SCOPES;
    double *acc = calloc(cells * n_partials(s), sizeof *acc);
    uint8_t *present = calloc(cells, 1);
    if (!acc || !present) {
      free(acc);
      free(present);
      return hpcdb_fail(HPCDB_ENOMEM, "out of memory for summary statistics");
    }
    for (uint64_t c = 0; c < s->n_ctxs; c++)
      for (uint64_t m = 0; m < s->n_metrics; m++)
        for (uint64_t k = 0; k < N_SCOPES; k++) {
          uint64_t from = (c * s->n_metrics + m) * N_SCOPES + k, to = (c * n_metrics + m) * N_SCOPES + k;
          present[to] = s->present[from];
          memcpy(&acc[to * n_partials(s)], &s->acc[from * n_partials(s)], n_partials(s) * sizeof *acc);
        }
    free(s->acc);
    free(s->present);
    s->acc = acc;
    s->present = present;
  }
  s->n_metrics = n_metrics;
  if (n_contexts <= s->n_ctxs) return 0;
  uint64_t rows = s->n_ctxs ? s->n_ctxs : 1024;
  while (rows < n_contexts) rows *= 2;
  uint64_t cells;
  if (!mul_ok(rows, (uint64_t)n_metrics * N_SCOPES, &cells))
    return hpcdb_fail(HPCDB_ENOMEM, "summary statistics too large");
  double *acc = realloc(s->acc, cells * n_partials(s) * sizeof *acc);
  if (!acc) return hpcdb_fail(HPCDB_ENOMEM, "out of memory for summary statistics");
  s->acc = acc;
  uint8_t *present = realloc(s->present, cells);
  if (!present) return hpcdb_fail(HPCDB_ENOMEM, "out of memory for summary statistics");
  s->present = present;
  uint64_t old = s->n_ctxs * n_metrics * N_SCOPES;
  memset(s->acc + old * n_partials(s), 0, (cells - old) * n_partials(s) * sizeof *acc);
  memset(s->present + old, 0, cells - old);
  s->n_ctxs = rows;
  return 0;
}

int summary_add(summary_acc *s, const hpcdb_profile *p, uint32_t n_contexts, uint32_t n_metrics) {
  HPCDB_TRY(ensure_rows(s, n_contexts, n_metrics));
  uint64_t np = n_partials(s), row = (uint64_t)s->n_metrics * N_SCOPES;
  for (uint32_t k = 0; k < p->n_ctxs; k++)
    for (uint64_t v = p->ctx_starts[k]; v < p->ctx_starts[k + 1]; v++) {
      uint64_t cell = p->ctx_ids[k] * row + p->metric_ids[v]; /* prop metric id = metric × 4 + scope */
      summary_accumulate(&s->acc[cell * np], s->all_stats, !s->present[cell], p->values[v]);
      s->present[cell] = 1;
    }
  return 0;
}

/* A loop's lex_aware cells get the loop-exclusive sums (lexical.c). */
static void loops_lex_aware_acc(summary_acc *s) {
  const loop_lex_summary *l = s->loops;
  uint64_t np = n_partials(s);
  for (uint64_t ctx = 0; l && ctx < l->n_is_loop && ctx < s->n_ctxs; ctx++) {
    if (!l->is_loop[ctx]) continue;
    for (uint32_t m = 0; m < s->n_metrics; m++) {
      uint64_t cell = (ctx * s->n_metrics + m) * N_SCOPES + SCOPE_LEX_AWARE;
      int is_loop;
      const double *sum = loop_lex_summary_get(l, (uint32_t)ctx, m, &is_loop);
      s->present[cell] = sum != NULL;
      if (sum) memcpy(&s->acc[cell * np], sum, np * sizeof *sum);
    }
  }
}

int summary_store(hpcdb_experiment *exp, summary_acc *s, uint32_t rows) {
  loops_lex_aware_acc(s);
  uint64_t np = n_partials(s), n = 0;
  uint32_t n_ctxs = 0;
  for (uint64_t c = 0; c < rows && c < s->n_ctxs; c++) {
    int any = 0;
    for (uint64_t k = 0; k < (uint64_t)s->n_metrics * N_SCOPES; k++)
      if (s->present[c * s->n_metrics * N_SCOPES + k]) {
        n += np;
        any = 1;
      }
    n_ctxs += (uint32_t)any;
  }
  hpcdb_profile csr;
  int rc = model_csr_alloc(&csr, n_ctxs, n);
  uint32_t *ctx = csr.ctx_ids;
  uint64_t *starts = csr.ctx_starts;
  uint16_t *mid = csr.metric_ids;
  double *val = csr.values;
  if (rc < 0) goto done;
  /* Stat ids ascend with (partial, scope) within a metric and with the metric,
   * so emitting metric by metric, partial by partial, keeps them sorted. */
  uint32_t k = 0;
  uint64_t v = 0;
  for (uint64_t c = 0; c < rows && c < s->n_ctxs; c++) {
    uint64_t row = c * s->n_metrics * N_SCOPES;
    uint64_t start = v;
    for (uint32_t m = 0; m < s->n_metrics; m++)
      for (uint64_t p = 0; p < np; p++)
        for (int sc = 0; sc < N_SCOPES; sc++) {
          uint64_t cell = row + (uint64_t)m * N_SCOPES + (uint64_t)sc;
          if (!s->present[cell]) continue;
          int partial = s->all_stats ? (int)p : PARTIAL_SUM;
          mid[v] = analysis_stat_id(m, s->all_stats, partial, sc);
          val[v++] = s->acc[cell * np + p];
        }
    if (v > start) {
      ctx[k] = (uint32_t)c;
      starts[k++] = start;
    }
  }
  starts[k] = v;
  rc = hpcdb_profile_set_csr(exp, 0, k, ctx, starts, v, mid, val);
done:
  free(ctx);
  free(starts);
  free(mid);
  free(val);
  return rc;
}

int summary_maker_init(summary_maker *m, int all_stats, uint32_t n_metrics) {
  memset(m, 0, sizeof *m);
  m->all_stats = all_stats;
  m->n_cells = (uint64_t)n_metrics * N_SCOPES;
  uint64_t np = all_stats ? N_PARTIALS : 1, n = m->n_cells ? m->n_cells : 1;
  m->acc = malloc(n * np * sizeof *m->acc);
  m->present = calloc(n, 1);
  m->touched = malloc(n * sizeof *m->touched);
  if (!m->acc || !m->present || !m->touched) {
    summary_maker_free(m);
    return hpcdb_fail(HPCDB_ENOMEM, "out of memory for summary statistics");
  }
  return 0;
}

static int u32_cmp(const void *a, const void *b) {
  uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
  return (x > y) - (x < y);
}

/* A loop's lex_aware cells get the loop-exclusive sums (lexical.c); a cell
 * whose sum is none is left out. Returns the cells still touched. */
static uint32_t loops_lex_aware(summary_maker *m, uint32_t ctx, uint32_t n_touched) {
  uint64_t np = m->all_stats ? N_PARTIALS : 1;
  uint32_t kept = 0;
  for (uint32_t k = 0; k < n_touched; k++) {
    uint32_t cell = m->touched[k];
    if (cell % N_SCOPES == SCOPE_LEX_AWARE) {
      int is_loop;
      const double *sum = loop_lex_summary_get(m->loops, ctx, cell / N_SCOPES, &is_loop);
      if (is_loop && !sum) {
        m->present[cell] = 0;
        continue;
      }
      if (sum) memcpy(&m->acc[cell * np], sum, np * sizeof *sum);
    }
    m->touched[kept++] = cell;
  }
  return kept;
}

int64_t summary_make(void *user, uint32_t ctx, const hpcdb_value_ref *v, uint64_t n, uint16_t *metrics,
                     double *values) {
  summary_maker *m = user;
  uint64_t np = m->all_stats ? N_PARTIALS : 1;
  uint32_t n_touched = 0;
  for (uint64_t i = 0; i < n; i++) {
    uint32_t cell = v[i].metric; /* prop metric id = metric × 4 + scope */
    if (cell >= m->n_cells) {
      for (uint32_t k = 0; k < n_touched; k++) m->present[m->touched[k]] = 0;
      return hpcdb_fail(HPCDB_EINVAL, "context %u: a value of metric id %u, beyond the metrics", ctx, cell);
    }
    int first = !m->present[cell];
    if (first) {
      m->present[cell] = 1;
      m->touched[n_touched++] = cell;
      memset(&m->acc[cell * np], 0, np * sizeof *m->acc);
    }
    summary_accumulate(&m->acc[cell * np], m->all_stats, first, v[i].value);
  }
  if (m->loops) n_touched = loops_lex_aware(m, ctx, n_touched);
  if (n_touched > 16) {
    qsort(m->touched, n_touched, sizeof *m->touched, u32_cmp);
  } else { /* the usual few: insertion sort */
    for (uint32_t i = 1; i < n_touched; i++)
      for (uint32_t k = i; k > 0 && m->touched[k - 1] > m->touched[k]; k--) {
        uint32_t t = m->touched[k];
        m->touched[k] = m->touched[k - 1];
        m->touched[k - 1] = t;
      }
  }
  /* Stat ids ascend with (metric, partial, scope): a metric's cells partial by partial. */
  int64_t out = 0;
  for (uint32_t g = 0; g < n_touched;) {
    uint32_t metric = m->touched[g] / N_SCOPES, end = g;
    while (end < n_touched && m->touched[end] / N_SCOPES == metric) end++;
    for (uint64_t p = 0; p < np; p++)
      for (uint32_t k = g; k < end; k++) {
        uint32_t cell = m->touched[k];
        int partial = m->all_stats ? (int)p : PARTIAL_SUM;
        metrics[out] = analysis_stat_id(metric, m->all_stats, partial, (int)(cell % N_SCOPES));
        values[out++] = m->acc[cell * np + p];
      }
    g = end;
  }
  for (uint32_t k = 0; k < n_touched; k++) m->present[m->touched[k]] = 0;
  m->n_values += (uint64_t)out;
  return out;
}

void summary_maker_free(summary_maker *m) {
  free(m->acc);
  free(m->present);
  free(m->touched);
  memset(m, 0, sizeof *m);
}

void summary_free(summary_acc *s) {
  free(s->acc);
  free(s->present);
  memset(s, 0, sizeof *s);
}
