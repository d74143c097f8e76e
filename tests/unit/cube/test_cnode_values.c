/* SPDX-License-Identifier: BSD-3-Clause */
/* hpcdb_cube_cnode_values and hpcdb_cube_location_values give, bit for bit,
 * the row and the column of hpcdb_cube_metric_values's matrix, for every
 * sample Cube file, metric, flavour, cnode and location: on the plain tar
 * (rows read where they lie; Score-P's exclusive metrics derive inclusive
 * rows from subtrees, hpcdb's inclusive ones exclusive rows from children)
 * and on a gzip-compressed copy (through the matrix). Bad arguments are
 * refused, and a file cut short after it was opened gives an error.
 * hpcdb_cube_read_opened (the model over an opened file, its anchor not
 * parsed again) holds what hpcdb_read_opts reads. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hpcdb/hpcdb.h"
#include "testlib.h"

static const char *const samples[] = {
    "all-dtypes", "blast.p64.bigendian", "call_tree_test", "cube-4.0-legacy-system", "dense-index-8-roots",
    "scorep-cpi", "threaded-example1",   "time.p4",        "zcubex-mm.x100"};

/* every: each cnode and location, else about 16 of them (a compressed copy
 * reads the whole matrix for each). */
static void against_matrix(const char *path, int every) {
  hpcdb_cube *c;
  CHECK(hpcdb_cube_open(&c, path) == 0);
  uint32_t nc = hpcdb_cube_n_cnodes(c), nl = hpcdb_cube_n_locations(c);
  double *mat = malloc(((size_t)nc * nl + 1) * sizeof *mat), *row = malloc(((size_t)nl + 1) * sizeof *row);
  double *col = malloc(((size_t)nc + 1) * sizeof *col);
  uint64_t checked = 0, wrong = 0;
  for (uint32_t m = 0; m < hpcdb_cube_n_metrics(c); m++)
    for (int inclusive = 0; inclusive < 2; inclusive++) {
      CHECK(hpcdb_cube_metric_values(c, m, inclusive, mat) == 0);
      uint32_t kstep = every || nc < 16 ? 1 : nc / 16, lstep = every || nl < 16 ? 1 : nl / 16;
      for (uint32_t k = 0; k < nc; k += kstep) {
        CHECK(hpcdb_cube_cnode_values(c, m, k, inclusive, row) == 0);
        checked++;
        if (memcmp(row, mat + (size_t)k * nl, (size_t)nl * sizeof *row) != 0 && wrong++ < 3)
          fprintf(stderr, "%s: metric %s %s: cnode %u's row differs\n", path, hpcdb_cube_metric_name(c, m),
                  inclusive ? "incl" : "excl", k);
      }
      for (uint32_t l = 0; l < nl; l += lstep) {
        CHECK(hpcdb_cube_location_values(c, m, l, inclusive, col) == 0);
        checked++;
        for (uint32_t k = 0; k < nc; k++)
          if (memcmp(&col[k], &mat[(size_t)k * nl + l], sizeof *col) != 0 && wrong++ < 3)
            fprintf(stderr, "%s: metric %s %s: location %u at cnode %u: %.17g, matrix %.17g\n", path,
                    hpcdb_cube_metric_name(c, m), inclusive ? "incl" : "excl", l, k, col[k], mat[(size_t)k * nl + l]);
      }
    }
  CHECK(checked > 0);
  CHECK(wrong == 0);
  CHECK(hpcdb_cube_cnode_values(c, hpcdb_cube_n_metrics(c), 0, 1, row) == HPCDB_EINVAL);
  CHECK(hpcdb_cube_cnode_values(c, 0, nc, 1, row) == HPCDB_EINVAL);
  CHECK(hpcdb_cube_location_values(c, 0, nl, 1, col) == HPCDB_EINVAL);
  free(mat);
  free(row);
  free(col);
  hpcdb_cube_close(c);
}

