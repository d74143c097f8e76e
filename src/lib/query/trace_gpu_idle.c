/* SPDX-License-Identifier: BSD-3-Clause */
/* GPU idleness: per GPU stream, the time it is idle while its host thread
 * waits (see hpcdb_trace_gpu_idleness), from the two lines' elements walked
 * side by side. */
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "query/trace_internal.h"

static int is_gpu_kind(const hpcdb_experiment *e, uint16_t kind) {
  return kind < e->n_kind_names && e->kind_names[kind] && !strncmp(e->kind_names[kind], "GPU", 3);
}

/* The levels before the profile's first GPU level; p->n_ids when it has none. */
static uint16_t host_levels(const hpcdb_experiment *e, const hpcdb_profile *p) {
  uint16_t k = 0;
  while (k < p->n_ids && !is_gpu_kind(e, p->ids[k].kind)) k++;
  return k;
}

/* The host thread's line of the stream on line s, or HPCDB_NONE. */
static uint32_t host_of(const hpcdb_trace_set *t, uint32_t s) {
  const hpcdb_experiment *e = t->exp;
  const hpcdb_profile *g = &e->profiles[t->lines[s].profile];
  uint16_t k = host_levels(e, g);
  uint32_t best = HPCDB_NONE;
  for (uint32_t r = 0; r < t->n_lines; r++) {
    const hpcdb_profile *p = &e->profiles[t->lines[r].profile];
    if (p->n_ids != k + 1 || host_levels(e, p) != k + 1) continue;
    int same = 1;
    for (uint16_t i = 0; i < k && same; i++)
      same = p->ids[i].kind == g->ids[i].kind && p->ids[i].logical_id == g->ids[i].logical_id;
    if (same && (best == HPCDB_NONE || p->ids[k].logical_id < e->profiles[t->lines[best].profile].ids[k].logical_id))
      best = r;
  }
  return best;
}

/* waiting[i] == 2: context i or one of its ancestors (the root aside) is flagged in waits; 1: not. */
static uint8_t *waiting_contexts(const hpcdb_experiment *e, const uint8_t *waits) {
  uint32_t n = e->n_contexts;
  uint8_t *w = calloc(n ? n : 1, 1); /* 0: not known yet */
  if (!w) return NULL;
  for (uint32_t i = 0; i < n; i++) {
    /* up to the first context known or flagged (the root, or a parent out of the tree: neither) */
    uint32_t c = i, steps = 0;
    while (c != 0 && c < n && !w[c] && !waits[c] && steps++ < n) c = e->contexts[c].parent;
    int inside = c != 0 && c < n;
    uint8_t v = inside && w[c] ? w[c] : inside && waits[c] ? 2 : 1;
    for (uint32_t d = i, k = 0; d < n && !w[d] && k++ <= steps; d = e->contexts[d].parent) w[d] = v;
  }
  return w;
}

/* The element of l in effect at ts and when it ends; k UINT64_MAX before the line's start, and none
 * after its last element (which lasts no time). */
typedef struct cursor {
  const trace_line *l;
  uint64_t k, end;
} cursor;

static void cursor_set(cursor *c, uint64_t k) {
  if (k + 1 < c->l->n) c->k = k, c->end = line_ts(c->l, k + 1);
  else c->k = c->end = UINT64_MAX; /* past the last element */
}

static void cursor_at(const hpcdb_trace_set *t, cursor *c, uint64_t ts) {
  uint64_t k = trace_locate(t, c->l, ts);
  if (k != UINT64_MAX) cursor_set(c, k);
  else c->k = UINT64_MAX, c->end = c->l->n ? c->l->lo : UINT64_MAX;
}

/* On to the element in effect at ts, the time the current one ends (the elements read in order). */
static void cursor_next(cursor *c, uint64_t ts) {
  uint64_t k = c->k == UINT64_MAX ? 0 : c->k + 1;
  while (k + 1 < c->l->n && line_ts(c->l, k + 1) <= ts) k++;
  cursor_set(c, k);
}

