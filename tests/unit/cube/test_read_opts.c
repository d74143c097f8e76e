/* SPDX-License-Identifier: BSD-3-Clause */
/* hpcdb_read_opts on Cube files gives what commands print from a full read:
 * reading what `hpcdb report` reads (one metric's values, the summary
 * profile's only, or for the profiles view the profiles' totals), its report
 * in every view is the full read's, byte for byte; reading the structure only, info's lines up to the profiles (format,
 * tree, structure, metrics) are the full read's; counting values instead of
 * keeping them (what `hpcdb info` reads), info's whole text is the full
 * read's. On every sample Cube file and on hpcdb's Cube copy of it (every
 * metric stored inclusive, the one-pass path), plain (members found by
 * offset) and gzip-compressed (members skipped while streaming); a path given
 * as argument is checked instead (e.g. the large generated file of bench/).
 * Also a copy of a file whose summed exclusive FLOAT metric has no value at
 * location 0 (a total of 0 there: the profiles' totals read sums that
 * location's point values before the summary's pass takes the matrix), and
 * hpcdb's copy of all-dtypes with its cnode ids reversed (a profile's contexts
 * then in another order than the document's: the early sums' totals are not
 * used, and the one-pass read sums the exclusive rows by id). */
#define _GNU_SOURCE /* memmem */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "cube/cube.h"
#include "hpcdb/cube.h"
#include "hpcdb/hpcdb.h"
#include "testlib.h"

static const char *const samples[] = {
    "all-dtypes", "blast.p64.bigendian", "call_tree_test", "cube-4.0-legacy-system", "dense-index-8-roots",
    "scorep-cpi", "threaded-example1",   "time.p4",        "zcubex-mm.x100"};

static int print_report(FILE *out, const hpcdb_experiment *exp, const void *arg) { return hpcdb_report(out, exp, arg); }

static int print_info(FILE *out, const hpcdb_experiment *exp, const void *arg) {
  (void)arg;
  return hpcdb_write_info(out, exp);
}

/* The report of `name` (NULL: the default metrics) in view v from the full
 * read and from a read of only the named metric's values (or all) with the
 * given flags. */
static void same_report_read(const char *path, const hpcdb_experiment *full, const char *name, hpcdb_view v,
                             unsigned flags) {
  hpcdb_read_options ro = {HPCDB_READ_OPTIONS_VERSION, name ? HPCDB_READ_METRICS : HPCDB_READ_ALL, name ? &name : NULL,
                           name ? 1 : 0, flags};
  hpcdb_experiment *part;
  CHECK(hpcdb_read_opts(&part, path, &ro) == 0);
  CHECK(part->n_metrics == full->n_metrics);
  hpcdb_report_options o = {0};
  o.view = v, o.metrics = name ? &name : NULL, o.n_metrics = name ? 1 : 0, o.width = 100, o.threshold = 0.01;
  int rc_full, rc_part;
  char *a = testlib_printed(print_report, full, &o, &rc_full), *b = testlib_printed(print_report, part, &o, &rc_part);
  CHECK(rc_full == rc_part);
  if (strcmp(a, b) != 0) {
    fprintf(stderr, "%s: metric %s, view %d, flags %u: the partial read reports otherwise\n", path,
            name ? name : "(default)", (int)v, flags);
    CHECK(0);
  }
  free(a);
  free(b);
  hpcdb_experiment_free(part);
}

/* The same from what `hpcdb report` reads for view v: the summary profile
 * only, or for the profiles view the profiles' totals; and for the profiles
 * view, every profile's values of the metric too. */
static void same_report(const char *path, const hpcdb_experiment *full, const char *name, hpcdb_view v) {
  if (v != HPCDB_VIEW_PROFILES) {
    same_report_read(path, full, name, v, HPCDB_READ_SUMMARY_ONLY);
    return;
  }
  same_report_read(path, full, name, v, HPCDB_READ_PROFILE_TOTALS);
  same_report_read(path, full, name, v, 0);
}