static void same_profiles(const hpcdb_experiment *a, const hpcdb_experiment *b) {
  CHECK(a->n_contexts == b->n_contexts && a->n_metrics == b->n_metrics && a->n_profiles == b->n_profiles);
  for (uint32_t p = 0; p < a->n_profiles && p < b->n_profiles; p++) {
    const hpcdb_profile *x = &a->profiles[p], *y = &b->profiles[p];
    CHECK(x->n_ctxs == y->n_ctxs && x->n_values == y->n_values);
    if (x->n_ctxs != y->n_ctxs || x->n_values != y->n_values) continue;
    CHECK(!x->n_ctxs || !memcmp(x->ctx_ids, y->ctx_ids, x->n_ctxs * sizeof *x->ctx_ids));
    CHECK(!x->n_values || !memcmp(x->metric_ids, y->metric_ids, x->n_values * sizeof *x->metric_ids));
    CHECK(!x->n_values || !memcmp(x->values, y->values, x->n_values * sizeof *x->values));
  }
}

static void read_opened(const char *path) {
  hpcdb_cube *c;
  CHECK(hpcdb_cube_open(&c, path) == 0);
  const hpcdb_read_options opts[] = {{HPCDB_READ_OPTIONS_VERSION, HPCDB_READ_ALL, NULL, 0, 0},
                                     {HPCDB_READ_OPTIONS_VERSION, HPCDB_READ_ALL, NULL, 0, HPCDB_READ_SUMMARY_ONLY}};
  for (size_t i = 0; i < sizeof opts / sizeof *opts; i++) {
    hpcdb_experiment *a = NULL, *b = NULL;
    CHECK(hpcdb_read_opts(&a, path, &opts[i]) == 0);
    CHECK(hpcdb_cube_read_opened(&b, c, &opts[i]) == 0);
    if (a && b) same_profiles(a, b);
    hpcdb_experiment_free(a);
    hpcdb_experiment_free(b);
  }
  hpcdb_cube_close(c);
}

/* A copy cut in half after hpcdb_cube_open placed the members: reading the
 * rows and columns past the cut is an error, not a crash. */
static void cut_after_open(const char *path) {
  char copy[4096];
  uint8_t *data;
  size_t len;
  snprintf(copy, sizeof copy, "%s/cut.cubex", testlib_tmpdir("cube_cnode_values"));
  CHECK(testlib_read_file(path, &data, &len) == 0);
  CHECK(testlib_write_file(copy, data, len) == 0);
  free(data);
  hpcdb_cube *c;
  CHECK(hpcdb_cube_open(&c, copy) == 0);
  CHECK(truncate(copy, (off_t)(len / 2)) == 0);
  uint32_t nc = hpcdb_cube_n_cnodes(c), nl = hpcdb_cube_n_locations(c);
  double *row = malloc(((size_t)nl + 1) * sizeof *row), *col = malloc(((size_t)nc + 1) * sizeof *col);
  int rows_failed = 0, columns_failed = 0;
  for (uint32_t m = 0; m < hpcdb_cube_n_metrics(c); m++) {
    for (uint32_t k = 0; k < nc; k++) rows_failed += hpcdb_cube_cnode_values(c, m, k, 1, row) == HPCDB_ECORRUPT;
    columns_failed += hpcdb_cube_location_values(c, m, 0, 0, col) == HPCDB_ECORRUPT;
  }
  CHECK(rows_failed > 0);
  CHECK(columns_failed > 0);
  free(row);
  free(col);
  hpcdb_cube_close(c);
}

int main(void) {
  if (!testlib_have_samples()) {
    printf("sample data not found: skipped\n");
    return 77;
  }
  char rel[256];
  for (size_t i = 0; i < sizeof samples / sizeof *samples; i++) {
    snprintf(rel, sizeof rel, "cube/%s.cubex", samples[i]);
    against_matrix(testlib_sample(rel), strncmp(samples[i], "zcubex", 6) != 0); /* ZCUBEX.DATA: the matrix too */
    against_matrix(testlib_gzip_copy(testlib_sample(rel), testlib_tmpdir("cube_cnode_values"), samples[i]), 0);
    read_opened(testlib_sample(rel));
  }
  cut_after_open(testlib_sample("cube/time.p4.cubex"));
  return TEST_END();
}
