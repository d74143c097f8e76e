/* SPDX-License-Identifier: BSD-3-Clause */
/* Scaling models: Extra-P's hypothesis search recovers known functions of p
 * of one term (3 p, 2 log2 p, 5 + 0.1 p^2, p^(1/2) log2 p, a constant), of
 * two and three terms, from exact data and under noise, and does not take a
 * second term for noise on a one-term function; p < 1 leaves log terms out;
 * the parameter of a run from its identity; the runs of an Extra-P Cube
 * folder set by name. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "hpcdb/compare.h"
#include "hpcdb/hpcdb.h"
#include "testlib.h"

/* Deterministic noise: alternating +-1 (pattern 0) or pseudo-random in [-1, 1] (pattern 1, a fixed LCG). */
static double noise_at(int pattern, int i) {
  if (pattern == 0) return (i % 2) ? 1 : -1;
  uint32_t x = 2654435761u * (uint32_t)(i + 1) + 12345u;
  x ^= x >> 13, x *= 1274126177u, x ^= x >> 16;
  return (x % 20001) / 10000.0 - 1;
}

/* f at p = 2, 4, ... 2^points, each value off by up to `noise` (relative). */
static hpcdb_scaling_model fit_at(double (*f)(double), int points, double noise, int pattern) {
  double p[16], y[16];
  for (int i = 0; i < points; i++) {
    p[i] = 2 << i;
    y[i] = f(p[i]) * (1 + noise * noise_at(pattern, i));
  }
  hpcdb_scaling_model m = {0};
  CHECK_RC(hpcdb_scaling_fit(&m, p, y, (uint32_t)points));
  char text[160];
  hpcdb_scaling_format(&m, text, sizeof text);
  printf("%d points, noise %g (%s): %s (SMAPE %.3g%%, adjusted R^2 %.4f)\n", points, noise,
         pattern ? "random" : "alternating", text, m.smape, m.ar2);
  return m;
}

static hpcdb_scaling_model fit(double (*f)(double), double noise) { return fit_at(f, 6, noise, 0); }

static double linear(double p) { return 3 * p; }
static double logarithmic(double p) { return 2 * log2(p); }
static double quadratic(double p) { return 5 + 0.1 * p * p; }
static double sqrt_log(double p) { return 7 + 0.5 * sqrt(p) * log2(p); }
static double constant(double p) { return 42; }
static double p_plog(double p) { return 4 + 2 * p + 0.5 * p * log2(p); }
static double log_quadratic(double p) { return 10 + 3 * log2(p) + 0.02 * p * p; }
static double three(double p) {
  return 5 + 2 * log2(p) + 3 * p + 0.1 * p * p;
} /* tests/compare/gen_runs.c's whole program */

static int close_to(double x, double want) { return fabs(x - want) <= 1e-6 * fmax(1, fabs(want)); }
static int near(double x, double want, double rel) { return fabs(x - want) <= rel * fabs(want); }

/* term k of m is c * p^(num/den) * log2(p)^log_exp */
static int has(const hpcdb_scaling_model *m, uint32_t k, int num, int den, int log_exp) {
  return k < m->n_terms && m->terms[k].num == num && m->terms[k].den == den && m->terms[k].log_exp == log_exp;
}

static void one_term(void) {
  hpcdb_scaling_model m = fit(linear, 0);
  CHECK(m.n_terms == 1 && has(&m, 0, 1, 1, 0) && close_to(m.terms[0].c, 3) && close_to(m.c0, 0) && m.smape == 0);
  m = fit(logarithmic, 0);
  CHECK(m.n_terms == 1 && has(&m, 0, 0, 1, 1) && close_to(m.terms[0].c, 2) && close_to(m.c0, 0));
  m = fit(quadratic, 0);
  CHECK(m.n_terms == 1 && has(&m, 0, 2, 1, 0) && close_to(m.terms[0].c, 0.1) && close_to(m.c0, 5));
  m = fit(sqrt_log, 0);
  CHECK(m.n_terms == 1 && has(&m, 0, 1, 2, 1) && close_to(m.terms[0].c, 0.5) && close_to(m.c0, 7));
  m = fit(constant, 0);
  CHECK(m.n_terms == 0 && close_to(m.c0, 42) && hpcdb_scaling_growth(&m) == 0);
  /* 1 % up and down: the same terms */
  m = fit(linear, 0.01);
  CHECK(m.n_terms == 1 && has(&m, 0, 1, 1, 0) && fabs(m.terms[0].c - 3) < 0.1);
  m = fit(quadratic, 0.01);
  CHECK(m.n_terms == 1 && has(&m, 0, 2, 1, 0) && fabs(m.terms[0].c - 0.1) < 0.01);
  /* below 1 no log terms (log2 p < 0), no failure */
  double p[5] = {0.125, 0.25, 0.5, 1, 2}, y[5];
  for (int i = 0; i < 5; i++) y[i] = 4 * p[i];
  CHECK_RC(hpcdb_scaling_fit(&m, p, y, 5));
  CHECK(m.n_terms == 1 && has(&m, 0, 1, 1, 0));
  CHECK(hpcdb_scaling_fit(&m, p, y, 1) == HPCDB_EINVAL);
  p[0] = 0;
  CHECK(hpcdb_scaling_fit(&m, p, y, 5) == HPCDB_EINVAL);
}

