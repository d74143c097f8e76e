/* SPDX-License-Identifier: BSD-3-Clause */
/* The pyramid of bucket histograms (see trace_internal.h): level 0 built by
 * the index pass from the elements, each level above from four buckets of
 * the level below; read back to add whole buckets instead of their elements.
 * A bucket whose histogram would hold more than 16 * 2^L contexts (or a time
 * past 32 bits) keeps none and is read through its children: the pyramid
 * stays under a third of trace.db whatever the trace (docs/trace.md). */
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "common/mapped_file.h"
#include "query/trace_internal.h"

#define CAP0 16

static uint64_t bucket_cap(uint32_t level) { return (uint64_t)CAP0 << level; }

uint64_t trace_pyr_slots(hpcdb_trace_set *t) {
  uint64_t total = 0;
  for (uint32_t i = 0; i < t->n_lines; i++) {
    trace_line *l = &t->lines[i];
    l->n_levels = 0;
    for (uint32_t L = 0; L < TRACE_MAX_LEVELS && (L == 0 || l->n > ((uint64_t)1 << trace_level_log(L - 1))); L++) {
      l->slot[L] = total;
      total += trace_level_buckets(l->n, L) + 1;
      l->n_levels = L + 1;
    }
  }
  return total;
}

int trace_pyr_lay_out(hpcdb_trace_set *t) {
  uint64_t total = trace_pyr_slots(t), bytes;
  trace_pyr_release(t);
  if (!mul_ok(total, 16, &bytes) || !(t->pyr.owned = malloc(bytes ? bytes : 1)))
    return hpcdb_fail(HPCDB_ENOMEM, "out of memory for the trace index's %llu buckets", (unsigned long long)total);
  t->pyr.off = t->pyr.owned;
  t->pyr.ts = t->pyr.owned + 8 * total;
  t->pyr.n_slots = total;
  return 0;
}

void trace_pyr_release(hpcdb_trace_set *t) {
  free(t->pyr.owned);
  free(t->pyr.owned_entries);
  if (t->pyr.sink_tmp) fclose(t->pyr.sink_tmp);
  memset(&t->pyr, 0, sizeof t->pyr);
}

int trace_pyr_begin(const hpcdb_trace_set *t, trace_pyr_build *a) {
  uint32_t n = t->exp->n_contexts + 1; /* + the slot of an unknown id, counted until the pass stops */
  memset(a, 0, sizeof *a);
  a->ns = calloc(n, sizeof *a->ns);
  a->touched = malloc((n + 1) * sizeof *a->touched);
  return a->ns && a->touched ? 0 : hpcdb_fail(HPCDB_ENOMEM, "out of memory for the trace index");
}

void trace_pyr_free(trace_pyr_build *a) {
  free(a->ns);
  free(a->touched);
  free(a->ent);
  memset(a, 0, sizeof *a);
}

static int grow(trace_pyr_build *a, uint64_t need) {
  if (a->n_out + need <= a->cap) return 0;
  uint64_t cap = a->cap ? 2 * a->cap : 4096;
  while (cap < a->n_out + need) cap *= 2;
  uint8_t *e = realloc(a->ent, 8 * cap);
  if (!e) return hpcdb_fail(HPCDB_ENOMEM, "out of memory for the trace index's histograms");
  a->ent = e;
  a->cap = cap;
  return 0;
}

/* The accumulated histogram becomes slot s (first element at ts), or none
 * (walk) when it is too large or a child has none; the accumulator is
 * cleared. The entries are in the order the contexts were first met: a
 * reader adds them all. */
static int write_bucket(hpcdb_trace_set *t, trace_pyr_build *a, uint64_t s, uint64_t ts, uint64_t cap, int walk) {
  uint64_t off = a->n_out;
  walk |= a->n_touched > cap;
  if (!walk) HPCDB_TRY(grow(a, a->n_touched));
  uint64_t big = 0;
  for (uint32_t i = 0; i < a->n_touched; i++) {
    uint32_t c = a->touched[i];
    uint64_t v = a->ns[c];
    big |= v >> 32;
    if (!walk) {
      wr_le32(a->ent + 8 * (off + i), c);
      wr_le32(a->ent + 8 * (off + i) + 4, (uint32_t)v);
    }
    a->ns[c] = 0;
  }
  walk |= big != 0;
  if (walk) off |= TRACE_WALK;
  else a->n_out += a->n_touched;
  a->n_touched = 0;
  wr_le64(t->pyr.owned + 8 * s, off);
  wr_le64(t->pyr.owned + 8 * (t->pyr.n_slots + s), ts);
  return 0;
}

