/* SPDX-License-Identifier: BSD-3-Clause */
/* The checksum of the trace index's cache file: a sum over its 8-byte
 * words, each mixed with its place in the file, (w ^ i * K) * M for word w
 * at word index i. A sum needs no order: the index pass adds each line's
 * histograms as it writes them, on the thread that built them, with the
 * bytes still in its cache, instead of reading the whole file back once it
 * is written (a tenth of the build on a 3 GB trace); an open checks the
 * file in two halves at once. Any one word changed changes the sum (M is
 * odd, so the product is a bijection of w); it is no defence against a
 * file made to fool it, which the readers' bounds checks are for. */
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
