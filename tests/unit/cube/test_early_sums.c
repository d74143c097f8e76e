/* SPDX-License-Identifier: BSD-3-Clause */
/* The early sums (early_sums.c) and the tree they start from (tree_scan.c).
 * The scan finds nested, self-closing and sibling cnodes, a '>' in a quoted
 * value, and no cnode in comments, CDATA, processing instructions or
 * elements whose names only begin with "cnode"; it refuses unbalanced tags,
 * an unterminated comment, a DOCTYPE and gzip; a metric's name is found
 * (uniq_name, else disp_name, trimmed) unless it holds a reference. On the
 * sample Cube files and hpcdb's copies of them (every metric stored
 * inclusive) the scanned tree and the names found are expat's; on the copies
 * the DOUBLE metrics are summed early (streamed, and mapped when each
 * location's totals are wanted), and nothing is used when the anchor's
 * tree is another. Reads that take the early sums (what `hpcdb info` and
 * `hpcdb report` read) print what the full read prints, on the copy, on the
 * copy with its members at other offsets, with a data member longer than its
 * values (the location count guessed wrong: read as before), with an entry
 * point's exclusive value not 0 (made 0 after the early sums), and
 * gzip-compressed (nothing early); with a data member cut short all fail
 * with the same message. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "common/bytes.h"
#include "cube/early_sums.h"
#include "hpcdb/cube.h"
#include "hpcdb/hpcdb.h"
#include "testlib.h"

#define NONE UINT32_MAX

static void scans_to(const char *xml, int ok, uint32_t n, const uint32_t *want) {
  uint32_t *parent = NULL, got_n = 0;
  int got = cube_scan_cnode_tree((const uint8_t *)xml, strlen(xml), &parent, &got_n);
  if (got != ok || (ok && (got_n != n || (n && memcmp(parent, want, n * sizeof *want) != 0)))) {
    fprintf(stderr, "scan of %s: %d, %u cnodes\n", xml, got, got_n);
    CHECK(0);
  }
  free(parent);
}

static void scanner(void) {
  static const uint32_t tree[] = {NONE, 0, 0, 2, NONE};
  scans_to(
      "<cube><program><cnode id=\"0\"><cnode id=\"1\"/><cnode\nid=\"2\" a='x>y'><cnode id=\"3\"></cnode >"
      "</cnode></cnode><cnode id=4></cnode></program></cube>",
      1, 5, tree);
  static const uint32_t one[] = {NONE};
  scans_to(
      "<?xml version=\"1.0\"?><!-- <cnode> --><cnode><![CDATA[</cnode><cnode>]]><?pi <cnode ?><cnodes/>"
      "<cnodex></cnodex></cnode>",
      1, 1, one);
  scans_to("<cube></cube>", 1, 0, NULL);
  scans_to("<cnode><cnode></cnode>", 0, 0, NULL);
  scans_to("</cnode>", 0, 0, NULL);
  scans_to("<cnode id='1'", 0, 0, NULL);
  scans_to("<!-- <cnode>", 0, 0, NULL);
  scans_to("<!DOCTYPE cube [<!ENTITY e \"<cnode>\">]><cnode></cnode>", 0, 0, NULL);
  scans_to("\x1f\x8b<cnode></cnode>", 0, 0, NULL);
}

static int is_double(const cube_metric *m) {
  return m->flavour == CUBE_INCLUSIVE && (!strcmp(m->dtype, "DOUBLE") || !strcmp(m->dtype, "FLOAT"));
}

static void named(const char *xml, unsigned long id, const char *want) {
  char *got = cube_scan_metric_name((const uint8_t *)xml, strlen(xml), id);
  if (want ? !got || strcmp(got, want) != 0 : got != NULL) {
    fprintf(stderr, "metric %lu of %s: %s\n", id, xml, got ? got : "(none)");
    CHECK(0);
  }
  free(got);
}

static void metric_names(void) {
  const char *xml =
      "<metrics><metric id=\"1\" type=\"INCLUSIVE\"><disp_name>Time</disp_name>"
      "<uniq_name>\n time </uniq_name><metric id='12'><disp_name>Visits</disp_name><uniq_name>"
      "</uniq_name></metric></metric><metric  id=3><uniq_name>a&amp;b</uniq_name></metric>"
      "<metric id=\"4\"><disp_name>d</disp_name></metric><metricx id=\"5\"><uniq_name>no</uniq_name>"
      "</metricx></metrics>";
  named(xml, 1, "time");
  named(xml, 12, "Visits"); /* an empty uniq_name: the display name */
  named(xml, 3, NULL);      /* a reference: left to expat */
  named(xml, 4, "d");
  named(xml, 5, NULL);
  named(xml, 2, NULL);
}