static int stream_idleness(const hpcdb_trace_set *t, const hpcdb_trace_filter *filter, const uint8_t *waiting,
                           uint64_t t0, uint64_t t1, hpcdb_trace_gpu_idle *g) {
  const trace_line *ls = &t->lines[g->row];
  uint64_t a = t0 > ls->lo ? t0 : ls->lo, b = t1 < ls->hi ? t1 : ls->hi;
  if (ls->n == 0 || a >= b) return 0;
  cursor s = {ls, 0, 0}, h = {g->host != HPCDB_NONE ? &t->lines[g->host] : NULL, UINT64_MAX, UINT64_MAX};
  cursor_at(t, &s, a);
  if (h.l) cursor_at(t, &h, a);
  uint64_t first = s.k, first_h = h.k;
  int rc = 0;
  for (uint64_t cur = a, steps = 1; cur < b; steps++) {
    if ((steps & 0xffff) == 0 && (rc = trace_check_cancel(filter)) < 0) break;
    uint64_t end = s.end < h.end ? s.end : h.end;
    if (end > b) end = b;
    uint32_t sc = trace_ctx_index(t, line_ctx(ls, s.k));
    uint32_t hc = h.l && h.k != UINT64_MAX ? trace_ctx_index(t, line_ctx(h.l, h.k)) : HPCDB_NONE;
    if (sc == HPCDB_NONE || (h.l && h.k != UINT64_MAX && hc == HPCDB_NONE))
      return hpcdb_fail(HPCDB_ECORRUPT, "profile %u or its host thread names a context the tree does not have",
                        ls->profile);
    g->span_ns += end - cur;
    if (sc == 0) {
      g->idle_ns += end - cur;
      if (hc != HPCDB_NONE && waiting[hc] == 2) g->idle_wait_ns += end - cur;
    }
    cur = end;
    if (cur >= b) break;
    if (s.end == cur) cursor_next(&s, cur);
    if (h.l && h.end == cur) cursor_next(&h, cur);
  }
  trace_release(t, ls, first, s.k == UINT64_MAX ? ls->n : s.k + 1);
  if (h.l) trace_release(t, h.l, first_h == UINT64_MAX ? 0 : first_h, h.k == UINT64_MAX ? h.l->n : h.k + 1);
  return rc;
}

int hpcdb_trace_gpu_idleness(const hpcdb_trace_set *t, const hpcdb_trace_filter *filter, const uint8_t *waits,
                             uint64_t t0, uint64_t t1, hpcdb_trace_gpu_idle **out, uint32_t *n) {
  *out = NULL;
  *n = 0;
  HPCDB_TRY(trace_check_unchanged(t));
  if (t1 < t0)
    return hpcdb_fail(HPCDB_EINVAL, "the window [%llu, %llu) ends before it starts", (unsigned long long)t0,
                      (unsigned long long)t1);
  uint32_t rows = filter && filter->rows ? filter->n_rows : t->n_lines;
  HPCDB_TRY(trace_check_rows(t, filter, 0, rows));
  hpcdb_trace_gpu_idle *g = malloc((rows ? rows : 1) * sizeof *g);
  uint8_t *waiting = waiting_contexts(t->exp, waits);
  int rc = g && waiting ? 0 : hpcdb_fail(HPCDB_ENOMEM, "out of memory");
  uint32_t count = 0;
  for (uint32_t i = 0; rc == 0 && i < rows; i++) {
    uint32_t r = trace_sel_row(filter, i);
    const hpcdb_profile *p = &t->exp->profiles[t->lines[r].profile];
    if (host_levels(t->exp, p) == p->n_ids || (rc = trace_check_cancel(filter)) < 0) continue;
    g[count] = (hpcdb_trace_gpu_idle){r, host_of(t, r), 0, 0, 0};
    rc = stream_idleness(t, filter, waiting, t0, t1, &g[count++]);
  }
  free(waiting);
  if (rc < 0) {
    free(g);
    return rc;
  }
  *out = g;
  *n = count;
  return 0;
}
