/* SPDX-License-Identifier: BSD-3-Clause */
/* The cache files' checksums. The trace index's: a sum over its 8-byte
 * words, each mixed with its place in the file, (w ^ i * K) * M for word w
 * at word index i. A sum needs no order: the index pass adds each line's
 * histograms as it writes them, on the thread that built them, with the
 * bytes still in its cache, instead of reading the whole file back once it
 * is written (a tenth of the build on a 3 GB trace); an open checks the
 * file in two halves at once. Any one word changed changes the sum (M is
 * odd, so the product is a bijection of w); it is no defence against a
 * file made to fool it, which the readers' bounds checks are for. A kept
 * tile's (trace_tile_kept.c): four FNV-1a lanes over its words, fed as it
 * is read or written. */
#include <string.h>

#include "common/mapped_file.h"
#include "common/worker.h"
#include "query/trace_internal.h"

#define PLACE_K 0x9e3779b97f4a7c15ull
#define MIX_M 0xff51afd7ed558ccdull

uint64_t trace_words_sum(const uint8_t *p, uint64_t n_words, uint64_t first_word) {
  uint64_t sum = 0, place = first_word * PLACE_K;
  for (uint64_t k = 0; k < n_words; k++, place += PLACE_K) sum += (rd_le64(p + 8 * k) ^ place) * MIX_M;
  return sum;
}

/* One half of a mapped file's words, its pages let go behind. */
typedef struct sum_half {
  const hpcdb_mapped_file *m;
  uint64_t from, to, sum; /* words */
} sum_half;

static void *sum_half_run(void *arg) {
  sum_half *h = arg;
  const uint64_t chunk = 1u << 17; /* words: 1 MB */
  for (uint64_t w = h->from; w < h->to; w += chunk) {
    uint64_t n = h->to - w < chunk ? h->to - w : chunk;
    h->sum += trace_words_sum(h->m->data + 8 * w, n, w);
    mapped_file_release(h->m, 8 * w, 8 * n);
  }
  return NULL;
}

uint64_t trace_file_checksum(const hpcdb_mapped_file *m, uint64_t n_words) {
  sum_half h[2] = {{m, 0, n_words / 2, 0}, {m, n_words / 2, n_words, 0}};
  worker_thread helper;
  int helped = worker_start(&helper, 1, sum_half_run, &h[1]);
  sum_half_run(&h[0]);
  if (helped) worker_join(&helper);
  else sum_half_run(&h[1]);
  return h[0].sum + h[1].sum;
}

static void hash_word(trace_hash *x, uint64_t w) {
  uint64_t *h = &x->h[x->words++ & 3];
  *h = (*h ^ w) * 0x100000001b3ull;
}
void trace_hash_init(trace_hash *x) {
  memset(x, 0, sizeof *x);
  for (unsigned i = 0; i < 4; i++) x->h[i] = 0xcbf29ce484222325ull + i;
}
void trace_hash_more(trace_hash *x, const uint8_t *p, uint64_t n) {
  for (; n && x->n_part; n--) {
    x->part[x->n_part++] = *p++;
    if (x->n_part == 8) hash_word(x, rd_le64(x->part)), x->n_part = 0;
  }
  for (; n >= 8 && (x->words & 3); n -= 8, p += 8) hash_word(x, rd_le64(p));
  for (; n >= 32; n -= 32, p += 32, x->words += 4) /* the four lanes at once */
    for (int k = 0; k < 4; k++) x->h[k] = (x->h[k] ^ rd_le64(p + 8 * k)) * 0x100000001b3ull;
  for (; n >= 8; n -= 8, p += 8) hash_word(x, rd_le64(p));
  for (; n; n--) x->part[x->n_part++] = *p++;
}
uint64_t trace_hash_end(trace_hash *x) {
  if (x->n_part) {
    memset(x->part + x->n_part, 0, 8 - x->n_part);
    hash_word(x, rd_le64(x->part) ^ x->n_part);
  }
  return x->h[0] ^ (x->h[1] * 3) ^ (x->h[2] * 5) ^ (x->h[3] * 7) ^ x->words;
}
