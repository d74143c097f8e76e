/* SPDX-License-Identifier: BSD-3-Clause */
#include "common/copy_tree.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/atomic_file.h"
#include "common/error.h"
#include "common/vec.h"

int copy_log_add(copy_log *log, const char *path) {
  HPCDB_TRY(VEC_RESERVE(&log->paths, &log->cap, log->n + 1));
  size_t n = strlen(path) + 1;
  char *copy = malloc(n);
  if (!copy) return hpcdb_fail(HPCDB_ENOMEM, "out of memory");
  memcpy(copy, path, n);
  log->paths[log->n++] = copy;
  return 0;
}

void copy_log_undo(copy_log *log) {
  for (uint64_t i = log->n; i-- > 0;) remove(log->paths[i]);
}

void copy_log_free(copy_log *log) {
  for (uint64_t i = 0; i < log->n; i++) free(log->paths[i]);
  free(log->paths);
  memset(log, 0, sizeof *log);
}

static char *join(const char *dir, const char *name) {
  size_t a = strlen(dir), b = strlen(name);
  char *p = malloc(a + b + 2);
  if (p) {
    memcpy(p, dir, a);
    p[a] = '/';
    memcpy(p + a + 1, name, b + 1);
  }
  return p;
}

static int copy_file(const char *src, const char *dst, copy_log *log) {
  FILE *in = fopen(src, "rb");
  if (!in) return hpcdb_fail(HPCDB_EIO, "%s: cannot open: %s", src, strerror(errno));
  struct stat st;
  int existed = lstat(dst, &st) == 0;
  hpcdb_atomic_file f;
  int rc = atomic_file_open(&f, dst);
  if (rc < 0) {
    fclose(in);
    return rc;
  }
  char buf[65536];
  size_t n;
  while (rc == 0 && (n = fread(buf, 1, sizeof buf, in)) > 0) rc = atomic_file_write(&f, buf, n);
  if (rc == 0 && ferror(in)) rc = hpcdb_fail(HPCDB_EIO, "%s: read failed", src);
  fclose(in);
  HPCDB_TRY(atomic_file_finish(&f, rc));
  return existed ? 0 : copy_log_add(log, dst);
}

static int copy_link(const char *src, const char *dst, copy_log *log) {
  char target[4096];
  ssize_t n = readlink(src, target, sizeof target - 1);
  if (n < 0) return hpcdb_fail(HPCDB_EIO, "%s: cannot read link: %s", src, strerror(errno));
  target[n] = '\0';
  remove(dst);
  if (symlink(target, dst) != 0) return hpcdb_fail(HPCDB_EIO, "%s: cannot create link: %s", dst, strerror(errno));
  return copy_log_add(log, dst);
}

static int copy_dir(const char *src, const char *dst, copy_log *log) {
  struct stat st;
  if (stat(dst, &st) != 0) {
    if (mkdir(dst, 0777) != 0) return hpcdb_fail(HPCDB_EIO, "%s: cannot create directory: %s", dst, strerror(errno));
    HPCDB_TRY(copy_log_add(log, dst));
  } else if (!S_ISDIR(st.st_mode)) {
    return hpcdb_fail(HPCDB_EIO, "%s: exists and is not a directory", dst);
  }
  DIR *d = opendir(src);
  if (!d) return hpcdb_fail(HPCDB_EIO, "%s: cannot open directory: %s", src, strerror(errno));
  int rc = 0;
  struct dirent *e;
  while (rc == 0 && (e = readdir(d)) != NULL) {
    if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) continue;
    char *s = join(src, e->d_name), *t = join(dst, e->d_name);
    rc = (s && t) ? copy_tree(s, t, log) : hpcdb_fail(HPCDB_ENOMEM, "out of memory");
    free(s);
    free(t);
  }
  closedir(d);
  return rc;
}

int copy_tree(const char *src, const char *dst, copy_log *log) {
  struct stat st;
  if (lstat(src, &st) != 0) return hpcdb_fail(HPCDB_EIO, "%s: %s", src, strerror(errno));
  if (S_ISDIR(st.st_mode)) return copy_dir(src, dst, log);
  if (S_ISREG(st.st_mode)) return copy_file(src, dst, log);
  if (S_ISLNK(st.st_mode)) return copy_link(src, dst, log);
  return 0;
}
