/* Scaling models: Extra-P's one-term search recovers known functions of p
 * (3 p, 2 log2 p, 5 + 0.1 p^2, p^(1/2) log2 p, a constant), also under a
 * little deterministic noise; p < 1 leaves log terms out; the parameter of a
 * run from its identity; the runs of an Extra-P Cube folder set by name. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "hpcdb/compare.h"
#include "hpcdb/hpcdb.h"
#include "testlib.h"

static hpcdb_scaling_model fit(double (*f)(double), double noise) {
  double p[6], y[6];
  for (int i = 0; i < 6; i++) {
    p[i] = 2 << i; /* 2 .. 64 */
    y[i] = f(p[i]) * (1 + noise * ((i % 2) ? 1 : -1));
  }
  hpcdb_scaling_model m = {0};
  CHECK_RC(hpcdb_scaling_fit(&m, p, y, 6));
  char text[128];
  hpcdb_scaling_format(&m, text, sizeof text);
  printf("noise %g: %s (SMAPE %.3g%%)\n", noise, text, m.smape);
  return m;
}

static double linear(double p) { return 3 * p; }
static double logarithmic(double p) { return 2 * log2(p); }
static double quadratic(double p) { return 5 + 0.1 * p * p; }
static double sqrt_log(double p) { return 7 + 0.5 * sqrt(p) * log2(p); }
static double constant(double p) { return 42; }

static int close_to(double x, double want) { return fabs(x - want) <= 1e-6 * fmax(1, fabs(want)); }

static void models(void) {
  hpcdb_scaling_model m = fit(linear, 0);
  CHECK(m.num == 1 && m.den == 1 && m.log_exp == 0 && close_to(m.c1, 3) && close_to(m.c0, 0) && m.smape == 0);
  m = fit(logarithmic, 0);
  CHECK(m.num == 0 && m.log_exp == 1 && close_to(m.c1, 2) && close_to(m.c0, 0));
  m = fit(quadratic, 0);
  CHECK(m.num == 2 && m.den == 1 && m.log_exp == 0 && close_to(m.c1, 0.1) && close_to(m.c0, 5));
  m = fit(sqrt_log, 0);
  CHECK(m.num == 1 && m.den == 2 && m.log_exp == 1 && close_to(m.c1, 0.5) && close_to(m.c0, 7));
  m = fit(constant, 0);
  CHECK(m.num == 0 && m.log_exp == 0 && close_to(m.c0, 42) && hpcdb_scaling_growth(&m) == 0);
  /* 1 % up and down: the same terms */
  m = fit(linear, 0.01);
  CHECK(m.num == 1 && m.den == 1 && m.log_exp == 0 && fabs(m.c1 - 3) < 0.1);
  m = fit(quadratic, 0.01);
  CHECK(m.num == 2 && m.den == 1 && m.log_exp == 0 && fabs(m.c1 - 0.1) < 0.01);
  CHECK(hpcdb_scaling_growth(&(hpcdb_scaling_model){0, 0.1, 2, 1, 0, 0, 0, 0}) >
        hpcdb_scaling_growth(&(hpcdb_scaling_model){0, 3, 1, 1, 1, 0, 0, 0}));
  char text[64];
  hpcdb_scaling_format(&(hpcdb_scaling_model){5, -0.25, 3, 2, 2, 0, 0, 0}, text, sizeof text);
  CHECK(!strcmp(text, "5 - 0.25 * p^(3/2) * log2(p)^2"));
  /* below 1 no log terms (log2 p < 0), no failure */
  double p[5] = {0.125, 0.25, 0.5, 1, 2}, y[5];
  for (int i = 0; i < 5; i++) y[i] = 4 * p[i];
  CHECK_RC(hpcdb_scaling_fit(&m, p, y, 5));
  CHECK(m.log_exp == 0 && m.num == 1 && m.den == 1);
  CHECK(hpcdb_scaling_fit(&m, p, y, 1) == HPCDB_EINVAL);
  p[0] = 0;
  CHECK(hpcdb_scaling_fit(&m, p, y, 5) == HPCDB_EINVAL);
}

static void identity(void) {
  hpcdb_experiment *e;
  CHECK_RC(hpcdb_experiment_new(&e));
  uint32_t rank, thread;
  hpcdb_add_kind_name(e, "RANK", &rank);
  hpcdb_add_kind_name(e, "THREAD", &thread);
  hpcdb_add_profile(e, HPCDB_PROFILE_SUMMARY, 0, NULL, 0, NULL);
  for (uint32_t r = 0; r < 4; r++)
    for (uint32_t t = 0; t < (r == 2 ? 3u : 2u); t++) {
      hpcdb_id ids[2] = {{(uint16_t)rank, 0, r, r}, {(uint16_t)thread, 0, t, t}};
      hpcdb_add_profile(e, 0, 1, ids, 2, NULL);
    }
  double v;
  CHECK_RC(hpcdb_run_parameter(&v, e, "ranks"));
  CHECK(v == 4);
  CHECK_RC(hpcdb_run_parameter(&v, e, "threads"));
  CHECK(v == 3);
  CHECK_RC(hpcdb_run_parameter(&v, e, "profiles"));
  CHECK(v == 9);
  CHECK(hpcdb_run_parameter(&v, e, "nodes") == HPCDB_EINVAL);
  hpcdb_experiment_free(e);
}

static void touch(const char *dir, const char *sub, const char *file) {
  char path[1024];
  snprintf(path, sizeof path, "%s/%s", dir, sub);
  mkdir(path, 0777);
  snprintf(path, sizeof path, "%s/%s/%s", dir, sub, file);
  testlib_write_file(path, "x", 1);
}

static void folders(void) {
  const char *dir = testlib_tmpdir("compare_extrap_folder");
  touch(dir, "mm.p16.r1", "profile.cubex");
  touch(dir, "mm.p4.r2", "profile.cubex");
  touch(dir, "mm.p4.r1", "profile.cubex");
  touch(dir, "mm.p4.r1", ".hidden.cubex"); /* Extra-P ignores names starting with '.' */
  touch(dir, "mm.p4.r1", "notes.txt");
  touch(dir, "x8y1p2z3", "a.cubex");
  touch(dir, "mm.q8.r1", "profile.cubex"); /* not the parameter */
  char **paths;
  double *values;
  uint32_t n;
  CHECK_RC(hpcdb_extrap_folder(&paths, &values, &n, dir, "p"));
  CHECK(n == 4);
  if (n == 4) {
    CHECK(values[0] == 2 && values[1] == 4 && values[2] == 4 && values[3] == 16);
    CHECK(strstr(paths[1], "mm.p4.r1/profile.cubex") && strstr(paths[2], "mm.p4.r2/profile.cubex"));
  }
  for (uint32_t i = 0; i < n; i++) free(paths[i]);
  free(paths);
  free(values);
  CHECK(hpcdb_extrap_folder(&paths, &values, &n, dir, "ranks") == HPCDB_ENOTFORMAT);
}

int main(void) {
  models();
  identity();
  folders();
  return TEST_END();
}
