/* SPDX-License-Identifier: BSD-3-Clause */
/* A draft-b database: meta.db (the tree and tables), then the values of
 * profile.db and the traces of trace.db through the HPCPROF-* readers. The
 * metric ids of the files are the model's: meta.db lists them (raw_mid,
 * summary_mid), so no map is needed. */
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "common/error.h"
#include "common/mapped_file.h"
#include "older/draftb/draftb.h"
#include "older/hpcprof1/hpcprof1.h"

/* dir and meta.db path of a database directory or of a meta.db file. */
static int locate(const char *path, char *dir, size_t dir_size, char *meta, size_t meta_size) {
  struct stat st;
  if (stat(path, &st) != 0) return hpcdb_fail(HPCDB_EIO, "%s: no such file or directory", path);
  if (S_ISDIR(st.st_mode)) {
    snprintf(dir, dir_size, "%s", path);
  } else {
    const char *slash = strrchr(path, '/');
    snprintf(dir, dir_size, "%.*s", slash ? (int)(slash - path) : 1, slash ? path : ".");
  }
  if ((size_t)snprintf(meta, meta_size, S_ISDIR(st.st_mode) ? "%s/meta.db" : "%s", path) >= meta_size)
    return hpcdb_fail(HPCDB_EINVAL, "%s: path too long", path);
  return 0;
}

static int exists(const char *dir, const char *name, char *path, size_t size) {
  struct stat st;
  return (size_t)snprintf(path, size, "%s/%s", dir, name) < size && stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

static int read_all(hpcdb_experiment *exp, const char *dir, const char *meta) {
  hpcdb_mapped_file mf;
  draftb_meta m;
  char path[4200];
  HPCDB_TRY(mapped_file_open(&mf, meta));
  int rc = draftb_parse_meta(&m, exp, mf.data, mf.len, meta);
  if (rc == 0) rc = hpcdb_set_format(exp, draftb_format.name, m.major, m.minor);
  rc = mapped_file_finish(&mf, meta, rc);
  HPCDB_TRY(rc);
  uint32_t first = 0;
  int have_profiles = exists(dir, "profile.db", path, sizeof path);
  if (have_profiles) HPCDB_TRY(hpcprof1_read_profiles(exp, path, NULL, &first));
  if (exists(dir, "trace.db", path, sizeof path)) {
    if (!have_profiles) return hpcdb_fail(HPCDB_ECORRUPT, "%s: trace.db without profile.db names no profiles", dir);
    HPCDB_TRY(hpcprof1_read_traces(exp, path, first));
  }
  return 0;
}

int draftb_read(hpcdb_experiment **out, const char *path) {
  char dir[4096], meta[4200];
  *out = NULL;
  HPCDB_TRY(locate(path, dir, sizeof dir, meta, sizeof meta));
  hpcdb_experiment *exp;
  HPCDB_TRY(hpcdb_experiment_new(&exp));
  int rc = hpcdb_set_origin(exp, path);
  if (rc == 0) rc = read_all(exp, dir, meta);
  if (rc < 0) {
    hpcdb_experiment_free(exp);
    return rc;
  }
  *out = exp;
  return 0;
}

int draftb_locate(const char *path, char *dir, size_t dir_size, char *meta, size_t meta_size) {
  return locate(path, dir, dir_size, meta, meta_size);
}
