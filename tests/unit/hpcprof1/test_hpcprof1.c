/* SPDX-License-Identifier: BSD-3-Clause */
/* The HPCPROF-* readers and validator against bytes laid out by hand from
 * the draft documents (as corrected in specs/README.md: big-endian, version
 * 1.0, little-endian-spelled footers, 12-byte cct.db pairs), and against the
 * real 2022 samples. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/bytes.h"
#include "hpcdb/hpcdb.h"
#include "older/hpcprof1/hpcprof1.h"
#include "testlib.h"

static void header(uint8_t *d, const char *magic, uint32_t count, uint16_t n_sec) {
  memcpy(d, magic, 16);
  d[16] = 1;
  d[17] = 0;
  wr_be32(d + 18, count);
  wr_be16(d + 22, n_sec);
}
static void section(uint8_t *d, unsigned s, uint64_t size, uint64_t off) {
  wr_be64(d + 24 + 16 * s, size);
  wr_be64(d + 32 + 16 * s, off);
}
static void value10(uint8_t *p, double v, uint16_t m) {
  wr_be_f64(p, v);
  wr_be16(p + 8, m);
}
static void pair12(uint8_t *p, uint32_t id, uint64_t idx) {
  wr_be32(p, id);
  wr_be64(p + 4, idx);
}

/* profile.db: the summary (ctx 5: metric 7 = 2.5) and one thread with the
 * tuple (RANK logical-only 4, NODE 0xabc) and ctx 1: m3 = 1, m4 = -2; ctx 9: m3 = 0.25. */
static size_t make_profile(uint8_t *d) {
  memset(d, 0, 346);
  header(d, "HPCPROF-profdb__", 2, 2);
  section(d, 0, 104, 64);
  section(d, 1, 58, 168);
  uint8_t *pi = d + 64;
  wr_be64(pi, 168);      /* summary tuple */
  wr_be64(pi + 32, 1);   /* num_vals */
  wr_be32(pi + 40, 1);   /* num_nzctxs */
  wr_be64(pi + 44, 232); /* prof_off */
  pi += 52;
  wr_be64(pi, 188);
  wr_be64(pi + 32, 3);
  wr_be32(pi + 40, 2);
  wr_be64(pi + 44, 272);
  wr_be16(d + 168, 1); /* [SUMMARY 0 0] */
  wr_be16(d + 188, 2);
  wr_be16(d + 190, 0xc002);
  wr_be64(d + 192, 0);
  wr_be64(d + 200, 4);
  wr_be16(d + 208, 0x0001);
  wr_be64(d + 210, 0xabc);
  wr_be64(d + 218, 0);
  value10(d + 232, 2.5, 7);
  pair12(d + 242, 5, 0);
  pair12(d + 254, 0x656E6421, 1);
  value10(d + 272, 1.0, 3);
  value10(d + 282, -2.0, 4);
  value10(d + 292, 0.25, 3);
  pair12(d + 302, 1, 0);
  pair12(d + 314, 9, 2);
  pair12(d + 326, 0x656E6421, 3);
  memcpy(d + 338, "tfBDFORP", 8);
  return 346;
}

/* cct.db: the transpose of the thread profile above, contexts 0..9. */
static size_t make_cct(uint8_t *d) {
  memset(d, 0, 360);
  header(d, "HPCPROF-cctdb___", 10, 1);
  section(d, 0, 220, 40);
  for (uint32_t c = 0; c < 10; c++) wr_be32(d + 40 + 22 * c, c);
  uint8_t *ci = d + 40 + 22;
  wr_be64(ci + 4, 2);
  wr_be16(ci + 12, 2);
  wr_be64(ci + 14, 264);
  ci = d + 40 + 22 * 9;
  wr_be64(ci + 4, 1);
  wr_be16(ci + 12, 1);
  wr_be64(ci + 14, 320);
  wr_be_f64(d + 264, 1.0);
  wr_be32(d + 272, 1);
  wr_be_f64(d + 276, -2.0);
  wr_be32(d + 284, 1);
  wr_be16(d + 288, 3);
  wr_be64(d + 290, 0);
  wr_be16(d + 298, 4);
  wr_be64(d + 300, 1);
  wr_be16(d + 308, 0x6564);
  wr_be64(d + 310, 2);
  wr_be_f64(d + 320, 0.25);
  wr_be32(d + 328, 1);
  wr_be16(d + 332, 3);
  wr_be64(d + 334, 0);
  wr_be16(d + 342, 0x6564);
  wr_be64(d + 344, 1);
  memcpy(d + 352, "rtfBDTCC", 8);
  return 360;
}

