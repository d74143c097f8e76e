/* SPDX-License-Identifier: BSD-3-Clause */
/* hpcdb_hpctk4_read: a database directory (or a lone meta.db) into the model. */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/error.h"
#include "common/mapped_file.h"
#include "hpcdb/common.h"
#include "hpcdb/formats.h"
#include "hpcdb/hpctk4.h"
#include "hpcdb/model.h"
#include "hpctk4/hpctk4_read.h"

/* A file's parser gets its mapped bytes and the file open as fd (profile.db
 * reads its value arrays with pread: hpctk4_parse_profile_fd). */
typedef int (*parse_fn)(hpcdb_experiment *, const uint8_t *, uint64_t, int fd, const char *);

/* Maps dir/name and parses it; a missing optional file is not an error. */
static int read_file(hpcdb_experiment *exp, const char *dir, const char *name, int required, parse_fn parse) {
  char path[4096];
  if ((size_t)snprintf(path, sizeof path, "%s/%s", dir, name) >= sizeof path)
    return hpcdb_fail(HPCDB_EINVAL, "%s: path too long", dir);
  struct stat st;
  if (stat(path, &st) != 0 && !required) return 0;
  hpcdb_mapped_file m;
  HPCDB_TRY(mapped_file_open(&m, path));
  mapped_file_advise_sequential(&m);
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  int rc = parse(exp, m.data, m.len, fd, path);
  if (fd >= 0) close(fd);
  return mapped_file_finish(&m, path, rc);
}

static int read_meta(hpcdb_experiment *exp, const uint8_t *data, uint64_t len, int fd, const char *path) {
  (void)fd;
  return hpctk4_parse_meta(exp, data, len, path);
}

static int read_trace(hpcdb_experiment *exp, const uint8_t *data, uint64_t len, int fd, const char *path) {
  (void)fd;
  return hpctk4_parse_trace(exp, data, len, path);
}

static int read_cct(hpcdb_experiment *exp, const uint8_t *data, uint64_t len, int fd, const char *path) {
  (void)fd;
  uint32_t n;
  HPCDB_TRY(hpctk4_parse_cct_header(data, len, path, &n));
  char text[16];
  snprintf(text, sizeof text, "%u", n);
  return hpcdb_add_attr(exp, "hpctk4.cct.nCtxs", text);
}

static int read_profile_summary(hpcdb_experiment *exp, const uint8_t *data, uint64_t len, int fd, const char *path) {
  return hpctk4_parse_profile_opts(exp, data, len, fd, path, HPCDB_READ_SUMMARY_ONLY);
}

static int read_db(hpcdb_experiment **out, const char *path, parse_fn read_profile);

int hpcdb_hpctk4_read(hpcdb_experiment **out, const char *path) { return read_db(out, path, hpctk4_parse_profile_fd); }

/* Of the options, the summary-only flag: the thread profiles' values stay
 * unread (a database directory holds them apart from the summary's). */
int hpctk4_read_opts(hpcdb_experiment **out, const char *path, const hpcdb_read_options *options) {
  int summary = options && (options->flags & HPCDB_READ_SUMMARY_ONLY);
  return read_db(out, path, summary ? read_profile_summary : hpctk4_parse_profile_fd);
}

static int read_db(hpcdb_experiment **out, const char *path, parse_fn read_profile) {
  *out = NULL;
  struct stat st;
  if (stat(path, &st) != 0) return hpcdb_fail(HPCDB_EIO, "%s: no such file or directory", path);
  char dir[4096];
  const char *meta = "meta.db";
  if (S_ISDIR(st.st_mode)) {
    snprintf(dir, sizeof dir, "%s", path);
  } else { /* a lone meta.db: the other files are looked for beside it */
    const char *slash = strrchr(path, '/');
    snprintf(dir, sizeof dir, "%.*s", slash ? (int)(slash - path) : 1, slash ? path : ".");
    meta = slash ? slash + 1 : path;
  }
  hpcdb_experiment *exp;
  HPCDB_TRY(hpcdb_experiment_new(&exp));
  int rc = read_file(exp, dir, meta, 1, read_meta);
  if (rc == 0 && S_ISDIR(st.st_mode)) {
    rc = read_file(exp, dir, "profile.db", 0, read_profile);
    if (rc == 0) rc = read_file(exp, dir, "cct.db", 0, read_cct);
    if (rc == 0) rc = read_file(exp, dir, "trace.db", 0, read_trace);
  }
  if (rc == 0) rc = hpcdb_set_origin(exp, path);
  if (rc < 0) {
    hpcdb_experiment_free(exp);
    return rc;
  }
  *out = exp;
  return 0;
}
