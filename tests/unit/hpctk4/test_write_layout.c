/* SPDX-License-Identifier: BSD-3-Clause */
/* The v4.0 writer against offsets and bytes computed by hand for a small
 * model (the layout is written out in the comments before each check). */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "common/bytes.h"
#include "hpcdb/hpcdb.h"
#include "hpctk4/hpctk4_write.h"
#include "testlib.h"

/* 1 module, 1 file, 1 function; metric "cycles" with scopes point (prop id 0)
 * and function (prop id 1), one summary (function, $$, sum, stat id 0); entry
 * point 1 (main thread) > context 2 (call to main) > context 3 (line a.c:9 at
 * /bin/a+0x123); summary + 2 thread profiles; value for context 7 (not in
 * the tree); one trace with two consecutive "not running" samples. */
static hpcdb_experiment *build(void) {
  hpcdb_experiment *e;
  uint32_t mod, file, fn, point, func, m, p;
  CHECK_RC(hpcdb_experiment_new(&e));
  CHECK_RC(hpcdb_set_title(e, "T", "D"));
  CHECK_RC(hpcdb_add_kind_name(e, "RANK", NULL));
  CHECK_RC(hpcdb_add_kind_name(e, "THREAD", NULL));
  CHECK_RC(hpcdb_add_module(e, "/bin/a", 0, &mod));
  CHECK_RC(hpcdb_add_file(e, "a.c", HPCDB_FILE_COPIED, &file));
  hpcdb_function f = {"main", mod, 0x100, file, 7, 0};
  CHECK_RC(hpcdb_add_function(e, &f, &fn));
  CHECK_RC(hpcdb_add_scope(e, &(hpcdb_scope){"point", HPCDB_SCOPE_POINT, 255}, &point));
  CHECK_RC(hpcdb_add_scope(e, &(hpcdb_scope){"function", HPCDB_SCOPE_TRANSITIVE, 0}, &func));
  CHECK_RC(hpcdb_add_metric(e, "cycles", &m));
  CHECK_RC(hpcdb_metric_add_instance(e, m, point, 0));
  CHECK_RC(hpcdb_metric_add_instance(e, m, func, 1));
  CHECK_RC(hpcdb_metric_add_summary(e, m, &(hpcdb_summary){func, "$$", HPCDB_COMBINE_SUM, 0}));

  hpcdb_context c = {0};
  uint32_t ie, i2;
  c.function = c.file = c.module = HPCDB_NONE;
  c.id = 1;
  c.kind = HPCDB_CTX_ENTRY;
  c.entry_point = HPCDB_ENTRY_MAIN;
  CHECK_RC(hpcdb_add_context(e, &c, 0, &ie));
  c.id = 2;
  c.kind = HPCDB_CTX_NORMAL;
  c.entry_point = 0;
  c.relation = HPCDB_REL_CALL;
  c.lexical_type = HPCDB_LEX_FUNCTION;
  c.function = fn;
  CHECK_RC(hpcdb_add_context(e, &c, ie, &i2));
  c.id = 3;
  c.relation = HPCDB_REL_LEXICAL;
  c.lexical_type = HPCDB_LEX_LINE;
  c.function = HPCDB_NONE;
  c.file = file;
  c.line = 9;
  c.module = mod;
  c.offset = 0x123;
  c.propagation = 1;
  CHECK_RC(hpcdb_add_context(e, &c, i2, NULL));

  CHECK_RC(hpcdb_add_profile(e, HPCDB_PROFILE_SUMMARY, 0, NULL, 0, &p));
  CHECK_RC(hpcdb_profile_set_values(e, p, 2, (uint32_t[]){3, 2}, (uint16_t[]){0, 0}, (double[]){3.0, 5.0}));
  hpcdb_id t1[2] = {{0, 0, 0, 0}, {1, 0, 1, 1}};
  CHECK_RC(hpcdb_add_profile(e, 0, 1, t1, 2, &p));
  CHECK_RC(hpcdb_profile_set_values(e, p, 3, (uint32_t[]){7, 3, 3}, (uint16_t[]){0, 1, 0}, (double[]){0.5, 1.0, 1.0}));
  hpcdb_id t2[2] = {{0, 0, 0, 0}, {1, HPCDB_ID_PHYSICAL, 2, 0xabc}};
  CHECK_RC(hpcdb_add_profile(e, 0, 1, t2, 2, &p));
  CHECK_RC(hpcdb_profile_set_values(e, p, 2, (uint32_t[]){3, 2}, (uint16_t[]){0, 1}, (double[]){2.0, 2.0}));
  CHECK_RC(hpcdb_add_trace(e, 1, 4, (uint64_t[]){100, 200, 300, 400}, (uint32_t[]){3, 0, 0, 2}, NULL));
  return e;
}

