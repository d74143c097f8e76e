/* SPDX-License-Identifier: BSD-3-Clause */
/* The paths a large profile.db takes, on bytes laid out here from the
 * specification: the reader decodes profiles ahead on two threads (files of
 * 1 MB and more) and reads value arrays with pread in chunks when it has an
 * fd; the zero-copy accessor scans and looks up values and gives each
 * scanned block's pages back; the validator streams the arrays in chunks.
 * Each must give the values laid out, and a damaged file the error the
 * sequential reader gives: that of the first damaged profile in file order,
 * whichever thread decoded it. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/bytes.h"
#include "hpcdb/hpcdb.h"
#include "hpctk4/hpctk4_read.h"
#include "testlib.h"

enum { PROFILES = 48, CONTEXTS = 300, METRICS = 10, BIG = PROFILES - 1, BIG_METRICS = 20000 };

static uint8_t *file;
static size_t size;
static uint64_t block_at[PROFILES], values_at[PROFILES], index_at[PROFILES];

static void u16(size_t at, uint16_t v) { wr_le16(file + at, v); }
static void u32(size_t at, uint32_t v) { wr_le32(file + at, v); }
static void u64(size_t at, uint64_t v) { wr_le64(file + at, v); }

static uint32_t n_ctxs(int p) { return p == BIG ? 1 : CONTEXTS; }
static uint32_t n_metrics(int p) { return p == BIG ? BIG_METRICS : METRICS; }
static uint32_t ctx_id(int p, uint32_t k) { return 1 + 3 * k + (uint32_t)p % 3; }
static double value_of(int p, uint32_t k, uint32_t m) { return p * 1e6 + k * 1e2 + m + 0.25; }

/* Header 0x00; Profile Info section 0x30 (its header, then the {PI}s from
 * 0x40); IdTuples section (one tuple: RANK p); then each profile's values
 * and indices (4-aligned); the footer. Profile 0 is the summary. */
static void build(void) {
  uint64_t infos = 0x40, tuples = infos + 48 * PROFILES, blocks = tuples + 24;
  size = blocks;
  for (int p = 0; p < PROFILES; p++) {
    values_at[p] = size;
    index_at[p] = (values_at[p] + 10ull * n_ctxs(p) * n_metrics(p) + 3) / 4 * 4;
    size = index_at[p] + 12ull * n_ctxs(p);
  }
  size += 8;
  free(file);
  file = calloc(size, 1);
  memcpy(file, "HPCTOOLKITprof", 14);
  file[0x0e] = 4;
  u64(0x10, tuples - 0x30), u64(0x18, 0x30);
  u64(0x20, 24), u64(0x28, tuples);
  u64(0x30, infos), u32(0x38, PROFILES), file[0x3c] = 48;
  u16(tuples, 1), file[tuples + 8] = 2, u32(tuples + 12, 7), u64(tuples + 16, 7);
  for (int p = 0; p < PROFILES; p++) {
    uint64_t pi = block_at[p] = infos + 48 * (uint64_t)p, v = values_at[p];
    u64(pi, (uint64_t)n_ctxs(p) * n_metrics(p)), u64(pi + 8, v), u32(pi + 0x10, n_ctxs(p)), u64(pi + 0x18, index_at[p]);
    u64(pi + 0x20, p ? tuples : 0), u32(pi + 0x28, p == 0);
    for (uint32_t k = 0; k < n_ctxs(p); k++) {
      u32(index_at[p] + 12 * k, ctx_id(p, k)), u64(index_at[p] + 12 * k + 4, (uint64_t)k * n_metrics(p));
      for (uint32_t m = 0; m < n_metrics(p); m++, v += 10) {
        double d = value_of(p, k, m);
        uint64_t bits;
        memcpy(&bits, &d, sizeof bits);
        u16(v, (uint16_t)m), u64(v + 2, bits);
      }
    }
  }
  memcpy(file + size - 8, "_prof.db", 8);
}

static hpcdb_experiment *fresh(void) {
  hpcdb_experiment *exp;
  if (hpcdb_experiment_new(&exp) != 0) return NULL;
  static const char *const kinds[] = {"SUMMARY", "NODE", "RANK", "THREAD"};
  for (int k = 0; k < 4; k++) hpcdb_add_kind_name(exp, kinds[k], NULL);
  return exp;
}

/* Writes the bytes to dir/profile.db; returns an fd open on it. */
static int save(const char *dir) {
  char path[4096];
  snprintf(path, sizeof path, "%s/profile.db", dir);
  if (testlib_write_file(path, file, size) != 0) return -1;
  return open(path, O_RDONLY);
}

/* Every value laid out is in the model, and nothing else. */
static int model_holds_the_layout(const hpcdb_experiment *exp) {
  if (exp->n_profiles != PROFILES) return 0;
  for (int p = 0; p < PROFILES; p++) {
    const hpcdb_profile *pr = &exp->profiles[p];
    if (pr->n_ctxs != n_ctxs(p) || pr->n_values != (uint64_t)n_ctxs(p) * n_metrics(p)) return 0;
    for (uint32_t k = 0; k < n_ctxs(p); k++)
      for (uint32_t m = 0; m < n_metrics(p); m++) {
        double v;
        if (!hpcdb_profile_value(pr, ctx_id(p, k), (uint16_t)m, &v) || v != value_of(p, k, m)) return 0;
      }
  }
  return 1;
}

