/* hpcdb_hpctk4_write: a v4.0 database directory. Each file appears whole or
 * not at all (atomic_file); when a later step fails, the files this call
 * already put in place are removed again, so a failed write leaves no mix of
 * new and old files behind. */
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/copy_tree.h"
#include "common/error.h"
#include "hpcdb/hpcdb.h"
#include "hpctk4/hpctk4_write.h"

static int mkdir_p(const char *dir) {
  char path[PATH_MAX];
  size_t n = strlen(dir);
  if (n == 0 || n >= sizeof path) return hpcdb_fail(HPCDB_EINVAL, "bad output directory name '%s'", dir);
  memcpy(path, dir, n + 1);
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
  if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) return hpcdb_fail(HPCDB_EIO, "%s: not a directory", dir);
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

static int same_dir(const char *a, const char *b) {
  struct stat x, y;
  return stat(a, &x) == 0 && stat(b, &y) == 0 && x.st_dev == y.st_dev && x.st_ino == y.st_ino;
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

static int write_one(const hpcdb_experiment *exp, const char *dir, const char *name, file_writer fn, copy_log *log) {
  char path[PATH_MAX];
  HPCDB_TRY(dir_path(dir, name, path));
  HPCDB_TRY(fn(exp, path));
  return copy_log_add(log, path);
}

static int write_values(const hpcdb_experiment *exp, const char *dir, const char *name,
                        int (*fn)(void *, const hpcdb_experiment *, const char *), void *ctx, copy_log *log) {
  char path[PATH_MAX];
  HPCDB_TRY(dir_path(dir, name, path));
  HPCDB_TRY(fn(ctx, exp, path));
  return copy_log_add(log, path);
}

/* The database directory exp was read from: origin itself, or the directory
 * of a single file read from it (e.g. .../meta.db); "" when there is none. */
static void origin_dir(const hpcdb_experiment *exp, char *out, size_t size) {
  out[0] = '\0';
  if (!exp->origin || snprintf(out, size, "%s", exp->origin) >= (int)size) return;
  if (is_dir(out)) return;
  char *slash = strrchr(out, '/');
  if (slash)
    *slash = '\0';
  else
    snprintf(out, size, ".");
}

/* The origin's own taxonomy and sources when it is a database that has one;
 * a generated default.yaml otherwise. */
static int metrics_and_sources(const hpcdb_experiment *exp, const char *dir, copy_log *log) {
  char origin[PATH_MAX], from[PATH_MAX + 32], to[PATH_MAX];
  origin_dir(exp, origin, sizeof origin);
  snprintf(from, sizeof from, "%s/metrics/default.yaml", origin);
  if (origin[0] && exists(from)) {
    if (same_dir(origin, dir)) return 0;
    static const char *const trees[] = {"metrics", "src"};
    for (int i = 0; i < 2; i++) {
      snprintf(from, sizeof from, "%s/%s", origin, trees[i]);
      snprintf(to, sizeof to, "%s/%s", dir, trees[i]);
      if (exists(from)) HPCDB_TRY(copy_tree(from, to, log));
    }
    return 0;
  }
  snprintf(to, sizeof to, "%s/metrics", dir);
  if (!exists(to)) {
    if (mkdir(to, 0777) != 0) return hpcdb_fail(HPCDB_EIO, "%s: cannot create directory: %s", to, strerror(errno));
    HPCDB_TRY(copy_log_add(log, to));
  }
  return write_one(exp, to, "default.yaml", hpctk4_write_metrics_yaml, log);
}

/* meta.db, trace.db and metrics/: the files made from the experiment's tables. */
static int write_tables(const hpcdb_experiment *exp, const char *dir, unsigned flags, copy_log *log) {
  int traces = exp->has_traces && !(flags & HPCDB_WRITE_NO_TRACE);
  HPCDB_TRY(write_one(exp, dir, "meta.db", hpctk4_write_meta, log));
  if (traces) HPCDB_TRY(write_one(exp, dir, "trace.db", hpctk4_write_trace, log));
  return metrics_and_sources(exp, dir, log);
}

static int write_value_files(const hpcdb_experiment *exp, const char *dir, const hpctk4_value_writers *w,
                             copy_log *log) {
  /* cct.db first: a stream appends the summary to profile.db while making it */
  HPCDB_TRY(write_values(exp, dir, "cct.db", w->cct, w->ctx, log));
  return write_values(exp, dir, "profile.db", w->profile, w->ctx, log);
}

/* With threads to spare, the table files are written while the value files are. */
typedef struct tables_job {
  const hpcdb_experiment *exp;
  const char *dir;
  unsigned flags;
  copy_log log;
  int rc;
  char error[1024];
} tables_job;

static void *tables_main(void *arg) {
  tables_job *j = arg;
  if ((j->rc = write_tables(j->exp, j->dir, j->flags, &j->log)) < 0)
    snprintf(j->error, sizeof j->error, "%s", hpcdb_last_error());
  return NULL;
}

static int write_all(const hpcdb_experiment *exp, const char *dir, unsigned flags, const hpctk4_value_writers *w,
                     copy_log *log) {
  int traces = exp->has_traces && !(flags & HPCDB_WRITE_NO_TRACE);
  tables_job tj = {exp, dir, flags, {0}, 0, ""};
  pthread_t tid;
  int parallel = w->threads > 1 && pthread_create(&tid, NULL, tables_main, &tj) == 0;
  int rc = write_value_files(exp, dir, w, log);
  if (parallel) {
    pthread_join(tid, NULL);
    for (uint64_t i = 0; i < tj.log.n; i++) /* undo removes both threads' files */
      if (copy_log_add(log, tj.log.paths[i]) < 0 && rc == 0) rc = hpcdb_fail(HPCDB_ENOMEM, "out of memory");
    copy_log_free(&tj.log);
    if (tj.rc < 0 && rc == 0) rc = hpcdb_fail(tj.rc, "%s", tj.error);
  } else if (rc == 0) {
    rc = write_tables(exp, dir, flags, log);
  }
  HPCDB_TRY(rc);
  if (!traces) { /* a replaced database must not keep its old traces */
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/trace.db", dir);
    if (exists(path) && remove(path) != 0)
      return hpcdb_fail(HPCDB_EIO, "%s: cannot remove the old trace.db: %s", path, strerror(errno));
  }
  return 0;
}

int hpctk4_prepare_dir(const char *dir, unsigned flags) {
  HPCDB_TRY(mkdir_p(dir));
  char meta[PATH_MAX];
  HPCDB_TRY(dir_path(dir, "meta.db", meta));
  if (!(flags & HPCDB_WRITE_FORCE) && exists(meta))
    return hpcdb_fail(HPCDB_EEXIST, "%s: a database is already there (force to replace it)", dir);
  return 0;
}

int hpctk4_write_with(const hpcdb_experiment *exp, const char *dir, unsigned flags, const hpctk4_value_writers *w) {
  if (!exp || !dir) return hpcdb_fail(HPCDB_EINVAL, "hpcdb_hpctk4_write: no experiment or directory");
  HPCDB_TRY(hpctk4_check_writable(exp));
  int made_dir = !exists(dir); /* a failed write removes it again */
  HPCDB_TRY(hpctk4_prepare_dir(dir, flags));
  copy_log log = {0};
  int rc = write_all(exp, dir, flags, w ? w : &default_writers, &log);
  if (rc < 0) copy_log_undo(&log);
  if (rc < 0 && made_dir) rmdir(dir);
  copy_log_free(&log);
  return rc;
}

int hpcdb_hpctk4_write(const hpcdb_experiment *exp, const char *dir, unsigned flags) {
  return hpctk4_write_with(exp, dir, flags, NULL);
}