/* trace.db: profile 1 samples (100, ctx 1), (150, ctx 9); an empty line
 * pointing past the end (as real files do); no range in the header. */
static size_t make_trace(uint8_t *d, uint64_t min, uint64_t max) {
  memset(d, 0, 136);
  header(d, "HPCPROF-tracedb_", 2, 1);
  section(d, 0, 44, 64);
  wr_be64(d + 40, min);
  wr_be64(d + 48, max);
  wr_be32(d + 64, 1);
  wr_be64(d + 70, 112);
  wr_be64(d + 78, 136);
  wr_be32(d + 86, 1);
  wr_be64(d + 92, 5000);
  wr_be64(d + 100, 5000);
  wr_be64(d + 112, 100);
  wr_be32(d + 120, 1);
  wr_be64(d + 124, 150);
  wr_be32(d + 132, 9);
  return 136;
}

static void test_hand_profile(void) {
  uint8_t d[400];
  size_t n = make_profile(d);
  hpcdb_experiment *exp;
  uint32_t first = 99;
  CHECK_RC(hpcdb_experiment_new(&exp));
  CHECK_RC(hpcprof1_parse_profiles(exp, d, n, "profile.db", NULL, &first));
  CHECK(first == 0 && exp->n_profiles == 2);
  CHECK(exp->profiles[0].flags == HPCDB_PROFILE_SUMMARY && !exp->profiles[0].has_id_tuple);
  double v = 0;
  CHECK(hpcdb_profile_value(&exp->profiles[0], 5, 7, &v) == 1 && v == 2.5);
  const hpcdb_profile *p = &exp->profiles[1];
  CHECK(p->has_id_tuple && p->n_ids == 2 && exp->n_kind_names == 3);
  CHECK(p->ids[0].kind == 2 && p->ids[0].flags == 0 && p->ids[0].logical_id == 4);
  CHECK(p->ids[1].kind == 1 && p->ids[1].flags == HPCDB_ID_PHYSICAL && p->ids[1].physical_id == 0xabc);
  CHECK(p->n_values == 3 && p->n_ctxs == 2);
  CHECK(hpcdb_profile_value(p, 1, 4, &v) == 1 && v == -2.0);
  CHECK(hpcdb_profile_value(p, 9, 3, &v) == 1 && v == 0.25);
  hpcdb_experiment_free(exp);

  /* through a metric map: thread 3 -> 10, 4 dropped; summary 7 -> 1 */
  uint16_t thread[5] = {0, 1, 2, 10, HPCPROF1_DROP}, summary[8] = {0, 0, 0, 0, 0, 0, 0, 1};
  hpcprof1_metric_map map = {thread, 5, summary, 8};
  CHECK_RC(hpcdb_experiment_new(&exp));
  CHECK_RC(hpcdb_add_kind_name(exp, "SUMMARY", NULL));
  CHECK_RC(hpcprof1_parse_profiles(exp, d, n, "profile.db", &map, &first));
  CHECK(exp->n_kind_names == 3 && !strcmp(exp->kind_names[0], "SUMMARY") && !strcmp(exp->kind_names[2], "KIND2"));
  CHECK(hpcdb_profile_value(&exp->profiles[0], 5, 1, &v) == 1 && v == 2.5);
  CHECK(exp->profiles[1].n_values == 2 && hpcdb_profile_value(&exp->profiles[1], 1, 10, &v) == 1 && v == 1.0);
  CHECK(hpcdb_profile_value(&exp->profiles[1], 1, 4, &v) == 0);
  hpcdb_experiment_free(exp);

  /* two file ids mapped onto one model id in one context */
  thread[4] = 10;
  CHECK_RC(hpcdb_experiment_new(&exp));
  CHECK(hpcprof1_parse_profiles(exp, d, n, "profile.db", &map, &first) == HPCDB_ECORRUPT);
  CHECK(strstr(hpcdb_last_error(), "duplicate-metric") != NULL);
  hpcdb_experiment_free(exp);
}