int trace_pyr_flush(hpcdb_trace_set *t, const trace_line *l, trace_pyr_build *a, uint64_t j, uint64_t first_ts) {
  return write_bucket(t, a, l->slot[0] + j, first_ts, bucket_cap(0), 0);
}

static void end_level(hpcdb_trace_set *t, const trace_line *l, trace_pyr_build *a, uint32_t level) {
  uint64_t s = l->slot[level] + trace_level_buckets(l->n, level);
  wr_le64(t->pyr.owned + 8 * s, a->n_out);
  wr_le64(t->pyr.owned + 8 * (t->pyr.n_slots + s), l->hi);
}

/* Items [s0, s1) of one of the pyramid's slot arrays (`array`: 0 offsets,
 * 1 timestamps) written to the cache file at their place, and summed. */
static int write_slots(trace_pyramid *y, int array, uint64_t s0, uint64_t s1) {
  uint64_t item = (uint64_t)array * y->n_slots + s0, at = y->sink_base - 16 * y->n_slots + 8 * item;
  atomic_fetch_add(&y->sink_sum, trace_words_sum(y->owned + 8 * item, s1 - s0, at / 8));
  return write_at(y->sink_fd, y->owned + 8 * item, 8 * (s1 - s0), at, "the trace index");
}

/* The line's entries at the sink's next free place, its slots moved there.
 * Into the cache file, its slots are final then and written too, by this
 * thread, beside its histograms (a line's slots are consecutive), each
 * write's words added to the checksum. */
static int place_line(hpcdb_trace_set *t, const trace_line *l, trace_pyr_build *a) {
  trace_pyramid *y = &t->pyr;
  uint64_t at = atomic_fetch_add(&y->sink_next, a->n_out), top = l->n_levels - 1;
  uint64_t first = l->slot[0], end = l->slot[top] + trace_level_buckets(l->n, (uint32_t)top) + 1;
  if (a->n_out)
    HPCDB_TRY(write_at(y->sink_fd, a->ent, 8 * a->n_out, y->sink_base + 8 * at, "the trace index's histograms"));
  if (y->sink_summed) atomic_fetch_add(&y->sink_sum, trace_words_sum(a->ent, a->n_out, y->sink_base / 8 + at));
  a->n_out = 0;
  for (uint32_t L = 0; L < l->n_levels; L++)
    for (uint64_t s = l->slot[L], last = s + trace_level_buckets(l->n, L); s <= last; s++)
      wr_le64(y->owned + 8 * s, rd_le64(y->owned + 8 * s) + at);
  if (!y->sink_summed) return 0;
  HPCDB_TRY(write_slots(y, 0, first, end));
  return write_slots(y, 1, first, end);
}

int trace_pyr_end_line(hpcdb_trace_set *t, const trace_line *l, trace_pyr_build *a, uint64_t last_ts) {
  uint64_t nb = trace_level_buckets(l->n, 0);
  if (l->n == 0) { /* one empty bucket */
    HPCDB_TRY(write_bucket(t, a, l->slot[0], 0, bucket_cap(0), 0));
  } else {
    HPCDB_TRY(trace_pyr_flush(t, l, a, nb - 1, last_ts)); /* the last element lasts none */
  }
  end_level(t, l, a, 0);
  const uint8_t *off = t->pyr.owned, *ts = t->pyr.owned + 8 * t->pyr.n_slots;
  for (uint32_t L = 1; L < l->n_levels; L++) {
    uint64_t below = l->slot[L - 1], n_below = trace_level_buckets(l->n, L - 1);
    for (uint64_t j = 0; j < trace_level_buckets(l->n, L); j++) {
      uint64_t c0 = j << TRACE_LOG_FANOUT, c1 = c0 + (1u << TRACE_LOG_FANOUT);
      int walk = 0; /* a child keeps no histogram: neither does its parent */
      for (uint64_t c = c0; c < c1 && c < n_below && !walk; c++) {
        uint64_t o0 = rd_le64(off + 8 * (below + c)), o1 = rd_le64(off + 8 * (below + c + 1)) & ~TRACE_WALK;
        walk = (o0 & TRACE_WALK) != 0;
        for (uint64_t e = o0; !walk && e < o1; e++) { /* this line's: in ent */
          uint32_t slot = rd_le32(a->ent + 8 * e);
          a->touched[a->n_touched] = slot;
          a->n_touched += a->ns[slot] == 0;
          a->ns[slot] += rd_le32(a->ent + 8 * e + 4);
        }
      }
      HPCDB_TRY(write_bucket(t, a, l->slot[L] + j, rd_le64(ts + 8 * (below + c0)), bucket_cap(L), walk));
    }
    end_level(t, l, a, L);
  }
  return place_line(t, l, a);
}

