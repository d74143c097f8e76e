/* hpcdb_read_opts on Cube files gives what commands print from a full read:
 * reading what `hpcdb report` reads (one metric's values, the summary
 * profile's only), its report in every view is the full read's, byte for
 * byte; reading the structure only, info's lines up to the profiles (format,
 * tree, structure, metrics) are the full read's; counting values instead of
 * keeping them (what `hpcdb info` reads), info's whole text is the full
 * read's. On every sample Cube file and on hpcdb's Cube copy of it (every
 * metric stored inclusive, the one-pass path), plain (members found by
 * offset) and gzip-compressed (members skipped while streaming); a path given
 * as argument is checked instead (e.g. the large generated file of bench/). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "hpcdb/cube.h"
#include "hpcdb/hpcdb.h"
#include "testlib.h"

static const char *const samples[] = {"all-dtypes", "blast.p64.bigendian", "call_tree_test", "cube-4.0-legacy-system",
                                      "dense-index-8-roots", "scorep-cpi", "threaded-example1", "time.p4",
                                      "zcubex-mm.x100"};


static int print_report(FILE *out, const hpcdb_experiment *exp, const void *arg) {
  return hpcdb_report(out, exp, arg);
}

static int print_info(FILE *out, const hpcdb_experiment *exp, const void *arg) {
  (void)arg;
  return hpcdb_write_info(out, exp);
}

/* The report of `name` (NULL: the default metrics) in view v from the full
 * read and from a read of only what `hpcdb report` reads for it: the named
 * metric's values (or all), of the summary profile only unless the view shows
 * every profile. */
static void same_report(const char *path, const hpcdb_experiment *full, const char *name, hpcdb_view v) {
  hpcdb_read_options ro = {name ? HPCDB_READ_METRICS : HPCDB_READ_ALL, name ? &name : NULL, name ? 1 : 0,
                           v != HPCDB_VIEW_PROFILES ? HPCDB_READ_SUMMARY_ONLY : 0};
  hpcdb_experiment *part;
  CHECK(hpcdb_read_opts(&part, path, &ro) == 0);
  CHECK(part->n_metrics == full->n_metrics);
  hpcdb_report_options o = {0};
  o.view = v, o.metrics = name ? &name : NULL, o.n_metrics = name ? 1 : 0, o.width = 100, o.threshold = 0.01;
  int rc_full, rc_part;
  char *a = testlib_printed(print_report, full, &o, &rc_full), *b = testlib_printed(print_report, part, &o, &rc_part);
  CHECK(rc_full == rc_part);
  if (strcmp(a, b) != 0) {
    fprintf(stderr, "%s: metric %s, view %d: the partial read reports otherwise\n", path, name ? name : "(default)", (int)v);
    CHECK(0);
  }
  free(a);
  free(b);
  hpcdb_experiment_free(part);
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
  hpcdb_read_options ro = {HPCDB_READ_COUNTS, NULL, 0, 0};
  CHECK(hpcdb_read_opts(&counted, path, &ro) == 0);
  int rc_full, rc_counted;
  char *a = testlib_printed(print_info, full, NULL, &rc_full), *b = testlib_printed(print_info, counted, NULL, &rc_counted);
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
  hpcdb_read_options ro = {HPCDB_READ_STRUCTURE, NULL, 0, 0};
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
    hpcdb_cube_write_options wo = {0, HPCDB_WRITE_FORCE};
    CHECK(hpcdb_read(&exp, testlib_sample(rel)) == 0);
    CHECK(hpcdb_cube_write(exp, copy, &wo) == 0);
    hpcdb_experiment_free(exp);
    check_file(copy);
    check_file(gzip_copy(copy, name));
  }
  return TEST_END();
}
