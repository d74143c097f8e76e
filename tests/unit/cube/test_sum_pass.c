/* SPDX-License-Identifier: BSD-3-Clause */
/* cube_sum_pass against the derivation it stands for, written out plainly
 * (one cnode at a time: its row, its children's rows subtracted in order,
 * the residue made 0, both rows summed in location order): the same sums to
 * the bit and the same counts, in both byte orders, on a small tree (one
 * thread, a short last batch) and on one large enough to be split over two
 * threads, and on the calling thread alone; each cnode's rows alone
 * (cube_sum_rows_of) sum to the same; each location's exclusive values
 * summed in cnode order (exc_totals, on one thread), with the roots left
 * out or not, are the plain sums to the bit. Random trees and values, some zeros,
 * some entry points, and children whose rows cancel their parent's. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/bytes.h"
#include "cube/cube.h"
#include "testlib.h"

static uint64_t seed = 12345;
static uint32_t next_random(void) {
  seed = seed * 6364136223846793005ull + 1442695040888963407ull;
  return (uint32_t)(seed >> 33);
}

static double value_of(const uint8_t *p, int be) { return be ? rd_be_f64(p) : rd_le_f64(p); }

static void check_tree(uint32_t nc, uint32_t nl, int be) {
  uint32_t *parent = malloc(nc * sizeof *parent), *kids_at = calloc(nc + 2, sizeof *kids_at),
           *kids = malloc(nc * sizeof *kids);
  uint8_t *is_entry = calloc(nc, 1), *bytes = malloc((size_t)nc * nl * 8);
  const uint8_t **rows = malloc(nc * sizeof *rows);
  double *exc = malloc(nc * sizeof *exc), *inc = malloc(nc * sizeof *inc),
         *scratch = malloc((size_t)CUBE_SUM_PASS_ROWS * nl * 8);
  double *row = malloc(nl * sizeof *row);
  uint64_t *counts = calloc(nl, sizeof *counts), *want_counts = calloc(nl, sizeof *want_counts);
  double *totals = calloc(nl, sizeof *totals), *want_totals = calloc(nl, sizeof *want_totals);
  double *totals_no_roots = calloc(nl, sizeof *totals), *want_no_roots = calloc(nl, sizeof *want_totals);
  uint8_t *is_root = calloc(nc, 1);
  CHECK(parent && kids_at && kids && is_entry && bytes && rows && exc && inc && scratch && row && counts &&
        want_counts);
  CHECK(totals && want_totals && totals_no_roots && want_no_roots && is_root);
  for (uint32_t c = 0; c < nc; c++) { /* pre-order numbering: a parent before its children */
    parent[c] = c == 0 || next_random() % 50 == 0 ? UINT32_MAX : next_random() % c;
    is_entry[c] = parent[c] == UINT32_MAX && next_random() % 2;
    is_root[c] = parent[c] == UINT32_MAX;
  }
  CHECK(cube_children(nc, parent, kids_at, kids) == 0);
  for (uint32_t c = 0; c < nc; c++) {
    for (uint32_t l = 0; l < nl; l++) {
      uint32_t k = next_random() % 8;
      double v = k == 0 ? 0 : (double)(next_random() % 1000000) / 7.0;
      uint8_t *p = bytes + ((size_t)c * nl + l) * 8;
      if (be) wr_be_f64(p, v);
      else wr_le_f64(p, v);
    }
    rows[c] = bytes + (size_t)c * nl * 8;
  }
  for (uint32_t c = 0; c < nc; c++) /* some parents equal to their only child's row: a residue of exactly 0 */
    if (kids_at[c + 1] - kids_at[c] == 1 && next_random() % 3 == 0) rows[c] = rows[kids[kids_at[c]]];
  for (uint32_t c = 0; c < nc; c++) { /* the derivation, plainly */
    double x = 0, y = 0;
    for (uint32_t l = 0; l < nl; l++) row[l] = value_of(rows[c] + 8 * (size_t)l, be);
    for (uint32_t k = kids_at[c]; k < kids_at[c + 1]; k++)
      for (uint32_t l = 0; l < nl; l++) row[l] -= value_of(rows[kids[k]] + 8 * (size_t)l, be);
    for (uint32_t l = 0; l < nl; l++) {
      double v = value_of(rows[c] + 8 * (size_t)l, be);
      double e = is_entry[c] || fabs(row[l]) <= 1e-12 * fabs(v) ? 0 : row[l];
      y += v;
      if (!is_entry[c]) x += e;
      want_counts[l] += (uint64_t)(v != 0) + (uint64_t)(e != 0);
      want_totals[l] += e;
      if (!is_root[c]) want_no_roots[l] += e;
    }
    exc[c] = x, inc[c] = y; /* kept to compare below */
  }
  double *got_exc = malloc(nc * sizeof *got_exc), *got_inc = malloc(nc * sizeof *got_inc);
  CHECK(got_exc && got_inc);
  cube_sum_tree t = {nc, nl, kids_at, kids, is_entry, 0, NULL, NULL};
  cube_sum_pass(&t, rows, be, scratch, got_exc, got_inc, counts);
  CHECK(memcmp(got_exc, exc, nc * sizeof *exc) == 0);
  CHECK(memcmp(got_inc, inc, nc * sizeof *inc) == 0);
  CHECK(memcmp(counts, want_counts, nl * sizeof *counts) == 0);
  memset(got_exc, 0, nc * sizeof *got_exc);
  cube_sum_pass(&t, rows, be, scratch, got_exc, got_inc, NULL); /* without counts */
  CHECK(memcmp(got_exc, exc, nc * sizeof *exc) == 0);
  t.serial = 1; /* on the calling thread alone: the same */
  memset(got_exc, 0, nc * sizeof *got_exc);
  memset(got_inc, 0, nc * sizeof *got_inc);
  cube_sum_pass(&t, rows, be, scratch, got_exc, got_inc, NULL);
  CHECK(memcmp(got_exc, exc, nc * sizeof *exc) == 0);
  CHECK(memcmp(got_inc, inc, nc * sizeof *inc) == 0);
  t.serial = 0, t.exc_totals = totals; /* with each location's exclusive totals (one thread): the same */
  cube_sum_pass(&t, rows, be, scratch, got_exc, got_inc, NULL);
  CHECK(memcmp(got_exc, exc, nc * sizeof *exc) == 0);
  CHECK(memcmp(got_inc, inc, nc * sizeof *inc) == 0);
  CHECK(memcmp(totals, want_totals, nl * sizeof *totals) == 0);
  t.exc_totals = totals_no_roots, t.left_out = is_root;
  cube_sum_pass(&t, rows, be, scratch, got_exc, got_inc, NULL);
  CHECK(memcmp(totals_no_roots, want_no_roots, nl * sizeof *totals) == 0);
  t.exc_totals = NULL, t.left_out = NULL;
  double *one_inc = malloc(nl * sizeof *one_inc), *one_exc = malloc(nl * sizeof *one_exc);
  CHECK(one_inc && one_exc);
  for (uint32_t c = 0; c < nc; c++) { /* one cnode's rows, summed in location order: the pass's sums */
    cube_sum_rows_of(&t, rows, be, c, one_inc, one_exc);
    double x = 0, y = 0;
    for (uint32_t l = 0; l < nl; l++) x += one_exc[l], y += one_inc[l];
    CHECK(memcmp(&y, &inc[c], sizeof y) == 0);
    CHECK(is_entry[c] || memcmp(&x, &exc[c], sizeof x) == 0);
  }
  free(one_inc), free(one_exc);
  free(parent), free(kids_at), free(kids), free(is_entry), free(bytes), free(rows), free(exc), free(inc);
  free(scratch), free(row), free(counts), free(want_counts), free(got_exc), free(got_inc);
  free(totals), free(want_totals), free(totals_no_roots), free(want_no_roots), free(is_root);
}

int main(void) {
  for (int be = 0; be < 2; be++) {
    check_tree(7, 5, be); /* one thread; a batch of 4 and a short one of 3 */
    check_tree(1, 3, be);
    check_tree(2003, 600, be); /* 1.2 M values: two threads */
  }
  return TEST_END();
}
