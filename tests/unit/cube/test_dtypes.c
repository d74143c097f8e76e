/* SPDX-License-Identifier: BSD-3-Clause */
/* Cube's composite data types decoded to their components: hand-laid values
 * of every composite type in both byte orders; a small hand-made .cubex in
 * both byte orders read into the model (components as metrics, which flavour
 * and summary each has) and with a SCALE_FUNC value whose counts overrun it
 * (rejected by the reader and the validator); and the exact components of
 * all-dtypes.cubex at a few (cnode, location) pairs. */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/bytes.h"
#include "cube/cube.h"
#include "hpcdb/hpcdb.h"
#include "testlib.h"

/* ---- hand-laid values ----------------------------------------------------- */

static void put32(uint8_t *p, uint32_t v, int be) {
  if (be) wr_be32(p, v);
  else wr_le32(p, v);
}
static void put64(uint8_t *p, double d, int be) {
  if (be) wr_be_f64(p, d);
  else wr_le_f64(p, d);
}

static cube_dtype dtype(const char *name) {
  cube_dtype t;
  CHECK(cube_dtype_parse(&t, name) == 1);
  return t;
}

/* Names, rules and values of every component of one value. */
static void check_components(const cube_dtype *t, uint32_t terms, int flavour, const uint8_t *p, int be, uint32_t n,
                             const char *const *names, const int *aggregates, const int *derivable,
                             const double *values) {
  CHECK(cube_n_components(t, terms) == n);
  for (uint32_t k = 0; k < n; k++) {
    cube_component c;
    cube_component_of(t, k, flavour, &c);
    double v = cube_decode_component(t, k, p, be);
    if (strcmp(c.name, names[k]) || c.aggregate != aggregates[k] || c.derivable != derivable[k] || v != values[k]) {
      fprintf(stderr, "component %u (%s): %s %d %d %.17g, want %s %d %d %.17g\n", k, be ? "BE" : "LE", c.name,
              c.aggregate, c.derivable, v, names[k], aggregates[k], derivable[k], values[k]);
      CHECK(0);
    }
  }
}