/* The scanned tree of path's anchor is expat's; with `early`, DOUBLE
 * metrics are summed early (and nothing is used against another tree);
 * with `totals`, each location's exclusive totals too (the mapped pass,
 * not the streamed one). */
static void same_tree(const char *path, int early, int totals) {
  cube_member_index x;
  cube_anchor a;
  CHECK(cube_member_index_build(&x, path) == 0);
  if (x.n == 0) { /* compressed: read through libarchive, nothing scanned */
    cube_member_index_free(&x);
    return;
  }
  cube_early e;
  cube_early_start(&e, &x, path, NULL, 0, totals);
  CHECK_RC(cube_read_anchor(&a, path, &x));
  const cube_indexed_member *im = cube_member_find(&x, "anchor.xml");
  cube_member_view v;
  CHECK(im && cube_member_view_open(&x, im->offset, im->size, &v) == 1);
  uint32_t *parent = NULL, n = 0, *expat = malloc(((size_t)a.n_cnodes + 1) * sizeof *expat);
  CHECK(expat != NULL);
  for (uint32_t c = 0; c < a.n_cnodes; c++) expat[c] = a.cnodes[c].parent;
  if (!(v.len >= 2 && v.data[0] == 0x1f && v.data[1] == 0x8b)) {
    CHECK(cube_scan_cnode_tree(v.data, v.len, &parent, &n) == 1);
    CHECK(n == a.n_cnodes && memcmp(parent, expat, (size_t)n * sizeof *parent) == 0);
  }
  for (uint32_t k = 0; k < a.n_metrics; k++) { /* a name found plainly is the model's */
    char *name = cube_scan_metric_name(v.data, v.len, a.metrics[k].id);
    CHECK(!name || !strcmp(name, *a.metrics[k].uniq ? a.metrics[k].uniq : a.metrics[k].disp));
    free(name);
  }
  cube_member_view_close(&v);
  cube_early_finish(&e, expat, a.n_cnodes);
  uint32_t found = 0, doubles = 0;
  for (uint32_t k = 0; k < a.n_metrics; k++)
    if (is_double(&a.metrics[k])) doubles++;
  for (uint32_t i = 0; i < e.n_metrics; i++) { /* a DOUBLE metric's guesses are right */
    const cube_early_metric *m = cube_early_find(&e, e.metrics[i].ix, e.metrics[i].dt);
    unsigned long id;
    CHECK(cube_member_metric_id(e.metrics[i].dt->name, ".data", &id));
    for (uint32_t k = 0; m && k < a.n_metrics; k++)
      if (a.metrics[k].id == id && is_double(&a.metrics[k])) {
        CHECK(m->n_locations == a.n_locations);
        found++;
      }
  }
  CHECK(!early || !doubles || found > 0);
  cube_early_free(&e);
  if (a.n_cnodes > 1) { /* another tree: no early sums are used */
    cube_early_start(&e, &x, path, NULL, 0, totals);
    expat[a.n_cnodes - 1] = NONE - 1;
    cube_early_finish(&e, expat, a.n_cnodes);
    for (uint32_t i = 0; i < e.n_metrics; i++) CHECK(cube_early_find(&e, e.metrics[i].ix, e.metrics[i].dt) == NULL);
    cube_early_free(&e);
  }
  free(parent);
  free(expat);
  cube_anchor_free(&a);
  cube_member_index_free(&x);
}

