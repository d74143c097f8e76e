/* SPDX-License-Identifier: BSD-3-Clause */
#define _GNU_SOURCE /* renameat2 */
#include "common/atomic_dir.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/error.h"
#include "common/failpoint.h"

/* target without trailing slashes: its directory (".": none given) and base name. */
static int split(const char *target, char **dir, char **base) {
  size_t n = strlen(target);
  while (n > 1 && target[n - 1] == '/') n--;
  const char *slash = memrchr(target, '/', n);
  size_t d = slash ? (size_t)(slash - target) : 0;
  *dir = slash ? strndup(target, d ? d : 1) : strdup(".");
  *base = slash ? strndup(slash + 1, n - d - 1) : strndup(target, n);
  if (*dir && *base) return 0;
  free(*dir);
  free(*base);
  return hpcdb_fail(HPCDB_ENOMEM, "%s: out of memory", target);
}

char *atomic_temp_template(const char *target) {
  char *dir, *base;
  if (split(target, &dir, &base) < 0) return NULL;
  size_t n = strlen(dir) + strlen(base) + sizeof ATOMIC_TEMP_MARK + 40;
  char *t = malloc(n);
  if (t) snprintf(t, n, "%s/.%s" ATOMIC_TEMP_MARK "%ld.XXXXXX", dir, base, (long)getpid());
  free(dir);
  free(base);
  return t;
}

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw) {
  (void)st;
  (void)flag;
  (void)ftw;
  remove(path);
  return 0;
}

void atomic_remove_tree(const char *path) { nftw(path, remove_entry, 16, FTW_DEPTH | FTW_PHYS); }

/* The PID in NAME = PREFIX PID [. or -] ..., or 0 when NAME is not one of ours. */
static long leftover_pid(const char *name, const char *prefix, size_t n) {
  if (strncmp(name, prefix, n) != 0) return 0;
  char *end;
  long pid = strtol(name + n, &end, 10);
  return pid > 0 && end != name + n && (*end == '.' || *end == '-' || *end == '\0') ? pid : 0;
}

void atomic_clean_leftovers(const char *target) {
  char *dir, *base;
  if (split(target, &dir, &base) < 0) return;
  size_t n = strlen(base) + sizeof ATOMIC_TEMP_MARK + 1;
  char *prefix = malloc(n);
  DIR *dp = prefix ? opendir(dir) : NULL;
  if (dp) {
    snprintf(prefix, n, ".%s" ATOMIC_TEMP_MARK, base);
    struct dirent *e;
    while ((e = readdir(dp)) != NULL) {
      long pid = leftover_pid(e->d_name, prefix, n - 1);
      if (pid <= 0 || pid == (long)getpid() || kill((pid_t)pid, 0) == 0 || errno != ESRCH) continue;
      size_t m = strlen(dir) + strlen(e->d_name) + 2;
      char *path = malloc(m);
      if (path) {
        snprintf(path, m, "%s/%s", dir, e->d_name);
        atomic_remove_tree(path);
      }
      free(path);
    }
    closedir(dp);
  }
  free(prefix);
  free(dir);
  free(base);
}

int atomic_dir_holds_anything(const char *dir) {
  DIR *dp = opendir(dir);
  if (!dp) return -1;
  struct dirent *e;
  int any = 0;
  while (!any && (e = readdir(dp)) != NULL) any = strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
  closedir(dp);
  return any;
}

static int exists_error(const char *to) {
  return hpcdb_fail(HPCDB_EEXIST, "%s: written meanwhile by another command: not replaced", to);
}

int atomic_rename(const char *from, const char *to, int replace) {
  failpoint();
  if (replace) {
    if (rename(from, to) == 0) return 0;
    return hpcdb_fail(HPCDB_EIO, "%s: cannot rename into place: %s", to, strerror(errno));
  }
#ifdef RENAME_NOREPLACE
  if (renameat2(AT_FDCWD, from, AT_FDCWD, to, RENAME_NOREPLACE) == 0) return 0;
  if (errno == EEXIST) return exists_error(to);
  if (errno != EINVAL && errno != ENOSYS)
    return hpcdb_fail(HPCDB_EIO, "%s: cannot rename into place: %s", to, strerror(errno));
#endif
  if (link(from, to) == 0) { /* a second name made only if none is there, then the first removed */
    unlink(from);
    return 0;
  }
  if (errno == EEXIST) return exists_error(to);
  struct stat st; /* no hard links here either: checked, then renamed */
  if (lstat(to, &st) == 0) return exists_error(to);
  if (rename(from, to) == 0) return 0;
  return hpcdb_fail(HPCDB_EIO, "%s: cannot rename into place: %s", to, strerror(errno));
}

static int sync_path(const char *path) {
  int fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return 0; /* nothing of ours to make durable */
  int rc = fsync(fd) != 0 && errno != EINVAL && errno != EROFS ? -errno : 0;
  close(fd);
  return rc;
}

