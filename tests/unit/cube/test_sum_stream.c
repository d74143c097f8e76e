/* SPDX-License-Identifier: BSD-3-Clause */
/* cube_sum_stream against cube_sum_pass on the same rows (no entry points):
 * the same sums to the bit, the same counts and the same root rows, in both
 * byte orders, on random forests whose rows are stored in the inclusive
 * order with some left out (a sparse index), with -0 values and parents
 * whose only child cancels them; on rows larger than its buffer; and it
 * declines (0) rows out of storage order and a file cut short. */
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/bytes.h"
#include "cube/cube.h"
#include "testlib.h"

#define NONE UINT32_MAX
#define HEADER 37 /* bytes before the first row: rows need not be aligned in the file */

static uint64_t seed = 4242;
static uint32_t next_random(void) {
  seed = seed * 6364136223846793005ull + 1442695040888963407ull;
  return (uint32_t)(seed >> 33);
}

typedef struct forest {
  uint32_t nc, nl, n_roots;
  uint32_t *parent, *kids_at, *kids, *order, *pos, *roots;
} forest;

static void grow(forest *f, uint32_t nc, uint32_t nl) {
  f->nc = nc, f->nl = nl, f->n_roots = 0;
  f->parent = malloc(nc * sizeof *f->parent), f->kids_at = calloc(nc + 2, sizeof *f->kids_at);
  f->kids = malloc(nc * sizeof *f->kids), f->order = malloc(nc * sizeof *f->order);
  f->pos = malloc(nc * sizeof *f->pos), f->roots = malloc(nc * sizeof *f->roots);
  CHECK(f->parent && f->kids_at && f->kids && f->order && f->pos && f->roots);
  for (uint32_t c = 0; c < nc; c++) { /* pre-order numbering: a parent before its children */
    f->parent[c] = c == 0 || next_random() % 40 == 0 ? NONE : next_random() % c;
    if (f->parent[c] == NONE) f->roots[f->n_roots++] = c;
  }
  CHECK(cube_children(nc, f->parent, f->kids_at, f->kids) == 0);
  CHECK(cube_inclusive_order(nc, f->parent, f->kids_at, f->kids, f->order) == 0);
  for (uint32_t p = 0; p < nc; p++) f->pos[f->order[p]] = p;
}

static void fell(forest *f) {
  free(f->parent), free(f->kids_at), free(f->kids), free(f->order), free(f->pos), free(f->roots);
}

static void put(uint8_t *p, double v, int be) {
  if (be) wr_be_f64(p, v);
  else wr_le_f64(p, v);
}

/* Each cnode's row (native doubles, by cnode), random: some rows all zero,
 * some values 0 or -0, some parents equal to their only child. */
static double *fill(const forest *f) {
  double *v = malloc((size_t)f->nc * f->nl * sizeof *v);
  CHECK(v != NULL);
  for (uint32_t c = 0; c < f->nc; c++) {
    int empty = next_random() % 5 == 0;
    for (uint32_t l = 0; l < f->nl; l++) {
      uint32_t k = next_random() % 10;
      v[(size_t)c * f->nl + l] = empty || k == 0 ? 0 : k == 1 ? -0.0 : (double)(next_random() % 1000000) / 7.0;
    }
  }
  for (uint32_t c = f->nc; c-- > 0;) /* bottom-up, so that a copied child is final */
    if (f->kids_at[c + 1] - f->kids_at[c] == 1 && next_random() % 3 == 0)
      memcpy(v + (size_t)c * f->nl, v + (size_t)f->kids[f->kids_at[c]] * f->nl, f->nl * sizeof *v);
  return v;
}

static int all_zero_bits(const double *row, uint32_t nl) {
  for (uint32_t l = 0; l < nl; l++) {
    uint64_t u;
    memcpy(&u, &row[l], sizeof u);
    if (u) return 0;
  }
  return 1;
}

/* The stored rows (those not all +0) in inclusive order written to a file
 * after HEADER bytes; their positions into *row_pos. The file, opened. */
static int store(const forest *f, const double *v, int be, const char *path, uint32_t **row_pos, uint32_t *n_rows) {
  size_t row_bytes = (size_t)f->nl * 8;
  uint8_t *bytes = calloc(HEADER + (size_t)f->nc * row_bytes, 1);
  *row_pos = malloc((f->nc + 1) * sizeof **row_pos);
  CHECK(bytes && *row_pos);
  uint32_t n = 0;
  for (uint32_t p = 0; p < f->nc; p++) {
    const double *row = v + (size_t)f->order[p] * f->nl;
    if (all_zero_bits(row, f->nl)) continue;
    for (uint32_t l = 0; l < f->nl; l++) put(bytes + HEADER + (size_t)n * row_bytes + 8 * l, row[l], be);
    (*row_pos)[n++] = p;
  }
  *n_rows = n;
  FILE *out = fopen(path, "wb");
  CHECK(out && fwrite(bytes, 1, HEADER + (size_t)n * row_bytes, out) == HEADER + (size_t)n * row_bytes);
  CHECK(fclose(out) == 0);
  free(bytes);
  int fd = open(path, O_RDWR);
  CHECK(fd >= 0);
  return fd;
}