static int print_info(FILE *out, const hpcdb_experiment *exp, const void *arg) {
  (void)arg;
  return hpcdb_write_info(out, exp);
}

static int print_report(FILE *out, const hpcdb_experiment *exp, const void *arg) { return hpcdb_report(out, exp, arg); }

/* info from counted values and the report from the summary only are the
 * full read's; with `fails`, every read fails with the same message. */
static void same_output(const char *path, int fails) {
  hpcdb_experiment *full = NULL, *counted = NULL, *summary = NULL;
  hpcdb_read_options counts = {HPCDB_READ_OPTIONS_VERSION, HPCDB_READ_COUNTS, NULL, 0, 0},
                     sums = {HPCDB_READ_OPTIONS_VERSION, HPCDB_READ_ALL, NULL, 0, HPCDB_READ_SUMMARY_ONLY};
  char message[1024];
  int rc = hpcdb_read(&full, path);
  snprintf(message, sizeof message, "%s", hpcdb_last_error());
  CHECK((rc < 0) == fails);
  CHECK(hpcdb_read_opts(&counted, path, &counts) == rc);
  CHECK(!fails || strcmp(message, hpcdb_last_error()) == 0);
  CHECK(hpcdb_read_opts(&summary, path, &sums) == rc);
  CHECK(!fails || strcmp(message, hpcdb_last_error()) == 0);
  if (rc == 0) {
    hpcdb_report_options o = {0};
    o.view = HPCDB_VIEW_TOP_DOWN, o.width = 100, o.threshold = 0.0;
    int r1, r2, r3, r4;
    char *a = testlib_printed(print_info, full, NULL, &r1), *b = testlib_printed(print_info, counted, NULL, &r2);
    char *c = testlib_printed(print_report, full, &o, &r3), *d = testlib_printed(print_report, summary, &o, &r4);
    CHECK(r1 == 0 && r2 == 0 && r3 == 0 && r4 == 0);
    if (strcmp(a, b) != 0 || strcmp(c, d) != 0) fprintf(stderr, "%s: the reads print otherwise\n", path);
    CHECK(strcmp(a, b) == 0 && strcmp(c, d) == 0);
    free(a), free(b), free(c), free(d);
  }
  hpcdb_experiment_free(full);
  hpcdb_experiment_free(counted);
  hpcdb_experiment_free(summary);
}

/* The first value of a data member (in the byte order of its metric's
 * index) v made 2v + 1: in hpcdb's files the first root, an entry point, whose
 * inclusive value then exceeds its children's (an exclusive value that the
 * reader sets to 0). */
static void bump_first_value(const cube_member_index *x, const char *data_name, uint8_t *data, size_t len) {
  char name[128];
  unsigned long id;
  CHECK(cube_member_metric_id(data_name, ".data", &id) && len >= 18);
  snprintf(name, sizeof name, "%lu.index", id);
  const cube_indexed_member *im = cube_member_find(x, name);
  uint8_t word[4];
  CHECK(im && cube_member_read(x, im->offset + 11, word, 4) == 1);
  if (rd_le32(word) == 1) wr_le_f64(data + 10, 2 * rd_le_f64(data + 10) + 1);
  else wr_be_f64(data + 10, 2 * rd_be_f64(data + 10) + 1);
}

/* path's members rewritten into out: a 1001-byte member first when `pad`;
 * the first .data member `grow` bytes longer (its own bytes repeated) or
 * `-grow` shorter, or with its first value bumped. */
