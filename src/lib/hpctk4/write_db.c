/* SPDX-License-Identifier: BSD-3-Clause */
/* hpcdb_hpctk4_write: a v4.0 database directory, which appears whole or not
 * at all: its files are written into a temporary directory beside it that is
 * renamed to its name at the end (atomic_dir.h). */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/copy_tree.h"
#include "common/error.h"
#include "common/worker.h"
#include "hpcdb/common.h"
#include "hpcdb/formats.h"
#include "hpcdb/hpctk4.h"
#include "hpcdb/model.h"
#include "hpctk4/hpctk4_write.h"

/* dir's parent, and the directories above it that do not exist yet. */
static int mkdir_parent(const char *dir) {
  char path[PATH_MAX];
  size_t n = strlen(dir);
  if (n == 0 || n >= sizeof path) return hpcdb_fail(HPCDB_EINVAL, "bad output directory name '%s'", dir);
  memcpy(path, dir, n + 1);
  while (n > 1 && path[n - 1] == '/') path[--n] = '\0';
  char *last = strrchr(path, '/');
  if (!last || last == path) return 0;
  n = (size_t)(last - path);
  path[n] = '\0';
  for (size_t i = 1; i <= n; i++) {
    if (path[i] != '/' && path[i] != '\0') continue;
    char saved = path[i];
    path[i] = '\0';
    struct stat st;
    if (stat(path, &st) != 0 && mkdir(path, 0777) != 0 && errno != EEXIST)
      return hpcdb_fail(HPCDB_EIO, "%s: cannot create directory: %s", path, strerror(errno));
    path[i] = saved;
  }
  struct stat st;
  if (stat(path, &st) != 0 || !S_ISDIR(st.st_mode)) return hpcdb_fail(HPCDB_EIO, "%s: not a directory", path);
  return 0;
}

static int exists(const char *path) {
  struct stat st;
  return stat(path, &st) == 0;
}