static uint8_t *load(const char *dir, const char *name, size_t *len) {
  char path[4096];
  uint8_t *data = NULL;
  snprintf(path, sizeof path, "%s/%s", dir, name);
  *len = 0;
  CHECK(testlib_read_file(path, &data, len) == 0);
  return data;
}

static int str_at(const uint8_t *d, size_t len, uint64_t off, const char *s) {
  return off + strlen(s) < len && strcmp((const char *)d + off, s) == 0;
}

static void check_meta(const char *dir) {
  size_t n;
  uint8_t *d = load(dir, "meta.db", &n);
  if (!d) return;
  CHECK(n == 0x2c8);
  CHECK(memcmp(d, "HPCTOOLKITmeta\x04\x00", 16) == 0);
  CHECK(memcmp(d + n - 8, "_meta.db", 8) == 0);
  /* sections: General 0x90+0x14, IdNames 0xa8+0x2c, Metrics 0xd8+0xb1, Context 0x228+0x98,
   * Strings 0x190+0x1c, Modules 0x1b0+0x20, Files 0x1d0+0x20, Functions 0x1f0+0x38 */
  static const uint64_t sec[8][2] = {{0x14, 0x90},  {0x2c, 0xa8},  {0xb1, 0xd8},  {0x98, 0x228},
                                     {0x1c, 0x190}, {0x20, 0x1b0}, {0x20, 0x1d0}, {0x38, 0x1f0}};
  for (int i = 0; i < 8; i++) {
    CHECK(rd_le64(d + 0x10 + 16 * i) == sec[i][0]);
    CHECK(rd_le64(d + 0x18 + 16 * i) == sec[i][1]);
  }
  /* General: title at 0xa0, description at 0xa2 */
  CHECK(rd_le64(d + 0x90) == 0xa0 && str_at(d, n, 0xa0, "T"));
  CHECK(rd_le64(d + 0x98) == 0xa2 && str_at(d, n, 0xa2, "D"));
  /* IdNames: names array at 0xb8, 2 kinds, strings at 0xc8 and 0xcd */
  CHECK(rd_le64(d + 0xa8) == 0xb8 && d[0xb0] == 2);
  CHECK(rd_le64(d + 0xb8) == 0xc8 && str_at(d, n, 0xc8, "RANK"));
  CHECK(rd_le64(d + 0xc0) == 0xcd && str_at(d, n, 0xcd, "THREAD"));
  /* Metrics header: metrics at 0x118 (1, sizes 32/16/24), scopes at 0xf8 (2, size 16) */
  CHECK(rd_le64(d + 0xd8) == 0x118 && rd_le32(d + 0xe0) == 1);
  CHECK(d[0xe4] == 32 && d[0xe5] == 16 && d[0xe6] == 24);
  CHECK(rd_le64(d + 0xe8) == 0xf8 && rd_le16(d + 0xf0) == 2 && d[0xf2] == 16);
  /* scopes: point (0x170, type 1, index 255), function (0x176, type 3, index 0) */
  CHECK(rd_le64(d + 0xf8) == 0x170 && d[0x100] == 1 && d[0x101] == 255 && str_at(d, n, 0x170, "point"));
  CHECK(rd_le64(d + 0x108) == 0x176 && d[0x110] == 3 && d[0x111] == 0 && str_at(d, n, 0x176, "function"));
  /* metric: name 0x17f, scope instances at 0x138 (2), summaries at 0x158 (1) */
  CHECK(rd_le64(d + 0x118) == 0x17f && str_at(d, n, 0x17f, "cycles"));
  CHECK(rd_le64(d + 0x120) == 0x138 && rd_le64(d + 0x128) == 0x158);
  CHECK(rd_le16(d + 0x130) == 2 && rd_le16(d + 0x132) == 1);
  CHECK(rd_le64(d + 0x138) == 0xf8 && rd_le16(d + 0x140) == 0);
  CHECK(rd_le64(d + 0x148) == 0x108 && rd_le16(d + 0x150) == 1);
  /* summary: scope function, formula "$$" at 0x186, combine 0, stat id 0 */
  CHECK(rd_le64(d + 0x158) == 0x108 && rd_le64(d + 0x160) == 0x186 && str_at(d, n, 0x186, "$$"));
  CHECK(d[0x168] == 0 && rd_le16(d + 0x16a) == 0);
  /* Common strings (8-byte aligned at 0x190): module, file, function, entry point name */
  CHECK(str_at(d, n, 0x190, "/bin/a") && str_at(d, n, 0x197, "a.c") && str_at(d, n, 0x19b, "main") &&
        str_at(d, n, 0x1a0, "main thread"));
  /* Modules, Files: array right after the 16-byte header */
  CHECK(rd_le64(d + 0x1b0) == 0x1c0 && rd_le32(d + 0x1b8) == 1 && rd_le16(d + 0x1bc) == 16);
  CHECK(rd_le32(d + 0x1c0) == 0 && rd_le64(d + 0x1c8) == 0x190);
  CHECK(rd_le64(d + 0x1d0) == 0x1e0 && rd_le32(d + 0x1d8) == 1 && rd_le16(d + 0x1dc) == 16);
  CHECK(rd_le32(d + 0x1e0) == HPCDB_FILE_COPIED && rd_le64(d + 0x1e8) == 0x197);
  /* Function at 0x200 */
  CHECK(rd_le64(d + 0x1f0) == 0x200 && rd_le32(d + 0x1f8) == 1 && rd_le16(d + 0x1fc) == 40);
  CHECK(rd_le64(d + 0x200) == 0x19b && rd_le64(d + 0x208) == 0x1c0 && rd_le64(d + 0x210) == 0x100);
  CHECK(rd_le64(d + 0x218) == 0x1e0 && rd_le32(d + 0x220) == 7 && rd_le32(d + 0x224) == 0);
  /* Context tree: header at 0x228, [ctx 3] at 0x238, [ctx 2] at 0x278, entry points at 0x2a0 */
  CHECK(rd_le64(d + 0x228) == 0x2a0 && rd_le16(d + 0x230) == 1 && d[0x232] == 32);
  CHECK(rd_le64(d + 0x238) == 0 && rd_le64(d + 0x240) == 0 && rd_le32(d + 0x248) == 3);
  CHECK(d[0x24c] == 0x06 && d[0x24d] == 0 && d[0x24e] == 2 && d[0x24f] == 4 && rd_le16(d + 0x250) == 1);
  CHECK(rd_le64(d + 0x258) == 0x1e0 && rd_le32(d + 0x260) == 9 && rd_le32(d + 0x264) == 0);
  CHECK(rd_le64(d + 0x268) == 0x1c0 && rd_le64(d + 0x270) == 0x123);
  CHECK(rd_le64(d + 0x278) == 0x40 && rd_le64(d + 0x280) == 0x238 && rd_le32(d + 0x288) == 2);
  CHECK(d[0x28c] == 0x01 && d[0x28d] == 1 && d[0x28e] == 0 && d[0x28f] == 1 && rd_le16(d + 0x290) == 0);
  CHECK(rd_le64(d + 0x298) == 0x200);
  CHECK(rd_le64(d + 0x2a0) == 0x28 && rd_le64(d + 0x2a8) == 0x278 && rd_le32(d + 0x2b0) == 1);
  CHECK(rd_le16(d + 0x2b4) == HPCDB_ENTRY_MAIN && rd_le64(d + 0x2b8) == 0x1a0);
  free(d);
}