int trace_pyr_sink_temp(hpcdb_trace_set *t) {
  trace_pyramid *y = &t->pyr;
  if (!(y->sink_tmp = tmpfile()))
    return hpcdb_fail(HPCDB_EIO, "cannot make a temporary file for the trace index's histograms");
  y->sink_fd = fileno(y->sink_tmp);
  y->sink_base = 0;
  y->sink_open = 1;
  return 0;
}

int trace_pyr_load_sink(hpcdb_trace_set *t) {
  trace_pyramid *y = &t->pyr;
  uint64_t bytes = 0;
  int rc = y->sink_open ? 0 : hpcdb_fail(HPCDB_EIO, "the trace index's histograms are lost");
  if (rc == 0 && (!mul_ok(y->n_entries, 8, &bytes) || !(y->owned_entries = malloc(bytes ? bytes : 1))))
    rc = hpcdb_fail(HPCDB_ENOMEM, "out of memory for the trace index's histograms");
  if (rc == 0) rc = read_at(y->sink_fd, y->owned_entries, bytes, y->sink_base, "the trace index's temporary file");
  if (rc == 0) y->ent = y->owned_entries;
  if (y->sink_tmp) fclose(y->sink_tmp);
  y->sink_tmp = NULL;
  y->sink_open = 0;
  return rc;
}

int trace_acc_init(const hpcdb_trace_set *t, trace_acc *a, const uint32_t *keys) {
  uint32_t n_ctx = t->exp->n_contexts, n_slots = 1; /* + grey */
  memset(a, 0, sizeof *a);
  a->slot_of_key = malloc(((uint64_t)n_ctx + 1) * sizeof *a->slot_of_key);
  a->slot_of_id = malloc((t->n_ids ? t->n_ids : 1) * sizeof *a->slot_of_id);
  a->slot_of_ctx = malloc((n_ctx ? n_ctx : 1) * sizeof *a->slot_of_ctx);
  if (!a->slot_of_key || !a->slot_of_id || !a->slot_of_ctx) {
    trace_acc_free(a);
    return hpcdb_fail(HPCDB_ENOMEM, "out of memory for a trace query");
  }
  for (uint32_t k = 0; k <= n_ctx; k++) a->slot_of_key[k] = HPCDB_NONE;
  for (uint32_t c = 0; c < n_ctx; c++)
    if (keys[c] != HPCDB_TRACE_GREY && a->slot_of_key[keys[c]] == HPCDB_NONE) a->slot_of_key[keys[c]] = 0, n_slots++;
  a->ns = calloc(n_slots, sizeof *a->ns);
  a->touched = calloc((uint64_t)n_slots + 1, sizeof *a->touched);
  a->key_of_slot = malloc(n_slots * sizeof *a->key_of_slot);
  if (!a->ns || !a->touched || !a->key_of_slot) {
    trace_acc_free(a);
    return hpcdb_fail(HPCDB_ENOMEM, "out of memory for a trace query");
  }
  uint32_t next = 0; /* the keys' slots in the keys' order: ties between slots go as between keys */
  for (uint32_t k = 0; k < n_ctx; k++)
    if (a->slot_of_key[k] == 0) a->key_of_slot[next] = k, a->slot_of_key[k] = next++;
  a->grey_slot = next;
  a->key_of_slot[next] = n_ctx;
  a->slot_of_key[n_ctx] = next;
  a->idle_slot = n_ctx ? a->slot_of_key[0] : HPCDB_NONE;
  a->small = n_slots <= 64;
  for (uint32_t c = 0; c < n_ctx; c++)
    a->slot_of_ctx[c] = a->slot_of_key[keys[c] == HPCDB_TRACE_GREY ? n_ctx : keys[c]];
  for (uint32_t id = 0; id < t->n_ids; id++) {
    uint32_t idx = t->idx_of_id[id];
    a->slot_of_id[id] = idx == HPCDB_NONE ? HPCDB_NONE : a->slot_of_ctx[idx];
  }
  return 0;
}

