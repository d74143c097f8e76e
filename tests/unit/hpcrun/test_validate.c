/* SPDX-License-Identifier: BSD-3-Clause */
/* The real measurements are valid: no error and no note, as directories, as
 * single profiles and as single traces; writer-made 02.00 files validate too. */
#include <stdlib.h>
#include <string.h>

#include "hpcdb/hpcdb.h"
#include "hpcrun/hpcrun_file.h"
#include "testlib.h"

static void print(void *user, const hpcdb_diagnostic *d) {
  (void)user;
  fprintf(stderr, "%s: offset 0x%llx: %s: %s\n", d->file, (unsigned long long)d->offset, d->rule, d->detail);
}

static void expect_clean(const char *path) {
  hpcdb_validation r;
  CHECK_RC(hpcdb_hpcrun_validate(&r, path, print, NULL));
  CHECK(r.errors == 0 && r.notes == 0);
}

typedef struct first_error {
  char rule[64];
  uint64_t offset;
} first_error;

static void keep_first(void *user, const hpcdb_diagnostic *d) {
  first_error *e = user;
  if (d->severity == HPCDB_SEV_ERROR && !e->rule[0]) {
    snprintf(e->rule, sizeof e->rule, "%s", d->rule);
    e->offset = d->offset;
  }
}

/* Damaged 02.00 files (there is no real one to mutate): junk after the
 * last epoch, a cut, a huge node count, a parent that is not earlier. */
static void v2_broken(const char *dir, const char *good) {
  uint8_t *data;
  size_t len;
  CHECK(testlib_read_file(good, &data, &len) == 0);
  uint8_t *copy = malloc(len + 8);
  struct {
    const char *rule;
    size_t len;
    size_t at, value; /* a byte to change (at < len) */
  } cases[] = {{"epoch-tag", len + 4, len, 'J'},
               {"count-bounds", len - 3, len, 0},
               /* the last node: id, parent, lm, ip, 2 values = 34 bytes */
               {"parent-exists", len, len - 34 + 7, 9}};
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    memcpy(copy, data, len);
    memset(copy + len, 'J', 8);
    if (cases[i].at < len) copy[cases[i].at] = (uint8_t)cases[i].value;
    char path[4200];
    snprintf(path, sizeof path, "%s/broken-%zu.hpcrun", dir, i);
    CHECK(testlib_write_file(path, copy, cases[i].len) == 0);
    hpcdb_validation r;
    first_error e = {"", 0};
    CHECK_RC(hpcdb_hpcrun_validate(&r, path, keep_first, &e));
    CHECK(r.errors > 0 && strcmp(e.rule, cases[i].rule) == 0);
    if (strcmp(e.rule, cases[i].rule) != 0)
      fprintf(stderr, "case %zu: got %s at 0x%llx\n", i, e.rule, (unsigned long long)e.offset);
    hpcdb_experiment *exp = NULL;
    CHECK(hpcdb_hpcrun_read(&exp, path) < 0 && !exp && strstr(hpcdb_last_error(), path));
  }
  free(copy);
  free(data);
}

/* A 02.00 file with one epoch, two nodes (the leaf's id negated), two metrics
 * of the same name (they stay two metrics). */
