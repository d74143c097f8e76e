/* The coarse level of the index (see trace_internal.h): per block of
 * TRACE_BLOCK_BUCKETS buckets, the time each context covers, built during
 * the index pass. A window's statistics then add whole blocks' histograms
 * and read elements only at the window's two ends. */
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "query/trace_internal.h"

int trace_blocks_begin(hpcdb_trace_set *t, trace_blocks_acc *a) {
  uint32_t n = t->exp->n_contexts ? t->exp->n_contexts : 1;
  memset(a, 0, sizeof *a);
  a->ns = calloc(n, sizeof *a->ns);
  a->touched = malloc(n * sizeof *a->touched);
  return a->ns && a->touched ? 0 : hpcdb_fail(HPCDB_ENOMEM, "out of memory for the trace index");
}

void trace_blocks_free(trace_blocks_acc *a) {
  free(a->ns);
  free(a->touched);
}

/* Block j of l is complete: its histogram goes to the set's arrays. */
static int flush(hpcdb_trace_set *t, trace_blocks_acc *a, const trace_line *l, uint64_t j) {
  uint64_t *slot = &t->blk[l->blk_off + j];
  *slot = t->n_hist;
  if (a->n_touched > TRACE_BLOCK_MAX_CTX) {
    *slot |= TRACE_BLOCK_WALK;
  } else {
    if (t->n_hist + a->n_touched > a->n_hist_cap) {
      uint64_t cap = a->n_hist_cap ? 2 * a->n_hist_cap : 4096;
      while (cap < t->n_hist + a->n_touched) cap *= 2;
      uint32_t *c = realloc(t->h_ctx, cap * sizeof *c);
      if (c) t->h_ctx = c;
      uint64_t *s = c ? realloc(t->h_ns, cap * sizeof *s) : NULL;
      if (!s) return hpcdb_fail(HPCDB_ENOMEM, "out of memory for the trace index's histograms");
      t->h_ns = s;
      a->n_hist_cap = cap;
    }
    /* ascending context order: insertion sort of a few dozen */
    for (uint32_t i = 1; i < a->n_touched; i++)
      for (uint32_t k = i; k > 0 && a->touched[k - 1] > a->touched[k]; k--) {
        uint32_t x = a->touched[k];
        a->touched[k] = a->touched[k - 1];
        a->touched[k - 1] = x;
      }
    for (uint32_t i = 0; i < a->n_touched; i++) {
      t->h_ctx[t->n_hist] = a->touched[i];
      t->h_ns[t->n_hist++] = a->ns[a->touched[i]];
    }
  }
  for (uint32_t i = 0; i < a->n_touched; i++) a->ns[a->touched[i]] = 0;
  a->n_touched = 0;
  return 0;
}

int trace_blocks_flush_to(hpcdb_trace_set *t, trace_blocks_acc *a, const trace_line *l, uint64_t block) {
  for (; a->block < block; a->block++) HPCDB_TRY(flush(t, a, l, a->block));
  return 0;
}

int trace_blocks_end_line(hpcdb_trace_set *t, trace_blocks_acc *a, const trace_line *l) {
  uint64_t n = line_blocks(l);
  if (!n) {
    t->blk[l->blk_off] = t->n_hist; /* no blocks: the end offset alone */
    return 0;
  }
  if (l->n == 0) a->block = 0;
  for (; a->block < n; a->block++) HPCDB_TRY(flush(t, a, l, a->block)); /* the last element lasts none */
  t->blk[l->blk_off + n] = t->n_hist;
  return 0;
}