void trace_acc_free(trace_acc *a) {
  free(a->ns);
  free(a->touched);
  free(a->slot_of_id);
  free(a->slot_of_ctx);
  free(a->key_of_slot);
  free(a->slot_of_key);
  memset(a, 0, sizeof *a);
}

static int damaged(const hpcdb_trace_set *t, const trace_line *l, uint32_t level, uint64_t j) {
  return hpcdb_fail(HPCDB_ECORRUPT, "the trace index%s%s is damaged: profile %u, level %u, bucket %llu; delete it",
                    t->cache_path ? " " : "", t->cache_path ? t->cache_path : "", l->profile, level,
                    (unsigned long long)j);
}

static int unknown_id(const hpcdb_trace_set *t, uint32_t id) {
  return hpcdb_fail_at(HPCDB_ECORRUPT, t->trace_path ? t->trace_path : "trace", "trace line", 0, "context-id",
                       "an element names context %u, which the tree does not have", id);
}

/* Elements [k0, k1) of l with their whole times (the line's last: none). */
static int add_elements(const hpcdb_trace_set *t, const trace_line *l, uint64_t k0, uint64_t k1, trace_acc *a) {
  if (k1 > l->n - 1) k1 = l->n - 1;
  for (uint64_t k = k0; k < k1; k++) {
    uint64_t dt = line_ts(l, k + 1) - line_ts(l, k);
    uint32_t id = line_ctx(l, k), slot = id < t->n_ids ? a->slot_of_id[id] : HPCDB_NONE;
    if (slot == HPCDB_NONE) return unknown_id(t, id);
    if (dt) trace_acc_add(a, slot, dt);
  }
  return 0;
}

int trace_add_bucket(trace_pyr_reader *r, const trace_line *l, uint32_t level, uint64_t j, trace_acc *a) {
  const hpcdb_trace_set *t = r->t;
  uint64_t nb = trace_level_buckets(l->n, level), s = l->slot[level] + j;
  if (level >= l->n_levels || j >= nb || s + 1 >= t->pyr.n_slots) return damaged(t, l, level, j);
  const uint8_t *p0 = trace_pyr_item(r, level, TRACE_PYR_OFF, s);
  uint64_t o0 = p0 ? rd_le64(p0) : 0;
  const uint8_t *p1 = p0 ? trace_pyr_item(r, level, TRACE_PYR_OFF, s + 1) : NULL;
  if (!p1) return r->rc;
  uint64_t o1 = rd_le64(p1) & ~TRACE_WALK;
  if (o0 & TRACE_WALK) {
    if (level == 0) return l->n ? add_elements(t, l, j << TRACE_LOG_E0, (j + 1) << TRACE_LOG_E0, a) : 0;
    uint64_t c0 = j << TRACE_LOG_FANOUT, nbc = trace_level_buckets(l->n, level - 1);
    for (uint64_t c = c0; c < c0 + (1u << TRACE_LOG_FANOUT) && c < nbc; c++)
      HPCDB_TRY(trace_add_bucket(r, l, level - 1, c, a));
    return 0;
  }
  if (o1 < o0 || o1 > t->pyr.n_entries) return damaged(t, l, level, j);
  /* the accumulator in locals: through a, every store to touched[] would
   * reload n_touched from memory (they may alias), a chain from entry to entry */
  const uint32_t n_ctx = t->exp->n_contexts, *slot_of_ctx = a->slot_of_ctx;
  uint64_t *acc = a->ns, mask = a->mask;
  uint32_t *touched = a->touched, nt = a->n_touched;
  const int small = a->small;
  int rc = 0;
  for (uint64_t e = o0, n; rc == 0 && e < o1; e += n) {
    const uint8_t *p = trace_pyr_run(r, level, TRACE_PYR_ENT, e, o1, &n);
    if (!p) {
      rc = r->rc;
      break;
    }
    for (const uint8_t *end = p + 8 * n; p < end; p += 8) {
      uint32_t c = rd_le32(p), ns = rd_le32(p + 4);
      if (c >= n_ctx) {
        rc = damaged(t, l, level, j);
        break;
      }
      uint32_t slot = slot_of_ctx[c];
      if (small) { /* a bit in a register: no store, and no test of acc, per entry */
        mask |= (uint64_t)(ns != 0) << slot;
      } else {
        touched[nt] = slot; /* branch-free, as trace_acc_add; a zero time is no context */
        nt += (acc[slot] == 0) & (ns != 0);
      }
      acc[slot] += ns;
    }
  }
  a->n_touched = nt;
  a->mask = mask;
  return rc;
}