static void reads_with_and_without_fd(const char *dir) {
  build();
  int fd = save(dir);
  CHECK(fd >= 0);
  for (int with_fd = 0; with_fd < 2; with_fd++) {
    hpcdb_experiment *exp = fresh();
    CHECK_RC(hpctk4_parse_profile_fd(exp, file, size, with_fd ? fd : -1, "large/profile.db"));
    CHECK(model_holds_the_layout(exp));
    hpcdb_experiment_free(exp);
  }
  if (fd >= 0) close(fd);
}

typedef struct scanned {
  int profile;
  uint64_t n, wrong;
} scanned;

static int visit(void *user, uint32_t ctx, uint32_t metric, double value) {
  scanned *s = user;
  uint32_t k = (ctx - 1) / 3;
  s->n++;
  if (ctx != ctx_id(s->profile, k) || value != value_of(s->profile, k, metric)) s->wrong++;
  return 0;
}

/* Two scans of every profile (the second after the first gave the pages
 * back) and point lookups agree with the layout. */
static void scans_and_looks_up(const char *dir) {
  build();
  int fd = save(dir);
  if (fd >= 0) close(fd);
  hpcdb_db *db;
  CHECK_RC(hpcdb_db_open(&db, dir));
  if (!db) return;
  CHECK(hpcdb_db_profile_count(db) == PROFILES);
  for (int pass = 0; pass < 2; pass++)
    for (int p = 0; p < PROFILES; p++) {
      scanned s = {p, 0, 0};
      CHECK_RC(hpcdb_db_profile_scan(db, (uint32_t)p, visit, &s));
      CHECK(s.n == (uint64_t)n_ctxs(p) * n_metrics(p) && s.wrong == 0);
    }
  double v = 0;
  CHECK(hpcdb_db_profile_value(db, 5, ctx_id(5, 17), 3, &v) == 1 && v == value_of(5, 17, 3));
  CHECK(hpcdb_db_profile_value(db, BIG, ctx_id(BIG, 0), BIG_METRICS - 1, &v) == 1 &&
        v == value_of(BIG, 0, BIG_METRICS - 1));
  CHECK(hpcdb_db_profile_value(db, 5, ctx_id(5, 17) + 1, 3, &v) == 0);
  hpcdb_db_close(db);
}

/* The error of parsing the damaged bytes (with an fd) names rule at offset. */
static void fails_with(const char *dir, const char *rule, uint64_t offset) {
  int fd = save(dir);
  hpcdb_experiment *exp = fresh();
  int rc = hpctk4_parse_profile_fd(exp, file, size, fd, "large/profile.db");
  char where[64];
  snprintf(where, sizeof where, "offset 0x%llx: %s:", (unsigned long long)offset, rule);
  int named = rc < 0 && strstr(hpcdb_last_error(), where);
  CHECK(named);
  if (!named) fprintf(stderr, "expected \"%s\", got: %s\n", where, hpcdb_last_error());
  hpcdb_experiment_free(exp);
  if (fd >= 0) close(fd);
}

static void reports_the_first_damage(const char *dir) {
  /* profile 7 (decoded by the second thread): metrics out of order */
  build();
  uint64_t bad7 = values_at[7] + 10 * (5 * METRICS + 4);
  u16(bad7, 1);
  fails_with(dir, "sorted-metric", bad7);
  /* and profile 4 (the first thread), later in its block: still profile 4 first */
  uint64_t bad4 = index_at[4] + 12 * 200;
  u32(bad4, 2);
  fails_with(dir, "sorted-ctx", bad4);
  /* and profile 3's identifier tuple, read before its values */
  u64(block_at[3] + 0x20, 0x30);
  fails_with(dir, "pointer-target", block_at[3] + 0x20);
  /* the big profile's only context: a metric id out of order past the first chunk */
  build();
  uint64_t bad_big = values_at[BIG] + 10 * (uint64_t)(BIG_METRICS - 3);
  u16(bad_big, 0);
  fails_with(dir, "sorted-metric", bad_big);
}

typedef struct rules {
  int errors, sorted_metric_at_bad;
  uint64_t bad;
} rules;

static void collect(void *user, const hpcdb_diagnostic *d) {
  rules *r = user;
  r->errors += d->severity == HPCDB_SEV_ERROR;
  if (!strcmp(d->rule, "sorted-metric") && d->offset == r->bad) r->sorted_metric_at_bad = 1;
}

/* The validator streams the value arrays in chunks: a valid file has no
 * errors; one metric out of order past the first chunk is reported there. */
static void validates_in_chunks(const char *dir) {
  char path[4096];
  snprintf(path, sizeof path, "%s/profile.db", dir);
  build();
  int fd = save(dir);
  if (fd >= 0) close(fd);
  hpcdb_validation result;
  rules r = {0, 0, 0};
  CHECK_RC(hpcdb_validate(&result, path, collect, &r));
  CHECK(result.errors == 0 && r.errors == 0);
  r.bad = values_at[BIG] + 10 * (uint64_t)(BIG_METRICS - 3);
  u16(r.bad, 0);
  fd = save(dir);
  if (fd >= 0) close(fd);
  CHECK_RC(hpcdb_validate(&result, path, collect, &r));
  CHECK(result.errors == 1 && r.sorted_metric_at_bad);
}

int main(void) {
  const char *dir = testlib_tmpdir("read_large");
  reads_with_and_without_fd(dir);
  scans_and_looks_up(dir);
  reports_the_first_damage(dir);
  validates_in_chunks(dir);
  free(file);
  return TEST_END();
}
