/* SPDX-License-Identifier: BSD-3-Clause */
/* The coarse level of the index (see trace_internal.h): per block of
 * TRACE_BLOCK_BUCKETS buckets, the time each context covers, accumulated by
 * the index pass (trace_index.c) and written out here once per block. A
 * window's statistics then add whole blocks' histograms and read elements
 * only at the window's two ends. */
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "query/trace_internal.h"

int trace_blocks_begin(const hpcdb_trace_set *t, trace_blocks_acc *a) {
  uint32_t n = t->exp->n_contexts + 1; /* + the slot of an unknown id, counted until the pass stops */
  memset(a, 0, sizeof *a);
  a->ns = calloc(n, sizeof *a->ns);
  a->touched = malloc((n + 1) * sizeof *a->touched);
  return a->ns && a->touched ? 0 : hpcdb_fail(HPCDB_ENOMEM, "out of memory for the trace index");
}

void trace_blocks_free(trace_blocks_acc *a) {
  free(a->ns);
  free(a->touched);
  free(a->out_ctx);
  free(a->out_ns);
  memset(a, 0, sizeof *a);
}

static int grow(trace_blocks_acc *a, uint64_t need) {
  if (a->n_out + need <= a->cap) return 0;
  uint64_t cap = a->cap ? 2 * a->cap : 4096;
  while (cap < a->n_out + need) cap *= 2;
  uint32_t *c = realloc(a->out_ctx, cap * sizeof *c);
  if (c) a->out_ctx = c;
  uint64_t *s = c ? realloc(a->out_ns, cap * sizeof *s) : NULL;
  if (!s) return hpcdb_fail(HPCDB_ENOMEM, "out of memory for the trace index's histograms");
  a->out_ns = s;
  a->cap = cap;
  return 0;
}

/* The current block is complete: its histogram goes out, blk[block] gets
 * its offset (with TRACE_BLOCK_WALK when it has too many contexts). */
static int flush(trace_blocks_acc *a, uint64_t *blk) {
  blk[a->block] = a->n_out;
  if (a->n_touched > TRACE_BLOCK_MAX_CTX) {
    blk[a->block] |= TRACE_BLOCK_WALK;
  } else {
    HPCDB_TRY(grow(a, a->n_touched));
    /* ascending context order: insertion sort of a few dozen */
    for (uint32_t i = 1; i < a->n_touched; i++)
      for (uint32_t k = i; k > 0 && a->touched[k - 1] > a->touched[k]; k--) {
        uint32_t x = a->touched[k];
        a->touched[k] = a->touched[k - 1];
        a->touched[k - 1] = x;
      }
    for (uint32_t i = 0; i < a->n_touched; i++) {
      a->out_ctx[a->n_out] = a->touched[i];
      a->out_ns[a->n_out++] = a->ns[a->touched[i]];
    }
  }
  for (uint32_t i = 0; i < a->n_touched; i++) a->ns[a->touched[i]] = 0;
  a->n_touched = 0;
  return 0;
}

int trace_blocks_flush_to(trace_blocks_acc *a, uint64_t *blk, uint64_t block) {
  for (; a->block < block; a->block++) HPCDB_TRY(flush(a, blk));
  return 0;
}

int trace_blocks_end_line(trace_blocks_acc *a, uint64_t *blk, uint64_t n_blocks) {
  if (!n_blocks) { /* no blocks: the end offset alone, and nothing kept */
    for (uint32_t i = 0; i < a->n_touched; i++) a->ns[a->touched[i]] = 0;
    a->n_touched = 0;
    blk[0] = a->n_out;
    return 0;
  }
  HPCDB_TRY(trace_blocks_flush_to(a, blk, n_blocks)); /* the last element lasts none */
  blk[n_blocks] = a->n_out;
  return 0;
}
