/* SPDX-License-Identifier: BSD-3-Clause */
#include <archive.h>
#include <archive_entry.h>
#include "testlib.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "hpcdb/hpcdb.h"

int testlib_passed, testlib_failed;

int testlib_end(void) {
  printf("%d passed, %d failed\n", testlib_passed, testlib_failed);
  return testlib_failed ? 1 : 0;
}

const char *testlib_sample(const char *relative) {
  static char buf[8][4096];
  static int next;
  const char *base = getenv("HPCDB_SAMPLE_DATA");
  char *out = buf[next++ % 8];
  snprintf(out, sizeof buf[0], "%s/%s", base ? base : "../shared/data", relative);
  return out;
}

int testlib_have_samples(void) {
  struct stat st;
  return stat(testlib_sample(""), &st) == 0 && S_ISDIR(st.st_mode);
}

const char *testlib_tmpdir(const char *name) {
  static char buf[8][4096];
  static int next;
  const char *base = getenv("HPCDB_BUILD_DIR");
  char *out = buf[next++ % 8];
  snprintf(out, sizeof buf[0], "%s/test-output/%s", base ? base : ".", name);
  char cmd[8400];
  snprintf(cmd, sizeof cmd, "rm -rf '%s' && mkdir -p '%s'", out, out);
  if (system(cmd) != 0) fprintf(stderr, "cannot create %s\n", out);
  return out;
}

int testlib_read_file(const char *path, uint8_t **data, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f) return -1;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  *data = malloc(n > 0 ? (size_t)n : 1);
  *len = n > 0 ? (size_t)fread(*data, 1, (size_t)n, f) : 0;
  fclose(f);
  return 0;
}

int testlib_same_file(const char *a, const char *b) {
  uint8_t *x = NULL, *y = NULL;
  size_t nx = 0, ny = 0;
  int same =
      testlib_read_file(a, &x, &nx) == 0 && testlib_read_file(b, &y, &ny) == 0 && nx == ny && memcmp(x, y, nx) == 0;
  free(x);
  free(y);
  return same;
}

int testlib_same_in_dirs(const char *dir_a, const char *dir_b, const char *name) {
  char a[4096], b[4096];
  snprintf(a, sizeof a, "%s/%s", dir_a, name);
  snprintf(b, sizeof b, "%s/%s", dir_b, name);
  return testlib_same_file(a, b);
}

int testlib_write_file(const char *path, const void *data, size_t len) {
  FILE *f = fopen(path, "wb");
  if (!f) return -1;
  size_t n = fwrite(data, 1, len, f);
  fclose(f);
  return n == len ? 0 : -1;
}

char *testlib_printed(testlib_print_fn fn, const struct hpcdb_experiment *exp, const void *arg, int *rc) {
  char *text = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&text, &len);
  CHECK(f != NULL);
  if (!f) return NULL;
  *rc = fn(f, exp, arg);
  fclose(f);
  char *copy = strdup(text ? text : ""); /* a heap string of its own, not open_memstream's slot */
  free(text);
  CHECK(copy != NULL);
  return copy;
}

int testlib_write_tar(const char *path, const testlib_member *m, int n) {
  struct archive *a = archive_write_new();
  int ok = a && archive_write_set_format_pax_restricted(a) == ARCHIVE_OK &&
           archive_write_open_filename(a, path) == ARCHIVE_OK;
  for (int i = 0; ok && i < n; i++) {
    struct archive_entry *e = archive_entry_new();
    archive_entry_set_pathname(e, m[i].name);
    archive_entry_set_size(e, (la_int64_t)m[i].len);
    archive_entry_set_filetype(e, AE_IFREG);
    archive_entry_set_perm(e, 0644);
    ok = archive_write_header(a, e) == ARCHIVE_OK && archive_write_data(a, m[i].data, m[i].len) == (la_ssize_t)m[i].len;
    archive_entry_free(e);
  }
  if (a) ok = archive_write_close(a) == ARCHIVE_OK && ok, archive_write_free(a);
  return ok ? 0 : -1;
}

int testlib_read_member(const char *path, const char *name, uint8_t **data, size_t *len) {
  struct archive *a = archive_read_new();
  struct archive_entry *e;
  int found = -1;
  *data = NULL, *len = 0;
  if (!a || archive_read_support_format_tar(a) != ARCHIVE_OK || archive_read_support_filter_all(a) != ARCHIVE_OK ||
      archive_read_open_filename(a, path, 65536) != ARCHIVE_OK) {
    if (a) archive_read_free(a);
    return -1;
  }
  while (found < 0 && archive_read_next_header(a, &e) == ARCHIVE_OK) {
    if (strcmp(archive_entry_pathname(e), name) != 0) continue;
    size_t size = (size_t)archive_entry_size(e);
    *data = malloc(size + 1);
    if (*data && archive_read_data(a, *data, size) == (la_ssize_t)size) *len = size, found = 0;
    else free(*data), *data = NULL, found = -2;
  }
  archive_read_free(a);
  return found < 0 ? -1 : 0;
}

int testlib_run_threads(unsigned n, void *(*fn)(void *), void *args, size_t size) {
  pthread_t *t = malloc((n ? n : 1) * sizeof *t);
  unsigned started = 0;
  while (t && started < n && pthread_create(&t[started], NULL, fn, (char *)args + (size_t)started * size) == 0)
    started++;
  for (unsigned k = 0; t && k < started; k++) pthread_join(t[k], NULL);
  int all = t && started == n;
  free(t);
  return all ? 0 : -1;
}