int atomic_sync_parent(const char *path) {
  char dir[4096]; /* no allocation: this runs after the rename, when failing would misreport it */
  size_t n = strlen(path);
  while (n > 1 && path[n - 1] == '/') n--;
  const char *slash = memrchr(path, '/', n);
  size_t d = slash ? (size_t)(slash - path) : 0;
  if (!slash || d >= sizeof dir) snprintf(dir, sizeof dir, "%s", slash ? "/" : ".");
  else snprintf(dir, sizeof dir, "%.*s", (int)(d ? d : 1), path);
  int rc = sync_path(dir);
  return rc < 0 ? hpcdb_fail(HPCDB_EIO, "%s: fsync of the directory failed: %s", dir, strerror(-rc)) : 0;
}

static _Thread_local int sync_errno; /* nftw passes back only that the walk stopped */

static int sync_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw) {
  (void)st;
  (void)ftw;
  int rc = flag == FTW_DP ? sync_path(path) : 0;
  if (rc < 0) sync_errno = -rc;
  return rc < 0;
}

int atomic_dir_open(hpcdb_atomic_dir *d, const char *target, int replace) {
  memset(d, 0, sizeof *d);
  atomic_clean_leftovers(target);
  d->target = strdup(target);
  d->temp = atomic_temp_template(target);
  if (!d->target || !d->temp) {
    atomic_dir_abort(d);
    return hpcdb_fail(HPCDB_ENOMEM, "%s: out of memory", target);
  }
  if (!mkdtemp(d->temp)) {
    int e = errno;
    free(d->temp);
    d->temp = NULL;
    atomic_dir_abort(d);
    return hpcdb_fail(HPCDB_EIO, "%s: cannot create a temporary directory beside it: %s", target, strerror(e));
  }
  mode_t mask = umask(0); /* mkdtemp makes 0700: give the mode mkdir would */
  umask(mask);
  chmod(d->temp, 0777 & ~mask);
  d->replace = replace;
  return 0;
}

/* target is a directory and d->replace: the new one swapped in, the old one removed. */
static int swap_in(hpcdb_atomic_dir *d) {
#ifdef RENAME_EXCHANGE
  if (renameat2(AT_FDCWD, d->temp, AT_FDCWD, d->target, RENAME_EXCHANGE) == 0) {
    failpoint();
    atomic_remove_tree(d->temp); /* the old database now */
    return 0;
  }
  if (errno != EINVAL && errno != ENOSYS)
    return hpcdb_fail(HPCDB_EIO, "%s: cannot replace it: %s", d->target, strerror(errno));
#endif
  /* no exchange here: the old one renamed aside first (a moment with neither) */
  size_t n = strlen(d->temp) + 5;
  char *old = malloc(n);
  if (!old) return hpcdb_fail(HPCDB_ENOMEM, "%s: out of memory", d->target);
  snprintf(old, n, "%s-old", d->temp);
  int rc = 0;
  if (rename(d->target, old) != 0)
    rc = hpcdb_fail(HPCDB_EIO, "%s: cannot move the old one aside: %s", d->target, strerror(errno));
  failpoint();
  if (rc == 0 && rename(d->temp, d->target) != 0) {
    rc = hpcdb_fail(HPCDB_EIO, "%s: cannot rename into place: %s", d->target, strerror(errno));
    rename(old, d->target);
  }
  if (rc == 0) atomic_remove_tree(old);
  free(old);
  return rc;
}

int atomic_dir_commit(hpcdb_atomic_dir *d) {
  failpoint();
  sync_errno = 0;
  int rc = nftw(d->temp, sync_entry, 16, FTW_DEPTH | FTW_PHYS);
  if (rc != 0) rc = hpcdb_fail(HPCDB_EIO, "%s: fsync failed: %s", d->temp, strerror(rc > 0 ? sync_errno : errno));
  failpoint();
  if (rc == 0 && rename(d->temp, d->target) != 0) { /* succeeds over nothing or an empty directory */
    if ((errno == ENOTEMPTY || errno == EEXIST) && d->replace) rc = swap_in(d);
    else if (errno == ENOTEMPTY || errno == EEXIST) rc = exists_error(d->target);
    else rc = hpcdb_fail(HPCDB_EIO, "%s: cannot rename into place: %s", d->target, strerror(errno));
  }
  if (rc == 0) {
    free(d->temp);
    d->temp = NULL; /* nothing left to remove */
    rc = atomic_sync_parent(d->target);
  }
  atomic_dir_abort(d);
  return rc;
}

void atomic_dir_abort(hpcdb_atomic_dir *d) {
  if (d->temp) atomic_remove_tree(d->temp);
  free(d->temp);
  free(d->target);
  memset(d, 0, sizeof *d);
}