/* Elements k, k+1, ... of l clipped to [a, b), up to element `stop` (not
 * included) or the element in effect at b (*done = 1 then, or when the line
 * ends). The hot loop of a fine tile: the accumulator in locals. */
static uint64_t walk_elements(const hpcdb_trace_set *t, const trace_line *l, uint64_t k, uint64_t stop, uint64_t a,
                              uint64_t b, trace_acc *ac, int *done, int *rc) {
  if (k + 1 >= l->n) {
    *done = 1;
    return k;
  }
  uint64_t *ns = ac->ns, s = line_ts(l, k);
  uint32_t *touched = ac->touched, n_touched = ac->n_touched;
  const uint32_t *slot_of_id = ac->slot_of_id, n_ids = t->n_ids;
  for (; k < stop; k++) {
    uint64_t e = line_ts(l, k + 1), from = s < a ? a : s, end = e < b ? e : b;
    if (end > from) {
      uint32_t id = line_ctx(l, k), slot = id < n_ids ? slot_of_id[id] : HPCDB_NONE;
      if (slot == HPCDB_NONE) {
        *rc = unknown_id(t, id);
        *done = 1;
        break;
      }
      touched[n_touched] = slot; /* branch-free, as trace_acc_add */
      n_touched += ns[slot] == 0;
      ns[slot] += end - from;
    }
    if (e >= b || k + 2 >= l->n) {
      *done = 1;
      if (e < b) k++;
      break;
    }
    s = e;
  }
  ac->n_touched = n_touched;
  return k;
}

/* At an element k starting a level-0 bucket at or after a: the largest
 * bucket starting at k that ends by b, added whole; the element after it,
 * or k when none fits. */
static uint64_t jump(trace_pyr_reader *r, const trace_line *l, uint64_t k, uint64_t b, trace_acc *ac, int *rc) {
  uint32_t top = l->n_levels - 1;
  while (top > 0 && (k & (((uint64_t)1 << trace_level_log(top)) - 1))) top--;
  for (uint32_t L = top + 1; L-- > 0;) {
    uint64_t j = k >> trace_level_log(L);
    if (trace_slot_ts(r, l, L, j + 1) > b) {
      if ((*rc = r->rc) < 0) return k;
      continue;
    }
    if ((*rc = trace_add_bucket(r, l, L, j, ac)) < 0) return k;
    uint64_t next = (j + 1) << trace_level_log(L);
    return next < l->n ? next : l->n - 1;
  }
  return k;
}

uint64_t trace_sum_span(trace_pyr_reader *r, const trace_line *l, uint64_t k, uint64_t a, uint64_t b, trace_acc *ac,
                        int *done, int *rc) {
  const uint64_t mask = ((uint64_t)1 << TRACE_LOG_E0) - 1;
  for (;;) {
    k = walk_elements(r->t, l, k, (k | mask) + 1, a, b, ac, done, rc);
    if (*done) return k;
    while (!*done && line_ts(l, k) >= a) { /* k starts a bucket inside the span */
      uint64_t next = jump(r, l, k, b, ac, rc);
      if (*rc < 0) *done = 1;
      if (next == k) break;
      k = next;
      if (k + 1 >= l->n) *done = 1;
    }
    if (*done) return k;
  }
}
