/* SPDX-License-Identifier: BSD-3-Clause */
/* Minimal test harness: CHECK records a failure and goes on; tests end with
 * TEST_END() which prints "N passed, M failed" and returns the exit code. */
#ifndef HPCDB_TESTLIB_H
#define HPCDB_TESTLIB_H

#include <stdint.h>
#include <stdio.h>

extern int testlib_passed, testlib_failed;

#define CHECK(cond)                                                            \
  do {                                                                         \
    if (cond) testlib_passed++;                                                \
    else {                                                                     \
      testlib_failed++;                                                        \
      fprintf(stderr, "%s:%d: CHECK(%s) failed\n", __FILE__, __LINE__, #cond); \
    }                                                                          \
  } while (0)

#define CHECK_RC(expr)                                                                                            \
  do {                                                                                                            \
    int testlib_rc_ = (expr);                                                                                     \
    if (testlib_rc_ == 0) testlib_passed++;                                                                       \
    else {                                                                                                        \
      testlib_failed++;                                                                                           \
      fprintf(stderr, "%s:%d: %s returned %d: %s\n", __FILE__, __LINE__, #expr, testlib_rc_, hpcdb_last_error()); \
    }                                                                                                             \
  } while (0)

#define TEST_END() testlib_end()

int testlib_end(void);
/* Path of a sample data file ("" base when HPCDB_SAMPLE_DATA is unset). */
const char *testlib_sample(const char *relative);
/* 1 when the sample data directory exists. */
int testlib_have_samples(void);
/* A fresh empty directory under the build tree for this test's outputs. */
const char *testlib_tmpdir(const char *name);
/* Reads a whole file into a malloc'ed buffer. */
int testlib_read_file(const char *path, uint8_t **data, size_t *len);
/* 1 when two files hold the same bytes (both readable). */
int testlib_same_file(const char *a, const char *b);
/* The same for dir_a/name and dir_b/name. */
int testlib_same_in_dirs(const char *dir_a, const char *dir_b, const char *name);
int testlib_write_file(const char *path, const void *data, size_t len);
/* A gzip-compressed copy of path, written as dir/NAME.cubex.gz (a static
 * buffer holds its path until the next call). */
const char *testlib_gzip_copy(const char *path, const char *dir, const char *name);
/* A tar archive (pax, plain ustar headers where they suffice) of n members,
 * as Cube files are: 0, or -1 when libarchive fails. */
typedef struct testlib_member {
  const char *name;
  const uint8_t *data;
  size_t len;
} testlib_member;
int testlib_write_tar(const char *path, const testlib_member *m, int n);
/* The member `name` of a tar archive (plain or compressed) into a malloc'ed buffer: 0, or -1. */
int testlib_read_member(const char *path, const char *name, uint8_t **data, size_t *len);
/* fn on n threads at once, the k-th given args + k * size bytes, all joined:
 * 0, or -1 when a thread could not start (those started are joined). */
int testlib_run_threads(unsigned n, void *(*fn)(void *), void *args, size_t size);
/* What fn prints into a new heap string (the caller frees it); *rc its status. */
struct hpcdb_experiment;
typedef int (*testlib_print_fn)(FILE *out, const struct hpcdb_experiment *exp, const void *arg);
char *testlib_printed(testlib_print_fn fn, const struct hpcdb_experiment *exp, const void *arg, int *rc);

#endif