static void v2_file(const char *dir) {
  hpcrun_file f = {0};
  f.major = 2;
  hpcrun_epoch e = {0};
  hpcrun_metric_desc m[2];
  memset(m, 0, sizeof m);
  m[0].name = m[1].name = (hpcrun_str){"cycles", 6};
  m[0].flags[HPCRUN_MFLAG_VALFMT] = HPCRUN_VALFMT_INT;
  m[1].flags[HPCRUN_MFLAG_VALFMT] = HPCRUN_VALFMT_REAL;
  hpcrun_lm_entry lm = {1, {"/bin/a.out", 10}, 0};
  hpcrun_cct_node nodes[2] = {{.id = 1, .parent = 0, .lm_id = 0, .ip = 0},
                              {.id = (uint32_t)-2, .parent = 1, .lm_id = 1, .ip = 0x400}};
  uint64_t values[4] = {0, 0, 42, 0x3ff8000000000000ull /* 1.5 */};
  e.t = (hpcrun_tables){1, 2, m, 1, &lm, 2, nodes, 0, 0};
  e.values = values;
  f.n_epochs = 1;
  f.epochs = &e;
  hpcrun_nvpair pairs[2] = {{{"mpi-rank", 8}, {"3", 1}}, {{"thread-id", 9}, {"1", 1}}};
  f.header = (hpcrun_nvlist){2, pairs};
  char path[4200];
  snprintf(path, sizeof path, "%s/old.hpcrun", dir);
  CHECK_RC(hpcrun_file_write(&f, path));
  expect_clean(path);
  hpcdb_experiment *exp = NULL;
  CHECK_RC(hpcdb_hpcrun_read(&exp, path));
  if (exp) {
    char id[64];
    hpcdb_profile_identity(exp, &exp->profiles[0], id, sizeof id);
    CHECK(strcmp(id, "RANK 3 THREAD 1") == 0);
    double v = 0;
    CHECK(hpcdb_profile_value(&exp->profiles[0], 2, 0, &v) == 1 && v == 42.0);
    CHECK(hpcdb_profile_value(&exp->profiles[0], 2, 1, &v) == 1 && v == 1.5);
    CHECK(exp->n_contexts == 3 && exp->version_major == 2 && exp->n_metrics == 2);
  }
  hpcdb_experiment_free(exp);
  v2_broken(dir, path);

  /* Two epochs: trees renumbered in order; trace ids name the later epoch's nodes. */
  hpcrun_epoch two[2] = {e, e};
  f.major = 3;
  f.n_epochs = 2;
  f.epochs = two;
  snprintf(path, sizeof path, "%s/two.hpcrun", dir);
  CHECK_RC(hpcrun_file_write(&f, path));
  uint64_t times[2] = {10, 20};
  uint32_t cct[2] = {2, 1};
  hpcrun_trace_file t = {0};
  t.n = 2;
  t.times = times;
  t.cct_ids = cct;
  snprintf(path, sizeof path, "%s/two.hpctrace", dir);
  CHECK_RC(hpcrun_trace_write(&t, path));
  snprintf(path, sizeof path, "%s/two.hpcrun", dir);
  expect_clean(path);
  exp = NULL;
  CHECK_RC(hpcdb_hpcrun_read(&exp, path));
  if (exp) {
    CHECK(exp->n_contexts == 5 && exp->n_profiles == 1 && exp->profiles[0].n_values == 4);
    CHECK(exp->n_traces == 1 && exp->traces[0].ctx_ids[0] == 4 && exp->traces[0].ctx_ids[1] == 3);
    CHECK(exp->version_major == 3);
  }
  hpcdb_experiment_free(exp);
}

int main(void) {
  v2_file(testlib_tmpdir("hpcrun-validate"));
  if (!testlib_have_samples()) {
    printf("no sample data: skipped\n");
    return 77;
  }
  expect_clean(testlib_sample("hpcrun/small.m"));
  expect_clean(testlib_sample("hpcrun/loops-cputime-t.m"));
  expect_clean(testlib_sample("hpcrun/small.m/testmeas-small-000000-000-11ac0300-5560-0.hpcrun"));
  expect_clean(testlib_sample("hpcrun/small.m/testmeas-small-000000-000-11ac0300-5560-0.hpctrace"));
  /* A trace without its profile is checked alone, with a note. */
  const char *dir = testlib_tmpdir("hpcrun-orphan");
  const char *small = "hpcrun/small.m/testmeas-small-000000-000-11ac0300-5560-0";
  const char *names[3][2] = {{".hpcrun", "a.hpcrun"}, {".hpctrace", "a.hpctrace"}, {".hpctrace", "orphan.hpctrace"}};
  for (int i = 0; i < 3; i++) {
    char from[4200], to[4200];
    uint8_t *d;
    size_t n;
    snprintf(from, sizeof from, "%s%s", testlib_sample(small), names[i][0]);
    snprintf(to, sizeof to, "%s/%s", dir, names[i][1]);
    CHECK(testlib_read_file(from, &d, &n) == 0 && testlib_write_file(to, d, n) == 0);
    free(d);
  }
  hpcdb_validation r;
  CHECK_RC(hpcdb_hpcrun_validate(&r, dir, NULL, NULL));
  CHECK(r.errors == 0 && r.notes == 1);
  CHECK(hpcdb_hpcrun_validate(&r, testlib_sample("hpcrun/no-such-file.hpcrun"), NULL, NULL) == HPCDB_EIO);
  return TEST_END();
}
