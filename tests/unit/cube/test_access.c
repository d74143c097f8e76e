/* SPDX-License-Identifier: BSD-3-Clause */
/* hpcdb_cube_metric_values (direct access, one metric at a time) gives, for
 * every sample Cube file, metric, flavour, cnode and location, the value the
 * model from hpcdb_cube_read holds: on the plain tar (members found through
 * the member index) and on a gzip-compressed copy (members streamed). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hpcdb/hpcdb.h"
#include "testlib.h"

static const char *const samples[] = {
    "all-dtypes", "blast.p64.bigendian", "call_tree_test", "cube-4.0-legacy-system", "dense-index-8-roots",
    "scorep-cpi", "threaded-example1",   "time.p4",        "zcubex-mm.x100"};

static int close_enough(double x, double y) { return x == y || fabs(x - y) <= 1e-12 * fmax(fabs(x), fabs(y)); }

/* Every value of the matrix against the model (cnode id + 1 = context id). */
static void against_model(const char *path) {
  hpcdb_experiment *exp;
  hpcdb_cube *c;
  CHECK(hpcdb_cube_read(&exp, path) == 0);
  CHECK(hpcdb_cube_open(&c, path) == 0);
  uint32_t nc = hpcdb_cube_n_cnodes(c), nl = hpcdb_cube_n_locations(c);
  double *out = malloc(((size_t)nc * nl + 1) * sizeof *out);
  uint64_t checked = 0, wrong = 0;
  for (uint32_t m = 0; m < hpcdb_cube_n_metrics(c); m++)
    for (int inclusive = 0; inclusive < 2; inclusive++) {
      CHECK(hpcdb_cube_metric_values(c, m, inclusive, out) == 0);
      for (uint32_t k = 0; k < nc; k++)
        for (uint32_t l = 0; l < nl; l++) {
          double v = 0;
          hpcdb_profile_value(&exp->profiles[l + 1], hpcdb_cube_cnode_id(c, k) + 1,
                              (uint16_t)(2 * m + (uint32_t)inclusive), &v);
          checked++;
          if (!close_enough(v, out[(size_t)k * nl + l]) && wrong++ < 3)
            fprintf(stderr, "%s: metric %s %s cnode %u location %u: model %.17g, direct %.17g\n", path,
                    hpcdb_cube_metric_name(c, m), inclusive ? "incl" : "excl", hpcdb_cube_cnode_id(c, k), l, v,
                    out[(size_t)k * nl + l]);
        }
    }
  CHECK(checked > 0);
  CHECK(wrong == 0);
  free(out);
  hpcdb_cube_close(c);
  hpcdb_experiment_free(exp);
}

int main(void) {
  if (!testlib_have_samples()) {
    printf("sample data not found: skipped\n");
    return 77;
  }
  char rel[256];
  for (size_t i = 0; i < sizeof samples / sizeof *samples; i++) {
    snprintf(rel, sizeof rel, "cube/%s.cubex", samples[i]);
    against_model(testlib_sample(rel));
    against_model(testlib_gzip_copy(testlib_sample(rel), testlib_tmpdir("cube_access"), samples[i]));
  }
  return TEST_END();
}