static void hand_laid(int be) {
  uint8_t v[CUBE_SCALE_FUNC_SIZE];
  enum { S = CUBE_SUM, MN = CUBE_MIN, MX = CUBE_MAX };

  cube_dtype t = dtype("COMPLEX");
  CHECK(t.size == 16);
  put64(v, 1.5, be), put64(v + 8, -2.25, be);
  CHECK(cube_decode(&t, v, be) == 1.5); /* the metric's own number: the real part */
  check_components(&t, 0, CUBE_INCLUSIVE, v, be, 2, (const char *[]){"re", "im"}, (int[]){S, S}, (int[]){1, 1},
                   (double[]){1.5, -2.25});

  t = dtype("RATE");
  put64(v, 3, be), put64(v + 8, 4, be);
  CHECK(cube_decode(&t, v, be) == 0.75);
  check_components(&t, 0, CUBE_EXCLUSIVE, v, be, 2, (const char *[]){"numerator", "denominator"}, (int[]){S, S},
                   (int[]){0, 0}, (double[]){3, 4});
  put64(v + 8, 0, be);
  CHECK(cube_decode(&t, v, be) == 0); /* no quotient without a denominator */

  t = dtype("TAU_ATOMIC");
  CHECK(t.size == 36);
  put32(v, 7, be), put64(v + 4, -1, be), put64(v + 12, 9, be), put64(v + 20, 20, be), put64(v + 28, 100, be);
  CHECK(cube_decode(&t, v, be) == 20);
  const char *tau[] = {"count", "min", "max", "sum", "sum2"};
  check_components(&t, 0, CUBE_EXCLUSIVE, v, be, 5, tau, (int[]){S, MN, MX, S, S}, (int[]){1, 1, 1, 1, 1},
                   (double[]){7, -1, 9, 20, 100});
  /* stored inclusive: the subtree's min / max are not the node's own */
  check_components(&t, 0, CUBE_INCLUSIVE, v, be, 5, tau, (int[]){S, MN, MX, S, S}, (int[]){1, 0, 0, 1, 1},
                   (double[]){7, -1, 9, 20, 100});
  put32(v, 0xffffffffu, be);
  CHECK(cube_decode_component(&t, 0, v, be) == 4294967295.0); /* the count is unsigned */

  t = dtype("NDOUBLES(3)");
  CHECK(t.size == 24);
  put64(v, 1, be), put64(v + 8, 2.5, be), put64(v + 16, -4, be);
  CHECK(cube_decode(&t, v, be) == -0.5);
  check_components(&t, 0, CUBE_EXCLUSIVE, v, be, 3, (const char *[]){"0", "1", "2"}, (int[]){S, S, S}, (int[]){1, 1, 1},
                   (double[]){1, 2.5, -4});

  t = dtype("HISTOGRAM(4)");
  CHECK(t.size == 48);
  put64(v, 0.5, be), put64(v + 8, 8, be);
  for (int i = 0; i < 4; i++) put64(v + 16 + 8 * i, 10 * (i + 1), be);
  CHECK(cube_decode(&t, v, be) == 100); /* the sum of the bins, not of min and max */
  check_components(&t, 0, CUBE_EXCLUSIVE, v, be, 6, (const char *[]){"min", "max", "bin0", "bin1", "bin2", "bin3"},
                   (int[]){MN, MX, S, S, S, S}, (int[]){1, 1, 0, 0, 0, 0}, (double[]){0.5, 8, 10, 20, 30, 40});

  t = dtype("SCALE_FUNC");
  CHECK(t.size == 848);
  memset(v, 0, sizeof v);
  put32(v, 2, be), put32(v + 4, 1, be);
  put64(v + 8, 2, be), put32(v + 16, 2, be), put32(v + 20, 3, be), put32(v + 24, 4, be);
  put64(v + 28, -1.5, be), put32(v + 36, (uint32_t)-1, be), put32(v + 40, 2, be), put32(v + 44, (uint32_t)-3, be);
  put32(v + 48, 64, be), put64(v + 52, 1.25, be), put64(v + 60, 0.5, be); /* one measurement, right after the terms */
  CHECK(cube_decode(&t, v, be) == 0);                                     /* no single number */
  CHECK(cube_scale_func_terms(v, be) == 2);
  /* a third term column (from another value) reads 0 here */
  check_components(&t, 3, CUBE_EXCLUSIVE, v, be, 13,
                   (const char *[]){"terms", "term0.a", "term0.b", "term0.c", "term0.d", "term1.a", "term1.b",
                                    "term1.c", "term1.d", "term2.a", "term2.b", "term2.c", "term2.d"},
                   (int[]){S, S, S, S, S, S, S, S, S, S, S, S, S}, (int[]){0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
                   (double[]){2, 2, 2, 3, 4, -1.5, -1, 2, -3, 0, 0, 0, 0});
  CHECK(cube_n_components(&t, 99) == 1 + 4 * 30); /* never beyond the 30 terms a value has room for */
  put32(v, 30, be), put32(v + 4, 10, be);
  CHECK(cube_scale_func_terms(v, be) == 30);
  put32(v, 31, be);
  CHECK(cube_scale_func_terms(v, be) == -1);
  CHECK(cube_decode_component(&t, 1 + 4 * 30, v, be) == 0); /* a term 30 does not exist */
  put32(v, 2, be), put32(v + 4, 11, be);
  CHECK(cube_scale_func_terms(v, be) == -1);

  /* plain numbers have no components */
  t = dtype("DOUBLE");
  CHECK(cube_n_components(&t, 0) == 0);
  t = dtype("MINDOUBLE");
  CHECK(cube_n_components(&t, 0) == 0);
  CHECK(cube_dtype_size("HISTOGRAM(0)") == 0 && cube_dtype_size("NDOUBLES(2") == 0);
}

/* ---- a hand-made .cubex ----------------------------------------------------- */

static const char anchor[] =
    "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<cube version=\"4.4\">\n<metrics>\n"
    "<metric id=\"0\" type=\"EXCLUSIVE\"><disp_name>T</disp_name><uniq_name>T</uniq_name><dtype>TAU_ATOMIC</dtype>"
    "<uom>sec</uom><url></url><descr></descr></metric>\n"
    "<metric id=\"1\" type=\"INCLUSIVE\"><disp_name>R</disp_name><uniq_name>R</uniq_name><dtype>RATE</dtype>"
    "<uom>sec</uom><url></url><descr></descr></metric>\n"
    "<metric id=\"2\" type=\"EXCLUSIVE\"><disp_name>S</disp_name><uniq_name>S</uniq_name><dtype>SCALE_FUNC</dtype>"
    "<uom>sec</uom><url></url><descr></descr></metric>\n"
    "<metric id=\"3\" type=\"INCLUSIVE\"><disp_name>N</disp_name><uniq_name>N</uniq_name><dtype>NDOUBLES(33000)</dtype>"
    "<uom>sec</uom><url></url><descr></descr></metric>\n"
    "</metrics>\n<program>\n"
    "<region id=\"0\" mod=\"a.c\" begin=\"1\" end=\"9\"><name>main</name><mangled_name>main</mangled_name>"
    "<paradigm>user</paradigm><role>function</role><url></url><descr></descr></region>\n"
    "<cnode id=\"0\" calleeId=\"0\"><cnode id=\"1\" calleeId=\"0\"></cnode></cnode>\n</program>\n"
    "<system><systemtreenode Id=\"0\"><name>m</name><class>machine</class>"
    "<locationgroup Id=\"0\"><name>p</name><rank>0</rank><type>process</type>"
    "<location Id=\"0\"><name>t0</name><rank>0</rank><type>thread</type></location>"
    "<location Id=\"1\"><name>t1</name><rank>1</rank><type>thread</type></location>"
    "</locationgroup></systemtreenode></system>\n</cube>\n";

/* A dense index of the two cnodes in the given byte order. */
static size_t index_bytes(uint8_t *ix, int be) {
  memcpy(ix, "CUBEX.INDEX", 11);
  put32(ix + 11, 1, be);
  ix[15] = ix[16] = 0;
  ix[17] = 3;
  return 18;
}

/* The model's value of metric `name` in scope `scope` (point / execution) at
 * cnode c in profile p; NAN when there is no such metric or scope. */
static double model_value(const hpcdb_experiment *e, const char *name, const char *scope, uint32_t cnode, uint32_t p) {
  for (uint32_t m = 0; m < e->n_metrics; m++) {
    if (strcmp(e->metrics[m].name, name)) continue;
    for (uint32_t i = 0; i < e->metrics[m].n_instances; i++)
      if (!strcmp(e->scopes[e->metrics[m].instances[i].scope].name, scope)) {
        double v = 0;
        hpcdb_profile_value(&e->profiles[p], cnode + 1, e->metrics[m].instances[i].prop_metric_id, &v);
        return v;
      }
    return NAN;
  }
  return NAN;
}

static uint32_t n_summaries(const hpcdb_experiment *e, const char *name) {
  for (uint32_t m = 0; m < e->n_metrics; m++)
    if (!strcmp(e->metrics[m].name, name)) return e->metrics[m].n_summaries;
  return UINT32_MAX;
}

/* Written as Cube, the components read back as they were (stored-only ones
 * marked so), and direct access gives 0 for the flavour they lack. */
static void rewritten(const hpcdb_experiment *e, const char *dir, int be) {
  char path[1024];
  snprintf(path, sizeof path, "%s/rewritten-%s.cubex", dir, be ? "be" : "le");
  hpcdb_cube_write_options o = {HPCDB_CUBE_WRITE_OPTIONS_VERSION, 0, HPCDB_WRITE_FORCE};
  CHECK_RC(hpcdb_cube_write(e, path, &o));
  hpcdb_experiment *back = NULL;
  CHECK_RC(hpcdb_cube_read(&back, path));
  if (!back) return;
  uint64_t n = 1;
  CHECK(hpcdb_diff(&n, e, back, NULL, NULL, NULL) == 0 && n == 0);
  CHECK(hpcdb_diff(&n, back, e, NULL, NULL, NULL) == 0 && n == 0);
  /* the written file's cnode 0 is the synthetic entry point: cnode c is c + 1 there */
  CHECK(n_summaries(back, "R:numerator") == 0 && isnan(model_value(back, "R:numerator", "point", 1, 2)));
  CHECK(model_value(back, "S:term1.d", "point", 1, 2) == -3 &&
        isnan(model_value(back, "S:term1.d", "execution", 1, 2)));
  hpcdb_experiment_free(back);
  hpcdb_cube *c = NULL;
  CHECK_RC(hpcdb_cube_open(&c, path));
  if (!c) return;
  double out[64];
  CHECK(hpcdb_cube_n_cnodes(c) * hpcdb_cube_n_locations(c) <= 64);
  for (uint32_t m = 0; m < hpcdb_cube_n_metrics(c); m++) {
    if (strcmp(hpcdb_cube_metric_name(c, m), "S:term1.d")) continue;
    int nonzero[2] = {0, 0};
    for (int inclusive = 0; inclusive < 2; inclusive++) {
      CHECK_RC(hpcdb_cube_metric_values(c, m, inclusive, out));
      for (uint32_t i = 0; i < hpcdb_cube_n_cnodes(c) * hpcdb_cube_n_locations(c); i++)
        nonzero[inclusive] += out[i] != 0;
    }
    CHECK(nonzero[0] == 1 && nonzero[1] == 0);
  }
  hpcdb_cube_close(c);
}

static void hand_made_file(const char *dir, int be) {
  /* TAU: cnode 0 (N 2, 1, 4, 5, 13) at both locations, cnode 1 (N 1, 3, 3, 3, 9) at location 0 only */
  uint8_t tau_ix[32], rate_ix[32], sf_ix[32], tau[10 + 4 * 36] = "CUBEX.DATA", rate[10 + 4 * 16] = "CUBEX.DATA";
  uint8_t *sf = calloc(1, 10 + 4 * CUBE_SCALE_FUNC_SIZE), nd_ix[32];
  memcpy(sf, "CUBEX.DATA", 10);
  size_t nd_len = 10 + 4 * 33000 * 8;
  uint8_t *nd = calloc(1, nd_len); /* NDOUBLES(33000): too many components for 16-bit metric ids */
  memcpy(nd, "CUBEX.DATA", 10);
  put64(nd + 10 + 33000 * 8, 1, be), put64(nd + 10 + 33000 * 8 + 8, 2, be);
  size_t ixn = index_bytes(tau_ix, be);
  index_bytes(rate_ix, be), index_bytes(sf_ix, be), index_bytes(nd_ix, be);
  const double tau_v[4][5] = {{2, 1, 4, 5, 13}, {2, 1, 4, 5, 13}, {1, 3, 3, 3, 9}, {0, 0, 0, 0, 0}};
  for (int i = 0; i < 4; i++) {
    uint8_t *p = tau + 10 + 36 * i;
    put32(p, (uint32_t)tau_v[i][0], be);
    for (int f = 1; f < 5; f++) put64(p + 4 + 8 * (f - 1), tau_v[i][f], be);
  }
  /* RATE (inclusive): 6/2 and 1/4 at cnode 0, 2/1 at cnode 1 location 1 */
  const double rate_v[4][2] = {{6, 2}, {1, 4}, {0, 1}, {2, 1}};
  for (int i = 0; i < 4; i++) put64(rate + 10 + 16 * i, rate_v[i][0], be), put64(rate + 18 + 16 * i, rate_v[i][1], be);
  /* SCALE_FUNC: cnode 0 location 1 holds 2 terms, cnode 1 location 0 one */
  uint8_t *p = sf + 10 + CUBE_SCALE_FUNC_SIZE;
  put32(p, 2, be), put64(p + 8, 2, be), put32(p + 16, 2, be), put32(p + 20, 3, be), put32(p + 24, 4, be);
  put64(p + 28, 1, be), put32(p + 36, 1, be), put32(p + 40, 2, be), put32(p + 44, (uint32_t)-3, be);
  p = sf + 10 + 2 * CUBE_SCALE_FUNC_SIZE;
  put32(p, 1, be), put64(p + 8, 0.5, be), put32(p + 16, 0, be), put32(p + 20, 1, be), put32(p + 24, 1, be);
  testlib_member ms[] = {{"anchor.xml", (const uint8_t *)anchor, sizeof anchor - 1},
                         {"0.index", tau_ix, ixn},
                         {"0.data", tau, sizeof tau},
                         {"1.index", rate_ix, ixn},
                         {"1.data", rate, sizeof rate},
                         {"2.index", sf_ix, ixn},
                         {"2.data", sf, 10 + 4 * CUBE_SCALE_FUNC_SIZE},
                         {"3.index", nd_ix, ixn},
                         {"3.data", nd, nd_len}};
  char path[1024];
  snprintf(path, sizeof path, "%s/hand-%s.cubex", dir, be ? "be" : "le");
  CHECK(testlib_write_tar(path, ms, 9) == 0);
  hpcdb_experiment *e = NULL;
  CHECK_RC(hpcdb_cube_read(&e, path));
  if (e) {
    /* TAU: sums and counts both ways; min / max from exclusive values over the subtree */
    CHECK(model_value(e, "T", "point", 0, 1) == 5); /* the metric's own number: the sum */
    CHECK(model_value(e, "T:count", "execution", 0, 1) == 3);
    CHECK(model_value(e, "T:min", "execution", 0, 1) == 1 && model_value(e, "T:max", "execution", 0, 1) == 4);
    CHECK(model_value(e, "T:sum2", "execution", 0, 1) == 22);
    CHECK(model_value(e, "T:min", "execution", 0, 2) == 0); /* as MINDOUBLE: a child without a value counts as 0 */
    CHECK(model_value(e, "T:count", "point", 0, 0) == 4);   /* the summary: summed over locations */
    CHECK(model_value(e, "T:max", "execution", 0, 0) == 4); /* ... or the max of them */
    CHECK(n_summaries(e, "T:min") == 2);
    /* RATE: numerator and denominator only as stored (inclusive), no summary */
    CHECK(model_value(e, "R", "execution", 0, 1) == 3);
    CHECK(model_value(e, "R:numerator", "execution", 0, 2) == 1 &&
          model_value(e, "R:denominator", "execution", 0, 2) == 4);
    CHECK(model_value(e, "R:numerator", "execution", 1, 2) == 2);
    CHECK(isnan(model_value(e, "R:numerator", "point", 0, 1)));
    CHECK(n_summaries(e, "R:denominator") == 0);
    CHECK(model_value(e, "R:numerator", "execution", 0, 0) == 0); /* nothing in the summary profile */
    /* SCALE_FUNC: the terms present (2), exclusive only, no single number */
    CHECK(model_value(e, "S:terms", "point", 0, 2) == 2 && model_value(e, "S:terms", "point", 1, 1) == 1);
    CHECK(model_value(e, "S:term0.a", "point", 0, 2) == 2 && model_value(e, "S:term0.c", "point", 0, 2) == 3);
    CHECK(model_value(e, "S:term1.d", "point", 0, 2) == -3 && model_value(e, "S:term0.a", "point", 1, 1) == 0.5);
    CHECK(isnan(model_value(e, "S:term0.a", "execution", 0, 2)) && n_summaries(e, "S:term2.a") == UINT32_MAX);
    CHECK(model_value(e, "S", "point", 0, 2) == 0);
    int noted = 0, omitted = 0;
    for (uint32_t i = 0; i < e->n_attrs; i++) {
      noted |= !strncmp(e->attrs[i].key, "cube.not-decoded.", 17);
      omitted += !strcmp(e->attrs[i].key, "cube.components-omitted.N");
    }
    CHECK(!noted);
    /* NDOUBLES(33000) keeps its single number; its components would need 66000 more metric ids */
    CHECK(omitted == 1 && n_summaries(e, "N:0") == UINT32_MAX);
    CHECK(model_value(e, "N", "execution", 0, 2) == 3);
    rewritten(e, dir, be);
    hpcdb_experiment_free(e);
  }
  hpcdb_validation res;
  CHECK(hpcdb_validate(&res, path, NULL, NULL) == 0 && res.errors == 0 && res.notes == 0);
  /* a SCALE_FUNC value claiming 31 terms (or 11 measurements): rejected, not read past */
  for (int bad = 0; bad < 2; bad++) {
    p = sf + 10 + 3 * CUBE_SCALE_FUNC_SIZE;
    put32(p, bad ? 0 : 31, be), put32(p + 4, bad ? 11 : 0, be);
    snprintf(path, sizeof path, "%s/bad-%d-%s.cubex", dir, bad, be ? "be" : "le");
    CHECK(testlib_write_tar(path, ms, 9) == 0);
    e = NULL;
    CHECK(hpcdb_cube_read(&e, path) == HPCDB_ECORRUPT && e == NULL);
    CHECK(strstr(hpcdb_last_error(), "scale-func-count") != NULL);
    CHECK(hpcdb_validate(&res, path, NULL, NULL) == 0 && res.errors == 1);
  }
  free(sf);
  free(nd);
}

/* ---- all-dtypes.cubex --------------------------------------------------------- */

/* CubeLib wrote it: 3 cnodes (0 calls 1 and 2), 4 locations, value i of a
 * metric at cnode i / 4, location i % 4. */
static void all_dtypes(void) {
  hpcdb_experiment *e = NULL;
  CHECK_RC(hpcdb_cube_read(&e, testlib_sample("cube/all-dtypes.cubex")));
  if (!e) return;
  /* TAU_ATOMIC (exclusive): (1,1,1,1,1) (2,1,3,4,10) (3,1,5,9,35) (5,1,11,27,205) | (0,0,0,0,0) (6,1,13,40,374)
   * ... | (9,1,23,99,1553) (10,1,29,128,2394) ... */
  for (int twice = 0; twice < 2; twice++) {
    const char *m = twice ? "TAU_ATOMIC2" : "TAU_ATOMIC";
    char n[64];
    const char *comp[] = {"count", "min", "max", "sum", "sum2"};
    const double c0l1[] = {2, 1, 3, 4, 10}, c0l0_incl[] = {10, 0, 23, 100, 1554}, c0l1_incl[] = {18, 1, 29, 172, 2778};
    for (int k = 0; k < 5; k++) {
      snprintf(n, sizeof n, "%s:%s", m, comp[k]);
      CHECK(model_value(e, n, "point", 0, 2) == c0l1[k]);
      CHECK(model_value(e, n, "execution", 0, 1) == c0l0_incl[k]);
      CHECK(model_value(e, n, "execution", 0, 2) == c0l1_incl[k]);
    }
    snprintf(n, sizeof n, "%s:count", m);
    CHECK(model_value(e, n, "point", 0, 0) == 11); /* summary: 1 + 2 + 3 + 5 */
    snprintf(n, sizeof n, "%s:max", m);
    CHECK(model_value(e, n, "point", 0, 0) == 11);
    CHECK(model_value(e, m, "point", 0, 2) == 4); /* the single number as before: the sum */
  }
  /* SCALE_FUNC3 (exclusive): cnode 0 location 0 has (2,2,3,4) (1,1,2,3); location 3 (3,2,3,4) (2,1,2,3)
   * (1,0,1,2); cnode 1 location 0 (2,3,4,5) (1,2,3,4) */
  const double sf00[] = {2, 2, 2, 3, 4, 1, 1, 2, 3, 0, 0, 0, 0}, sf03[] = {3, 3, 2, 3, 4, 2, 1, 2, 3, 1, 0, 1, 2},
               sf10[] = {2, 2, 3, 4, 5, 1, 2, 3, 4, 0, 0, 0, 0};
  const char *sfn[] = {"terms",   "term0.a", "term0.b", "term0.c", "term0.d", "term1.a", "term1.b",
                       "term1.c", "term1.d", "term2.a", "term2.b", "term2.c", "term2.d"};
  for (int k = 0; k < 13; k++) {
    char n[64];
    snprintf(n, sizeof n, "SCALE_FUNC3:%s", sfn[k]);
    CHECK(model_value(e, n, "point", 0, 1) == sf00[k]);
    CHECK(model_value(e, n, "point", 0, 4) == sf03[k]);
    CHECK(model_value(e, n, "point", 1, 1) == sf10[k]);
    CHECK(isnan(model_value(e, n, "execution", 0, 1)));
    CHECK(n_summaries(e, n) == 0);
  }
  CHECK(n_summaries(e, "SCALE_FUNC3:term3.a") == UINT32_MAX); /* no value has a fourth term */
  /* HISTOGRAM5 (exclusive): cnode 0 location 2 is min 3, max 7, bins 0..4 */
  CHECK(model_value(e, "HISTOGRAM5:min", "point", 0, 3) == 3 && model_value(e, "HISTOGRAM5:max", "point", 0, 3) == 7);
  CHECK(model_value(e, "HISTOGRAM5:bin4", "point", 0, 3) == 4 && model_value(e, "HISTOGRAM5:bin0", "point", 0, 3) == 0);
  CHECK(isnan(model_value(e, "HISTOGRAM5:bin4", "execution", 0, 3)));
  CHECK(model_value(e, "HISTOGRAM5:min", "execution", 0, 1) == 1 &&
        model_value(e, "HISTOGRAM5:max", "execution", 0, 1) == 29);
  CHECK(model_value(e, "HISTOGRAM5", "point", 0, 3) == 10);
  /* RATE (inclusive): cnode 2 location 1 is 10 / 1.1 */
  CHECK(model_value(e, "RATE:numerator", "execution", 2, 2) == 10);
  CHECK(model_value(e, "RATE:denominator", "execution", 2, 2) == 1.1);
  CHECK(model_value(e, "RATE", "execution", 2, 2) == 10 / 1.1);
  /* COMPLEX (inclusive): (1, 1) at cnode 0 location 0, (1, 5) and (1, 9) below it */
  CHECK(model_value(e, "COMPLEX:re", "execution", 0, 1) == 1 && model_value(e, "COMPLEX:im", "execution", 0, 1) == 1);
  CHECK(model_value(e, "COMPLEX:re", "point", 0, 1) == -1 && model_value(e, "COMPLEX:im", "point", 0, 1) == -13);
  /* NDOUBLES10 (inclusive): cnode 1 location 3 is 13 .. 22 */
  CHECK(model_value(e, "NDOUBLES10:0", "execution", 1, 4) == 13 &&
        model_value(e, "NDOUBLES10:9", "execution", 1, 4) == 22);
  CHECK(model_value(e, "NDOUBLES10", "execution", 1, 4) == 175);
  hpcdb_experiment_free(e);
}

int main(void) {
  hand_laid(0);
  hand_laid(1);
  const char *dir = testlib_tmpdir("unit-cube-dtypes");
  hand_made_file(dir, 0);
  hand_made_file(dir, 1);
  if (testlib_have_samples()) all_dtypes();
  else printf("sample data not found: all-dtypes.cubex skipped\n");
  return TEST_END();
}