static void rewrite(const char *path, const char *out, int pad, long grow, int bump) {
  cube_member_index x;
  CHECK(cube_member_index_build(&x, path) == 0 && x.n > 0);
  testlib_member *m = calloc(x.n + 1, sizeof *m);
  cube_member_view *v = calloc(x.n, sizeof *v);
  uint8_t *changed = NULL, padding[1001];
  memset(padding, 'p', sizeof padding);
  CHECK(m && v);
  int n = 0, done = 0;
  if (pad) m[n++] = (testlib_member){"pad", padding, sizeof padding};
  for (uint32_t i = 0; i < x.n; i++) {
    CHECK(cube_member_view_open(&x, x.members[i].offset, x.members[i].size, &v[i]) == 1);
    m[n] = (testlib_member){x.members[i].name, v[i].data, v[i].len};
    unsigned long id;
    if (!done && (grow || bump) && cube_member_metric_id(x.members[i].name, ".data", &id)) {
      size_t len = grow >= 0 ? v[i].len + (size_t)grow : v[i].len - (size_t)-grow;
      CHECK((changed = malloc(len)) != NULL);
      for (size_t k = 0; k < len; k++) changed[k] = v[i].data[k % v[i].len];
      if (bump) bump_first_value(&x, x.members[i].name, changed, len);
      m[n].data = changed, m[n].len = len;
      done = 1;
    }
    n++;
  }
  CHECK(testlib_write_tar(out, m, n) == 0);
  for (uint32_t i = 0; i < x.n; i++) cube_member_view_close(&v[i]);
  free(changed), free(m), free(v);
  cube_member_index_free(&x);
}

static void gzip_copy(const char *path, const char *out) {
  uint8_t *data;
  size_t len;
  CHECK(testlib_read_file(path, &data, &len) == 0);
  gzFile z = gzopen(out, "wb");
  CHECK(z != NULL && gzwrite(z, data, (unsigned)len) == (int)len && gzclose(z) == Z_OK);
  free(data);
}

int main(void) {
  scanner();
  metric_names();
  if (!testlib_have_samples()) {
    printf("sample data not found: skipped\n");
    return TEST_END();
  }
  static const char *const samples[] = {
      "all-dtypes", "blast.p64.bigendian", "call_tree_test", "cube-4.0-legacy-system", "dense-index-8-roots",
      "scorep-cpi", "threaded-example1",   "time.p4",        "zcubex-mm.x100"};
  const char *tmp = testlib_tmpdir("unit-cube-early-sums");
  char rel[256], copy[4096], variant[4200];
  for (size_t i = 0; i < sizeof samples / sizeof *samples; i++) {
    snprintf(rel, sizeof rel, "cube/%s.cubex", samples[i]);
    same_tree(testlib_sample(rel), 0, 0);
    snprintf(copy, sizeof copy, "%s/%s.cubex", tmp, samples[i]);
    hpcdb_experiment *exp;
    hpcdb_cube_write_options wo = {HPCDB_CUBE_WRITE_OPTIONS_VERSION, 0, HPCDB_WRITE_FORCE};
    CHECK_RC(hpcdb_read(&exp, testlib_sample(rel)));
    CHECK_RC(hpcdb_cube_write(exp, copy, &wo));
    hpcdb_experiment_free(exp);
    same_tree(copy, 1, 0);
    same_tree(copy, 1, 1);
    same_output(copy, 0);
    snprintf(variant, sizeof variant, "%s/%s.padded.cubex", tmp, samples[i]);
    rewrite(copy, variant, 1, 0, 0);
    same_output(variant, 0);
    snprintf(variant, sizeof variant, "%s/%s.longer.cubex", tmp, samples[i]);
    rewrite(copy, variant, 0, 4096, 0);
    same_output(variant, 0);
    snprintf(variant, sizeof variant, "%s/%s.short.cubex", tmp, samples[i]);
    rewrite(copy, variant, 0, -8, 0);
    same_output(variant, 1);
    snprintf(variant, sizeof variant, "%s/%s.bumped.cubex", tmp, samples[i]);
    rewrite(copy, variant, 0, 0, 1);
    same_output(variant, 0);
    snprintf(variant, sizeof variant, "%s/%s.cubex.gz", tmp, samples[i]);
    gzip_copy(copy, variant);
    same_tree(variant, 0, 0);
    same_output(variant, 0);
  }
  return TEST_END();
}
