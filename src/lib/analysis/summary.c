/* Summary statistics over threads, accumulated thread by thread in file
 * order (so sums are the same whatever the number of workers). A statistic
 * combines the threads that have a value at that context: count, sum, sum of
 * squares, min, max — as hpcprof's partials. */
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "common/bytes.h"
#include "common/error.h"

static uint64_t n_partials(const summary_acc *s) { return s->all_stats ? N_PARTIALS : 1; }

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

int summary_add(summary_acc *s, const thread_values *tv, uint32_t n_contexts, uint32_t n_metrics) {
  HPCDB_TRY(ensure_rows(s, n_contexts, n_metrics));
  uint64_t np = n_partials(s);
  for (uint32_t slot = 0; slot < tv->n_ctxs; slot++)
    for (uint32_t m = 0; m < tv->n_metrics; m++)
      for (int k = 0; k < N_SCOPES; k++) {
        double v = tv->v[((uint64_t)slot * tv->n_metrics + m) * N_SCOPES + (uint64_t)k];
        if (v == 0) continue;
        uint64_t cell = ((uint64_t)tv->ctx[slot] * s->n_metrics + m) * N_SCOPES + (uint64_t)k;
        double *a = &s->acc[cell * np];
        if (!s->all_stats) {
          a[0] += v;
        } else {
          int first = !s->present[cell];
          a[PARTIAL_COUNT] += 1;
          a[PARTIAL_SUM] += v;
          a[PARTIAL_SUMSQ] += v * v;
          a[PARTIAL_MIN] = first || v < a[PARTIAL_MIN] ? v : a[PARTIAL_MIN];
          a[PARTIAL_MAX] = first || v > a[PARTIAL_MAX] ? v : a[PARTIAL_MAX];
        }
        s->present[cell] = 1;
      }
  return 0;
}

int summary_store(hpcdb_experiment *exp, const summary_acc *s, uint32_t rows) {
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
  uint32_t *ctx = malloc(((size_t)n_ctxs + 1) * sizeof *ctx);
  uint64_t *starts = malloc(((size_t)n_ctxs + 1) * sizeof *starts);
  uint16_t *mid = malloc((n ? n : 1) * sizeof *mid);
  double *val = malloc((n ? n : 1) * sizeof *val);
  int rc = 0;
  if (!ctx || !starts || !mid || !val) {
    rc = hpcdb_fail(HPCDB_ENOMEM, "out of memory storing the summary profile");
    goto done;
  }
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

void summary_free(summary_acc *s) {
  free(s->acc);
  free(s->present);
  memset(s, 0, sizeof *s);
}
