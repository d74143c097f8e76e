/* SPDX-License-Identifier: BSD-3-Clause */
/* hpcdb dump --json from cct.db (hpcdb_dump_json_db: the thread values read
 * per context from cct.db) gives the bytes of the model's dump: on every v4.0
 * database of the sample data and on random generated ones (summary profiles,
 * values at ids outside the tree, profiles without values). A damaged cct.db
 * is an error with a message naming the file and the rule. A profile entry of
 * no values, which cct.db cannot hold, is left out of the model's text too. */
#include <stdlib.h>
#include <string.h>

#include "common/bytes.h"
#include "hpcdb/hpcdb.h"
#include "random_experiment.h"
#include "v4_databases.h"
#include "testlib.h"

static int json_model(FILE *out, const hpcdb_experiment *exp, const void *arg) {
  (void)arg;
  return hpcdb_dump_json(out, exp);
}

static int json_from_cct(FILE *out, const hpcdb_experiment *exp, const void *db) {
  return hpcdb_dump_json_db(out, exp, db);
}

/* The dump from cct.db of dir into a new string; *rc its status. */
static char *dumped_from_cct(const char *dir, int *rc) {
  hpcdb_experiment *meta = NULL;
  hpcdb_db *db = NULL;
  hpcdb_read_options ro = {HPCDB_READ_OPTIONS_VERSION, HPCDB_READ_ALL, NULL, 0, HPCDB_READ_SUMMARY_ONLY};
  char *text = NULL;
  *rc = hpcdb_read_opts(&meta, dir, &ro);
  if (*rc == 0) *rc = hpcdb_db_open(&db, dir);
  if (*rc == 0) text = testlib_printed(json_from_cct, meta, db, rc);
  hpcdb_experiment_free(meta);
  hpcdb_db_close(db);
  return text;
}

/* 1 when the database was compared (it has a cct.db of some contexts). */
static int compare(const char *dir) {
  hpcdb_db *db = NULL;
  if (hpcdb_db_open(&db, dir) < 0) return 0;
  uint32_t n = hpcdb_db_context_count(db);
  hpcdb_db_close(db);
  if (n == 0) return 0;
  hpcdb_experiment *model = NULL;
  CHECK_RC(hpcdb_hpctk4_read(&model, dir));
  if (model) {
    int rc_a, rc_b;
    char *a = testlib_printed(json_model, model, NULL, &rc_a), *b = dumped_from_cct(dir, &rc_b);
    int same = a && b && rc_a == 0 && rc_b == 0 && !strcmp(a, b);
    CHECK(same);
    if (!same) fprintf(stderr, "%s: JSON differs (rc %d, %d): %s\n", dir, rc_a, rc_b, hpcdb_last_error());
    free(a);
    free(b);
  }
  hpcdb_experiment_free(model);
  return 1;
}

/* cct.db's bytes, and where its Context Info array is. */
typedef struct cct_file {
  char path[4096];
  uint8_t *data;
  size_t len;
  uint64_t infos, stride;
  uint32_t n;
} cct_file;

static int cct_load(cct_file *c, const char *dir) {
  snprintf(c->path, sizeof c->path, "%s/cct.db", dir);
  if (testlib_read_file(c->path, &c->data, &c->len) < 0) return -1;
  uint64_t s = rd_le64(c->data + 24);
  c->infos = rd_le64(c->data + s);
  c->n = rd_le32(c->data + s + 8);
  c->stride = c->data[s + 0xc];
  return 0;
}

/* The offset of the first context's first metric slice of at least two values
 * (0: none); *ctx_id that context. */
static uint64_t slice_of_two(const cct_file *c, uint32_t *ctx_id) {
  for (uint32_t i = 0; i < c->n; i++) {
    const uint8_t *e = c->data + c->infos + i * c->stride;
    uint64_t n_values = rd_le64(e), p_values = rd_le64(e + 8), p_idx = rd_le64(e + 0x18);
    uint16_t n_idx = rd_le16(e + 0x10);
    for (uint16_t k = 0; k < n_idx; k++) {
      uint64_t lo = rd_le64(c->data + p_idx + 10 * k + 2);
      uint64_t hi = k + 1 < n_idx ? rd_le64(c->data + p_idx + 10 * (k + 1) + 2) : n_values;
      if (hi - lo >= 2) {
        *ctx_id = i;
        return p_values + 12 * lo;
      }
    }
  }
  return 0;
}

/* The dump of dir with cct.db damaged by patch fails with rule in the message. */
static void check_damage(const char *dir, const char *what, const char *rule, void (*patch)(cct_file *)) {
  cct_file c;
  CHECK(cct_load(&c, dir) == 0);
  if (!c.data) return;
  uint8_t *saved = malloc(c.len);
  if (saved) memcpy(saved, c.data, c.len);
  patch(&c);
  CHECK(testlib_write_file(c.path, c.data, c.len) == 0);
  int rc;
  char *text = dumped_from_cct(dir, &rc);
  CHECK(rc == HPCDB_ECORRUPT);
  CHECK(strstr(hpcdb_last_error(), "cct.db") && strstr(hpcdb_last_error(), rule));
  if (rc != HPCDB_ECORRUPT || !strstr(hpcdb_last_error(), rule))
    fprintf(stderr, "%s: rc %d: %s\n", what, rc, hpcdb_last_error());
  free(text);
  if (saved) CHECK(testlib_write_file(c.path, saved, c.len) == 0);
  free(saved);
  free(c.data);
}