static void check_forest(uint32_t nc, uint32_t nl, int be, const char *dir) {
  forest f;
  grow(&f, nc, nl);
  double *v = fill(&f);
  char path[4096];
  snprintf(path, sizeof path, "%s/rows-%u-%u-%d", dir, nc, nl, be);
  uint32_t *row_pos, n_rows;
  int fd = store(&f, v, be, path, &row_pos, &n_rows);
  cube_member_index x = {fd, 0, NULL, 0, 0};

  /* what cube_sum_pass makes of the same rows, every cnode given its row */
  uint8_t *bytes = malloc((size_t)nc * nl * 8), *no_entries = calloc(nc, 1);
  const uint8_t **rows = malloc(nc * sizeof *rows);
  double *scratch = malloc((size_t)CUBE_SUM_PASS_ROWS * nl * 8), *exc = malloc(nc * 8), *inc = malloc(nc * 8);
  uint64_t *counts = calloc(nl, sizeof *counts);
  double *root_inc = malloc((size_t)f.n_roots * nl * 8), *root_exc = malloc((size_t)f.n_roots * nl * 8);
  CHECK(bytes && no_entries && rows && scratch && exc && inc && counts && root_inc && root_exc);
  for (uint32_t c = 0; c < nc; c++) {
    for (uint32_t l = 0; l < nl; l++) put(bytes + ((size_t)c * nl + l) * 8, v[(size_t)c * nl + l], be);
    rows[c] = bytes + (size_t)c * nl * 8;
  }
  cube_sum_tree t = {nc, nl, f.kids_at, f.kids, no_entries, 1, NULL, NULL};
  cube_sum_pass(&t, rows, be, scratch, exc, inc, counts);
  for (uint32_t i = 0; i < f.n_roots; i++)
    cube_sum_rows_of(&t, rows, be, f.roots[i], root_inc + (size_t)i * nl, root_exc + (size_t)i * nl);

  double *got_exc = malloc(nc * 8), *got_inc = malloc(nc * 8);
  double *got_root_inc = malloc((size_t)f.n_roots * nl * 8), *got_root_exc = malloc((size_t)f.n_roots * nl * 8);
  uint64_t *got_counts = malloc(nl * sizeof *got_counts);
  CHECK(got_exc && got_inc && got_root_inc && got_root_exc && got_counts);
  cube_stream_tree st = {nc, nl, f.parent, f.kids_at, f.order, f.pos, f.roots, f.n_roots};
  cube_stream_rows sr = {&x, HEADER, n_rows, row_pos, be != cube_native_big_endian()};
  cube_stream_sums out = {got_exc, got_inc, got_counts, got_root_inc, got_root_exc};
  CHECK(cube_sum_stream(&st, &sr, &out) == 1);
  CHECK(memcmp(got_exc, exc, nc * 8) == 0);
  CHECK(memcmp(got_inc, inc, nc * 8) == 0);
  CHECK(memcmp(got_counts, counts, nl * sizeof *counts) == 0);
  CHECK(memcmp(got_root_inc, root_inc, (size_t)f.n_roots * nl * 8) == 0);
  CHECK(memcmp(got_root_exc, root_exc, (size_t)f.n_roots * nl * 8) == 0);

  if (n_rows >= 2) { /* out of storage order: declined */
    uint32_t keep = row_pos[0];
    row_pos[0] = row_pos[1];
    CHECK(cube_sum_stream(&st, &sr, &out) == 0);
    row_pos[0] = keep;
    CHECK(ftruncate(fd, HEADER + ((off_t)n_rows - 1) * nl * 8 + 4) == 0); /* the last row cut short: declined */
    CHECK(cube_sum_stream(&st, &sr, &out) == 0);
  }
  close(fd);
  unlink(path);
  free(v), free(row_pos), free(bytes), free(no_entries), free(rows), free(scratch), free(exc), free(inc);
  free(counts), free(root_inc), free(root_exc), free(got_exc), free(got_inc), free(got_root_inc);
  free(got_root_exc), free(got_counts);
  fell(&f);
}

int main(void) {
  const char *dir = testlib_tmpdir("unit-cube-sum-stream");
  for (int be = 0; be < 2; be++) {
    check_forest(1, 3, be, dir);
    check_forest(9, 5, be, dir);
    check_forest(3000, 300, be, dir); /* many buffers of rows; runs reopened far behind */
    check_forest(40, 40000, be, dir); /* each row larger than the buffer */
  }
  return TEST_END();
}