static int is_dir(const char *path) {
  struct stat st;
  return path && stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

typedef int (*file_writer)(const hpcdb_experiment *exp, const char *path);

static int profile_default(void *ctx, const hpcdb_experiment *exp, const char *path) {
  return hpctk4_write_profile(exp, path);
}
static int cct_default(void *ctx, const hpcdb_experiment *exp, const char *path) {
  return hpctk4_write_cct(exp, path, 0);
}
static const hpctk4_value_writers default_writers = {profile_default, cct_default, NULL, 1};

static int dir_path(const char *dir, const char *name, char *path) {
  if (snprintf(path, PATH_MAX, "%s/%s", dir, name) >= PATH_MAX)
    return hpcdb_fail(HPCDB_EINVAL, "%s/%s: path too long", dir, name);
  return 0;
}

static int write_one(const hpcdb_experiment *exp, const char *dir, const char *name, file_writer fn) {
  char path[PATH_MAX];
  HPCDB_TRY(dir_path(dir, name, path));
  return fn(exp, path);
}

static int write_values(const hpcdb_experiment *exp, const char *dir, const char *name,
                        int (*fn)(void *, const hpcdb_experiment *, const char *), void *ctx) {
  char path[PATH_MAX];
  HPCDB_TRY(dir_path(dir, name, path));
  return fn(ctx, exp, path);
}

/* The database directory exp was read from: origin itself, or the directory
 * of a single file read from it (e.g. .../meta.db); "" when there is none. */
static void origin_dir(const hpcdb_experiment *exp, char *out, size_t size) {
  out[0] = '\0';
  if (!exp->origin || snprintf(out, size, "%s", exp->origin) >= (int)size) return;
  if (is_dir(out)) return;
  char *slash = strrchr(out, '/');
  if (slash) *slash = '\0';
  else snprintf(out, size, ".");
}

/* The origin's own taxonomy and sources when it is a database that has one;
 * a generated default.yaml otherwise. */
static int metrics_and_sources(const hpcdb_experiment *exp, const char *dir) {
  char origin[PATH_MAX], from[PATH_MAX + 32], to[PATH_MAX];
  origin_dir(exp, origin, sizeof origin);
  snprintf(from, sizeof from, "%s/metrics/default.yaml", origin);
  if (origin[0] && exists(from)) {
    static const char *const trees[] = {"metrics", "src"};
    for (int i = 0; i < 2; i++) {
      snprintf(from, sizeof from, "%s/%s", origin, trees[i]);
      snprintf(to, sizeof to, "%s/%s", dir, trees[i]);
      copy_log log = {0}; /* nothing to undo: on failure the whole temporary goes */
      int rc = exists(from) ? copy_tree(from, to, &log) : 0;
      copy_log_free(&log);
      HPCDB_TRY(rc);
    }
    return 0;
  }
  snprintf(to, sizeof to, "%s/metrics", dir);
  if (!exists(to) && mkdir(to, 0777) != 0)
    return hpcdb_fail(HPCDB_EIO, "%s: cannot create directory: %s", to, strerror(errno));
  return write_one(exp, to, "default.yaml", hpctk4_write_metrics_yaml);
}

/* meta.db, trace.db and metrics/: the files made from the experiment's tables. */
static int write_tables(const hpcdb_experiment *exp, const char *dir, unsigned flags) {
  int traces = exp->has_traces && !(flags & HPCDB_WRITE_NO_TRACE);
  HPCDB_TRY(write_one(exp, dir, "meta.db", hpctk4_write_meta));
  if (traces) HPCDB_TRY(write_one(exp, dir, "trace.db", hpctk4_write_trace));
  return metrics_and_sources(exp, dir);
}

static int write_value_files(const hpcdb_experiment *exp, const char *dir, const hpctk4_value_writers *w) {
  /* cct.db first: a stream appends the summary to profile.db while making it */
  HPCDB_TRY(write_values(exp, dir, "cct.db", w->cct, w->ctx));
  return write_values(exp, dir, "profile.db", w->profile, w->ctx);
}

/* With threads to spare, the table files are written while the value files are. */
typedef struct tables_job {
  const hpcdb_experiment *exp;
  const char *dir;
  unsigned flags;
  int rc;
  char error[1024];
} tables_job;

static void *tables_main(void *arg) {
  tables_job *j = arg;
  if ((j->rc = write_tables(j->exp, j->dir, j->flags)) < 0)
    snprintf(j->error, sizeof j->error, "%s", hpcdb_last_error());
  return NULL;
}

static int write_all(const hpcdb_experiment *exp, const char *dir, unsigned flags, const hpctk4_value_writers *w) {
  tables_job tj = {exp, dir, flags, 0, ""};
  worker_thread tables;
  int parallel = worker_start(&tables, w->threads > 1, tables_main, &tj);
  int rc = write_value_files(exp, dir, w);
  if (parallel) {
    worker_join(&tables);
    if (tj.rc < 0 && rc == 0) rc = hpcdb_fail(tj.rc, "%s", tj.error);
  } else if (rc == 0) {
    rc = write_tables(exp, dir, flags);
  }
  return rc;
}

int hpctk4_open_dir(hpcdb_atomic_dir *d, const char *dir, unsigned flags) {
  HPCDB_TRY(mkdir_parent(dir));
  char meta[PATH_MAX];
  HPCDB_TRY(dir_path(dir, "meta.db", meta));
  struct stat st;
  int replace = 0;
  if (stat(dir, &st) == 0) {
    if (!S_ISDIR(st.st_mode)) return hpcdb_fail(HPCDB_EEXIST, "%s: exists and is not a directory", dir);
    if (exists(meta) && !(flags & HPCDB_WRITE_FORCE))
      return hpcdb_fail(HPCDB_EEXIST, "%s: a database is already there (force to replace it)", dir);
    replace = exists(meta);
    if (!replace && atomic_dir_holds_anything(dir) != 0)
      return hpcdb_fail(HPCDB_EEXIST, "%s: a directory that is not a database is there: not replaced", dir);
  }
  return atomic_dir_open(d, dir, replace);
}

int hpctk4_write_into(const hpcdb_experiment *exp, const char *temp, unsigned flags, const hpctk4_value_writers *w) {
  return write_all(exp, temp, flags, w ? w : &default_writers);
}

int hpcdb_hpctk4_write(const hpcdb_experiment *exp, const char *dir, unsigned flags) {
  if (!exp || !dir) return hpcdb_fail(HPCDB_EINVAL, "hpcdb_hpctk4_write: no experiment or directory");
  HPCDB_TRY(hpctk4_check_writable(exp));
  hpcdb_atomic_dir d;
  HPCDB_TRY(hpctk4_open_dir(&d, dir, flags));
  int rc = hpctk4_write_into(exp, d.temp, flags, NULL);
  if (rc == 0) return atomic_dir_commit(&d);
  atomic_dir_abort(&d);
  return rc;
}
