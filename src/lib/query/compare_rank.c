/* SPDX-License-Identifier: BSD-3-Clause */
/* What the views of a comparison share: the key rows are ranked by, the
 * summary's largest changes, and the per-function (bottom-up) sums. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "hpcdb/compare.h"

double hpcdb_delta_rank(const hpcdb_delta *d, int by_ratio) {
  if (!by_ratio) return fabs(d->delta);
  if (d->a == 0 || d->b == 0) return d->a == d->b ? 0 : INFINITY;
  return fabs(log(d->ratio));
}

static int by_key(const void *x, const void *y) {
  const hpcdb_ranked *a = x, *b = y;
  if (a->key != b->key) return a->key > b->key ? -1 : 1;
  return a->node < b->node ? -1 : a->node > b->node;
}

void hpcdb_rank_sort(hpcdb_ranked *r, size_t n) {
  if (n > 1) qsort(r, n, sizeof *r, by_key);
}

uint32_t hpcdb_compare_changes(const hpcdb_comparison *c, uint32_t n_a, double min_share, int worse, uint32_t *out,
                               uint32_t max) {
  const hpcdb_alignment *al = c->al;
  hpcdb_delta total, d, inc;
  hpcdb_compare_delta(c, 0, n_a, 1, 0, &total);
  hpcdb_ranked *r = malloc(((size_t)al->n_nodes + 1) * sizeof *r);
  if (!r) return 0;
  uint32_t n = 0;
  for (uint32_t k = 1; k < al->n_nodes; k++) {
    if (!al->nodes[k].is_frame) continue;
    hpcdb_compare_delta(c, k, n_a, 1, 0, &inc);
    if (fabs(inc.a) < min_share * fabs(total.a) && fabs(inc.b) < min_share * fabs(total.b)) continue;
    hpcdb_compare_delta(c, k, n_a, 0, 0, &d);
    if ((worse ? d.delta <= 0 : d.delta >= 0) || d.noise) continue;
    r[n++] = (hpcdb_ranked){k, fabs(d.delta)};
  }
  hpcdb_rank_sort(r, n);
  for (uint32_t i = 0; i < n && i < max; i++) out[i] = r[i].node;
  free(r);
  return n;
}

/* Frames grouped by name: the alignment interns names (the same text is the
 * same pointer), so sorting on the pointer groups them. */
typedef struct named {
  const char *name;
  uint32_t node;
} named;

static int by_name(const void *x, const void *y) {
  const named *a = x, *b = y;
  if (a->name != b->name) return (uintptr_t)a->name < (uintptr_t)b->name ? -1 : 1;
  return a->node < b->node ? -1 : a->node > b->node;
}

static int by_first(const void *x, const void *y) {
  const named *a = x, *b = y;
  return a->node < b->node ? -1 : a->node > b->node;
}

int hpcdb_compare_by_function(const hpcdb_comparison *c, hpcdb_compare_functions *out) {
  const hpcdb_alignment *al = c->al;
  uint32_t R = c->n_runs, n_frames = 0;
  memset(out, 0, sizeof *out);
  named *frames = malloc(((size_t)al->n_nodes + 1) * sizeof *frames);
  uint32_t *slot = malloc(((size_t)al->n_nodes + 1) * sizeof *slot);
  out->node = malloc(((size_t)al->n_nodes + 1) * sizeof *out->node);
  out->inc = calloc((size_t)al->n_nodes * R + 1, sizeof *out->inc);
  out->exc = calloc((size_t)al->n_nodes * R + 1, sizeof *out->exc);
  if (!frames || !slot || !out->node || !out->inc || !out->exc) {
    free(frames), free(slot);
    hpcdb_compare_functions_free(out);
    return hpcdb_fail(HPCDB_ENOMEM, "out of memory for the functions of %u nodes", al->n_nodes);
  }
  for (uint32_t k = 1; k < al->n_nodes; k++)
    if (al->nodes[k].is_frame) frames[n_frames++] = (named){al->nodes[k].name, k};
  qsort(frames, n_frames, sizeof *frames, by_name);
  /* each name's first frame, in node order: the functions' order */
  uint32_t n = 0;
  for (uint32_t i = 0; i < n_frames; i++)
    if (i == 0 || frames[i - 1].name != frames[i].name) out->node[n++] = frames[i].node;
  named *firsts = malloc(((size_t)n + 1) * sizeof *firsts);
  if (!firsts) {
    free(frames), free(slot);
    hpcdb_compare_functions_free(out);
    return hpcdb_fail(HPCDB_ENOMEM, "out of memory for %u functions", n);
  }
  for (uint32_t f = 0; f < n; f++) firsts[f] = (named){al->nodes[out->node[f]].name, out->node[f]};
  qsort(firsts, n, sizeof *firsts, by_first);
  for (uint32_t f = 0; f < n; f++) out->node[f] = firsts[f].node, slot[firsts[f].node] = f;
  free(firsts);
  for (uint32_t i = 0, first = 0; i < n_frames; i++) {
    uint32_t k = frames[i].node;
    if (i == 0 || frames[i - 1].name != frames[i].name) first = k;
    uint32_t f = slot[first];
    int outer = 1;
    for (uint32_t a = al->nodes[k].parent; a != HPCDB_NONE && outer; a = al->nodes[a].parent)
      outer = al->nodes[a].name != al->nodes[k].name;
    for (uint32_t r = 0; r < R; r++) {
      out->exc[(size_t)f * R + r] += c->exc[(size_t)k * R + r];
      if (outer) out->inc[(size_t)f * R + r] += c->inc[(size_t)k * R + r];
    }
  }
  out->n = n;
  free(frames), free(slot);
  return 0;
}

void hpcdb_compare_functions_free(hpcdb_compare_functions *f) {
  free(f->node), free(f->inc), free(f->exc);
  memset(f, 0, sizeof *f);
}