static void check_profile(const char *dir) {
  size_t n;
  uint8_t *d = load(dir, "profile.db", &n);
  if (!d) return;
  CHECK(n == 0x1b8);
  CHECK(memcmp(d, "HPCTOOLKITprof\x04\x00", 16) == 0 && memcmp(d + n - 8, "_prof.db", 8) == 0);
  CHECK(rd_le64(d + 0x10) == 0xa0 && rd_le64(d + 0x18) == 0x30);
  CHECK(rd_le64(d + 0x20) == 0x50 && rd_le64(d + 0x28) == 0xd0);
  CHECK(rd_le64(d + 0x30) == 0x40 && rd_le32(d + 0x38) == 3 && d[0x3c] == 48);
  /* {PI}: nValues, pValues, nCtxs, pCtxIndices, pIdTuple, flags */
  static const uint64_t pi[3][6] = {
      {2, 0x120, 2, 0x134, 0, 1}, {3, 0x14c, 2, 0x16c, 0xd0, 0}, {2, 0x184, 2, 0x198, 0xf8, 0}};
  for (int i = 0; i < 3; i++) {
    const uint8_t *p = d + 0x40 + 48 * i;
    CHECK(rd_le64(p) == pi[i][0] && rd_le64(p + 8) == pi[i][1] && rd_le32(p + 0x10) == pi[i][2]);
    CHECK(rd_le64(p + 0x18) == pi[i][3] && rd_le64(p + 0x20) == pi[i][4] && rd_le32(p + 0x28) == pi[i][5]);
  }
  /* id tuples: (RANK 0, THREAD 1) and (RANK 0, THREAD physical 0xabc logical 2) */
  CHECK(rd_le16(d + 0xd0) == 2 && d[0xd8] == 0 && d[0xe8] == 1 && rd_le32(d + 0xec) == 1 && rd_le64(d + 0xf0) == 1);
  CHECK(rd_le16(d + 0xf8) == 2 && d[0x110] == 1 && rd_le16(d + 0x112) == 1 && rd_le32(d + 0x114) == 2);
  CHECK(rd_le64(d + 0x118) == 0xabc);
  /* summary values: ctx 2 -> (0, 5.0), ctx 3 -> (0, 3.0) */
  CHECK(rd_le16(d + 0x120) == 0 && rd_le_f64(d + 0x122) == 5.0 && rd_le_f64(d + 0x12c) == 3.0);
  CHECK(rd_le32(d + 0x134) == 2 && rd_le64(d + 0x138) == 0 && rd_le32(d + 0x140) == 3 && rd_le64(d + 0x144) == 1);
  /* profile 1: ctx 3 -> (0, 1.0), (1, 1.0); ctx 7 -> (0, 0.5) */
  CHECK(rd_le16(d + 0x14c) == 0 && rd_le16(d + 0x156) == 1 && rd_le16(d + 0x160) == 0 && rd_le_f64(d + 0x162) == 0.5);
  CHECK(rd_le32(d + 0x16c) == 3 && rd_le64(d + 0x170) == 0 && rd_le32(d + 0x178) == 7 && rd_le64(d + 0x17c) == 2);
  free(d);
}

