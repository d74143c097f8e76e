/* SPDX-License-Identifier: BSD-3-Clause */
/* One batch of functions: strings, ranges, inlined calls and line rows. */
#include <stdlib.h>
#include <string.h>

#include "binstruct/bs_internal.h"
#include "common/error.h"
#include "common/vec.h"

void bs_unit_reset(bs_unit *u) {
  strpool_free(&u->strings);
  u->n_funcs = u->n_inlines = u->n_ranges = u->n_rows = 0;
}

void bs_unit_free(bs_unit *u) {
  strpool_free(&u->strings);
  free(u->funcs);
  free(u->inlines);
  free(u->ranges);
  free(u->rows);
  memset(u, 0, sizeof *u);
}

const char *bs_intern(bs_unit *u, const char *s) {
  if (!s) return NULL;
  return strpool_intern(&u->strings, s, strlen(s));
}

int bs_unit_add_range(bs_unit *u, uint64_t lo, uint64_t hi) {
  HPCDB_TRY(VEC_RESERVE(&u->ranges, &u->cap_ranges, u->n_ranges + 1));
  u->ranges[u->n_ranges++] = (bs_range){lo, hi};
  return 0;
}

static int row_cmp(const void *a, const void *b) {
  const bs_row *x = a, *y = b;
  return x->addr < y->addr ? -1 : x->addr > y->addr;
}

void bs_unit_sort_rows(bs_unit *u) {
  /* Rows come in sequences each sorted by address; qsort is not stable, so
   * first drop rows overridden by a later one at the same address within a
   * sequence (the last row at an address is the one in effect). */
  uint64_t w = 0;
  for (uint64_t i = 0; i < u->n_rows; i++) {
    if (w && u->rows[w - 1].addr == u->rows[i].addr && u->rows[w - 1].file) w--;
    u->rows[w++] = u->rows[i];
  }
  u->n_rows = w;
  if (u->n_rows > 1) qsort(u->rows, u->n_rows, sizeof *u->rows, row_cmp);
}

const bs_row *bs_unit_row_at(const bs_unit *u, uint64_t addr) {
  uint64_t lo = 0, hi = u->n_rows; /* first row with addr > addr */
  while (lo < hi) {
    uint64_t mid = lo + (hi - lo) / 2;
    if (u->rows[mid].addr <= addr) lo = mid + 1;
    else hi = mid;
  }
  if (lo == 0) return NULL;
  const bs_row *r = &u->rows[lo - 1];
  /* an end-of-sequence row at the same address as another sequence's start */
  if (!r->file && lo >= 2 && u->rows[lo - 2].addr == r->addr && u->rows[lo - 2].file) r--;
  return r->file ? r : NULL;
}