static double cubic(double p) { return 3 + 2 * p + 0.001 * p * p * p; }

static void several_terms(void) {
  /* exact data: the terms and coefficients */
  hpcdb_scaling_model m = fit(p_plog, 0);
  CHECK(m.n_terms == 2 && has(&m, 0, 1, 1, 0) && has(&m, 1, 1, 1, 1) && close_to(m.c0, 4) &&
        close_to(m.terms[0].c, 2) && close_to(m.terms[1].c, 0.5) && m.smape == 0);
  m = fit(log_quadratic, 0);
  CHECK(m.n_terms == 2 && has(&m, 0, 0, 1, 1) && has(&m, 1, 2, 1, 0) && close_to(m.c0, 10) &&
        close_to(m.terms[0].c, 3) && close_to(m.terms[1].c, 0.02));
  m = fit_at(three, 8, 0, 0);
  CHECK(m.n_terms == 3 && has(&m, 0, 0, 1, 1) && has(&m, 1, 1, 1, 0) && has(&m, 2, 2, 1, 0) && close_to(m.c0, 5) &&
        close_to(m.terms[0].c, 2) && close_to(m.terms[1].c, 3) && close_to(m.terms[2].c, 0.1));
  char text[160];
  hpcdb_scaling_format(&m, text, sizeof text);
  CHECK(!strcmp(text, "5 + 2 * log2(p) + 3 * p + 0.1 * p^2"));
  /* k terms need 2 (k + 1) points: six points give two terms at most, five one */
  m = fit(three, 0);
  CHECK(m.n_terms == 2);
  m = fit_at(p_plog, 5, 0, 0);
  CHECK(m.n_terms == 1);
  /* noisy: the same terms, coefficients near (p and p log2 p tell apart only under little noise) */
  for (int pattern = 0; pattern < 2; pattern++) {
    m = fit_at(p_plog, 8, 0.001, pattern);
    CHECK(m.n_terms == 2 && has(&m, 0, 1, 1, 0) && has(&m, 1, 1, 1, 1) && near(m.terms[0].c, 2, 0.01) &&
          near(m.terms[1].c, 0.5, 0.01));
    m = fit_at(p_plog, 10, 0.005, pattern);
    CHECK(m.n_terms == 2 && has(&m, 0, 1, 1, 0) && has(&m, 1, 1, 1, 1) && near(m.terms[0].c, 2, 0.02) &&
          near(m.terms[1].c, 0.5, 0.02));
    m = fit_at(log_quadratic, 8, 0.01, pattern);
    CHECK(m.n_terms == 2 && has(&m, 0, 0, 1, 1) && has(&m, 1, 2, 1, 0) && near(m.terms[0].c, 3, 0.02) &&
          near(m.terms[1].c, 0.02, 0.02));
    m = fit_at(cubic, 10, 0.01, pattern);
    CHECK(m.n_terms == 2 && has(&m, 0, 1, 1, 0) && has(&m, 1, 3, 1, 0) && near(m.terms[0].c, 2, 0.01) &&
          near(m.terms[1].c, 0.001, 0.01));
  }
}

/* Noise on a one-term function is not a second term (and up to 3 % it leaves the term itself). */
static void no_overfit(void) {
  double (*fs[])(double) = {linear, logarithmic, quadratic, sqrt_log};
  const int want[][3] = {{1, 1, 0}, {0, 1, 1}, {2, 1, 0}, {1, 2, 1}};
  for (int f = 0; f < 4; f++)
    for (int points = 6; points <= 10; points += 2)
      for (int pattern = 0; pattern < 2; pattern++)
        for (int percent = 1; percent <= 5; percent += 2) {
          hpcdb_scaling_model m = fit_at(fs[f], points, percent / 100.0, pattern);
          CHECK(m.n_terms == 1);
          /* p^(1/2) log2 p and its neighbours p^(2/3), p^(3/4) are one another within such noise */
          if (f < 3 && percent <= 3) CHECK(has(&m, 0, want[f][0], want[f][1], want[f][2]));
        }
}

static void growth_and_text(void) {
  hpcdb_scaling_model quad = {.n_terms = 1, .terms = {{0.1, 2, 1, 0}}}, nlogn = {.n_terms = 1, .terms = {{3, 1, 1, 1}}};
  CHECK(hpcdb_scaling_growth(&quad) > hpcdb_scaling_growth(&nlogn));
  /* the fastest term with a positive coefficient */
  hpcdb_scaling_model mixed = {.c0 = 1, .n_terms = 2, .terms = {{3, 1, 1, 0}, {-0.5, 2, 1, 0}}};
  CHECK(hpcdb_scaling_growth(&mixed) == 1);
  char text[64];
  hpcdb_scaling_format(&(hpcdb_scaling_model){.c0 = 5, .n_terms = 1, .terms = {{-0.25, 3, 2, 2}}}, text, sizeof text);
  CHECK(!strcmp(text, "5 - 0.25 * p^(3/2) * log2(p)^2"));
  hpcdb_scaling_format(&mixed, text, sizeof text);
  CHECK(!strcmp(text, "1 + 3 * p - 0.5 * p^2"));
  CHECK(close_to(hpcdb_scaling_eval(&mixed, 4), 1 + 12 - 8));
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
  one_term();
  several_terms();
  no_overfit();
  growth_and_text();
  identity();
  folders();
  return TEST_END();
}
