/* SPDX-License-Identifier: BSD-3-Clause */
/* Address ranges of structure files: the v= syntax, and the sorted,
 * disjoint statement intervals the lookup searches. */
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "common/vec.h"
#include "hpcstruct/hpcstruct_private.h"

static int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

/* A hex number (with or without 0x) at *s; advances *s. */
static int hex_number(const char **s, uint64_t *out) {
  const char *p = *s;
  if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) p += 2;
  uint64_t v = 0;
  int digits = 0, d;
  while ((d = hex_digit(*p)) >= 0) {
    if (v >> 60) return 0; /* more than 64 bits */
    v = v << 4 | (uint64_t)d;
    p++;
    digits++;
  }
  if (!digits) return 0;
  *s = p;
  *out = v;
  return 1;
}

int hex_address(const char *s, uint64_t *out) { return hex_number(&s, out) && *s == '\0'; }

int vma_parse(const char *s, hpcdb_struct_range **ranges, uint64_t *cap, uint32_t *n, const char **why) {
  *n = 0;
  if (*s != '{') {
    *why = "does not start with '{'";
    return HPCDB_ECORRUPT;
  }
  s++;
  for (;;) {
    while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r') s++;
    if (*s == '}') break;
    hpcdb_struct_range r = {0, 0, 0};
    if (*s++ != '[') {
      *why = "a range does not start with '['";
    } else if (!hex_number(&s, &r.lo)) {
      *why = "a range's start is not a hex number of at most 64 bits";
    } else if (*s++ != '-') {
      *why = "a range's start and end are not separated by '-'";
    } else if (!hex_number(&s, &r.hi)) {
      *why = "a range's end is not a hex number of at most 64 bits";
    } else if (*s++ != ')') {
      *why = "a range does not end with ')'";
    } else if (r.hi <= r.lo) {
      *why = "a range is empty or reversed (end <= start)";
    } else if (*n > 0 && r.lo < (*ranges)[*n - 1].hi) {
      *why = "ranges are not in ascending order or overlap";
    } else {
      if (*n == UINT32_MAX || VEC_RESERVE(ranges, cap, (uint64_t)*n + 1) < 0) {
        *n = 0;
        *why = "out of memory";
        return HPCDB_ENOMEM;
      }
      (*ranges)[(*n)++] = r;
      continue;
    }
    *n = 0;
    return HPCDB_ECORRUPT;
  }
  if (s[1] != '\0') {
    *n = 0;
    *why = "text after the closing '}'";
    return HPCDB_ECORRUPT;
  }
  return 0;
}

typedef struct ordered {
  hpcdb_struct_range r;
  uint32_t order;
} ordered;

static int by_lo_then_order(const void *a, const void *b) {
  const ordered *x = a, *y = b;
  if (x->r.lo != y->r.lo) return x->r.lo < y->r.lo ? -1 : 1;
  return (x->order > y->order) - (x->order < y->order);
}

/* Within a cluster of chained overlaps [from, to) (nearly always one range),
 * takes the ranges in file order and keeps each one that overlaps none kept
 * before it. */
static uint32_t resolve_cluster(const ordered *v, uint32_t from, uint32_t to, uint8_t *keep) {
  for (uint32_t i = from; i < to; i++) keep[i] = 2; /* not decided */
  if (to - from == 1) {
    keep[from] = 1;
    return 0;
  }
  uint32_t dropped = 0;
  for (uint32_t left = to - from; left > 0; left--) {
    uint32_t first = HPCDB_NONE;
    for (uint32_t i = from; i < to; i++)
      if (keep[i] == 2 && (first == HPCDB_NONE || v[i].order < v[first].order)) first = i;
    if (first == HPCDB_NONE) break;
    keep[first] = 1;
    for (uint32_t j = from; j < to && keep[first]; j++)
      if (keep[j] == 1 && j != first && v[j].r.lo < v[first].r.hi && v[first].r.lo < v[j].r.hi) {
        keep[first] = 0;
        dropped++;
      }
  }
  return dropped;
}

int ranges_finish(hpcdb_struct_module *m) {
  uint32_t n = m->n_ranges;
  if (n == 0) return 0;
  ordered *v = malloc((size_t)n * sizeof *v);
  uint8_t *keep = malloc(n);
  if (!v || !keep) {
    free(v);
    free(keep);
    return hpcdb_fail(HPCDB_ENOMEM, "out of memory sorting %u address ranges", n);
  }
  for (uint32_t i = 0; i < n; i++) v[i] = (ordered){m->ranges[i], i};
  uint32_t sorted = 1; /* files list their ranges mostly in address order: skip the sort then */
  while (sorted < n && by_lo_then_order(&v[sorted - 1], &v[sorted]) < 0) sorted++;
  if (sorted < n) qsort(v, n, sizeof *v, by_lo_then_order);
  for (uint32_t i = 0; i < n;) {
    uint32_t end = i + 1;
    uint64_t hi = v[i].r.hi;
    while (end < n && v[end].r.lo < hi) {
      if (v[end].r.hi > hi) hi = v[end].r.hi;
      end++;
    }
    m->n_shadowed += resolve_cluster(v, i, end, keep);
    i = end;
  }
  uint32_t k = 0;
  for (uint32_t i = 0; i < n; i++)
    if (keep[i]) m->ranges[k++] = v[i].r;
  m->n_ranges = k;
  free(v);
  free(keep);
  return 0;
}

uint32_t hpcdb_hpcstruct_lookup(const hpcdb_struct_module *m, uint64_t addr) {
  uint32_t lo = 0, hi = m->n_ranges;
  while (lo < hi) { /* the last range starting at or before addr */
    uint32_t mid = lo + (hi - lo) / 2;
    if (m->ranges[mid].lo <= addr) lo = mid + 1;
    else hi = mid;
  }
  if (lo == 0) return HPCDB_NONE;
  const hpcdb_struct_range *r = &m->ranges[lo - 1];
  return addr < r->hi ? r->scope : HPCDB_NONE;
}