static void check_cct(const char *dir) {
  size_t n;
  uint8_t *d = load(dir, "cct.db", &n);
  if (!d) return;
  CHECK(n == 0x1a0);
  CHECK(memcmp(d, "HPCTOOLKITctxt\x04\x00", 16) == 0 && memcmp(d + n - 8, "__ctx.db", 8) == 0);
  CHECK(rd_le64(d + 0x10) == 0x110 && rd_le64(d + 0x18) == 0x20);
  CHECK(rd_le64(d + 0x20) == 0x30 && rd_le32(d + 0x28) == 8 && d[0x2c] == 32);
  /* {CI} per context 0..7: nValues, pValues, nMetrics, pMetricIndices */
  static const uint64_t ci[8][4] = {{0, 0x130, 0, 0x130}, {0, 0x130, 0, 0x130}, {1, 0x130, 1, 0x13c},
                                    {3, 0x148, 2, 0x16c}, {0, 0x180, 0, 0x180}, {0, 0x180, 0, 0x180},
                                    {0, 0x180, 0, 0x180}, {1, 0x180, 1, 0x18c}};
  for (int i = 0; i < 8; i++) {
    const uint8_t *p = d + 0x30 + 32 * i;
    CHECK(rd_le64(p) == ci[i][0] && rd_le64(p + 8) == ci[i][1]);
    CHECK(rd_le16(p + 0x10) == ci[i][2] && rd_le64(p + 0x18) == ci[i][3]);
  }
  /* ctx 2: (profile 2, 2.0) for metric 1 */
  CHECK(rd_le32(d + 0x130) == 2 && rd_le_f64(d + 0x134) == 2.0 && rd_le16(d + 0x13c) == 1 && rd_le64(d + 0x13e) == 0);
  /* ctx 3: metric 0 -> profiles 1 (1.0), 2 (2.0); metric 1 -> profile 1 (1.0) */
  CHECK(rd_le32(d + 0x148) == 1 && rd_le_f64(d + 0x14c) == 1.0 && rd_le32(d + 0x154) == 2 &&
        rd_le_f64(d + 0x158) == 2.0);
  CHECK(rd_le32(d + 0x160) == 1 && rd_le16(d + 0x16c) == 0 && rd_le64(d + 0x16e) == 0);
  CHECK(rd_le16(d + 0x176) == 1 && rd_le64(d + 0x178) == 2);
  /* ctx 7 (not in the tree): profile 1, metric 0, 0.5 */
  CHECK(rd_le32(d + 0x180) == 1 && rd_le_f64(d + 0x184) == 0.5 && rd_le16(d + 0x18c) == 0);
  free(d);
}