/* The default metrics and each metric alone, in every view. */
static void reports(const char *path, const hpcdb_experiment *full) {
  const hpcdb_view views[] = {HPCDB_VIEW_TOP_DOWN, HPCDB_VIEW_BOTTOM_UP, HPCDB_VIEW_FLAT, HPCDB_VIEW_PROFILES};
  for (size_t v = 0; v < sizeof views / sizeof *views; v++) {
    same_report(path, full, NULL, views[v]);
    for (uint32_t m = 0; m < full->n_metrics; m++)
      if (full->metrics[m].name) same_report(path, full, full->metrics[m].name, views[v]);
  }
}

/* info's text up to the profiles' line. */
static char *info_head(const hpcdb_experiment *exp) {
  int rc;
  char *text = testlib_printed(print_info, exp, NULL, &rc);
  CHECK(rc == 0);
  const char *cut = strstr(text, "\nprofiles:");
  CHECK(cut != NULL);
  if (cut) text[cut - text + 1] = 0;
  return text;
}

/* info's whole text from a read that counts values without keeping them. */
static void same_info(const char *path, const hpcdb_experiment *full) {
  hpcdb_experiment *counted;
  hpcdb_read_options ro = {HPCDB_READ_OPTIONS_VERSION, HPCDB_READ_COUNTS, NULL, 0, 0};
  CHECK(hpcdb_read_opts(&counted, path, &ro) == 0);
  int rc_full, rc_counted;
  char *a = testlib_printed(print_info, full, NULL, &rc_full),
       *b = testlib_printed(print_info, counted, NULL, &rc_counted);
  CHECK(rc_full == 0 && rc_counted == 0);
  if (strcmp(a, b) != 0) fprintf(stderr, "%s: info from counted values differs:\n%s\n---\n%s\n", path, a, b);
  CHECK(strcmp(a, b) == 0);
  free(a);
  free(b);
  hpcdb_experiment_free(counted);
}

static void check_file(const char *path) {
  hpcdb_experiment *full, *bare;
  CHECK(hpcdb_read(&full, path) == 0);
  same_info(path, full);
  hpcdb_read_options ro = {HPCDB_READ_OPTIONS_VERSION, HPCDB_READ_STRUCTURE, NULL, 0, 0};
  CHECK(hpcdb_read_opts(&bare, path, &ro) == 0);
  CHECK(bare->n_profiles == full->n_profiles);
  char *a = info_head(full), *b = info_head(bare);
  if (strcmp(a, b) != 0) fprintf(stderr, "%s: the structure differs:\n%s\n---\n%s\n", path, a, b);
  CHECK(strcmp(a, b) == 0);
  free(a);
  free(b);
  reports(path, full);
  hpcdb_experiment_free(bare);
  hpcdb_experiment_free(full);
}

static char tmp[4096]; /* the test's temporary directory */

/* A gzip-compressed copy of path in it. */
static const char *gzip_copy(const char *path, const char *name) {
  static char out[4200];
  uint8_t *data;
  size_t len;
  snprintf(out, sizeof out, "%s/%s.cubex.gz", tmp, name);
  CHECK(testlib_read_file(path, &data, &len) == 0);
  gzFile z = gzopen(out, "wb");
  CHECK(z != NULL && gzwrite(z, data, (unsigned)len) == (int)len && gzclose(z) == Z_OK);
  free(data);
  return out;
}

/* dense-index-8-roots.cubex with metric 0 (time, FLOAT, stored exclusive)
 * made 0 at location 0 in every row. */
static void zero_location_copy(const char *out) {
  const char *path = testlib_sample("cube/dense-index-8-roots.cubex");
  hpcdb_experiment *exp;
  CHECK(hpcdb_read(&exp, path) == 0);
  size_t nl = exp->n_profiles - 1, len;
  hpcdb_experiment_free(exp);
  cube_member_index x;
  uint8_t *bytes;
  CHECK(cube_member_index_build(&x, path) == 0 && testlib_read_file(path, &bytes, &len) == 0);
  const cube_indexed_member *dt = cube_member_find(&x, "0.data");
  CHECK(dt != NULL && dt->size > 10 && (dt->size - 10) % (4 * nl) == 0);
  for (uint64_t at = dt->offset + 10; at < dt->offset + dt->size; at += 4 * nl) memset(bytes + at, 0, 4);
  CHECK(testlib_write_file(out, bytes, len) == 0);
  free(bytes);
  cube_member_index_free(&x);
}