static void test_hand_trace(void) {
  uint8_t d[200], pd[400];
  size_t pn = make_profile(pd);
  hpcdb_experiment *exp;
  uint32_t first;
  CHECK_RC(hpcdb_experiment_new(&exp));
  CHECK_RC(hpcprof1_parse_profiles(exp, pd, pn, "profile.db", NULL, &first));
  size_t n = make_trace(d, 0, 0);
  CHECK_RC(hpcprof1_parse_traces(exp, d, n, "trace.db", first));
  CHECK(exp->has_traces && exp->n_traces == 2 && exp->trace_min == 100 && exp->trace_max == 150);
  CHECK(exp->traces[0].profile == 1 && exp->traces[0].n == 2 && exp->traces[0].ctx_ids[1] == 9);
  CHECK(exp->traces[1].n == 0);
  hpcdb_experiment_free(exp);
  CHECK_RC(hpcdb_experiment_new(&exp));
  CHECK_RC(hpcprof1_parse_profiles(exp, pd, pn, "profile.db", NULL, &first));
  n = make_trace(d, 50, 200);
  CHECK_RC(hpcprof1_parse_traces(exp, d, n, "trace.db", first));
  CHECK(exp->trace_min == 50 && exp->trace_max == 200);
  wr_be32(d + 64, 2); /* a profile that does not exist */
  CHECK(hpcprof1_parse_traces(exp, d, n, "trace.db", first) == HPCDB_ECORRUPT);
  hpcdb_experiment_free(exp);
}

typedef struct tally {
  int errors;
  char rules[512];
} tally;

static void collect(void *user, const hpcdb_diagnostic *d) {
  tally *t = user;
  if (d->severity != HPCDB_SEV_ERROR) return;
  t->errors++;
  size_t n = strlen(t->rules);
  snprintf(t->rules + n, sizeof t->rules - n, " %s", d->rule);
  fprintf(stderr, "  %s: 0x%llx: %s: %s\n", d->file, (unsigned long long)d->offset, d->rule, d->detail);
}

static int validate_dir(const char *dir, const uint32_t *known, size_t n_known, tally *t) {
  hpcdb_validation r = {0, 0};
  memset(t, 0, sizeof *t);
  int rc = hpcprof1_validate(&r, dir, known, n_known, collect, t);
  return rc < 0 ? -1 : (int)r.errors;
}

static void test_hand_validate(void) {
  uint8_t p[400], c[400], t[200];
  const char *dir = testlib_tmpdir("hpcprof1-hand");
  char path[4200];
  tally y;
  snprintf(path, sizeof path, "%s/profile.db", dir);
  CHECK_RC(testlib_write_file(path, p, make_profile(p)));
  snprintf(path, sizeof path, "%s/cct.db", dir);
  CHECK_RC(testlib_write_file(path, c, make_cct(c)));
  snprintf(path, sizeof path, "%s/trace.db", dir);
  CHECK_RC(testlib_write_file(path, t, make_trace(t, 0, 0)));
  CHECK(validate_dir(dir, NULL, 0, &y) == 0);
  /* a cct.db value that is not profile.db's */
  snprintf(path, sizeof path, "%s/cct.db", dir);
  wr_be_f64(c + 320, 0.5);
  CHECK_RC(testlib_write_file(path, c, 360));
  CHECK(validate_dir(dir, NULL, 0, &y) == 1 && strstr(y.rules, "transpose"));
}

/* The real samples: numbers read off the files with xxd and checked against
 * the draft's document and experiment.xml (ids 1-3 NODE/RANK/THREAD). */