static void check_trace(const char *dir) {
  size_t n;
  uint8_t *d = load(dir, "trace.db", &n);
  if (!d) return;
  CHECK(n == 0x88);
  CHECK(memcmp(d, "HPCTOOLKITtrce\x04\x00", 16) == 0 && memcmp(d + n - 8, "trace.db", 8) == 0);
  CHECK(rd_le64(d + 0x10) == 0x38 && rd_le64(d + 0x18) == 0x20);
  CHECK(rd_le64(d + 0x20) == 0x40 && rd_le32(d + 0x28) == 1 && d[0x2c] == 24);
  CHECK(rd_le64(d + 0x30) == 100 && rd_le64(d + 0x38) == 400);
  CHECK(rd_le32(d + 0x40) == 1 && rd_le64(d + 0x48) == 0x58 && rd_le64(d + 0x50) == 0x7c);
  /* (100, 3), (200, 0), (400, 2): the second "not running" sample is merged */
  CHECK(rd_le64(d + 0x58) == 100 && rd_le32(d + 0x60) == 3);
  CHECK(rd_le64(d + 0x64) == 200 && rd_le32(d + 0x6c) == 0);
  CHECK(rd_le64(d + 0x70) == 400 && rd_le32(d + 0x78) == 2);
  free(d);
}

static int exists(const char *dir, const char *name) {
  char path[4096];
  struct stat st;
  snprintf(path, sizeof path, "%s/%s", dir, name);
  return stat(path, &st) == 0;
}

/* A failure after some files were put in place removes them again: here
 * metrics/ is a plain file, so default.yaml cannot be written. */
static void failure_leaves_nothing(hpcdb_experiment *e) {
  const char *dir = testlib_tmpdir("write_layout_fail");
  char path[4096];
  snprintf(path, sizeof path, "%s/metrics", dir);
  CHECK(testlib_write_file(path, "x", 1) == 0);
  CHECK(hpcdb_hpctk4_write(e, dir, 0) < 0);
  CHECK(!exists(dir, "meta.db") && !exists(dir, "profile.db") && !exists(dir, "cct.db") && !exists(dir, "trace.db"));
}