/* src (written by hpcdb: cnode ids 0 .. n - 1 in document order) with cnode
 * id k renumbered n - 1 - k. */
static void reversed_ids_copy(const char *src, const char *out) {
  cube_member_index x;
  CHECK(cube_member_index_build(&x, src) == 0 && x.n > 0);
  testlib_member *m = calloc(x.n, sizeof *m);
  cube_member_view *v = calloc(x.n, sizeof *v);
  char *anchor = NULL;
  CHECK(m && v);
  for (uint32_t i = 0; i < x.n; i++) {
    CHECK(cube_member_view_open(&x, x.members[i].offset, x.members[i].size, &v[i]) == 1);
    m[i] = (testlib_member){x.members[i].name, v[i].data, v[i].len};
    if (strcmp(x.members[i].name, "anchor.xml") != 0) continue;
    const char *tag = "<cnode id=\"", *text = (const char *)v[i].data, *end = text + v[i].len, *at;
    size_t n = 0, len = 0;
    for (at = text; (at = memmem(at, (size_t)(end - at), tag, strlen(tag))) != NULL; at++) n++;
    CHECK(n > 1 && (anchor = malloc(v[i].len + 16 * n)) != NULL);
    for (const char *from = text; from < end;) {
      at = memmem(from, (size_t)(end - from), tag, strlen(tag));
      size_t keep = at ? (size_t)(at - from) + strlen(tag) : (size_t)(end - from);
      memcpy(anchor + len, from, keep);
      len += keep, from += keep;
      if (!at) break;
      char *digits;
      unsigned long id = strtoul(from, &digits, 10);
      CHECK(id < n);
      len += (size_t)sprintf(anchor + len, "%lu", (unsigned long)(n - 1 - id));
      from = digits;
    }
    m[i].data = (const uint8_t *)anchor, m[i].len = len;
  }
  CHECK(anchor != NULL && testlib_write_tar(out, m, (int)x.n) == 0);
  for (uint32_t i = 0; i < x.n; i++) cube_member_view_close(&v[i]);
  free(anchor), free(m), free(v);
  cube_member_index_free(&x);
}

int main(int argc, char **argv) {
  if (argc > 1) {
    check_file(argv[1]);
    return TEST_END();
  }
  if (!testlib_have_samples()) {
    printf("sample data not found: skipped\n");
    return 77;
  }
  char rel[256];
  snprintf(tmp, sizeof tmp, "%s", testlib_tmpdir("cube_read_opts"));
  for (size_t i = 0; i < sizeof samples / sizeof *samples; i++) {
    snprintf(rel, sizeof rel, "cube/%s.cubex", samples[i]);
    check_file(testlib_sample(rel));
    check_file(gzip_copy(testlib_sample(rel), samples[i]));
    char copy[4096], name[300];
    snprintf(copy, sizeof copy, "%s/%s.hpcdb.cubex", tmp, samples[i]);
    snprintf(name, sizeof name, "%s.hpcdb", samples[i]);
    hpcdb_experiment *exp;
    hpcdb_cube_write_options wo = {HPCDB_CUBE_WRITE_OPTIONS_VERSION, 0, HPCDB_WRITE_FORCE};
    CHECK(hpcdb_read(&exp, testlib_sample(rel)) == 0);
    CHECK(hpcdb_cube_write(exp, copy, &wo) == 0);
    hpcdb_experiment_free(exp);
    check_file(copy);
    check_file(gzip_copy(copy, name));
  }
  char copy[4096];
  snprintf(rel, sizeof rel, "%s/all-dtypes.hpcdb.cubex", tmp);
  snprintf(copy, sizeof copy, "%s/reversed-ids.cubex", tmp);
  reversed_ids_copy(rel, copy);
  check_file(copy);
  snprintf(rel, sizeof rel, "%s/zero-location.cubex", tmp);
  zero_location_copy(rel);
  check_file(rel);
  check_file(gzip_copy(rel, "zero-location"));
  return TEST_END();
}