static void test_samples(void) {
  char path[4200];
  hpcdb_experiment *exp;
  uint32_t first;
  const char *base = testlib_sample("hpctoolkit-2022/ping-pong-mpi");
  CHECK_RC(hpcdb_experiment_new(&exp));
  snprintf(path, sizeof path, "%s/profile.db", base);
  CHECK_RC(hpcprof1_read_profiles(exp, path, NULL, &first));
  CHECK(exp->n_profiles == 3 && exp->profiles[0].n_values == 113 && exp->profiles[1].n_values == 65 &&
        exp->profiles[2].n_values == 53);
  /* the summary lists 103 contexts, 18 of them with no value (hpcprof wrote them so): the model keeps 85 */
  CHECK(exp->profiles[0].n_ctxs == 85 && exp->profiles[1].n_ctxs == 48 && exp->profiles[2].n_ctxs == 42);
  const hpcdb_profile *p = &exp->profiles[1];
  CHECK(p->n_ids == 3 && p->ids[0].kind == 1 && p->ids[0].physical_id == 0xa8c00280 && p->ids[1].kind == 2 &&
        p->ids[1].logical_id == 1 && p->ids[1].flags == 0 && p->ids[2].kind == 3 && p->ids[2].logical_id == 0);
  CHECK(exp->profiles[2].ids[1].logical_id == 0); /* rank 0 */
  uint16_t m = exp->profiles[0].metric_ids[0];
  CHECK(m == 256 || m == 512); /* the summary holds the statistic ids, threads the raw ids 1, 2 */
  CHECK(exp->profiles[1].metric_ids[0] == 1 || exp->profiles[1].metric_ids[0] == 2);
  snprintf(path, sizeof path, "%s/trace.db", base);
  CHECK_RC(hpcprof1_read_traces(exp, path, first));
  CHECK(exp->n_traces == 2 && exp->traces[0].profile == 1 && exp->traces[0].n == 24 && exp->traces[1].n == 24);
  CHECK(exp->trace_min > 0 && exp->trace_min <= exp->traces[1].timestamps[0] && exp->trace_max >= exp->trace_min);
  /* the v4.0 database of the same program (another run): the same structure */
  hpcdb_experiment *v4;
  CHECK_RC(hpcdb_read(&v4, testlib_sample("hpctoolkit-v4/ping-pong-mpi")));
  if (v4) {
    CHECK(v4->n_profiles == exp->n_profiles && v4->n_traces == exp->n_traces);
    for (uint32_t i = 1; i < exp->n_profiles && i < v4->n_profiles; i++) {
      CHECK(v4->profiles[i].n_ids == exp->profiles[i].n_ids);
      for (uint16_t k = 0; k < exp->profiles[i].n_ids && k < v4->profiles[i].n_ids; k++) {
        CHECK(!strcmp(v4->kind_names[v4->profiles[i].ids[k].kind], exp->kind_names[exp->profiles[i].ids[k].kind]) ||
              !strncmp(exp->kind_names[exp->profiles[i].ids[k].kind], "KIND", 4));
        CHECK(exp->profiles[i].ids[k].kind == k + 1); /* NODE, RANK, THREAD: kinds 1-3 of the draft */
        if (k > 0) CHECK(v4->profiles[i].ids[k].logical_id == exp->profiles[i].ids[k].logical_id); /* rank, thread */
      }
    }
  }
  hpcdb_experiment_free(v4);
  hpcdb_experiment_free(exp);
  tally y;
  CHECK(validate_dir(base, NULL, 0, &y) == 0);
  CHECK(validate_dir(testlib_sample("hpctoolkit-2022/empty-trace"), NULL, 0, &y) == 0);
  CHECK_RC(hpcdb_experiment_new(&exp));
  snprintf(path, sizeof path, "%s/profile.db", testlib_sample("hpctoolkit-2022/empty-trace"));
  CHECK_RC(hpcprof1_read_profiles(exp, path, NULL, &first));
  snprintf(path, sizeof path, "%s/trace.db", testlib_sample("hpctoolkit-2022/empty-trace"));
  CHECK_RC(hpcprof1_read_traces(exp, path, first));
  CHECK(exp->n_profiles == 2 && exp->n_traces == 1 && exp->traces[0].n == 0 && exp->has_traces);
  hpcdb_experiment_free(exp);
}

int main(void) {
  test_hand_profile();
  test_hand_trace();
  test_hand_validate();
  if (testlib_have_samples()) test_samples();
  else printf("sample data not found: real-file checks skipped\n");
  return TEST_END();
}