/* Written from a database (or one file of it) that has its own metrics/ and
 * src/, those are copied unchanged. */
static void copies_origin_taxonomy(hpcdb_experiment *e) {
  const char *origin = testlib_sample("hpctoolkit-v4/loop-fork-cycles");
  struct stat st;
  if (stat(origin, &st) != 0) {
    printf("skipping the copy check: no sample data at %s\n", origin);
    return;
  }
  const char *origins[] = {origin, testlib_sample("hpctoolkit-v4/loop-fork-cycles/meta.db")};
  static const char *const copied[] = {"metrics/default.yaml", "metrics/METRICS.yaml.ex",
                                       "src/home/la5/git/hpctoolkit-tests/applications/loop-suite/include/common.h"};
  for (int k = 0; k < 2; k++) {
    const char *dir = testlib_tmpdir(k ? "write_layout_copy_file" : "write_layout_copy");
    e->origin = origins[k];
    CHECK_RC(hpcdb_hpctk4_write(e, dir, 0));
    e->origin = NULL;
    char a[4096], b[4096];
    for (int i = 0; i < 3; i++) {
      snprintf(a, sizeof a, "%s/%s", origin, copied[i]);
      snprintf(b, sizeof b, "%s/%s", dir, copied[i]);
      CHECK(testlib_same_file(a, b));
    }
  }
}

int main(void) {
  hpcdb_experiment *e = build();
  const char *dir = testlib_tmpdir("write_layout");
  CHECK_RC(hpcdb_hpctk4_write(e, dir, 0));
  check_meta(dir);
  check_profile(dir);
  check_cct(dir);
  check_trace(dir);
  CHECK(exists(dir, "metrics/default.yaml"));

  /* an existing database is kept unless forced; forced, the bytes are the same */
  CHECK(hpcdb_hpctk4_write(e, dir, 0) == HPCDB_EEXIST);
  const char *again = testlib_tmpdir("write_layout_again");
  CHECK_RC(hpcdb_hpctk4_write(e, again, 0));
  static const char *const files[] = {"meta.db", "profile.db", "cct.db", "trace.db", "metrics/default.yaml"};
  char a[4096], b[4096];
  for (int i = 0; i < 5; i++) {
    snprintf(a, sizeof a, "%s/%s", dir, files[i]);
    snprintf(b, sizeof b, "%s/%s", again, files[i]);
    CHECK(testlib_same_file(a, b));
  }

  /* the chunked transpose gives the same cct.db with one value per chunk */
  snprintf(b, sizeof b, "%s/cct-chunked.db", again);
  CHECK_RC(hpctk4_write_cct(e, b, 1));
  snprintf(a, sizeof a, "%s/cct.db", dir);
  CHECK(testlib_same_file(a, b));

  /* without traces the forced rewrite removes the old trace.db */
  CHECK_RC(hpcdb_hpctk4_write(e, again, HPCDB_WRITE_FORCE | HPCDB_WRITE_NO_TRACE));
  CHECK(!exists(again, "trace.db") && exists(again, "meta.db"));

  failure_leaves_nothing(e);
  copies_origin_taxonomy(e);

  /* a model v4.0 cannot express is refused, and nothing is written */
  const char *bad = testlib_tmpdir("write_layout_bad");
  uint32_t p;
  CHECK_RC(hpcdb_add_profile(e, 0, 1, NULL, 0, &p));
  CHECK_RC(hpcdb_profile_set_values(e, p, 1, (uint32_t[]){2}, (uint16_t[]){9}, (double[]){1.0}));
  CHECK(hpcdb_hpctk4_write(e, bad, 0) == HPCDB_EINVAL);
  CHECK(!exists(bad, "meta.db") && !exists(bad, "profile.db"));
  hpcdb_experiment_free(e);
  return TEST_END();
}