static void values_outside_file(cct_file *c) { /* every context's pValues */
  for (uint32_t i = 0; i < c->n; i++) wr_le64(c->data + c->infos + i * c->stride + 8, UINT64_MAX / 2);
}

static void profile_past_the_end(cct_file *c) {
  uint32_t ctx;
  uint64_t v = slice_of_two(c, &ctx);
  wr_le32(c->data + v, 1000000);
}

static void summary_profile(cct_file *c) { /* random_experiment's summary is profile 0 */
  uint32_t ctx;
  uint64_t v = slice_of_two(c, &ctx);
  wr_le32(c->data + v, 0);
}

static void profile_twice(cct_file *c) {
  uint32_t ctx;
  uint64_t v = slice_of_two(c, &ctx);
  wr_le32(c->data + v + 12, rd_le32(c->data + v));
}

/* Profile p of e with one more context entry, of no values, at a tree
 * context it has none at: 1 when one was added. */
static int add_empty_entry(hpcdb_experiment *e, uint32_t p) {
  const hpcdb_profile *pr = &e->profiles[p];
  for (uint32_t c = 0; c < e->n_contexts; c++) {
    uint32_t id = e->contexts[c].id, at = 0;
    while (at < pr->n_ctxs && pr->ctx_ids[at] < id) at++;
    if (at < pr->n_ctxs && pr->ctx_ids[at] == id) continue;
    uint32_t n = pr->n_ctxs + 1, *ids = malloc(n * sizeof *ids);
    uint64_t *starts = malloc((n + 1) * sizeof *starts), n_values = pr->ctx_starts[pr->n_ctxs];
    /* copies: set_csr replaces the arrays it is given */
    uint16_t *metric_ids = malloc((n_values + 1) * sizeof *metric_ids);
    double *values = malloc((n_values + 1) * sizeof *values);
    int added = 0;
    if (ids && starts && metric_ids && values) {
      memcpy(metric_ids, pr->metric_ids, n_values * sizeof *metric_ids);
      memcpy(values, pr->values, n_values * sizeof *values);
      for (uint32_t k = 0, from = 0; k < n; k++) {
        ids[k] = k == at ? id : pr->ctx_ids[from];
        starts[k] = pr->ctx_starts[from];
        from += k != at;
      }
      starts[n] = n_values;
      added = hpcdb_profile_set_csr(e, p, n, ids, starts, n_values, metric_ids, values) == 0;
    }
    free(ids);
    free(starts);
    free(metric_ids);
    free(values);
    return added;
  }
  return 0;
}

/* An entry of no values (which cct.db cannot hold) is not in the model's
 * text either: both paths give the same bytes for it. */
static void check_empty_entry_left_out(void) {
  for (uint64_t seed = 1; seed <= 50; seed++) {
    hpcdb_experiment *e = NULL;
    CHECK_RC(random_experiment(&e, seed));
    uint32_t p = 0;
    while (e && p < e->n_profiles && (e->profiles[p].flags & HPCDB_PROFILE_SUMMARY)) p++;
    if (!e || p == e->n_profiles) {
      hpcdb_experiment_free(e);
      continue;
    }
    int rc_a, rc_b;
    char *a = testlib_printed(json_model, e, NULL, &rc_a);
    CHECK(add_empty_entry(e, p));
    char *b = testlib_printed(json_model, e, NULL, &rc_b);
    CHECK(a && b && rc_a == 0 && rc_b == 0 && !strcmp(a, b));
    free(a);
    free(b);
    hpcdb_experiment_free(e);
    printf("an empty entry left out (seed %llu)\n", (unsigned long long)seed);
    return;
  }
  CHECK(!"no random experiment with a thread profile");
}

int main(void) {
  check_empty_entry_left_out();
  if (testlib_have_samples()) {
    int compared = v4_each_sample(compare);
    printf("%d v4.0 sample databases compared\n", compared);
    CHECK(compared >= 5);
  }
  const char *dir = testlib_tmpdir("dump_json_cct_random");
  int generated = v4_each_random(dir, 200, compare);
  printf("%d generated databases compared\n", generated);
  CHECK(generated >= 150);

  /* damaged: a value block outside the file; profile indices cct.db may not hold */
  for (uint64_t seed = 1; seed <= 200; seed++) {
    hpcdb_experiment *e = NULL;
    CHECK_RC(random_experiment(&e, seed));
    int usable = 0;
    if (e && e->n_profiles > 1 && (e->profiles[0].flags & HPCDB_PROFILE_SUMMARY) &&
        hpcdb_hpctk4_write(e, dir, HPCDB_WRITE_FORCE) == 0) {
      cct_file c;
      uint32_t ctx;
      usable = cct_load(&c, dir) == 0 && slice_of_two(&c, &ctx) != 0;
      free(c.data);
    }
    hpcdb_experiment_free(e);
    if (!usable) continue;
    check_damage(dir, "values outside the file", "values-bounds", values_outside_file);
    check_damage(dir, "a profile past the end", "profile-index", profile_past_the_end);
    check_damage(dir, "the summary profile", "summary-in-cct", summary_profile);
    check_damage(dir, "a profile twice", "sorted-profile", profile_twice);
    printf("damaged cct.db of seed %llu: errors\n", (unsigned long long)seed);
    break;
  }
  return TEST_END();
}
